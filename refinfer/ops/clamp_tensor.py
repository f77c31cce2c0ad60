"""ClampTensor."""
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.math import clamp


@register("ClampTensor", family="elementwise", dtypes=NUMBERS)
def clamp_tensor(input, min=None, max=None):
    """Elementwise clamp to [min, max] with tensor bounds, broadcast.

    Arguments: input; min=None, max=None (tensors broadcastable to input;
    None: no bound on that side). y = minimum(maximum(x, min), max). The
    output keeps input's dtype: bounds are converted to it first.
    """
    return clamp(input, min, max)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("ClampTensor", "numba")
def clamp_tensor_numba(input, min=None, max=None):
    """ClampTensor of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("ClampTensor", clamp_tensor, input, min, max)
