"""IHFFT, IHFFT2 and IHFFTN: the inverses of HFFT.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, hermitian_ifftn, transform, transform_n


@register("IHFFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def ihfft(input, n=None, dim=-1, norm=None):
    """The inverses of HFFT along one axis (IHFFT).

    The first half (bins 0 .. n // 2) of the inverse FFT of real x:
    conj(rfft(x)), scaled as an inverse transform.

    Arguments: input, n=None, dim=-1, norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform("IHFFT", np.fft.ihfft, input, n, dim, norm, real_in=True)


@register("IHFFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverses of HFFT over two axes (IHFFT2).

    IHFFT over the two axes of dim (the last one halved).

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("IHFFT2", hermitian_ifftn, input, s, dim, norm, real_in=True)


@register("IHFFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def ihfftn(input, s=None, dim=None, norm=None):
    """The inverses of HFFT over several axes (IHFFTN).

    IHFFT over the axes of dim (the last one halved).

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: complex64 (complex128 for double inputs).
    """
    return transform_n("IHFFTN", hermitian_ifftn, input, s, dim, norm, real_in=True)
