"""MatrixDeterminant and LogMatrixDeterminant."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, square_matrices


@register("MatrixDeterminant", family="linalg", dtypes=FLOATS, no_kernel="native")
def matrix_determinant(input):
    """The determinant of each square matrix of the last two axes (ops.det).

    y = det(input[...]) by LU. Argument: input (..., n, n). Output (...).
    """
    square_matrices("MatrixDeterminant", "input", input)
    return np.asarray(np.linalg.det(input.astype(compute_dtype(input.dtype))),
                      input.dtype)


@register("LogMatrixDeterminant", family="linalg", dtypes=FLOATS, no_kernel="native")
def log_matrix_determinant(input):
    """Sign and log of the absolute determinant per matrix; returns (sign, log|det|).

    det = sign * exp(logabsdet) (ops.slogdet); a singular matrix gives sign 0
    and -inf. Argument: input (..., n, n). Outputs (...), input's dtype.
    """
    square_matrices("LogMatrixDeterminant", "input", input)
    sign, logabs = np.linalg.slogdet(input.astype(compute_dtype(input.dtype)))
    return np.asarray(sign, input.dtype), np.asarray(logabs, input.dtype)
