"""ApproximateEqual."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype, promote


@register("ApproximateEqual", family="comparison", dtypes=FLOATS,
          convert={"tolerance": args.scalar}, no_kernel="vectorised")
def approximate_equal(x, y, tolerance=1e-05):
    """Elementwise |x - y| < tolerance (bool), with broadcasting.

    Arguments: x, y (float tensors, promoted); tolerance=1e-05 (an
    attribute, strict: a difference of exactly tolerance is False). NaN
    gives False. float16 is compared in float32.
    """
    a, b = promote(x, y)
    work = compute_dtype(a.dtype)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a.astype(work) - b.astype(work))
        return as_result(diff < work.type(tolerance))
