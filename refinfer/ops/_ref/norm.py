"""Mean / variance normalisation shared by the LayerNorm, GroupNorm,
InstanceNorm and BatchNormExt references (and rstd by their kernels), the
root-mean-square normalisation of RmsNorm and AddRmsNorm, and the
log-softmax of LogSoftmax and LogSoftmaxExt."""
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


def root_mean_square_normalize(x: np.ndarray, gamma: np.ndarray, epsilon):
    """RmsNorm's (y, rstd): rstd = 1 / sqrt(mean(x ** 2) + epsilon) over the
    trailing gamma.ndim axes (kept as length 1), y = x * rstd * gamma in
    x's dtype; float16 is computed in float32 (as Ascend's kernel), rstd is
    float32 (float64 for float64 x). gamma must have x's trailing shape."""
    if gamma.ndim > x.ndim or x.shape[x.ndim - gamma.ndim:] != gamma.shape:
        raise ValueError(f"gamma's shape {list(gamma.shape)} must be the trailing "
                         f"dims of x's shape {list(x.shape)}")
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    inverse = rstd(np.square(xw).mean(axis=axes, keepdims=True), epsilon)
    y = xw * inverse * gamma.astype(work, copy=False)
    return y.astype(x.dtype), inverse
