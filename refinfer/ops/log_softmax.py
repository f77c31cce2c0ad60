"""LogSoftmax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.reduce import shifted_logits


@register("LogSoftmax", family="activation", dtypes=FLOATS,
          convert={"axis": args.ints})
def log_softmax(logits, axis=(-1,)):
    """Log of the softmax along one axis.

    y = (x - max) - log(sum(exp(x - max))).

    Arguments: logits (rank >= 1), axis=-1 (int or 1-tuple). Output has
    logits' dtype; float16 is computed in float32.
    """
    z, axis = shifted_logits(logits, axis, "LogSoftmax")
    return (z - np.log(np.exp(z).sum(axis=axis, keepdims=True))) \
        .astype(logits.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from .softmax import last_axis_rows  # noqa: E402


@register_kernel("LogSoftmax", "numba")
def log_softmax_numba(logits, axis=(-1,)):
    """LogSoftmax along the last axis, one pass per row."""
    return last_axis_rows(logits, axis, True, log_softmax)
