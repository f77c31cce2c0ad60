"""MatrixTriangularSolve."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.linalg import adjoint as conjugate_transpose
from ._ref.linalg import solve, triangle


@register("MatrixTriangularSolve", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"lower": args.boolean, "adjoint": args.boolean})
def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """Solves T @ y = rhs for the triangle T of each square matrix.

    T is matrix's lower (lower=True) or upper triangle, the other entries
    ignored; adjoint=True solves T^H @ y = rhs. Arguments (classic
    PRIMITIVE): matrix (..., n, n), rhs (..., n, k); lower=True,
    adjoint=False (attributes). Output: rhs's dtype (float16 computed in
    float32); a zero on the diagonal is a clear error.
    """
    part = triangle(matrix, lower)
    a = conjugate_transpose(part) if adjoint else part
    return solve("MatrixTriangularSolve", a, rhs).astype(rhs.dtype)
