"""Trace."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS


@register("Trace", family="reduction", dtypes=NUMBERS, no_kernel="native")
def trace(input):
    """The sum of the main diagonal of a matrix: y = sum_i input[i, i].

    Argument: input (2-D). Output: a 0-d tensor of input's dtype.
    """
    if input.ndim != 2:
        raise ValueError(f"Trace: input must be 2-D, got shape {input.shape}")
    return np.asarray(np.trace(input), input.dtype)
