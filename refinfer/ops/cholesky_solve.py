"""CholeskySolve."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype
from ._ref.linalg import solve, triangle


@register("CholeskySolve", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"upper": args.boolean})
def cholesky_solve(x1, x2, upper=False):
    """Solves A @ y = x1 given A's Cholesky factor x2.

    A = L @ L^T with L x2's lower triangle (upper=False), or A = U^T @ U
    with U its upper triangle (upper=True). Arguments (classic PRIMITIVE):
    x1 (..., n, k), x2 (..., n, n); upper=False (attribute). Output: x1's
    dtype (float16 computed in float32).
    """
    factor = triangle(x2.astype(compute_dtype(x2.dtype)), not upper)
    a = factor.swapaxes(-1, -2) @ factor if upper else factor @ factor.swapaxes(-1, -2)
    return solve("CholeskySolve", a, x1).astype(x1.dtype)
