"""Lerp, LerpScalar."""
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.math import common_dtype


@register("Lerp", "LerpScalar", family="elementwise", dtypes=FLOATS)
def lerp(input, end, weight):
    """Linear interpolation: y = input + weight * (end - input), broadcast.

    Arguments: input, end (float tensors); weight (tensor for Lerp, often a
    0-d constant; Python float for LerpScalar). The result has the operands'
    promoted dtype; float16 is computed in float32.
    """
    operands = common_dtype(input, end, weight)
    work = compute_dtype(operands[0].dtype)
    a, b, w = (v.astype(work, copy=False) for v in operands)
    return as_result(a + w * (b - a), operands[0].dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Lerp", "numba")
@register_kernel("LerpScalar", "numba")
def lerp_numba(input, end, weight):
    """Lerp / LerpScalar of float32/float64 tensors (Python numbers beside
    them) through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("Lerp", lerp, input, end, weight)
