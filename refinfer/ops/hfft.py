"""HFFT, HFFT2 and HFFTN: the Fourier transform of a Hermitian signal.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, hermitian_fftn, transform, transform_n


@register("HFFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def hfft(input, n=None, dim=-1, norm=None):
    """The Fourier transform of a Hermitian signal along one axis (HFFT).

    The real FFT of a Hermitian signal given by its first half:
    irfft(conj(x)), scaled as a forward transform.

    Arguments: input, n=None, dim=-1, norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform("HFFT", np.fft.hfft, input, n, dim, norm, real_out=True)


@register("HFFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """The Fourier transform of a Hermitian signal over two axes (HFFT2).

    HFFT over the two axes of dim (the last one is the halved one).

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform_n("HFFT2", hermitian_fftn, input, s, dim, norm, real_out=True)


@register("HFFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def hfftn(input, s=None, dim=None, norm=None):
    """The Fourier transform of a Hermitian signal over several axes (HFFTN).

    HFFT over the axes of dim (the last one is the halved one).

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform_n("HFFTN", hermitian_fftn, input, s, dim, norm, real_out=True)
