"""Triu."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("Triu", family="shape", dtypes=ALL,
          convert={"diagonal": args.scalar}, kernels={"numba": index.triu})
def triu(input, diagonal=0):
    """Upper triangle of the last two axes; the rest is zero.

    y[..., i, j] = input[..., i, j] if j - i >= diagonal else 0.

    Arguments: input (rank >= 2); diagonal=0 (positive: above the main
    diagonal, negative: below). All dtypes.
    """
    if input.ndim < 2:
        raise ValueError(f"Triu: input must have rank >= 2, got {input.shape}")
    return np.triu(input, int(diagonal))

