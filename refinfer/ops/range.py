"""Range."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.sequence import affine, is_float, progression


@register("Range", family="shape", dtypes=NUMBERS,
          convert={"maxlen": args.scalar})
def range_(start, end, step, maxlen=1000000):
    """Arithmetic progression [start, start + step, ...) stopping before end.

    What ops.range / ops.arange export (the bounds arrive as scalars, or as
    0-d tensors). Length ceil((end - start) / step); step 0 or pointing away
    from end raises, as more than maxlen=1000000 elements does.

    Output dtype (MindSpore 2.7.1 CPU): int64 when all three are integers,
    else float32 (also for float64 inputs).
    """
    return _range(start, end, step, maxlen, affine)


def _range(start, end, step, maxlen, fill):
    dtype = np.float32 if is_float(start, end, step) else np.int64
    return progression(start, end, step, dtype, "Range", int(maxlen), fill)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Range", "numba")
def range_numba(start, end, step, maxlen=1000000):
    """The progression in one pass (_fast_shape.affine)."""
    return _range(start, end, step, maxlen, _fast_shape.affine)
