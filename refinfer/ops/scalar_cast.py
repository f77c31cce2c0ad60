"""ScalarCast."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand


@register("ScalarCast", family="scalar", dtypes=SCALARS,
          convert={"input_y": args.dtype})
def scalar_cast(input_x, input_y):
    """Convert a scalar to another scalar type: ``int(x)``, ``float(x)`` or
    ``bool(x)`` in a graph.

    Arguments: input_x (scalar); input_y (the target type: a TypeId int in
    MindIR, e.g. 35 = int64, 43 = float32, 30 = bool). Floats to integers
    truncate toward zero (int(-2.7) = -2); integer targets give a Python
    int, bool a Python bool, float targets a NumPy float of that width.
    """
    x, dtype = operand(input_x), np.dtype(input_y)
    if dtype.kind == "b":
        return bool(x)
    if dtype.kind in "iu":
        return int(x)
    return dtype.type(x)
