"""TransposeExtView."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL


@register("TransposeExtView", family="shape", dtypes=ALL,
          convert={"dim0": args.scalar, "dim1": args.scalar},
          kernels={"numba": shape.transpose_ext_view})
def transpose_ext_view(input, dim0, dim1):
    """Swap two axes (mint.transpose / Tensor.transpose(dim0, dim1)).

    Arguments: input; dim0, dim1 (negative allowed; equal is a no-op).
    A copy here; MindSpore returns a view. MindSpore 2.7.1 cannot run it
    on CPU. All dtypes.
    """
    if input.ndim == 0:
        return input.copy()
    return np.swapaxes(input, int(dim0), int(dim1)).copy()

