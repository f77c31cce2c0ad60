"""ArgMaxExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, optional
from ._ref.search import flat_or_axis_index


@register("ArgMaxExt", family="reduction", dtypes=ALL,
          convert={"dim": optional(args.scalar), "keepdim": args.boolean})
def arg_max_ext(input, dim=None, keepdim=False):
    """Index of the largest value (mint.argmax), int64.

    Arguments: input; dim=None (None: index into the flattened input);
    keepdim=False. Ties and NaN as Argmax. MindSpore 2.7.1 has no CPU kernel.
    """
    return flat_or_axis_index(input, dim, keepdim, largest=True)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("ArgMaxExt", "numba")
def arg_max_ext_numba(input, dim=None, keepdim=False):
    """ArgMaxExt with the arg-search runner; other dtypes through the
    reference."""
    return _fast_reduce.or_reference(
        _fast_reduce.flat_or_axis_index(input, dim, keepdim, largest=True),
        arg_max_ext, input, dim, keepdim)
