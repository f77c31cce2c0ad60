"""TypeAs."""
from refinfer.registry import register

from ._ref.common import ALL, cast, require_tensors


@register("TypeAs", family="shape", dtypes=ALL, no_kernel="copy")
def type_as(input, other):
    """input converted to other's dtype (Tensor.type_as).

    y = Cast(input, other.dtype): floats to integers truncate toward zero as
    MindSpore's Cast (NaN and out-of-range values as its CPU kernel gives
    them). Arguments: input, other (tensors; only other's dtype is read).
    """
    require_tensors("TypeAs", input=input, other=other)
    return cast(input, other.dtype)
