"""ResizeBicubic."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.resize import check_image

# Keys' cubic convolution parameter: TensorFlow's legacy value, and the
# standard -0.5 that half_pixel_centers selects.
LEGACY_A, KEYS_A = -0.75, -0.5
# TensorFlow's kernel (which MindSpore's CPU kernel follows) reads the weights
# from a table of the cubic at TABLE_SIZE + 1 points of [0, 1], at the
# fractional offset rounded to 1 / TABLE_SIZE.
TABLE_SIZE = 1024


def _keys_table(a):
    """(weight of a tap at distance t, weight at distance 1 + t) per table point t."""
    t = np.arange(TABLE_SIZE + 1, dtype=np.float32) / np.float32(TABLE_SIZE)
    a = np.float32(a)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    t1 = t + 1
    far = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a
    return near, far


def cubic_weights(size_in, size_out, align_corners, half_pixel_centers):
    """(indices (out, 4), weights (out, 4)) of the taps each output blends."""
    scale = np.float32((size_in - 1) / (size_out - 1) if align_corners and size_out > 1
                       else size_in / size_out)
    src = np.arange(size_out, dtype=np.float32)
    src = (src + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel_centers \
        else src * scale
    base = np.floor(src)
    offset = np.rint((src - base) * TABLE_SIZE).astype(np.int64)
    near, far = _keys_table(KEYS_A if half_pixel_centers else LEGACY_A)
    weights = np.stack([far[offset], near[offset], near[TABLE_SIZE - offset],
                        far[TABLE_SIZE - offset]], 1).astype(np.float64)
    taps = base.astype(np.int64)[:, None] + np.arange(-1, 3)
    if half_pixel_centers:      # taps outside the image drop out, the rest renormalise
        weights = np.where((taps >= 0) & (taps < size_in), weights, 0.0)
        weights /= weights.sum(1, keepdims=True)
    return np.clip(taps, 0, size_in - 1), weights


@register("ResizeBicubic", family="nn", dtypes=NUMBERS,
          convert={"size": args.ints, "align_corners": args.boolean,
                   "half_pixel_centers": args.boolean}, no_kernel="vectorised")
def resize_bicubic(images, size, align_corners=False, half_pixel_centers=False):
    """Bicubic resize of the last two axes (H, W) to size (TensorFlow rules).

    Each output pixel blends a 4 x 4 neighbourhood with Keys' cubic
    convolution weights (read from a 1025-point table, as TensorFlow's
    kernel does), one axis at a time: a = -0.75 and edge taps
    clamped into the image (legacy), or with half_pixel_centers a = -0.5,
    src = (i + 0.5) * scale - 0.5 and taps outside the image dropped (the
    others renormalised). scale = (in - 1) / (out - 1) with align_corners,
    else in / out. Arguments: images (N, C, H, W); size (out_h, out_w);
    align_corners=False; half_pixel_centers=False (not both). float64 stays
    float64, every other dtype gives float32.
    """
    check_image("ResizeBicubic", images, size)
    if align_corners and half_pixel_centers:
        raise ValueError("ResizeBicubic: align_corners and half_pixel_centers cannot "
                         "both be set")
    y = images.astype(np.float64)
    for axis, out in ((2, int(size[0])), (3, int(size[1]))):
        taps, weights = cubic_weights(images.shape[axis], out, align_corners,
                                      half_pixel_centers)
        gathered = np.take(y, taps, axis=axis)           # (..., out, 4, ...)
        shape = [1] * gathered.ndim
        shape[axis:axis + 2] = weights.shape
        y = (gathered * weights.reshape(shape)).sum(axis + 1)
    return y.astype(np.float64 if images.dtype == np.float64 else np.float32)
