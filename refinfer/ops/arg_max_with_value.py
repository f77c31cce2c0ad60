"""ArgMaxWithValue."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("ArgMaxWithValue", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "keep_dims": args.boolean},
          kernels={"numba": reduce.index_and_value(largest=True)})
def arg_max_with_value(input, axis=0, keep_dims=False):
    """The largest value along one axis and its index: (indices, values).

    What ops.max(x, axis) and Tensor.max(axis) export. Arguments: input;
    axis=0; keep_dims=False. Indices are int64; ties give the first index,
    NaN as in Argmax (chosen only when first).
    """
    values, index = extreme(input, axis, keep_dims, largest=True)
    return index, values
