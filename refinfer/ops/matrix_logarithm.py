"""MatrixLogarithm."""
import numpy as np

from refinfer.registry import register

from ._ref.common import square_matrices


@register("MatrixLogarithm", family="linalg", dtypes=("complex64", "complex128"),
          no_kernel="native")
def matrix_logarithm(x):
    """The principal matrix logarithm of each square complex matrix.

    y with exp(y) = x, from the eigendecomposition x = V diag(w) V^-1:
    y = V diag(log w) V^-1 (the principal branch). MindSpore's CPU kernel
    (Eigen's Schur-Parlett) agrees for diagonalisable x with no eigenvalue
    on the closed negative real axis; a defective x is out of reach of this
    formula (a clear error). Argument: x (..., n, n), complex64 or
    complex128 (MindSpore takes no real input).
    """
    square_matrices("MatrixLogarithm", "x", x)
    if x.dtype.kind != "c":
        raise TypeError(f"MatrixLogarithm: x must be complex64 or complex128, got "
                        f"{x.dtype}")
    w, v = np.linalg.eig(x.astype(np.complex128))
    if np.any(np.linalg.cond(v) > 1e12):
        raise ValueError("MatrixLogarithm: x is not diagonalisable (its eigenvectors "
                         "are numerically dependent)")
    y = (v * np.log(w)[..., None, :]) @ np.linalg.inv(v)
    return y.astype(x.dtype)
