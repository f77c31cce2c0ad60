"""Elu, EluExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Elu", "EluExt", family="activation", dtypes=FLOATS,
          convert={"alpha": args.scalar})
def elu(input, alpha=1.0):
    """Exponential linear unit: y = x for x > 0, alpha (e ** x - 1) else.

    Arguments: input; alpha=1.0 (MindSpore's Elu accepts only 1.0; EluExt,
    what mint.nn.functional.elu exports, any value but has no CPU kernel in
    2.7.1). float16 is computed in float32.
    """
    return unary_float(
        lambda x: np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Elu", "numba")
@register_kernel("EluExt", "numba")
def elu_numba(input, alpha=1.0):
    """Elu / EluExt of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("Elu", elu, input, alpha)
