"""LinSpaceExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.sequence import evenly_spaced


@register("LinSpaceExt", family="shape", dtypes=NUMBERS,
          convert={"steps": args.scalar, "dtype": args.optional_dtype})
def lin_space_ext(start, end, steps, dtype=None):
    """``steps`` evenly spaced values from start to end, both included.

    What mint.linspace exports: y[i] = start + i * (end - start) /
    (steps - 1). Arguments: start, end (scalars); steps (int >= 0);
    dtype=None (TypeId; None means float32). Integer dtypes truncate the
    float values. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return evenly_spaced(start, end, steps, _dtype(dtype))


def _dtype(dtype):
    return np.float32 if dtype is None else dtype


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("LinSpaceExt", "numba")
def lin_space_ext_numba(start, end, steps, dtype=None):
    """The values in one pass (_fast_shape.affine)."""
    return evenly_spaced(start, end, steps, _dtype(dtype), _fast_shape.affine)
