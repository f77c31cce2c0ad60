"""Diag."""
import math

import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("Diag", family="shape", dtypes=ALL, no_kernel="copy")
def diag(input_x):
    """A tensor of shape input_x.shape * 2 with input_x on its diagonal.

    y[i1, ..., ik, i1, ..., ik] = input_x[i1, ..., ik], zero elsewhere (the
    inverse of DiagPart). Argument: input_x (rank >= 1). All dtypes.
    """
    if input_x.ndim == 0:
        raise ValueError("Diag: input_x must have rank >= 1, got a 0-d tensor")
    size = math.prod(input_x.shape)
    out = np.zeros((size, size), input_x.dtype)
    np.fill_diagonal(out, input_x.reshape(-1))
    return out.reshape(input_x.shape * 2)
