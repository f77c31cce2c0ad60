"""LogSoftmaxExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS, cast
from ._ref.norm import log_softmax_along


@register("LogSoftmaxExt", family="activation", dtypes=FLOATS,
          convert={"dim": args.scalar, "dtype": args.optional_dtype},
          kernels={"numba": norm.log_softmax_ext})
def log_softmax_ext(input, dim=None, dtype=None):
    """Log of the softmax along dim (mint.nn.functional.log_softmax).

    Arguments: input; dim=None (PyTorch's legacy default: 0 for rank 0, 1
    and 3, else 1); dtype=None (TypeId: input is cast to it first). See
    LogSoftmax.
    """
    if dtype is not None:
        input = cast(input, dtype)
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return log_softmax_along(input, (int(dim),))
