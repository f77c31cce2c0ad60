"""Hardtanh."""
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.math import clamp


@register("Hardtanh", family="activation", dtypes=NUMBERS)
def hardtanh(input, min_val=-1, max_val=1):
    """Hard tanh: y = min(max(x, min_val), max_val), elementwise.

    Arguments: input; min_val=-1, max_val=1 (Python numbers). What
    mint.nn.functional.hardtanh and relu6 export; MindSpore 2.7.1 has no
    CPU kernel for it. Output keeps input's dtype.
    """
    return clamp(input, min_val, max_val)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Hardtanh", "numba")
def hardtanh_numba(input, min_val=-1, max_val=1):
    """Hardtanh of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Hardtanh", hardtanh, input, min_val, max_val)
