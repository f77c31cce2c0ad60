"""Svd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import compute_dtype
from ._ref.linalg import refuse_infinity


@register("Svd", family="linalg", dtypes=("float32", "float64"), no_kernel="native",
          convert={"full_matrices": args.boolean, "compute_uv": args.boolean})
def svd(input, full_matrices=False, compute_uv=True):
    """The singular value decomposition input = u @ diag(s) @ v^T (LAPACK).

    Returns (s, u, v) with s descending, u (m, k) and v (n, k) for k =
    min(m, n) ((m, m) and (n, n) when full_matrices); with compute_uv
    False, u and v are zeros of shape (1,), as MindSpore's. Each pair of
    singular vectors is unique up to a common sign: these are LAPACK's
    (gesdd), MindSpore's CPU kernel (Eigen) may flip a pair. An infinity
    in input is a clear error (LAPACK would not return). Arguments:
    input (..., m, n); full_matrices=False, compute_uv=True.
    """
    if input.ndim < 2:
        raise ValueError(f"Svd: input must be (..., m, n), got shape "
                         f"{list(input.shape)}")
    refuse_infinity("Svd", "input", input)
    work = input.astype(compute_dtype(input.dtype), copy=False)
    if not compute_uv:
        empty = np.zeros(1, input.dtype)
        return np.linalg.svd(work, compute_uv=False).astype(input.dtype), empty, empty
    u, s, vh = np.linalg.svd(work, full_matrices=full_matrices)
    return (s.astype(input.dtype), u.astype(input.dtype),
            np.swapaxes(vh, -1, -2).astype(input.dtype))
