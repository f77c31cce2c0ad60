"""Mean / variance normalisation shared by the LayerNorm, GroupNorm,
InstanceNorm and BatchNormExt references (and rstd by their kernels), and
the log-softmax of LogSoftmax and LogSoftmaxExt."""
from __future__ import annotations

import numpy as np

from .common import compute_dtype, optional_tensors
from .reduce import shifted_logits


def standardize(x: np.ndarray, axes, epsilon):
    """(x - mean) / sqrt(var + epsilon) over ``axes`` (biased variance), in
    the compute dtype (float16 -> float32). Returns (z, mean, var) with
    mean and var keeping the reduced axes as length 1."""
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    mean = xw.mean(axis=axes, keepdims=True)
    var = np.square(xw - mean).mean(axis=axes, keepdims=True)
    z = (xw - mean) / np.sqrt(var + work.type(epsilon))
    return z, mean, var


def affine(z: np.ndarray, weight, bias, shape) -> np.ndarray:
    """z * weight + bias with both reshaped to ``shape`` (None: skipped)."""
    optional_tensors("", weight=weight, bias=bias)
    if weight is not None:
        z = z * weight.astype(z.dtype, copy=False).reshape(shape)
    if bias is not None:
        z = z + bias.astype(z.dtype, copy=False).reshape(shape)
    return z


def rstd(var: np.ndarray, epsilon) -> np.ndarray:
    """1 / sqrt(var + epsilon)."""
    return 1.0 / np.sqrt(var + var.dtype.type(epsilon))


def log_softmax_along(logits: np.ndarray, axis) -> np.ndarray:
    """(x - max) - log(sum(exp(x - max))) along one axis (an int or a
    1-tuple), in logits' dtype; float16 is computed in float32."""
    z, axis = shifted_logits(logits, axis, "LogSoftmax")
    return (z - np.log(np.exp(z).sum(axis=axis, keepdims=True))) \
        .astype(logits.dtype)
