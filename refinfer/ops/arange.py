"""Arange."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.sequence import affine, is_float, progression


@register("Arange", family="shape", dtypes=NUMBERS,
          convert={"dtype": args.optional_dtype})
def arange(start, end, step, dtype=None):
    """Arithmetic progression [start, start + step, ...) stopping before end.

    What mint.arange exports. Arguments: start, end, step (Python scalars);
    dtype=None (TypeId): None gives int64 for integer arguments, float32
    when any is a float. Length ceil((end - start) / step); step 0 or
    pointing away from end raises.
    """
    return _arange(start, end, step, dtype, affine)


def _arange(start, end, step, dtype, fill):
    if dtype is None:
        dtype = np.float32 if is_float(start, end, step) else np.int64
    return progression(start, end, step, dtype, "Arange", fill=fill)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Arange", "numba")
def arange_numba(start, end, step, dtype=None):
    """The progression in one pass (_fast_shape.affine)."""
    return _arange(start, end, step, dtype, _fast_shape.affine)
