"""FFT, FFT2 and FFTN: the discrete Fourier transform.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, transform, transform_n


@register("FFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def fft(input, n=None, dim=-1, norm=None):
    """The discrete Fourier transform along one axis (FFT).

    Y[k] = sum_j x[j] exp(-2 pi i j k / n) along dim.

    Arguments: input, n=None, dim=-1, norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform("FFT", np.fft.fft, input, n, dim, norm)


@register("FFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def fft2(input, s=None, dim=(-2, -1), norm=None):
    """The discrete Fourier transform over two axes (FFT2).

    The FFT along each of the two axes of dim.

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("FFT2", np.fft.fftn, input, s, dim, norm)


@register("FFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def fftn(input, s=None, dim=None, norm=None):
    """The discrete Fourier transform over several axes (FFTN).

    The FFT along each axis of dim.

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("FFTN", np.fft.fftn, input, s, dim, norm)
