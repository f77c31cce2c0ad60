"""IndexSelect."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL
from ._ref.indexing import select_axis


@register("IndexSelect", family="shape", dtypes=ALL,
          convert={"dim": args.scalar}, kernels={"numba": index.index_select})
def index_select(input, dim, index):
    """Take entries of input along dim at a 1-D list of indices.

    y = input.take(index, axis=dim): the output has input's shape with
    axis dim replaced by len(index).

    Arguments: input; dim (negative allowed); index (1-D int tensor;
    negative values count from the end, out-of-range ones raise). What
    mint.index_select exports (ops.index_select exports Gather). All dtypes.
    """
    axis = select_axis(input, dim, index)
    return np.take(input, index.reshape(-1), axis=axis)

