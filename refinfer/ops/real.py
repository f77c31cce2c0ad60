"""Real and Imag."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS


@register("Real", family="elementwise", dtypes=NUMBERS, no_kernel="view")
def real(input):
    """The real part of a complex tensor, elementwise: y = Re(input).

    Argument: input (complex64 -> float32, complex128 -> float64; a real
    tensor is returned as it is, as MindSpore does).
    """
    return np.real(input)


@register("Imag", family="elementwise", dtypes=NUMBERS, no_kernel="view")
def imag(input):
    """The imaginary part of a complex tensor, elementwise: y = Im(input).

    Argument: input (complex64 -> float32, complex128 -> float64; a real
    tensor gives zeros of its dtype).
    """
    return np.imag(input)
