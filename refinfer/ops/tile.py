"""Tile."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL


@register("Tile", family="shape", dtypes=ALL, convert={"dims": args.ints},
          kernels={"numba": shape.tile})
def tile(input, dims):
    """Repeat the tensor dims[i] times along axis i.

    Arguments: input; dims (tuple). A shorter dims is padded with leading
    1s; a longer one adds leading axes (as np.tile; MindSpore agrees).
    """
    return np.tile(input, dims)

