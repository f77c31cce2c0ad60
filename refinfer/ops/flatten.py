"""Flatten."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("Flatten", family="shape", dtypes=ALL, no_kernel="view")
def flatten(input_x):
    """Keep the first axis and merge the rest: (N, d1, ...) -> (N, d1*...).

    A 1-D input becomes (N, 1) (MindSpore 2.7.1); a 0-d input is an error.
    Size-0 inputs keep their shape arithmetic ((0, 3, 4) -> (0, 12)).
    """
    if input_x.ndim == 0:
        raise ValueError("Flatten: input must have rank >= 1")
    rest = int(np.prod(input_x.shape[1:], dtype=np.int64))
    return input_x.reshape(input_x.shape[0], rest)
