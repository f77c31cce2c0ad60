"""SubExt."""
from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote
from ._ref.math import scaled


@register("SubExt", family="elementwise", dtypes=NUMBERS)
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("SubExt", "numba")
def sub_ext_numba(input, other, alpha=1):
    """SubExt of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("SubExt", sub_ext, input, other, alpha)
