"""MoeGatingTopKSoftmax (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.reduce import shifted_logits


@register("MoeGatingTopKSoftmax", family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"k": args.scalar})
def moe_gating_top_k_softmax(x, finished=None, k=1):
    """Mixture-of-experts gating (Ascend only in MindSpore; a CPU oracle
    here): the k largest probabilities of softmax(x) over the experts (last
    axis, E); returns (y, expert_idx, row_idx):

        y[r, :] = the k largest of softmax(x[r]), largest first (equal ones
                  by lower expert index)
        expert_idx[r, :] = their experts, or E for rows where finished[r]
        row_idx[r, j] = j * R + r   (R rows: the leading axes flattened)

    Arguments: x (2-D or 3-D); finished=None (bool, x.shape[:-1]: rows
    already done, as CANN's aclnnMoeGatingTopKSoftmax documents); k=1
    (0 <= k <= E). y has x's dtype (float16 computed in float32),
    expert_idx and row_idx are int32.
    """
    experts, k = x.shape[-1] if x.ndim else 0, int(k)
    if x.ndim not in (2, 3) or not 0 <= k <= experts:
        raise ValueError(f"x must be 2-D or 3-D and k in [0, {experts}], got x of "
                         f"shape {list(x.shape)} and k={k}")
    if finished is not None and finished.shape != x.shape[:-1]:
        raise ValueError(f"finished must have shape {list(x.shape[:-1])}, got "
                         f"{list(finished.shape)}")
    shifted, _ = shifted_logits(x, (-1,), "MoeGatingTopKSoftmax")
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=-1, keepdims=True)
    order = np.argsort(-probs, axis=-1, kind="stable")[..., :k]
    y = np.take_along_axis(probs, order, axis=-1).astype(x.dtype)
    expert_idx = order.astype(np.int32)
    if finished is not None:
        expert_idx[finished.astype(bool)] = experts
    rows = int(np.prod(x.shape[:-1]))
    row_idx = (np.arange(k, dtype=np.int32)[None, :] * rows
               + np.arange(rows, dtype=np.int32)[:, None]).reshape(y.shape)
    return y, expert_idx, row_idx
