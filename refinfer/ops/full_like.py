"""FullLike."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled


@register("FullLike", family="shape", dtypes=ALL,
          convert={"dtype": args.optional_dtype}, no_kernel="copy")
def full_like(input, fill_value, dtype=None):
    """A tensor of input's shape filled with fill_value.

    Arguments: input; fill_value (scalar or 0-d tensor); dtype=None
    (TypeId; None keeps input's dtype, the value is cast to it).
    """
    return filled(input.shape, fill_value,
                  input.dtype if dtype is None else dtype)
