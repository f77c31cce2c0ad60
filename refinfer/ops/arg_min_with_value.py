"""ArgMinWithValue."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("ArgMinWithValue", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "keep_dims": args.boolean},
          kernels={"numba": reduce.index_and_value(largest=False)})
def arg_min_with_value(input, axis=0, keep_dims=False):
    """The smallest value along one axis and its index: (indices, values).

    What ops.min(x, axis) and Tensor.min(axis) export. Arguments: input;
    axis=0; keep_dims=False. Indices are int64; ties give the first index,
    NaN as in Argmin (chosen only when first).
    """
    values, index = extreme(input, axis, keep_dims, largest=False)
    return index, values
