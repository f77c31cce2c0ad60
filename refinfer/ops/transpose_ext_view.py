"""TransposeExtView."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("TransposeExtView", family="shape", dtypes=ALL,
          convert={"dim0": args.scalar, "dim1": args.scalar})
def transpose_ext_view(input, dim0, dim1):
    """Swap two axes (mint.transpose / Tensor.transpose(dim0, dim1)).

    Arguments: input; dim0, dim1 (negative allowed; equal is a no-op).
    A copy here; MindSpore returns a view. MindSpore 2.7.1 cannot run it
    on CPU. All dtypes.
    """
    if input.ndim == 0:
        return input.copy()
    return np.swapaxes(input, int(dim0), int(dim1)).copy()


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("TransposeExtView", "numba")
def transpose_ext_view_numba(input, dim0, dim1):
    """The swap as a blocked copy (_fast_shape.permute); out-of-range dims
    and 0-d inputs go to the reference."""
    dim0, dim1, rank = int(dim0), int(dim1), input.ndim
    if not (-rank <= dim0 < rank and -rank <= dim1 < rank):
        return transpose_ext_view(input, dim0, dim1)
    perm = list(range(rank))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    y = _fast_shape.permute(input, perm)
    return transpose_ext_view(input, dim0, dim1) if y is None else y
