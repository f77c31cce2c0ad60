"""Pow."""
from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_POW
from ._ref.common import NUMBERS
from ._ref.math import power


@register("Pow", family="elementwise", dtypes=NUMBERS, recipe=binary(OP_POW))
def pow(input, exponent):
    """Elementwise power with broadcasting: y = input ** exponent.

    Arguments: input, exponent (tensors, often a 0-d constant, or Python
    scalars). A 0-d exponent tensor takes part in promotion like any tensor
    (float32 ** float64 0-d -> float64; float16 ** float32 -> float32).
    Floats follow IEEE pow (negative base, fractional exponent -> NaN).
    Integers: non-negative exponents are exact with wrap-around; a negative
    exponent gives the real result truncated as MindSpore CPU casts it
    (2 ** -1 -> 0, (-1) ** -1 -> -1, 0 ** -1 -> int32 minimum).
    """
    return power(input, exponent)
