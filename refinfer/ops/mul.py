"""Mul and Muls."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_MUL
from ._ref.common import ALL, as_result, promote


@register("Mul", "Muls", family="elementwise", dtypes=ALL, recipe=binary(OP_MUL))
def mul(input, other):
    """Elementwise product with broadcasting: y = input * other.

    Arguments: input, other (tensors or Python scalars). Muls (what
    ``x * python_number`` exports) is the same op with a scalar ``other``:
    an int scalar keeps the tensor's dtype, a float scalar with an integer
    or bool tensor gives float32 (``ops._ref.common.promote``). Integers wrap;
    bool * bool is logical and.
    """
    a, b = promote(input, other)
    return as_result(np.multiply(a, b))
