"""Angle."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS


@register("Angle", family="elementwise", dtypes=NUMBERS, no_kernel="native")
def angle(input):
    """The argument of a complex tensor, elementwise: y = atan2(Im, Re).

    In (-pi, pi]. Argument: input (complex64 -> float32, complex128 ->
    float64; a real tensor gives 0 or pi by its sign, in its dtype).
    """
    return np.angle(input).astype(np.real(input).dtype)
