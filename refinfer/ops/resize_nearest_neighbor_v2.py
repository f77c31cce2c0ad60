"""ResizeNearestNeighborV2."""
from refinfer import args
from refinfer.registry import register, register_kernel

from ._ref.common import NUMBERS
from ._kernels.resize import check_image, fast_resize, resize


@register("ResizeNearestNeighborV2", family="nn", dtypes=NUMBERS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean})
def resize_nearest_neighbor_v2(image, size, align_corners=False,
                               half_pixel_centers=False):
    """Nearest-neighbour resize of the last two axes to size (TensorFlow rules).

    Output index i copies input index floor(src) (round(src), half away
    from zero, under align_corners), src = (i + 0.5) * scale with
    half_pixel_centers, else i * scale; scale (in - 1) / (out - 1) under
    align_corners, else in / out; clamped into the input (see
    ops/_resize.py). ops.interpolate(mode="nearest") exports
    (False, False), PyTorch's "nearest".

    Arguments: image (N, C, H, W); size (out_h, out_w); align_corners=False;
    half_pixel_centers=False. dtypes: floats and integers.
    """
    return _resize_nearest(resize, image, size, align_corners,
                           half_pixel_centers)


def _resize_nearest(sample, image, size, align_corners, half_pixel_centers):
    """ResizeNearestNeighborV2 with ``sample`` (ops/_resize.resize or its
    fast twin)."""
    check_image("ResizeNearestNeighborV2", image, size)
    return sample(image, size, "nearest", align_corners, half_pixel_centers)


# -- numba backend -------------------------------------------------------------
@register_kernel("ResizeNearestNeighborV2", "numba")
def resize_nearest_neighbor_v2_numba(image, size, align_corners=False,
                                     half_pixel_centers=False):
    """ResizeNearestNeighborV2 with the resize kernels of ops/_resize.py."""
    return _resize_nearest(fast_resize, image, size, align_corners,
                           half_pixel_centers)
