"""Identity, Contiguous, Copy and ConvertToDynamic."""
from refinfer.registry import register

from ._ref.common import ALL


@register("Identity", "Contiguous", "Copy", "ConvertToDynamic", family="shape",
          dtypes=ALL, no_kernel="view")
def identity(input_x):
    """Return the input unchanged (same array; kernels never write inputs).

    Also Contiguous and Copy (a contiguous copy in MindSpore; arrays here
    are never aliased for writing) and ConvertToDynamic (marks its input's
    shape dynamic for the compiler; its is_dynamic_rank attribute changes
    no value).
    """
    return input_x
