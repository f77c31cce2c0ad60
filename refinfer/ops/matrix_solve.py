"""MatrixSolve."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.linalg import adjoint as conjugate_transpose
from ._ref.linalg import solve


@register("MatrixSolve", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"adjoint": args.boolean})
def matrix_solve(matrix, rhs, adjoint=False):
    """Solves matrix @ y = rhs for each square matrix (LAPACK's LU).

    adjoint=True solves matrix^H @ y = rhs. Arguments (classic PRIMITIVE):
    matrix (..., n, n), rhs (..., n, k); adjoint=False (attribute). A
    singular matrix is a clear error. Output: rhs's dtype (float16
    computed in float32).
    """
    a = conjugate_transpose(matrix) if adjoint else matrix
    return solve("MatrixSolve", a, rhs).astype(rhs.dtype)
