"""IFFT, IFFT2 and IFFTN: the inverse discrete Fourier transform.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, transform, transform_n


@register("IFFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def ifft(input, n=None, dim=-1, norm=None):
    """The inverse discrete Fourier transform along one axis (IFFT).

    Y[j] = 1/n sum_k x[k] exp(2 pi i j k / n) along dim.

    Arguments: input, n=None, dim=-1, norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform("IFFT", np.fft.ifft, input, n, dim, norm)


@register("IFFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse discrete Fourier transform over two axes (IFFT2).

    The IFFT along each of the two axes of dim.

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("IFFT2", np.fft.ifftn, input, s, dim, norm)


@register("IFFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def ifftn(input, s=None, dim=None, norm=None):
    """The inverse discrete Fourier transform over several axes (IFFTN).

    The IFFT along each axis of dim.

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("IFFTN", np.fft.ifftn, input, s, dim, norm)
