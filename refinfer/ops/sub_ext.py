"""SubExt and SubScalar, and their in-place spellings."""
from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import SUB_EXT
from ._ref.common import NUMBERS, as_result, promote
from ._ref.inplace import register_inplace
from ._ref.math import scaled


@register("SubExt", "SubScalar", family="elementwise", dtypes=NUMBERS, recipe=SUB_EXT,
          convert={"alpha": args.scalar})
def sub_ext(input, other, alpha=1):
    """Elementwise y = input - alpha * other, with broadcasting (mint.sub).

    Arguments: input, other (tensors or Python scalars, promoted as for Sub);
    alpha=1 (Python number, applied in the result dtype; a float alpha with
    integer operands is refused). Integers wrap. SubScalar (what
    mint.sub(x, 2.0) exports) is the same with a Python number ``other``;
    InplaceSubExt and InplaceSubScalar (x.sub_(y)) write the difference into
    input (``ops._ref.inplace``).
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("SubExt does not support bool operands")
    return as_result(a - scaled(b, alpha, "SubExt"), a.dtype)


register_inplace("SubExt", "InplaceSubExt", "InplaceSubScalar")
