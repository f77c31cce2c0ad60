"""LinSpaceExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import NUMBERS
from ._ref.sequence import evenly_spaced


@register("LinSpaceExt", family="shape", dtypes=NUMBERS,
          convert={"steps": args.scalar, "dtype": args.optional_dtype},
          kernels={"numba": shape.lin_space_ext})
def lin_space_ext(start, end, steps, dtype=None):
    """``steps`` evenly spaced values from start to end, both included.

    What mint.linspace exports: y[i] = start + i * (end - start) /
    (steps - 1). Arguments: start, end (scalars); steps (int >= 0);
    dtype=None (TypeId; None means float32). Integer dtypes truncate the
    float values. MindSpore 2.7.1 has no CPU kernel for it.
    """
    return evenly_spaced(start, end, steps, dtype)
