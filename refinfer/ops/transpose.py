"""Transpose."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Transpose", family="shape", dtypes=ALL, convert={"dims": args.ints})
def transpose(input, dims):
    """Permute axes: output axis i is input axis dims[i] (negative allowed).

    Arguments: input; dims (tuple or 1-D tensor), a permutation of
    range(rank); () for a 0-d input.
    """
    if len(dims) != input.ndim:
        raise ValueError(f"Transpose: dims {dims} for rank {input.ndim}")
    return np.transpose(input, dims).copy()  # C-contiguous, keeps 0-d


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Transpose", "numba")
def transpose_numba(input, dims):
    """Transpose as a blocked copy (_fast_shape.permute); invalid dims and
    dtypes the kernel does not take go to the reference."""
    y = _fast_shape.permute(input, dims)
    return transpose(input, dims) if y is None else y
