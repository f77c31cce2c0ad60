"""CholeskyInverse."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, square_matrices
from ._ref.linalg import solve


@register("CholeskyInverse", family="linalg", dtypes=FLOATS, no_kernel="native",
          convert={"upper": args.boolean})
def cholesky_inverse(input_x, upper=False):
    """The inverse of A from its Cholesky factor.

    A = L @ L^T with L = input_x (upper=False), or A = U^T @ U with U =
    input_x (upper=True); y = A^-1. MindSpore's CPU kernel multiplies the
    whole of input_x, not only its triangle: so does this (a factor from
    Cholesky has zeros there anyway). Arguments: input_x (n, n);
    upper=False. Output: input_x's dtype (float16 computed in float32); a
    singular factor is a clear error.
    """
    square_matrices("CholeskyInverse", "input_x", input_x)
    factor = input_x.astype(compute_dtype(input_x.dtype))
    a = factor.swapaxes(-1, -2) @ factor if upper else factor @ factor.swapaxes(-1, -2)
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return solve("CholeskyInverse", a, eye).astype(input_x.dtype)
