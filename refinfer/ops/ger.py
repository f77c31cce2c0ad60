"""Ger."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("Ger", family="linalg", dtypes=NUMBERS, no_kernel="native")
def ger(input, vec2):
    """The outer product of two vectors: y[i, j] = input[i] * vec2[j].

    Arguments (classic PRIMITIVE): input (n,), vec2 (m,), one dtype. Output
    (n, m).
    """
    if input.ndim != 1 or vec2.ndim != 1:
        raise ValueError(f"Ger: input and vec2 must be 1-D, got {input.shape} and "
                         f"{vec2.shape}")
    a, b = promote(input, vec2)
    return as_result(np.outer(a, b))
