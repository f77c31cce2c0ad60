"""LRN."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.window import check_4d


@register("LRN", family="nn", dtypes=FLOATS,
          convert={name: args.scalar for name in ("depth_radius", "bias", "alpha",
                                                  "beta")}, no_kernel="vectorised")
def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
        norm_region="ACROSS_CHANNELS"):
    """Local response normalisation across channels (AlexNet, TensorFlow's rule).

    y[n, c] = x[n, c] / (bias + alpha * sum_{|c' - c| <= depth_radius}
    x[n, c'] ** 2) ** beta (alpha is not divided by the window size).
    Arguments (classic PRIMITIVE): x (N, C, H, W); depth_radius=5; bias=1.0;
    alpha=1.0; beta=0.5; norm_region="ACROSS_CHANNELS" (the only one).
    float16 is computed in float32.
    """
    check_4d(x, "LRN")
    if str(norm_region).upper() != "ACROSS_CHANNELS":
        raise ValueError(f"LRN: norm_region must be ACROSS_CHANNELS, got {norm_region!r}")
    radius, channels = int(depth_radius), x.shape[1]
    if radius < 0:
        raise ValueError(f"LRN: depth_radius must be >= 0, got {radius}")
    wide = x.astype(compute_dtype(x.dtype))
    squares = np.cumsum(np.pad(wide * wide, ((0, 0), (1, 0), (0, 0), (0, 0))), axis=1)
    high = np.minimum(np.arange(channels) + radius + 1, channels)
    low = np.maximum(np.arange(channels) - radius, 0)
    window = squares[:, high] - squares[:, low]
    return as_result(wide / (bias + alpha * window) ** beta, x.dtype)
