"""LogSoftmax."""
from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS
from ._ref.norm import log_softmax_along


@register("LogSoftmax", family="activation", dtypes=FLOATS,
          convert={"axis": args.ints},
          kernels={"numba": norm.log_softmax})
def log_softmax(logits, axis=(-1,)):
    """Log of the softmax along one axis.

    y = (x - max) - log(sum(exp(x - max))).

    Arguments: logits (rank >= 1), axis=-1 (int or 1-tuple). Output has
    logits' dtype; float16 is computed in float32.
    """
    return log_softmax_along(logits, axis)
