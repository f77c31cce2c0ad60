"""SolveTriangular."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.linalg import adjoint, solve, triangle

TRANSPOSES = {0: "N", 1: "T", 2: "C"}


def transpose_mode(value) -> str:
    """trans as "N", "T" or "C" (from MindSpore's 0, 1, 2 or the letters)."""
    if isinstance(value, str) and value.upper() in TRANSPOSES.values():
        return value.upper()
    code = args.integer(value)
    if code not in TRANSPOSES:
        raise ValueError(f"SolveTriangular: trans must be 0 (N), 1 (T) or 2 (C), "
                         f"got {value}")
    return TRANSPOSES[code]


@register("SolveTriangular", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"trans": transpose_mode, "lower": args.boolean,
                   "unit_diagonal": args.boolean})
def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False):
    """Solves op(T) @ x = b for the triangle T of each square matrix a.

    T is a's lower (lower=True) or upper triangle, with 1s on its diagonal
    when unit_diagonal; op is trans: 0 / "N" none, 1 / "T" transpose, 2 /
    "C" conjugate transpose. Arguments: a (..., n, n), b (..., n, k) or
    (..., n) for one vector; trans=0, lower=False, unit_diagonal=False.
    Output: b's shape and dtype (float16 computed in float32).
    """
    part = triangle(a, lower, unit_diagonal)
    if trans != "N":
        part = adjoint(part) if trans == "C" else part.swapaxes(-1, -2)
    vector = b.ndim == a.ndim - 1
    x = solve("SolveTriangular", part, b[..., None] if vector else b)
    return (x[..., 0] if vector else x).astype(b.dtype)
