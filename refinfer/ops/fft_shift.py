"""FFTShift and IFFTShift."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fft import optional_ints
from ._ref.reduce import reduce_axes

DIM = {"dim": optional_ints}


@register("FFTShift", family="fft", dtypes=ALL, convert=DIM, no_kernel="copy")
def fft_shift(input, dim=None):
    """Moves the zero-frequency bin to the centre: a roll by n // 2 per axis.

    y = roll(input, n // 2) along each axis of dim (None: every axis), so
    [0, 1, 2, 3, 4] -> [3, 4, 0, 1, 2]. Arguments: input; dim=None. All dtypes.
    """
    return np.fft.fftshift(input, _checked(dim, input))


@register("IFFTShift", family="fft", dtypes=ALL, convert=DIM, no_kernel="copy")
def ifft_shift(input, dim=None):
    """The inverse of FFTShift: a roll by -(n // 2) per axis.

    [3, 4, 0, 1, 2] -> [0, 1, 2, 3, 4] (odd n: not FFTShift again). Arguments:
    input; dim=None (every axis). All dtypes.
    """
    return np.fft.ifftshift(input, _checked(dim, input))


def _checked(dim, input):
    """dim as given, each axis in range and named once (a clear error
    where NumPy's would be an IndexError)."""
    if dim:
        reduce_axes(dim, input.ndim)
    return dim
