"""Eye."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Eye", family="shape", dtypes=ALL,
          convert={"n": args.scalar, "m": args.scalar, "dtype": args.dtype},
          no_kernel="native")
def eye(n, m, dtype):
    """An n x m matrix with ones on the main diagonal and zeros elsewhere.

    Arguments: n, m (ints >= 0); dtype (TypeId). What ops.eye exports.
    """
    return np.eye(int(n), int(m), dtype=dtype)
