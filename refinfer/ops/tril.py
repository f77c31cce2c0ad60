"""Tril and TrilExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("Tril", "TrilExt", family="shape", dtypes=ALL,
          convert={"diagonal": args.scalar}, kernels={"numba": index.tril})
def tril(input, diagonal=0):
    """Lower triangle of the last two axes; the rest is zero.

    y[..., i, j] = input[..., i, j] if j - i <= diagonal else 0.

    Arguments: input (rank >= 2); diagonal=0 (positive: above the main
    diagonal, negative: below). ops.tril exports Tril (classic PRIMITIVE,
    diagonal an attribute); mint.tril exports TrilExt(input, diagonal),
    which MindSpore 2.7.1 cannot run on CPU. All dtypes.
    """
    if input.ndim < 2:
        raise ValueError(f"Tril: input must have rank >= 2, got {input.shape}")
    return np.tril(input, int(diagonal))

