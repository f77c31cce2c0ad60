"""FFTFreq and RFFTFreq."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS

CONVERT = {"n": args.scalar, "d": args.scalar, "dtype": args.optional_dtype}


def _frequencies(name, sample, n, d, dtype):
    n = int(n)
    if n < 1:
        raise ValueError(f"{name}: n must be >= 1, got {n}")
    # d = 0: MindSpore's CPU kernel divides in floating point (NaN at 0,
    # then +-inf); a NumPy float spacing does the same where a Python
    # float would raise ZeroDivisionError.
    with np.errstate(divide="ignore", invalid="ignore"):
        frequencies = sample(n, np.float64(d))
    return frequencies.astype(np.float32 if dtype is None else dtype)


@register("FFTFreq", family="fft", dtypes=FLOATS, convert=CONVERT, no_kernel="native")
def fft_freq(n, d=1.0, dtype=None):
    """The sample frequencies of an n-point FFT: [0, 1, ..., -1] / (d n).

    y = [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n). Arguments:
    n (int >= 1); d=1.0 (the sample spacing); dtype=None (float32).
    """
    return _frequencies("FFTFreq", np.fft.fftfreq, n, d, dtype)


@register("RFFTFreq", family="fft", dtypes=FLOATS, convert=CONVERT, no_kernel="native")
def rfft_freq(n, d=1.0, dtype=None):
    """The sample frequencies of an n-point RFFT: [0, 1, ..., n // 2] / (d n).

    Arguments: n (int >= 1); d=1.0 (the sample spacing); dtype=None (float32).
    """
    return _frequencies("RFFTFreq", np.fft.rfftfreq, n, d, dtype)
