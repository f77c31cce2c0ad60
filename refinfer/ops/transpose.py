"""Transpose."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.shape import transposed


@register("Transpose", family="shape", dtypes=ALL, convert={"dims": args.ints},
          kernels={"numba": shape.transpose})
def transpose(input, dims):
    """Permute axes: output axis i is input axis dims[i] (negative allowed).

    Arguments: input; dims (tuple or 1-D tensor), a permutation of
    range(rank); () for a 0-d input.
    """
    return transposed(input, dims)
