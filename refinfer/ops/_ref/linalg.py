"""Shared pieces of the linear-algebra ops: batched solves with LAPACK (NumPy's
``linalg``) in the compute dtype, their errors, and triangles."""
from __future__ import annotations

import numpy as np

from .common import compute_dtype


def refuse_infinity(op: str, name: str, a: np.ndarray) -> None:
    """A clear error for an infinity in ``a``, before LAPACK's SVD sees it:
    NumPy's bundled OpenBLAS never returns from gesdd (the SVD with its
    vectors, also behind least squares) on a matrix holding one. A NaN makes
    it fail at once instead, with LAPACK's own error."""
    where = np.argwhere(np.isinf(a))
    if len(where):
        raise ValueError(f"{op}: {name} holds an infinity at index "
                         f"{tuple(where[0].tolist())}, where LAPACK's SVD does "
                         f"not converge")


def solve(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with a @ x = b for stacks of square a (..., n, n) and b (..., n, k),
    broadcast over the leading axes; a singular a is a clear error."""
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim < 2 \
            or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"{op}: the matrix must be (..., n, n) and the right-hand "
                         f"side (..., n, k), got {list(a.shape)} and {list(b.shape)}")
    work = compute_dtype(np.result_type(a.dtype, b.dtype))
    try:
        return np.linalg.solve(a.astype(work, copy=False), b.astype(work, copy=False))
    except np.linalg.LinAlgError as error:
        raise ValueError(f"{op}: the matrix is singular ({error})") from None


def triangle(a: np.ndarray, lower: bool, unit_diagonal: bool = False) -> np.ndarray:
    """The lower or upper triangle of each square matrix (the other entries
    ignored, as LAPACK's triangular solvers do), its diagonal 1 with
    unit_diagonal."""
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expected square matrices (rank >= 2), got shape "
                         f"{list(a.shape)}")
    part = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        part = part.copy()
        part[..., np.arange(a.shape[-1]), np.arange(a.shape[-1])] = 1
    return part


def adjoint(a: np.ndarray) -> np.ndarray:
    """The conjugate transpose of each matrix of the last two axes."""
    return np.conj(np.swapaxes(a, -1, -2))
