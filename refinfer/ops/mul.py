"""Mul and Muls, and their in-place spellings."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_MUL
from ._ref.common import ALL, as_result, promote
from ._ref.inplace import register_inplace


@register("Mul", "Muls", family="elementwise", dtypes=ALL, recipe=binary(OP_MUL))
def mul(input, other):
    """Elementwise product with broadcasting: y = input * other.

    Arguments: input, other (tensors or Python scalars). Muls (what
    ``x * python_number`` exports) is the same op with a scalar ``other``:
    an int scalar keeps the tensor's dtype, a float scalar with an integer
    or bool tensor gives float32 (``ops._ref.common.promote``). Integers wrap;
    bool * bool is logical and. InplaceMul and InplaceMuls (x.mul_(y),
    x.mul_(2)) write the product into input (``ops._ref.inplace``).
    """
    a, b = promote(input, other)
    return as_result(np.multiply(a, b))


register_inplace("Mul", "InplaceMul", "InplaceMuls")
