"""MatrixPower."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, compute_dtype, square_matrices


@register("MatrixPower", family="linalg", dtypes=NUMBERS, no_kernel="native",
          convert={"n": args.integer})
def matrix_power(x, n):
    """Each square matrix of the last two axes raised to an integer power.

    y = x @ x @ ... (n factors); n = 0 gives the identity, n < 0 the power
    of the inverse (float inputs; a singular matrix is a clear error).
    Arguments (classic PRIMITIVE): x (..., m, m); n (attribute). Output:
    x's dtype; float16 computed in float32.
    """
    square_matrices("MatrixPower", "x", x)
    if n < 0 and x.dtype.kind != "f":
        raise ValueError(f"MatrixPower: a negative power needs a float x, got n={n} "
                         f"and {x.dtype}")
    try:
        return np.linalg.matrix_power(x.astype(compute_dtype(x.dtype)), n).astype(x.dtype)
    except np.linalg.LinAlgError as error:
        raise ValueError(f"MatrixPower: x holds a singular matrix ({error})") from None
