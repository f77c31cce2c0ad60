"""ResizeBilinearV2."""
from refinfer import args
from refinfer.registry import register

from ._kernels import resize as resize_kernels
from ._ref.common import FLOATS
from ._ref.resize import resize, resize_bilinear_with


@register("ResizeBilinearV2", family="nn", dtypes=FLOATS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean},
          kernels={"numba": resize_kernels.resize_bilinear_v2})
def resize_bilinear_v2(image, size, align_corners=False,
                       half_pixel_centers=False):
    """Bilinear resize of the last two axes (H, W) to size (TensorFlow rules).

    Output pixel (i, j) samples the input at (src(i), src(j)) and blends
    the four neighbours; src is (i + 0.5) * scale - 0.5 with
    half_pixel_centers, else i * scale, with scale (in - 1) / (out - 1)
    under align_corners, else in / out (see ops/_ref/resize.py).
    ops.interpolate(mode="bilinear") and nn.Upsample export it:
    align_corners=True as (True, False), align_corners=False as
    (False, True), i.e. PyTorch's two conventions.

    Arguments: image (N, C, H, W); size (out_h, out_w); align_corners=False;
    half_pixel_centers=False (not both). dtypes: float16 (computed in
    float32), float32, float64.
    """
    return resize_bilinear_with(resize, image, size, align_corners,
                                half_pixel_centers)
