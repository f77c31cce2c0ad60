"""InplaceCopy."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, cast, require_tensors


@register("InplaceCopy", family="shape", dtypes=ALL, mutates="input", no_kernel="copy")
def inplace_copy(input, src, non_blocking=False):
    """src written into input (Tensor.copy_): input's shape and dtype kept.

    y = broadcast_to(Cast(src, input.dtype), input.shape). Arguments: input,
    src (tensors; src broadcasts to input's shape); non_blocking=False
    (a device hint, unused). MindSpore writes input in place: later reads of
    input see y (registry ``mutates``).
    """
    require_tensors("InplaceCopy", input=input, src=src)
    try:
        return np.broadcast_to(cast(src, input.dtype), input.shape).copy()
    except ValueError:
        raise ValueError(f"InplaceCopy: src of shape {src.shape} does not broadcast to "
                         f"input's {input.shape}") from None
