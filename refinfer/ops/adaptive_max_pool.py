"""AdaptiveMaxPool1D and AdaptiveMaxPool2D."""
from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import NUMBERS
from ._ref.pool import adaptive_max_pool, check_output_size


@register("AdaptiveMaxPool2D", "AdaptiveMaxPool1D", family="nn",
          dtypes=NUMBERS, convert={"output_size": args.ints},
          kernels={"numba": window.adaptive_max_pool_nd})
def adaptive_max_pool_nd(input, output_size):
    """Adaptive max pooling over trailing axes; returns (y, argmax).

    Bins as in AdaptiveAvgPool2D; argmax is the position of each maximum
    as a flat index into the pooled axes (int64; first maximum on ties,
    the first NaN wins). Arguments: input (..., *spatial); output_size (one entry
    per pooled axis; -1 / None keeps an axis). nn.AdaptiveMaxPool2d
    exports AdaptiveMaxPool2D + TupleGetItem(0). dtypes: floats, integers.
    """
    check_output_size("AdaptiveMaxPool", input, output_size)
    return adaptive_max_pool(input, output_size)
