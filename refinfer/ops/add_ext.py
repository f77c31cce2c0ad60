"""AddExt and AddScalar, and their in-place spellings."""
from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import ADD_EXT
from ._ref.common import ALL, as_result, promote
from ._ref.inplace import register_inplace
from ._ref.math import scaled


@register("AddExt", "AddScalar", family="elementwise", dtypes=ALL, recipe=ADD_EXT,
          convert={"alpha": args.scalar})
def add_ext(input, other, alpha=1):
    """Elementwise y = input + alpha * other, with broadcasting (mint.add).

    Arguments: input, other (tensors or Python scalars, promoted as for Add);
    alpha=1 (Python number, applied in the result dtype; a float alpha with
    integer operands is refused, as in MindSpore). bool + bool is logical or.
    AddScalar (what mint.add(x, 2.0) exports) is the same with a Python
    number ``other``; InplaceAddExt and InplaceAddsExt (x.add_(y), x.add_(2))
    write the sum into input (``ops._ref.inplace``).
    """
    a, b = promote(input, other)
    return as_result(a + scaled(b, alpha, "AddExt"), a.dtype)


register_inplace("AddExt", "InplaceAddExt", "InplaceAddsExt")
