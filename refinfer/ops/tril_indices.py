"""TrilIndices and TriuIndices."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import INTS

CONVERT = {"row": args.integer, "col": args.integer, "offset": args.integer,
           "dtype": args.dtype}


def _indices(name, numpy_indices, row, col, offset, dtype):
    if row < 0 or col < 0:
        raise ValueError(f"{name}: row and col must be >= 0, got {row} and {col}")
    return np.stack(numpy_indices(row, offset, col)).astype(dtype)


@register("TrilIndices", family="shape", dtypes=INTS, no_kernel="vectorised",
          convert=CONVERT)
def tril_indices(row, col, offset=0, dtype=np.int32):
    """The coordinates of a row x col matrix's lower triangle, as a (2, n) tensor.

    Row-major order: y[:, k] = (i, j) with j <= i + offset. Arguments
    (attributes; the op has no inputs): row, col, offset=0, dtype=int32.
    """
    return _indices("TrilIndices", np.tril_indices, row, col, offset, dtype)


@register("TriuIndices", family="shape", dtypes=INTS, no_kernel="vectorised",
          convert=CONVERT)
def triu_indices(row, col, offset=0, dtype=np.int32):
    """The coordinates of a row x col matrix's upper triangle, as a (2, n) tensor.

    Row-major order: y[:, k] = (i, j) with j >= i + offset. Arguments
    (attributes; the op has no inputs): row, col, offset=0, dtype=int32.
    """
    return _indices("TriuIndices", np.triu_indices, row, col, offset, dtype)
