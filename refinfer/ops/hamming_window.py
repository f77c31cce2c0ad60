"""HammingWindow."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS

# HammingWindow's own codes for its dtype attribute (array_ops.py)
WINDOW_DTYPES = {0: np.float32, 1: np.float16, 11: np.float64}


def window_dtype(value) -> np.dtype:
    """The dtype attribute: HammingWindow's code (0, 1, 11) or a dtype."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if int(value) not in WINDOW_DTYPES:
            raise ValueError(f"HammingWindow: dtype code must be 0 (float32), 1 "
                             f"(float16) or 11 (float64), got {value}")
        return np.dtype(WINDOW_DTYPES[int(value)])
    return args.dtype(value)


@register("HammingWindow", family="fft", dtypes=FLOATS, no_kernel="vectorised",
          convert={"length": args.integer, "periodic": args.boolean,
                   "alpha": args.scalar, "beta": args.scalar, "dtype": window_dtype})
def hamming_window(length, periodic=True, alpha=0.54, beta=0.46, dtype=np.float32):
    """A generalised Hamming window of ``length`` points.

    w[n] = alpha - beta * cos(2 pi n / N), N = length (periodic, for
    spectral analysis) or length - 1 (symmetric); length 1 gives [1].
    Arguments (classic PRIMITIVE): length (a 1-element int tensor);
    periodic=True, alpha=0.54, beta=0.46, dtype=float32 (attributes).
    """
    if length < 0:
        raise ValueError(f"HammingWindow: length must be >= 0, got {length}")
    if length <= 1:
        return np.ones(length, dtype)
    span = length if periodic else length - 1
    n = np.arange(length, dtype=np.float64)
    return (alpha - beta * np.cos(2 * np.pi * n / span)).astype(dtype)
