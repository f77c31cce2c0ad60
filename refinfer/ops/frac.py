"""Frac."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("Frac", family="elementwise", dtypes=NUMBERS)
def frac(input):
    """Elementwise fractional part: y = x - trunc(x), with x's sign.

    Argument: input; output has its dtype (integers give 0). What mint.frac
    exports (ops.frac exports Mod(x, 1.0)); MindSpore 2.7.1 has no CPU
    kernel for it.
    """
    if input.dtype.kind != "f":
        return np.zeros_like(input)
    return as_result(input - np.trunc(input), input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Frac", "numba")
def frac_numba(input):
    """Frac of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Frac", frac, input)
