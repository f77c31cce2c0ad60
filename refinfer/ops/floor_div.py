"""FloorDiv and its in-place spellings."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.inplace import register_inplace
from ._ref.math import floor_divide


@register("FloorDiv", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.FLOOR_DIV)})
def floor_div(input, other):
    """Elementwise floor division with broadcasting: y = floor(input / other).

    Arguments: input, other (tensors or Python scalars; what ``x // y``
    exports), promoted as for arithmetic; the result keeps the promoted
    dtype. Floats: x // 0 is +-inf, 0 // 0 NaN. Integers: exact floor
    (-7 // 2 = -4); x // 0 saturates to the dtype's max (x > 0) or min
    (x < 0), 0 // 0 = 0, as MindSpore 2.7.1 CPU. Bool is rejected.
    InplaceFloorDivide and InplaceFloorDivides (x.floor_divide_(y)) write
    the quotient into input (``ops._ref.inplace``).
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("FloorDiv does not support bool operands")
    return floor_divide(a, b)


register_inplace("FloorDiv", "InplaceFloorDivide", "InplaceFloorDivides")
