"""ResizeNearestNeighbor."""
from refinfer import args
from refinfer.registry import register

from ._kernels import resize as resize_kernels
from ._ref.common import NUMBERS
from ._ref.resize import resize, resize_nearest_with


@register("ResizeNearestNeighbor", family="nn", dtypes=NUMBERS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean},
          kernels={"numba": resize_kernels.resize_nearest_neighbor})
def resize_nearest_neighbor(input_x, size, align_corners=False,
                            half_pixel_centers=False):
    """Nearest-neighbour resize of (H, W), the older primitive (size first).

    As ResizeNearestNeighborV2 with size an argument (attribute of the
    classic form). MindSpore 2.7.1 CPU quirk kept here:
    half_pixel_centers is ignored (the result equals
    half_pixel_centers=False; verified on a 3x4 -> 5x7 resize).

    Arguments: input_x (N, C, H, W); size (out_h, out_w);
    align_corners=False; half_pixel_centers=False. dtypes: floats and
    integers.
    """
    return resize_nearest_with(resize, input_x, size, align_corners, False)
