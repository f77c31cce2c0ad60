"""MatrixInverse."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, square_matrices


@register("MatrixInverse", family="linalg", dtypes=FLOATS,
          convert={"adjoint": args.boolean}, no_kernel="native")
def matrix_inverse(x, adjoint=False):
    """The inverse of each square matrix of the last two axes (LAPACK's LU).

    y = x^-1 (adjoint=True: (x^H)^-1). Arguments (classic PRIMITIVE): x
    (..., n, n); adjoint=False (attribute). A singular matrix is a clear
    error. float16 is inverted in float32.
    """
    square_matrices("MatrixInverse", "x", x)
    work = x.astype(compute_dtype(x.dtype))
    if adjoint:
        work = np.conj(np.swapaxes(work, -1, -2))
    try:
        return np.linalg.inv(work).astype(x.dtype)
    except np.linalg.LinAlgError as error:
        raise ValueError(f"MatrixInverse: x holds a singular matrix ({error})") from None
