"""ArgMaxExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL, optional
from ._ref.search import flat_or_axis_index


@register("ArgMaxExt", family="reduction", dtypes=ALL,
          convert={"dim": optional(args.scalar), "keepdim": args.boolean},
          kernels={"numba": reduce.arg_index(largest=True)})
def arg_max_ext(input, dim=None, keepdim=False):
    """Index of the largest value (mint.argmax), int64.

    Arguments: input; dim=None (None: index into the flattened input);
    keepdim=False. Ties and NaN as Argmax. MindSpore 2.7.1 has no CPU kernel.
    """
    return flat_or_axis_index(input, dim, keepdim, largest=True)
