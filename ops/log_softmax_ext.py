"""LogSoftmaxExt."""
from refinfer import args
from refinfer.registry import register

from ._common import FLOATS, cast
from .log_softmax import log_softmax


@register("LogSoftmaxExt", family="activation", dtypes=FLOATS,
          convert={"dim": args.scalar, "dtype": args.optional_dtype})
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
    return log_softmax(input, (int(dim),))
