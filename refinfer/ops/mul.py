"""Mul and Muls."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("Mul", "Muls", family="elementwise", dtypes=ALL)
def mul(input, other):
    """Elementwise product with broadcasting: y = input * other.

    Arguments: input, other (tensors or Python scalars). Muls (what
    ``x * python_number`` exports) is the same op with a scalar ``other``:
    an int scalar keeps the tensor's dtype, a float scalar with an integer
    or bool tensor gives float32 (``ops._common.promote``). Integers wrap;
    bool * bool is logical and.
    """
    a, b = promote(input, other)
    return as_result(np.multiply(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Mul", "numba")
@register_kernel("Muls", "numba")
def mul_numba(input, other):
    """Mul of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_MUL, mul, input, other)
