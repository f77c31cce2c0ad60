"""SoftmaxCrossEntropyWithLogits."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.norm import log_softmax_along


@register("SoftmaxCrossEntropyWithLogits", family="nn", dtypes=FLOATS,
          no_kernel="vectorised")
def softmax_cross_entropy_with_logits(logits, labels):
    """Cross entropy of labels and softmax(logits) per row, and its gradient.

    loss[n] = -sum_c labels[n, c] log softmax(logits[n])[c]; backprop =
    softmax(logits) - labels. Arguments: logits (N, C); labels (N, C)
    probabilities. Returns (loss (N,), backprop (N, C)), logits' dtype
    (float16 computed in float32).
    """
    if logits.ndim != 2 or labels.shape != logits.shape:
        raise ValueError(f"SoftmaxCrossEntropyWithLogits: logits and labels must be "
                         f"2-D of one shape, got {logits.shape} and {labels.shape}")
    work = compute_dtype(logits.dtype)
    log_p = log_softmax_along(logits.astype(work, copy=False), (-1,))
    target = labels.astype(work, copy=False)
    loss = -(target * log_p).sum(axis=-1)
    return as_result(loss, logits.dtype), as_result(np.exp(log_p) - target,
                                                    logits.dtype)
