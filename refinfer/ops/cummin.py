"""Cummin."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import running_extreme


@register("Cummin", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar},
          kernels={"numba": reduce.running(reduce.CUMMIN, "int32")})
def cummin(input, axis):
    """Running minimum along one axis and its position: (values, int32 indices).

    Arguments: input; axis. On ties the index moves to the latest equal
    value, as Cummax. ops.cummin exports it on axis 0 between Transposes.
    """
    return running_extreme(input, axis, largest=False, index_dtype="int32")
