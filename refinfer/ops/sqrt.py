"""Sqrt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_float, as_result


@register("Sqrt", family="elementwise", dtypes=ALL)
def sqrt(x):
    """Elementwise square root.

    Argument: x. Floats keep their dtype, negative inputs give NaN; integer
    and bool inputs give float32 (MindSpore: int32 [1, 3] -> float32).
    """
    with np.errstate(invalid="ignore"):
        return as_result(np.sqrt(as_float(x)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Sqrt", "numba")
def sqrt_numba(x):
    """Sqrt of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_SQRT, sqrt, x)
