"""Cummin."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import running_extreme


@register("Cummin", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar})
def cummin(input, axis):
    """Running minimum along one axis and its position: (values, int32 indices).

    Arguments: input; axis. On ties the index moves to the latest equal
    value, as Cummax. ops.cummin exports it on axis 0 between Transposes.
    """
    return running_extreme(input, axis, largest=False, index_dtype="int32")


# -- numba backend -------------------------------------------------------------
import numpy as np  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Cummin", "numba")
def cummin_numba(input, axis):
    """Cummin with the scan runner (float32/64, int32/64; int32 indices);
    other dtypes through the reference."""
    found = _fast_reduce.scan(_fast_reduce.CUMMIN, input, axis)
    return cummin(input, axis) if found is None else (found[0], found[1].astype(np.int32))
