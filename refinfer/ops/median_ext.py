"""MedianExt."""
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import lower_median


@register("MedianExt", family="reduction", dtypes=NUMBERS)
def median_ext(input):
    """Median of all elements, 0-d (mint.median(x)).

    For an even count the lower of the two middle values. MindSpore 2.7.1
    has no CPU kernel for it.
    """
    return lower_median(input.reshape(-1), 0)[0]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("MedianExt", "numba")
def median_ext_numba(input):
    """MedianExt of float32/float64 tensors with the median selection on the
    flattened input; other dtypes through the reference."""
    found = _fast_reduce.median(input.reshape(-1), 0)
    return median_ext(input) if found is None else found[0]
