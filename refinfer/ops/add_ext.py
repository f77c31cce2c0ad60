"""AddExt."""
from refinfer.registry import register

from ._ref.common import ALL, as_result, promote
from ._ref.math import scaled


@register("AddExt", family="elementwise", dtypes=ALL)
def add_ext(input, other, alpha=1):
    """Elementwise y = input + alpha * other, with broadcasting (mint.add).

    Arguments: input, other (tensors or Python scalars, promoted as for Add);
    alpha=1 (Python number, applied in the result dtype; a float alpha with
    integer operands is refused, as in MindSpore). bool + bool is logical or.
    """
    a, b = promote(input, other)
    return as_result(a + scaled(b, alpha, "AddExt"), a.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("AddExt", "numba")
def add_ext_numba(input, other, alpha=1):
    """AddExt of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("AddExt", add_ext, input, other, alpha)
