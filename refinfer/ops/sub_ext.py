"""SubExt."""
from refinfer.registry import register

from ._kernels.elementwise import SUB_EXT
from ._ref.common import NUMBERS, as_result, promote
from ._ref.math import scaled


@register("SubExt", family="elementwise", dtypes=NUMBERS, recipe=SUB_EXT)
def sub_ext(input, other, alpha=1):
    """Elementwise y = input - alpha * other, with broadcasting (mint.sub).

    Arguments: input, other (tensors or Python scalars, promoted as for Sub);
    alpha=1 (Python number, applied in the result dtype; a float alpha with
    integer operands is refused). Integers wrap.
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("SubExt does not support bool operands")
    return as_result(a - scaled(b, alpha, "SubExt"), a.dtype)
