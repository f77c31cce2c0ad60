"""Arange."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import NUMBERS
from ._ref.sequence import progression


@register("Arange", family="shape", dtypes=NUMBERS,
          convert={"dtype": args.optional_dtype}, kernels={"numba": shape.arange})
def arange(start, end, step, dtype=None):
    """Arithmetic progression [start, start + step, ...) stopping before end.

    What mint.arange exports. Arguments: start, end, step (Python scalars);
    dtype=None (TypeId): None gives int64 for integer arguments, float32
    when any is a float. Length ceil((end - start) / step); step 0 or
    pointing away from end raises.
    """
    return progression(start, end, step, dtype, "Arange")
