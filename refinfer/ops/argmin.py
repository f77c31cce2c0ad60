"""Argmin."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("Argmin", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "output_type": args.dtype},
          kernels={"numba": reduce.arg_typed(largest=False)})
def argmin(x, axis=-1, output_type=args.dtype(34)):
    """Index of the smallest value along one axis.

    Arguments: x; axis=-1; output_type=int32 (TypeId). Ties give the first
    index; NaN as in Argmax (chosen only when first).
    """
    return extreme(x, axis, False, largest=False)[1].astype(output_type)
