"""IRFFT, IRFFT2 and IRFFTN: the real inverses of RFFT.

Arguments, norm modes and result dtypes: ``ops/_ref/fft.py``.
"""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.fft import AXES, NORM, transform, transform_n


@register("IRFFT", family="fft", dtypes=NUMBERS, convert=NORM, no_kernel="native")
def irfft(input, n=None, dim=-1, norm=None):
    """The real inverses of RFFT along one axis (IRFFT).

    The real signal of n values whose RFFT is x (bins 0 .. n // 2 of a
    Hermitian spectrum).

    Arguments: input, n=None, dim=-1, norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform("IRFFT", np.fft.irfft, input, n, dim, norm, real_out=True)


@register("IRFFT2", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """The real inverses of RFFT over two axes (IRFFT2).

    The inverse of RFFT2 (the last axis of dim is the halved one).

    Arguments: input, s=None, dim=(-2, -1), norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform_n("IRFFT2", np.fft.irfftn, input, s, dim, norm, real_out=True)


@register("IRFFTN", family="fft", dtypes=NUMBERS, convert=AXES, no_kernel="native")
def irfftn(input, s=None, dim=None, norm=None):
    """The real inverses of RFFT over several axes (IRFFTN).

    The inverse of RFFTN (the last axis of dim is the halved one).

    Arguments: input, s=None, dim=None (None: the last len(s)
    axes, or all), norm=None.
    Result: float32 (float64 for double inputs).
    """
    return transform_n("IRFFTN", np.fft.irfftn, input, s, dim, norm, real_out=True)
