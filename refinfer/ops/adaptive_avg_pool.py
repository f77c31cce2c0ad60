"""AdaptiveAvgPool1D/2D/3D and AdaptiveAvgPool2DExt/3DExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import window
from ._ref.common import FLOATS
from ._ref.pool import adaptive_avg_pool, check_output_size

@register("AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveAvgPool1D",
          "AdaptiveAvgPool2DExt", "AdaptiveAvgPool3DExt", family="nn",
          dtypes=FLOATS, convert={"output_size": args.ints},
          kernels={"numba": window.adaptive_avg_pool_nd})
def adaptive_avg_pool_nd(input, output_size):
    """Adaptive average pooling to a fixed output size over trailing axes.

    Along an axis of length L pooled to n, output i averages the input
    over [floor(i * L / n), ceil((i + 1) * L / n)) (bins may overlap).

    Arguments: input (..., *spatial); output_size (int or one entry per
    pooled axis; the number of entries picks the axes; -1 / None keeps an
    axis). nn.AdaptiveAvgPool2d / 3d export the classic PRIMITIVEs
    AdaptiveAvgPool2D / 3D (output_size an attribute); the 1D and Ext
    variants take it as an input. dtypes: float16 (accumulated in
    float32), float32, float64.
    """
    check_output_size("AdaptiveAvgPool", input, output_size)
    return adaptive_avg_pool(input, output_size)
