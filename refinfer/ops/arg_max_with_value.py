"""ArgMaxWithValue."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("ArgMaxWithValue", family="reduction", dtypes=ALL,
          convert={"axis": args.scalar, "keep_dims": args.boolean})
def arg_max_with_value(input, axis=0, keep_dims=False):
    """The largest value along one axis and its index: (indices, values).

    What ops.max(x, axis) and Tensor.max(axis) export. Arguments: input;
    axis=0; keep_dims=False. Indices are int64; ties give the first index,
    NaN as in Argmax (chosen only when first).
    """
    values, index = extreme(input, axis, keep_dims, largest=True)
    return index, values


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("ArgMaxWithValue", "numba")
def arg_max_with_value_numba(input, axis=0, keep_dims=False):
    """ArgMaxWithValue with the arg-search runner; other dtypes through the
    reference."""
    found = _fast_reduce.arg_search(input, axis, keep_dims, largest=True)
    return arg_max_with_value(input, axis, keep_dims) if found is None else (found[1], found[0])
