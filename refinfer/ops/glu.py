"""GLU."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import logistic, unary_float


@register("GLU", family="activation", dtypes=FLOATS, convert={"axis": args.scalar},
          no_kernel="vectorised")
def glu(x, axis=-1):
    """Gated linear unit: the first half of x times the sigmoid of the second.

    a, b = the two halves of x along axis; y = a * sigmoid(b). Arguments:
    x (float; that axis of even length); axis=-1 (an attribute, negative
    allowed). float16 is computed in float32.
    """
    dim = int(axis)
    if x.ndim == 0 or not -x.ndim <= dim < x.ndim or x.shape[dim] % 2:
        raise ValueError(f"GLU: axis {dim} of x {x.shape} must exist and have an "
                         f"even length")
    return unary_float(lambda v: np.multiply(*_halves(v, dim)), x)


def _halves(v, axis):
    a, b = np.split(v, 2, axis=axis)
    return a, logistic(b)
