"""Cummax."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import running_extreme


@register("Cummax", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar},
          kernels={"numba": reduce.running(reduce.CUMMAX, "int64")})
def cummax(input, axis):
    """Running maximum along one axis and its position: (values, int64 indices).

    Arguments: input; axis. On ties the index moves to the latest equal
    value ([1, 3, 3] -> indices [0, 1, 2]), as MindSpore 2.7.1 CPU.
    """
    return running_extreme(input, axis, largest=True, index_dtype="int64")
