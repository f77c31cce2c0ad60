"""The float32 rounding check of ``refinfer bisect --against float64``.

A float32 run differs from the float64 oracle by rounding. One fixed
tolerance cannot tell healthy rounding from a bug: the difference scales
with each tensor's magnitude, and it accumulates along the graph (a healthy
MobileNetV2 reaches ~800 ulps of its tensors' magnitude at the last layers,
while every op on its own stays within ~6). So each node run is judged by
its *own* error: its float32 result against the float64 kernel run on the
same float32 inputs, ``|a - o| <= known_ulps(op) * eps * max|o|``, where
``eps`` is the tensor dtype's epsilon and ``known_ulps`` the op's known
float32 error. If every op passes, the whole difference from the oracle is
rounding, carried by exact ops: "healthy float32 rounding". What is carried
is reported as the *drift*, ``max|a - e| / (eps * max|e|)`` against the
oracle's own chain ``e``, and judged by nobody: a large drift means a model
sensitive to rounding, not a wrong op.

The known errors (largest own errors measured on the golden models, ulps of
the tensor's magnitude: Conv2D 6.3, MatMul 3.9, LayerNorm 1.9, Sigmoid 1.1,
elementwise 0.5, data movement 0; every golden model and op case passes, on
the reference and the numba backend, but NanToNum on infinities, whose
default replacement is the dtype's largest value, float64's in the oracle):

- an op that rounds each element a few times (elementwise, activations,
  data movement): ``ELEMENTWISE_ULPS`` (libm's float32 functions are within
  4 ulp, refinfer/ops/_kernels/libm.py; fastmath may reassociate);
- an op that sums many terms (convolutions, products, pooling,
  normalisations, reductions, softmax): ``SUM_ULPS``, room for the rounding
  of long sums, ten times the largest measured.
"""
from __future__ import annotations

import numpy as np

from ..registry import OpDef

ELEMENTWISE_ULPS = 8
SUM_ULPS = 64
SUM_FAMILIES = ("nn", "reduction")
SUM_OPS = ("Softmax", "LogSoftmax", "LogSoftmaxExt", "LogSumExp")
DRIFT_NOTE_ULPS = 2 ** 13     # ~1e-3 of the magnitude: three digits lost


def known_ulps(op: OpDef | None) -> int:
    """The float32 error ``op`` is known to have, in ulps of its output's
    magnitude (``None``: a graph call)."""
    if op is not None and (op.name in SUM_OPS or op.family in SUM_FAMILIES):
        return SUM_ULPS
    return ELEMENTWISE_ULPS


def magnitude(array: np.ndarray) -> float:
    """``max |array|`` over finite elements (0.0 when there is none)."""
    finite = np.abs(array[np.isfinite(array)])
    return float(finite.max()) if finite.size else 0.0


def ulp(array: np.ndarray, scale: float) -> float:
    """One ulp of ``scale`` in ``array``'s float type; 0 for integers and
    booleans (compared exactly)."""
    if array.dtype.kind != "f":
        return 0.0
    return float(np.finfo(array.dtype).eps) * scale


def own_tolerance(op: OpDef | None, actual: np.ndarray, own: np.ndarray,
                  inputs: list) -> float:
    """The absolute tolerance of ``actual`` against ``own`` (the float64
    kernel on the same inputs): the op's known error in ulps of the
    result's magnitude, or of its inputs' where the exact result is all
    zeros (a sum that cancels)."""
    scale = magnitude(np.asarray(own, dtype=np.float64))
    if scale == 0.0:
        scale = max((magnitude(np.asarray(a, dtype=np.float64)) for a in inputs
                     if isinstance(a, np.ndarray) and a.dtype.kind == "f"),
                    default=0.0)
    return known_ulps(op) * ulp(actual, scale)


def drift_ulps(actual: np.ndarray, expected: np.ndarray) -> float | None:
    """``max |a - e|`` in ulps of ``max |e|`` (None: not a float tensor,
    shapes differ, or ``e`` is all zeros)."""
    if actual.dtype.kind != "f" or np.shape(actual) != np.shape(expected):
        return None
    e = np.asarray(expected, dtype=np.float64)
    unit = ulp(actual, magnitude(e))
    if unit == 0.0:
        return None
    with np.errstate(invalid="ignore", over="ignore"):    # inf - inf: dropped
        diff = np.abs(actual.astype(np.float64) - e)
    diff = diff[np.isfinite(diff)]
    return float(diff.max()) / unit if diff.size else None
