"""Conj."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS


@register("Conj", family="elementwise", dtypes=NUMBERS, no_kernel="copy")
def conj(input):
    """The complex conjugate, elementwise: y = Re(input) - i Im(input).

    Argument: input (complex64 / complex128; a real tensor is returned as it
    is). Output: input's dtype.
    """
    return np.conj(input)
