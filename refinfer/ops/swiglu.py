"""Swiglu (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype
from ._ref.math import logistic


@register("Swiglu", family="activation", dtypes=FLOATS, no_kernel="oracle",
          convert={"dim": args.integer})
def swiglu(input, dim=-1):
    """Swish-gated linear unit (Ascend only in MindSpore; a CPU oracle here).

    input is split in two halves a, b along dim (its length even)::

        out = a * sigmoid(a) * b

    Arguments: input (float16 computed in float32); dim=-1. Output: input's
    dtype, dim halved.
    """
    axis = int(dim)
    if not -input.ndim <= axis < input.ndim or input.shape[axis] % 2:
        raise ValueError(f"Swiglu: dim {axis} must be an axis of even length of "
                         f"input, got shape {list(input.shape)}")
    a, b = np.split(input.astype(compute_dtype(input.dtype), copy=False), 2, axis=axis)
    return (a * logistic(a) * b).astype(input.dtype)
