"""KLDivLoss."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype

REDUCTIONS = ("none", "mean", "batchmean", "sum")


def kl_reduction(value) -> str:
    """The reduction attribute, any case: one of REDUCTIONS."""
    text = str(value).lower()
    if text not in REDUCTIONS:
        raise ValueError(f"KLDivLoss: reduction must be one of {list(REDUCTIONS)}, "
                         f"got {value!r}")
    return text


@register("KLDivLoss", family="nn", dtypes=FLOATS,
          convert={"reduction": kl_reduction}, no_kernel="vectorised")
def kl_div_loss(logits, labels, reduction="mean"):
    """Kullback-Leibler divergence of labels from log-probabilities logits.

    l = labels * (log(labels) - logits), 0 where labels = 0; y = l
    ("none"), mean(l) ("mean"), sum(l) / logits.shape[0] ("batchmean") or
    sum(l) ("sum"). Arguments: logits (log-probabilities); labels
    (probabilities, logits' shape); reduction="mean" (attribute). float16
    is computed in float32.
    """
    if logits.shape != labels.shape:
        raise ValueError(f"KLDivLoss: labels shape {labels.shape} differs from "
                         f"logits shape {logits.shape}")
    work = compute_dtype(logits.dtype)
    p, q = labels.astype(work, copy=False), logits.astype(work, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.where(p > 0, p * (np.log(np.where(p > 0, p, 1)) - q), 0)
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    elif reduction == "batchmean":
        loss = loss.sum() / (logits.shape[0] if logits.ndim else 1)
    return as_result(loss, logits.dtype)
