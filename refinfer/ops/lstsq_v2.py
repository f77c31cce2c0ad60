"""LstsqV2."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, require_tensors
from ._ref.linalg import refuse_infinity

# MindIR's codes of the LAPACK driver names (None is gelsy).
DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def driver_name(value) -> str:
    """driver: None, a name or its code 0..3 -> the name."""
    if value is None:
        return "gelsy"
    if isinstance(value, str) and value.lower() in DRIVERS:
        return value.lower()
    if isinstance(value, (int, np.integer)) and 0 <= int(value) < len(DRIVERS):
        return DRIVERS[int(value)]
    raise ValueError(f"LstsqV2: unknown driver {value!r} (expected None, one of "
                     f"{list(DRIVERS)} or their codes 0..3)")


@register("LstsqV2", family="linalg", dtypes=FLOATS, convert={"driver": driver_name},
          no_kernel="native")
def lstsq_v2(A, B, driver=None):
    """Least-squares solutions of A X = B: (solution, residual, rank, singular_value).

    X minimises ||A X - B|| per batch matrix (the minimum-norm one where A
    is rank-deficient), A (*, M, N) and B (*, M, K) with broadcast batch
    dims, or B (*, M) for one right-hand side (then X is (*, N)); computed in float64 with NumPy's LAPACK (SVD) whatever the driver
    (they agree for full-rank A), rounded to A's dtype. As MindSpore 2.7.1
    returns them: residual = sum over rows of |A X - B|^2, shape (*, K),
    for gels/gelss/gelsd when M > N, else empty; rank (int64, shape (*),
    singular values above max(M, N) eps(dtype) times the largest) for
    gelsy/gelss/gelsd, else empty; singular_value (*, min(M, N)) for
    gelss/gelsd, else empty. driver=None means "gelsy" (codes: gels 0,
    gelsy 1, gelsd 2, gelss 3). An infinity in A is a clear error (LAPACK
    would not return).
    """
    require_tensors("LstsqV2", A=A, B=B)
    vector = B.ndim == A.ndim - 1       # B (*, M): one right-hand side
    if vector:
        B = B[..., None]
    if A.dtype != B.dtype or A.dtype.kind not in "fc" or A.ndim < 2 or B.ndim < 2 \
            or A.shape[-2] != B.shape[-2]:
        raise ValueError(f"LstsqV2: A (*, M, N) and B (*, M, K) or (*, M) must be floats "
                         f"of one dtype, got A {A.dtype}{list(A.shape)} and B "
                         f"{B.dtype}{list(B.shape)}")
    refuse_infinity("LstsqV2", "A", A)
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    a = np.broadcast_to(A, batch + A.shape[-2:]).astype(np.complex128 if A.dtype.kind == "c"
                                                        else np.float64)
    b = np.broadcast_to(B, batch + B.shape[-2:]).astype(a.dtype)
    (m, n), k = A.shape[-2:], B.shape[-1]
    solution = np.empty(batch + (n, k), a.dtype)
    for i in np.ndindex(batch):
        solution[i] = np.linalg.lstsq(a[i], b[i], rcond=None)[0]
    real = np.finfo(A.dtype).dtype
    empty = np.zeros(0, real)
    residual = empty
    if driver != "gelsy" and m > n:
        residual = (np.abs(a @ solution - b) ** 2).sum(axis=-2).astype(real)
    singular = np.linalg.svd(A.astype(a.dtype), compute_uv=False)
    rank = np.zeros(0, np.int64)
    if driver != "gels":
        tolerance = singular.max(axis=-1, initial=0.0) * max(m, n) * np.finfo(A.dtype).eps
        rank = (singular > tolerance[..., None]).sum(axis=-1).astype(np.int64)
    if vector:
        solution = solution[..., 0]
    return (solution.astype(A.dtype), residual, rank,
            singular.astype(real) if driver in ("gelss", "gelsd") else empty)
