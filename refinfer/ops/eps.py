"""Eps."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS


@register("Eps", family="elementwise", dtypes=FLOATS, no_kernel="copy")
def eps(x):
    """A tensor of x's shape and dtype filled with its machine epsilon.

    y = finfo(x.dtype).eps everywhere: 2**-10 (float16), 2**-23 (float32),
    2**-52 (float64), the gap between 1 and the next float. Argument: x
    (float tensor; only its shape and dtype are read).
    """
    if x.dtype.kind != "f":
        raise TypeError(f"Eps: x must be a float tensor, got {x.dtype}")
    return np.full(x.shape, np.finfo(x.dtype).eps, x.dtype)
