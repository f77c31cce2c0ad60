"""Argmin."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("Argmin", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "output_type": args.dtype})
def argmin(x, axis=-1, output_type=args.dtype(34)):
    """Index of the smallest value along one axis.

    Arguments: x; axis=-1; output_type=int32 (TypeId). Ties give the first
    index; NaN as in Argmax (chosen only when first).
    """
    return extreme(x, axis, False, largest=False)[1].astype(output_type)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Argmin", "numba")
def argmin_numba(x, axis=-1, output_type=args.dtype(34)):
    """Argmin with the arg-search runner; other dtypes through the
    reference."""
    found = _fast_reduce.arg_search(x, axis, False, largest=False)
    return argmin(x, axis, output_type) if found is None else found[1].astype(output_type)
