"""The device twin of ``ops._ref.inplace.in_input_dtype``: the in-place
spellings (InplaceMul of Mul, InplaceAddExt of AddExt, ...) and Divs run
their base op's cuda kernel in input's dtype and shape, ``other`` cast to
that dtype first and the result cast back, each by Cast's cuda kernel
(MindSpore's Cast, as the reference's). ``refinfer.cuda.load_kernels``
hands :data:`WRAPS` to ``registry.inherit_kernels``: every variant gets
its base op's kernel that way, none declared per op."""
from __future__ import annotations

import functools

import numpy as np

from refinfer.ops._ref.common import cast as host_cast
from refinfer.ops._ref.inplace import in_input_dtype

from . import device
from .index import cast


def on_device_in_input_dtype(kernel, name: str):
    """``kernel`` (a cuda kernel of ``(input, other, *params)``) as op
    ``name`` computes it in input's dtype and shape. None (the CPU kernel
    then runs, and raises the reference's error) where input is not a
    tensor, a cast declines or the result's shape is not input's."""
    @functools.wraps(kernel, assigned=("__name__", "__qualname__", "__doc__"))
    def inplace(input, other, *params):
        if not device.is_device_array(input):
            return None
        if device.is_device_array(other):
            other = cast(other, input.dtype)
        else:
            other = device.to_device(host_cast(np.asarray(other), input.dtype))
        result = None if other is None else kernel(input, other, *params)
        if result is None or tuple(result.shape) != tuple(input.shape):
            return None
        return result if result.dtype == input.dtype else cast(result, input.dtype)
    return inplace


WRAPS = {in_input_dtype: on_device_in_input_dtype}
