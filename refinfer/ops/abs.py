"""Abs."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("Abs", family="elementwise", dtypes=ALL)
def abs(input):
    """Elementwise absolute value, same dtype (int8 -128 stays -128)."""
    return as_result(np.abs(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Abs", "numba")
def abs_numba(input):
    """Abs of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_ABS, abs, input)
