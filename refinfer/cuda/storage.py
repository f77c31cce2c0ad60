"""float16 storage on the device: the device plan's side of the precision
``float16`` (refinfer/precision.py; Lite's GPU ``precision_mode =
"preferred_fp16"``).

Every float32 result of a device plan's step is rounded to float16
precision where it lies: a device array in place, by one launch of
:func:`round_to_half` (so no value leaves the device for it), a host
step's result by precision.to_float16. Constants and model inputs are
rounded on the host before they are copied to the device (the plan's
constants when it is compiled, the inputs when a run starts): no copy is
added. Inside each kernel the arithmetic stays float32, as the kernels
are: fp16 storage with fp32 accumulation.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from refinfer.precision import storage_map, to_float16

from . import device
from .device import cuda
from .layout import flat

FLOAT32 = np.dtype(np.float32)


@device.jit
def round_to_half(x):
    """x[i] rounded to float16 precision, kept float32 (round to nearest
    even; beyond 65504 it becomes inf, as a float16 store)."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = np.float32(np.float16(x[i]))


PTX = [("round to float16 precision, in place", round_to_half, "void(float32[::1])")]


def store(value):
    """``value`` as float16 storage keeps it: each float32 device array
    rounded in place (a C-contiguous kernel result, read by nothing yet),
    each host array by precision.to_float16; tuples and lists walked."""
    if device.is_device_array(value):
        if value.dtype == FLOAT32 and value.size:
            device.launch(round_to_half, value.size, flat(value))
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(store(v) for v in value)
    return to_float16(value)


def storage(precision: str) -> Callable | None:
    """The device twin of precision.storage_map: :func:`store` for float16,
    None (results kept as made) for the other precisions."""
    return None if storage_map(precision) is None else store
