"""Tile."""
import math

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Tile", family="shape", dtypes=ALL, convert={"dims": args.ints})
def tile(input, dims):
    """Repeat the tensor dims[i] times along axis i.

    Arguments: input; dims (tuple). A shorter dims is padded with leading
    1s; a longer one adds leading axes (as np.tile; MindSpore agrees).
    """
    return np.tile(input, dims)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Tile", "numba")
def tile_numba(input, dims):
    """Tile in one pass, as a gather (_fast_shape.gather) with the index
    maps i mod n, where np.tile makes a pass per repeated axis. One
    repeated axis (a single np.repeat, memcpy-class), small outputs and
    negative dims go to the reference."""
    rank = max(input.ndim, len(dims))
    if min(dims, default=0) < 0 or sum(r != 1 for r in dims) <= 1 \
            or input.size * math.prod(dims) < _fast_shape.SMALL:
        return tile(input, dims)
    x = input.reshape((1,) * (rank - input.ndim) + input.shape)
    reps = (1,) * (rank - len(dims)) + tuple(dims)
    maps = [_fast_shape.COPY if r == 1 else n * r if n == 1 else np.arange(n * r) % n
            for n, r in zip(x.shape, reps)]
    y = _fast_shape.gather(x, maps)
    return tile(input, dims) if y is None else y
