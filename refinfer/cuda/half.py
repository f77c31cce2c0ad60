"""float16 tensors for kernels written for float32 and float64: where the
reference computes float16 in float32 ("float16 is computed in float32",
"accumulates in float32") and rounds its result once, the device does the
same: the float16 tensors are cast to float32 on the device (Cast's
kernel, exact), the float32 kernel runs, and its float results are cast
back to float16 (one rounding, as the reference's ``astype``). The
results differ from the reference's only where the float32 ones do (a sum
in another order), which moves a float16 rounding by at most one ulp for
results a few float32 ulps apart.

A module wraps the kernels of the ops whose references compute so in
its table (``half.in_float32(kernel)``); each is tested against its
reference on float16 tensors (tests/cuda/test_cuda_half.py)."""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from . import device
from .index import cast

HALF, WIDE = np.dtype(np.float16), np.dtype(np.float32)


def in_float32(kernel: Callable, rounded: tuple[int, ...] | None = None) -> Callable:
    """``kernel`` taking float16 tensors, computed in float32: the float32
    results (those at the positions ``rounded`` of a tuple of results,
    where given: RmsNorm's rstd stays float32) cast back to float16."""
    @functools.wraps(kernel)
    def run(*args):
        if not any(device.is_device_array(a) and a.dtype == HALF for a in args):
            return kernel(*args)
        wide = [cast(a, WIDE) if device.is_device_array(a) and a.dtype == HALF else a
                for a in args]
        result = kernel(*wide)
        if result is not None:
            result = _rounded(result, rounded)
        for made, given in zip(wide, args):
            if made is not given and not _holds(result, made):
                device.release(made)    # (a cast made here: no one else reads it)
        return result
    return run


def _rounded(result, positions):
    """The kernel's result with its float32 arrays (at ``positions``)
    cast to float16."""
    if isinstance(result, (tuple, list)):
        return type(result)(
            _rounded(r, None) if positions is None or k in positions else r
            for k, r in enumerate(result))
    return cast(result, HALF) if result.dtype == WIDE else result


def _holds(result, array) -> bool:
    """Whether ``result`` is ``array`` or a tuple holding it."""
    if isinstance(result, (tuple, list)):
        return any(r is array for r in result)
    return result is array
