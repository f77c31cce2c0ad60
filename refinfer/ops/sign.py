"""Sign."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("Sign", family="elementwise", dtypes=NUMBERS)
def sign(input):
    """Elementwise sign: -1 for x < 0, 0 for x == 0, 1 for x > 0.

    Argument: input; output has its dtype. NaN gives 0, as MindSpore's CPU
    kernel computes it (NumPy's sign gives NaN). MindSpore 2.7.1's CPU
    kernel takes floats, int32 and int64.
    """
    with np.errstate(invalid="ignore"):
        y = np.sign(input)
    if input.dtype.kind == "f":
        y = np.where(np.isnan(input), input.dtype.type(0), y)
    return as_result(y, input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Sign", "numba")
def sign_numba(input):
    """Sign of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Sign", sign, input)
