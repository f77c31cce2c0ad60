"""AdaptiveAvgPool1D/2D/3D and AdaptiveAvgPool2DExt/3DExt."""
from refinfer import args
from refinfer.registry import register, register_kernel

from ._kernels import window as _fast_window
from ._ref.common import FLOATS
from ._ref.pool import adaptive_avg_pool

NAMES = ("AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveAvgPool1D",
         "AdaptiveAvgPool2DExt", "AdaptiveAvgPool3DExt")


def check_output_size(op: str, input, output_size) -> None:
    """An adaptive pool pools at most all of the input's axes."""
    if len(output_size) > input.ndim:
        raise ValueError(f"{op}: output_size {output_size} for input "
                         f"{input.shape}")


@register(*NAMES, family="nn", dtypes=FLOATS, convert={"output_size": args.ints})
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


# -- numba backend -------------------------------------------------------------
def adaptive_avg_pool_numba(input, output_size):
    """AdaptiveAvgPool with the pooling kernel of ops/_fast_window.py
    (float32/float64; other dtypes go to the reference)."""
    check_output_size("AdaptiveAvgPool", input, output_size)
    return _fast_window.adaptive_avg_pool(input, output_size)


for _name in NAMES:
    register_kernel(_name, "numba")(adaptive_avg_pool_numba)
