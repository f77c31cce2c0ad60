"""SoftShrink."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("SoftShrink", family="activation", dtypes=FLOATS,
          convert={"lambd": args.scalar})
def soft_shrink(input, lambd=0.5):
    """Soft shrinkage: x - lambd above lambd, x + lambd below -lambd, else 0.

    Arguments: input; lambd=0.5 (>= 0). float16 is computed in float32.
    """
    return unary_float(
        lambda x: np.where(x > lambd, x - lambd,
                           np.where(x < -lambd, x + lambd, 0)), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("SoftShrink", "numba")
def soft_shrink_numba(input, lambd=0.5):
    """SoftShrink of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("SoftShrink", soft_shrink, input, lambd)
