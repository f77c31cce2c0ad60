"""Qr and Geqrf."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import compute_dtype


def _matrices(op, x):
    if x.ndim < 2:
        raise ValueError(f"{op}: input must be (..., m, n), got shape {list(x.shape)}")
    return x.astype(compute_dtype(x.dtype), copy=False)


@register("Qr", family="linalg", dtypes=("float32", "float64"), no_kernel="native",
          convert={"full_matrices": args.boolean})
def qr(x, full_matrices=False):
    """The QR decomposition x = q @ r of each matrix (Householder, LAPACK).

    q has orthonormal columns, r is upper triangular; the signs are
    LAPACK's (r's diagonal may be negative), as MindSpore's CPU kernel.
    Returns (q, r): (m, k) and (k, n) with k = min(m, n), or (m, m) and
    (m, n) when full_matrices. Arguments: x (..., m, n);
    full_matrices=False.
    """
    q, r = np.linalg.qr(_matrices("Qr", x), "complete" if full_matrices else "reduced")
    return q.astype(x.dtype), r.astype(x.dtype)


@register("Geqrf", family="linalg", dtypes=("float32", "float64"), no_kernel="native")
def geqrf(input):
    """The QR decomposition in LAPACK's compact form (geqrf).

    Returns (y, tau): y holds r on and above its diagonal and the
    Householder vectors below it (their leading 1 implied), tau (...,
    min(m, n)) their scales, so q = prod_k (I - tau[k] v_k v_k^T).
    Argument: input (..., m, n).
    """
    work = _matrices("Geqrf", input)
    flat = work.reshape(-1, *work.shape[-2:])
    pairs = [np.linalg.qr(matrix, "raw") for matrix in flat]
    y = np.stack([h.T for h, _ in pairs]).reshape(work.shape)
    tau = np.stack([t for _, t in pairs]).reshape(*work.shape[:-2], -1)
    return y.astype(input.dtype), tau.astype(input.dtype)
