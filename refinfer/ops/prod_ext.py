"""ProdExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, cast
from ._ref.reduce import product, reduce_axes


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
    input = as_sum_dtype(input, dtype)
    return product(input, reduce_axes(dim, input.ndim), keepdim)


def as_sum_dtype(input, dtype):
    """input cast to ``dtype`` (TypeId) when given, else with bool and
    integers widened to int64 (the dtype rule of SumExt, ProdExt and
    CumsumExt)."""
    if dtype is not None:
        return cast(input, dtype)
    return input.astype(np.int64) if input.dtype.kind in "biu" else input


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("ProdExt", "numba")
def prod_ext_numba(input, dim=None, keepdim=False, dtype=None):
    """ProdExt with the reduction runner after the same cast; other dtypes
    through the reference."""
    work = as_sum_dtype(input, dtype)
    return _fast_reduce.or_reference(_fast_reduce.reduce(_fast_reduce.PROD, work, dim, keepdim),
                                     prod_ext, input, dim, keepdim, dtype)
