"""HSwish."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, compute_dtype


@register("HSwish", family="activation", dtypes=NUMBERS)
def hswish(input):
    """Hard swish: y = x * min(max(x + 3, 0), 6) / 6, elementwise.

    Argument: input. Output has input's dtype; float16 is computed in
    float32. Integer inputs are accepted by MindSpore 2.7.1 CPU and give the
    real result truncated toward zero (int32 [-1, 1, 2, 4] -> [0, 0, 1, 4]).
    """
    work = compute_dtype(input.dtype) if input.dtype.kind == "f" \
        else np.dtype(np.float64)
    x = input.astype(work, copy=False)
    y = x * np.clip(x + 3, 0, 6) / 6
    return as_result(y, input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("HSwish", "numba")
def hswish_numba(input):
    """HSwish of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_HSWISH, hswish, input)
