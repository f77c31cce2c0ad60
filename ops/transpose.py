"""Transpose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import ALL


@register("Transpose", family="shape", dtypes=ALL, convert={"dims": args.ints})
def transpose(input, dims):
    """Permute axes: output axis i is input axis dims[i] (negative allowed).

    Arguments: input; dims (tuple or 1-D tensor), a permutation of
    range(rank); () for a 0-d input.
    """
    if len(dims) != input.ndim:
        raise ValueError(f"Transpose: dims {dims} for rank {input.ndim}")
    return np.transpose(input, dims).copy()  # C-contiguous, keeps 0-d
