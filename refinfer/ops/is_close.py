"""IsClose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, compute_dtype, promote


@register("IsClose", family="comparison", dtypes=ALL,
          convert={"rtol": args.scalar, "atol": args.scalar,
                   "equal_nan": args.boolean},
          kernels={"numba": logic.is_close})
def is_close(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise closeness test with broadcasting (bool result).

    True where |input - other| <= atol + rtol * |other| for finite values,
    where both are equal (so +inf == +inf, but never inf and -inf), or,
    with equal_nan, where both are NaN. Arguments: input,
    other (promoted as for arithmetic, then compared in float64 for
    integers and in the float dtype otherwise); rtol=1e-05; atol=1e-08;
    equal_nan=False.
    """
    a, b = promote(input, other)
    work = compute_dtype(a.dtype) if a.dtype.kind == "f" else np.dtype(np.float64)
    a, b = a.astype(work), b.astype(work)
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.abs(a - b) <= atol + rtol * np.abs(b)
        close = (a == b) | (near & np.isfinite(a) & np.isfinite(b))
    if equal_nan:
        close |= np.isnan(a) & np.isnan(b)
    return as_result(close)
