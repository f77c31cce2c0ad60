"""FillV2."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.fill import filled


@register("FillV2", family="shape", dtypes=ALL, convert={"shape": args.ints},
          no_kernel="copy")
def fill_v2(shape, value):
    """A tensor of the given shape filled with a one-element tensor's value.

    What ops.fill / ops.full export when the value is a tensor. Arguments
    (classic PRIMITIVE): shape (tuple or 1-D int tensor); value (0-d or
    one-element tensor; the output takes its dtype). All dtypes.
    """
    if value.size != 1:
        raise ValueError(f"FillV2: value must hold one element, got shape "
                         f"{value.shape}")
    return filled(shape, value)
