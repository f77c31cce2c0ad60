"""Argmax."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("Argmax", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "output_type": args.dtype},
          kernels={"numba": reduce.arg_typed(largest=True)})
def argmax(input_x, axis=-1, output_type=args.dtype(34)):
    """Index of the largest value along one axis.

    Arguments: input_x; axis=-1; output_type=int32 (TypeId; ops.argmax
    exports int64 = 35). Ties give the first index. NaN follows MindSpore's
    CPU scan: it is the answer only when it comes first ([nan, 1, 3] -> 0,
    [1, nan, 3] -> 2).
    """
    return extreme(input_x, axis, False, largest=True)[1].astype(output_type)
