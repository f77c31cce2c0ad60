"""ResizeNearestNeighborV2."""
from refinfer import args
from refinfer.registry import register

from ._kernels import resize as resize_kernels
from ._ref.common import NUMBERS
from ._ref.resize import resize, resize_nearest_with


@register("ResizeNearestNeighborV2", family="nn", dtypes=NUMBERS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean},
          kernels={"numba": resize_kernels.resize_nearest_neighbor_v2})
def resize_nearest_neighbor_v2(image, size, align_corners=False,
                               half_pixel_centers=False):
    """Nearest-neighbour resize of the last two axes to size (TensorFlow rules).

    Output index i copies input index floor(src) (round(src), half away
    from zero, under align_corners), src = (i + 0.5) * scale with
    half_pixel_centers, else i * scale; scale (in - 1) / (out - 1) under
    align_corners, else in / out; clamped into the input (see
    ops/_ref/resize.py). ops.interpolate(mode="nearest") exports
    (False, False), PyTorch's "nearest".

    Arguments: image (N, C, H, W); size (out_h, out_w); align_corners=False;
    half_pixel_centers=False. dtypes: floats and integers.
    """
    return resize_nearest_with(resize, image, size, align_corners,
                               half_pixel_centers)
