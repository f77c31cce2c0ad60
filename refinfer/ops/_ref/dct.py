"""The orthonormal discrete cosine transform (DCT-II) and its inverse (DCT-III),
along one axis (DCT, IDCT) or several (DCTN, IDCTN), as MindSpore 2.7.1 computes
them: type 2 and norm "ortho" only (norm None means "ortho").

X[k] = s_k sum_j x[j] cos(pi k (2j + 1) / (2n)), s_0 = sqrt(1/n), s_k = sqrt(2/n):
X = C x with C orthonormal, so the inverse is x = C^T X. n (or s, per axis) crops or
zero-pads the input along the axis first. Computed in float64 (complex128 for complex
inputs) as a product with C, O(n^2) per axis; the result is float32 for integer,
float16 and float32 inputs, float64 for float64, complex64/128 for complex.
"""
from __future__ import annotations

import numpy as np

from refinfer import args

from .fft import norm_mode, optional_ints


def dct_norm(value) -> str:
    """norm: None (MindSpore's default: orthonormal), "ortho" or its code 2;
    the other modes are refused as MindSpore does."""
    mode = "ortho" if value is None else norm_mode(value)
    if mode != "ortho":
        raise ValueError(f"DCT: only norm 'ortho' is supported, got {value!r}")
    return mode


# The convert= table of the four ops.
CONVERT = {"type": args.scalar, "norm": dct_norm}


def _cosines(n: int) -> np.ndarray:
    """The orthonormal DCT-II matrix C[k, j] = s_k cos(pi k (2j + 1) / (2n))."""
    k, j = np.arange(n)[:, None], np.arange(n)[None, :]
    c = np.sqrt(2.0 / n) * np.cos(np.pi * k * (2 * j + 1) / (2 * n))
    c[0] /= np.sqrt(2.0)
    return c


def _resized(x: np.ndarray, n: int, axis: int) -> np.ndarray:
    """x cropped or zero-padded to length n along axis."""
    if n < 1:
        raise ValueError(f"DCT: the transform length must be >= 1, got {n}")
    if n <= x.shape[axis]:
        return np.take(x, np.arange(n), axis=axis)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - x.shape[axis])
    return np.pad(x, pad)


def cosine_transform(name: str, x, type, lengths, axes, inverse: bool) -> np.ndarray:
    """DCT-II (or, ``inverse``, DCT-III) of x along each of ``axes`` with the
    matching ``lengths`` (None: the axis's own)."""
    if args.integer(type) != 2:
        raise ValueError(f"{name}: only type 2 is supported, got type={type}")
    x = np.asarray(x)
    if x.dtype.kind not in "iufc" or x.ndim == 0:
        raise ValueError(f"{name}: input must be a numeric tensor of rank >= 1, got "
                         f"{x.dtype} of shape {x.shape}")
    work = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    for n, axis in zip(lengths, axes):
        axis = args.integer(axis)
        if not -x.ndim <= axis < x.ndim:
            raise ValueError(f"{name}: axis {axis} is out of range for rank {x.ndim}")
        work = _resized(work, work.shape[axis] if n is None else int(n), axis)
        c = _cosines(work.shape[axis])
        moved = np.moveaxis(work, axis, 0)
        work = np.moveaxis(np.tensordot(c.T if inverse else c, moved, axes=1), 0, axis)
    if x.dtype.kind == "c":
        return work.astype(x.dtype)
    return work.astype(np.float64 if x.dtype == np.float64 else np.float32)


def cosine_transform_n(name: str, x, type, s, axes, inverse: bool) -> np.ndarray:
    """The N-D form: over axes (None: the last len(s) axes, or every axis)
    with sizes s (None: the input's)."""
    s, axes = optional_ints(s), optional_ints(axes)
    rank = np.ndim(x)
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError(f"{name}: s {s} and axes {axes} must have the same length")
    if axes is None:
        axes = tuple(range(rank - len(s), rank)) if s is not None else tuple(range(rank))
    if rank and len({a % rank for a in axes}) != len(axes):
        raise ValueError(f"{name}: axes {axes} repeat an axis")
    lengths = s if s is not None else (None,) * len(axes)
    return cosine_transform(name, x, type, lengths, axes, inverse)
