"""PixelShuffle."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("PixelShuffle", family="shape", dtypes=ALL, no_kernel="copy",
          convert={"upscale_factor": args.integer})
def pixel_shuffle(input, upscale_factor):
    """Moves channel blocks into r x r spatial tiles (sub-pixel convolution).

    y[..., c, h * r + i, w * r + j] = input[..., c * r^2 + i * r + j, h, w]
    (channel-major, unlike DepthToSpace's DCR order). Arguments: input
    (..., C * r^2, H, W), rank >= 3; upscale_factor r >= 1. All dtypes.
    """
    r = upscale_factor
    if input.ndim < 3 or r < 1 or input.shape[-3] % (r * r):
        raise ValueError(f"PixelShuffle: input must be (..., C * {r}^2, H, W) with "
                         f"upscale_factor >= 1, got shape {list(input.shape)} and "
                         f"{upscale_factor}")
    *lead, c, h, w = input.shape
    y = input.reshape(*lead, c // (r * r), r, r, h, w)
    k = len(lead)
    y = y.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    return y.reshape(*lead, c // (r * r), h * r, w * r).copy()
