"""CumsumExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import ALL, cast
from ._search import cumulative


@register("CumsumExt", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "dtype": args.optional_dtype})
def cumsum_ext(input, dim, dtype=None):
    """Cumulative sum along one dim (mint.cumsum).

    Arguments: input; dim; dtype=None (TypeId): when given, input is cast
    to it first; without it, bool and integer inputs sum in int64 (as
    SumExt). MindSpore 2.7.1 has no CPU kernel for it.
    """
    if dtype is not None:
        input = cast(input, dtype)
    elif input.dtype.kind in "biu":
        input = input.astype(np.int64)
    return cumulative(np.cumsum, input, dim, False, False, identity=0)
