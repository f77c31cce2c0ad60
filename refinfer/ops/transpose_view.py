"""TransposeView."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from .transpose import transpose


@register("TransposeView", family="shape", dtypes=ALL,
          convert={"input_perm": args.ints})
def transpose_view(input, input_perm):
    """Permute axes, as Transpose (mint.einsum and view-mode permute export it).

    Arguments: input; input_perm (a permutation of range(rank), negative
    allowed). MindSpore returns a view that shares memory (hence the
    Load/UpdateState chains around it in exports); this returns a copy.
    """
    return transpose(input, input_perm)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from .transpose import transpose_numba  # noqa: E402


@register_kernel("TransposeView", "numba")
def transpose_view_numba(input, input_perm):
    """TransposeView as Transpose's kernel."""
    return transpose_numba(input, input_perm)
