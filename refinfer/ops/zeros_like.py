"""ZerosLike / ZerosLikeExt and OnesLike / OnesLikeExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled

_CONVERT = {"dtype": args.optional_dtype}


@register("ZerosLike", "ZerosLikeExt", family="shape", dtypes=ALL,
          convert=_CONVERT, no_kernel="copy")
def zeros_like(input, dtype=None):
    """Zeros with input's shape, in dtype (default: input's dtype).

    ZerosLike takes only input (ops.zeros_like, usually constant-folded at
    export); ZerosLikeExt (mint.zeros_like) adds dtype=None (TypeId).
    """
    return filled(input.shape, 0, input.dtype if dtype is None else dtype)


@register("OnesLike", "OnesLikeExt", family="shape", dtypes=ALL,
          convert=_CONVERT, no_kernel="copy")
def ones_like(input, dtype=None):
    """Ones with input's shape, in dtype (default: input's dtype).

    OnesLike takes only input (ops.ones_like, usually constant-folded at
    export); OnesLikeExt (mint.ones_like) adds dtype=None (TypeId).
    """
    return filled(input.shape, 1, input.dtype if dtype is None else dtype)
