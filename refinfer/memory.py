"""Activation memory: what one predict frees, the next one reuses.

A predict allocates its intermediate tensors through NumPy, that is through
the C library's malloc, and the plan frees each after its last use. glibc's
malloc serves blocks over 128 KiB with fresh mappings and trims its heap when
enough is free at its top, with both thresholds adjusted on the fly from the
history of frees. So, depending on that history, a steady predict may get its
large buffers back as fresh pages, each zero-filled on first touch by a page
fault: about 3 us per 4 KiB page on the project's VM, 1.6 ms for a 2 MiB
tensor, more than the op that fills it. Measured on the transformer block
x [1, 256, 512] (tools/bench_distributed.py's case): 0 or 2,000 faults per
predict from one process to the next, the slow runs 15-20% slower. ONNX
Runtime keeps an arena for the same reason.

:func:`keep_freed_memory` fixes both thresholds once per process: blocks up
to 32 MiB (glibc's largest setting) come from the heap, and the heap is
trimmed only past 1 GiB free at its top, so a steady predict faults no page
in. The process keeps its peak activation memory between predicts instead of
returning it (its peak resident memory is the same). It is called once a
model is built, not before: the build's own temporaries (the file's bytes,
compiler data) would then stay in the heap and fragment it; applied before
the build, MobileNetV2's peak RSS grew from 188 to 261 MB.

Nothing is changed where the C library is not glibc, or where the
environment already sets these thresholds (``MALLOC_MMAP_THRESHOLD_`` and
the like, or ``glibc.malloc`` entries in ``GLIBC_TUNABLES``): the user's
own choice wins.
"""
from __future__ import annotations

import ctypes
import functools
import os
import platform

M_TRIM_THRESHOLD = -1           # <malloc.h> parameter numbers
M_MMAP_THRESHOLD = -3
HEAP_UP_TO = 32 << 20           # glibc refuses larger mmap thresholds
TRIM_PAST = 1 << 30


@functools.cache
def keep_freed_memory() -> bool:
    """Tune glibc's malloc once per process (see the module's text); True
    when the tuning is in effect. Two threads racing here both set the same
    values, which is harmless."""
    return not _user_tunes_malloc() and _mallopt_all()


USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                 "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")


def _user_tunes_malloc() -> bool:
    return any(name in os.environ for name in USER_SETTINGS) \
        or "glibc.malloc." in os.environ.get("GLIBC_TUNABLES", "")


def _mallopt_all() -> bool:
    if platform.libc_ver()[0] != "glibc":
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    return all(mallopt(param, value) == 1 for param, value in
               ((M_MMAP_THRESHOLD, HEAP_UP_TO), (M_TRIM_THRESHOLD, TRIM_PAST)))
