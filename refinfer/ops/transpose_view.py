"""TransposeView."""
from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.shape import transposed


@register("TransposeView", family="shape", dtypes=ALL,
          convert={"input_perm": args.ints}, kernels={"numba": shape.transpose})
def transpose_view(input, input_perm):
    """Permute axes, as Transpose (mint.einsum and view-mode permute export it).

    Arguments: input; input_perm (a permutation of range(rank), negative
    allowed). MindSpore returns a view that shares memory (hence the
    Load/UpdateState chains around it in exports); this returns a copy.
    """
    return transposed(input, input_perm)
