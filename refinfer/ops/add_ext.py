"""AddExt."""
from refinfer.registry import register

from ._kernels.elementwise import ADD_EXT
from ._ref.common import ALL, as_result, promote
from ._ref.math import scaled


@register("AddExt", family="elementwise", dtypes=ALL, recipe=ADD_EXT)
def add_ext(input, other, alpha=1):
    """Elementwise y = input + alpha * other, with broadcasting (mint.add).

    Arguments: input, other (tensors or Python scalars, promoted as for Add);
    alpha=1 (Python number, applied in the result dtype; a float alpha with
    integer operands is refused, as in MindSpore). bool + bool is logical or.
    """
    a, b = promote(input, other)
    return as_result(a + scaled(b, alpha, "AddExt"), a.dtype)
