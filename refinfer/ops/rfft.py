"""RFFT, RFFT2 and RFFTN: the Fourier transform of real input.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, transform, transform_n


@register("RFFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def rfft(input, n=None, dim=-1, norm=None):
    """The Fourier transform of real input along one axis (RFFT).

    The FFT of real x, bins 0 .. n // 2 only (the others are their
    conjugates).

    Arguments: input, n=None, dim=-1, norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform("RFFT", np.fft.rfft, input, n, dim, norm, real_in=True)


@register("RFFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """The Fourier transform of real input over two axes (RFFT2).

    The FFT over the two axes of dim, the last one halved as in RFFT.

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("RFFT2", np.fft.rfftn, input, s, dim, norm, real_in=True)


@register("RFFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def rfftn(input, s=None, dim=None, norm=None):
    """The Fourier transform of real input over several axes (RFFTN).

    The FFT over the axes of dim, the last one halved as in RFFT.

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("RFFTN", np.fft.rfftn, input, s, dim, norm, real_in=True)
