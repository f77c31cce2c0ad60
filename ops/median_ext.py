"""MedianExt."""
from refinfer.registry import register

from ._common import NUMBERS
from ._search import lower_median


@register("MedianExt", family="reduction", dtypes=NUMBERS)
def median_ext(input):
    """Median of all elements, 0-d (mint.median(x)).

    For an even count the lower of the two middle values. MindSpore 2.7.1
    has no CPU kernel for it.
    """
    return lower_median(input.reshape(-1), 0)[0]
