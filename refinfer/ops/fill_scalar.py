"""FillScalar."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled


@register("FillScalar", family="shape", dtypes=ALL,
          convert={"size": args.ints, "dtype": args.optional_dtype},
          no_kernel="copy")
def fill_scalar(size, fill_value, dtype=None):
    """A tensor of shape ``size`` filled with a Python scalar (mint.full).

    Arguments: size (tuple); fill_value (bool, int or float); dtype=None
    (TypeId; None takes the scalar's type: bool, int64 or float32).
    """
    return filled(size, fill_value, dtype)
