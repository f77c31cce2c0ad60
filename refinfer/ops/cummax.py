"""Cummax."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import running_extreme


@register("Cummax", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar})
def cummax(input, axis):
    """Running maximum along one axis and its position: (values, int64 indices).

    Arguments: input; axis. On ties the index moves to the latest equal
    value ([1, 3, 3] -> indices [0, 1, 2]), as MindSpore 2.7.1 CPU.
    """
    return running_extreme(input, axis, largest=True, index_dtype="int64")


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Cummax", "numba")
def cummax_numba(input, axis):
    """Cummax with the scan runner (float32/64, int32/64); other dtypes
    through the reference."""
    return _fast_reduce.or_reference(_fast_reduce.scan(_fast_reduce.CUMMAX, input, axis),
                                     cummax, input, axis)
