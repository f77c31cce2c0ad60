"""ProdExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import ALL, cast
from ._reduce import product, reduce_axes


@register("ProdExt", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype})
def prod_ext(input, dim=None, keepdim=False, dtype=None):
    """Product over one dim or every element (ops.prod, mint.prod).

    Arguments: input; dim=None (None: every element, else one int);
    keepdim=False; dtype=None (TypeId): when given, input is cast to it
    first. Without dtype, bool and integer inputs multiply in int64 (as
    SumExt); floats keep their dtype (float16 accumulates in float32).
    """
    if dtype is not None:
        input = cast(input, dtype)
    elif input.dtype.kind in "biu":
        input = input.astype(np.int64)
    return product(input, reduce_axes(dim, input.ndim), keepdim)
