"""ComplexAbs."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS


@register("ComplexAbs", family="elementwise", dtypes=FLOATS, no_kernel="native")
def complex_abs(x):
    """Elementwise modulus of a complex tensor: y = sqrt(re ** 2 + im ** 2).

    Argument: x (complex64 -> float32, complex128 -> float64); computed
    without overflow (hypot). A real tensor gives its absolute value.
    """
    return np.asarray(np.abs(x))
