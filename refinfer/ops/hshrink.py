"""HShrink."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result


@register("HShrink", family="activation", dtypes=FLOATS,
          convert={"lambd": args.scalar})
def hshrink(input, lambd=0.5):
    """Hard shrinkage: y = x where |x| > lambd, 0 elsewhere.

    Arguments: input; lambd=0.5. Output has input's dtype.
    """
    keep = np.abs(input.astype(np.float64)) > lambd
    return as_result(np.where(keep, input, input.dtype.type(0)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("HShrink", "numba")
def hshrink_numba(input, lambd=0.5):
    """HShrink of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("HShrink", hshrink, input, lambd)
