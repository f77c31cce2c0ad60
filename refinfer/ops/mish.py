"""Mish, MishExt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Mish", "MishExt", family="activation", dtypes=FLOATS)
def mish(input):
    """Mish: y = x * tanh(softplus(x)) = x * tanh(ln(1 + e ** x)).

    Argument: input; float16 is computed in float32. MishExt is what
    mint.nn.functional.mish exports (no CPU kernel in MindSpore 2.7.1).
    """
    return unary_float(lambda x: x * np.tanh(np.logaddexp(0, x)), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Mish", "numba")
@register_kernel("MishExt", "numba")
def mish_numba(input):
    """Mish / MishExt of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("Mish", mish, input)
