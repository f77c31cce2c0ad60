"""Reciprocal."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.math import unary_float


@register("Reciprocal", family="elementwise", dtypes=ALL)
def reciprocal(input):
    """Elementwise reciprocal: y = 1 / x.

    Argument: input. Floats keep their dtype (1 / 0 = inf); integer and bool
    inputs give float32 (int32 [0, 2] -> [inf, 0.5]), as MindSpore 2.7.1 CPU.
    """
    return unary_float(lambda x: 1 / x, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Reciprocal", "numba")
def reciprocal_numba(input):
    """Reciprocal of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("Reciprocal", reciprocal, input)
