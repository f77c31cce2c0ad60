"""ResizeBilinearV2."""
from refinfer import args
from refinfer.registry import register, register_kernel

from ._ref.common import FLOATS
from ._kernels.resize import check_image, fast_resize, resize


@register("ResizeBilinearV2", family="nn", dtypes=FLOATS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean})
def resize_bilinear_v2(image, size, align_corners=False,
                       half_pixel_centers=False):
    """Bilinear resize of the last two axes (H, W) to size (TensorFlow rules).

    Output pixel (i, j) samples the input at (src(i), src(j)) and blends
    the four neighbours; src is (i + 0.5) * scale - 0.5 with
    half_pixel_centers, else i * scale, with scale (in - 1) / (out - 1)
    under align_corners, else in / out (see ops/_resize.py).
    ops.interpolate(mode="bilinear") and nn.Upsample export it:
    align_corners=True as (True, False), align_corners=False as
    (False, True), i.e. PyTorch's two conventions.

    Arguments: image (N, C, H, W); size (out_h, out_w); align_corners=False;
    half_pixel_centers=False (not both). dtypes: float16 (computed in
    float32), float32, float64.
    """
    return _resize_bilinear_v2(resize, image, size, align_corners,
                               half_pixel_centers)


def _resize_bilinear_v2(sample, image, size, align_corners, half_pixel_centers):
    """ResizeBilinearV2 with ``sample`` (ops/_resize.resize or its fast
    twin)."""
    if align_corners and half_pixel_centers:
        raise ValueError("ResizeBilinearV2: align_corners and "
                         "half_pixel_centers cannot both be set")
    check_image("ResizeBilinearV2", image, size)
    return sample(image, size, "linear", align_corners, half_pixel_centers)


# -- numba backend -------------------------------------------------------------
@register_kernel("ResizeBilinearV2", "numba")
def resize_bilinear_v2_numba(image, size, align_corners=False,
                             half_pixel_centers=False):
    """ResizeBilinearV2 with the resize kernels of ops/_resize.py."""
    return _resize_bilinear_v2(fast_resize, image, size, align_corners,
                               half_pixel_centers)
