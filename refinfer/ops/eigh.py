"""Eigh and SelfAdjointEig."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import compute_dtype, square_matrices

def _eigh(op, x, lower):
    square_matrices(op, "x", x)
    work = x.astype(compute_dtype(x.dtype), copy=False)
    w, v = np.linalg.eigh(work, "L" if lower else "U")
    return w.astype(x.dtype), v.astype(x.dtype)


@register("Eigh", family="linalg", dtypes=("float32", "float64"), no_kernel="native",
          convert={"compute_eigenvectors": args.boolean, "lower": args.boolean})
def eigh(x, compute_eigenvectors=True, lower=True):
    """The eigenvalues (ascending) and eigenvectors of a symmetric matrix.

    x = v diag(w) v^T, read from x's lower (lower=True) or upper triangle.
    Returns (w, v), or w alone when compute_eigenvectors is False.
    Arguments (classic PRIMITIVE): x (n, n; MindSpore's CPU kernel
    mishandles batches, so refinfer takes one matrix); compute_eigenvectors
    =True, lower=True (attributes). Eigenvectors come from LAPACK (syevd)
    and may differ from MindSpore's (Eigen) by each column's sign.
    """
    if x.ndim != 2:
        raise ValueError(f"Eigh: x must be one (n, n) matrix, got shape {list(x.shape)}")
    w, v = _eigh("Eigh", x, lower)
    return (w, v) if compute_eigenvectors else w


@register("SelfAdjointEig", family="linalg", dtypes=("float32", "float64"),
          no_kernel="native", convert={"compute_v": args.boolean})
def self_adjoint_eig(x, compute_v=True):
    """The eigenvalues (ascending) and eigenvectors of symmetric matrices.

    x = v diag(w) v^T per matrix of the last two axes, read from its lower
    triangle. Returns (eigen_values, eigen_vectors); with compute_v=False
    the vectors are zeros (MindSpore leaves that buffer unwritten).
    Arguments (classic PRIMITIVE): x (..., n, n); compute_v=True
    (attribute). Eigenvectors come from LAPACK (syevd) and may differ from
    MindSpore's (Eigen) by each column's sign.
    """
    w, v = _eigh("SelfAdjointEig", x, True)
    return w, (v if compute_v else np.zeros_like(v))
