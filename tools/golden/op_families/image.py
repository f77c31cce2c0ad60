"""Box ops of detection models: BoundingBoxEncode, BoundingBoxDecode, IOU
(inclusive pixel boxes). PixelShuffle has no case: MindSpore 2.7.1's CPU graph
mode exports it as Reshape and Transpose (tests/ops/test_image_other.py checks
the reference)."""
import numpy as np

from op_cases import OpCase, t


def boxes(count, low=0.0, high=20.0, dtype="float32"):
    """(count, 4) boxes x1 <= x2, y1 <= y2 within [low, high]."""
    def make(rng):
        corners = rng.uniform(low, high, (count, 2, 2))
        return np.concatenate([corners.min(1), corners.max(1)], axis=1).astype(dtype)
    return make


CASES = [
    OpCase("bounding_box_encode", "BoundingBoxEncode",
           "P.BoundingBoxEncode((0.1, 0.2, 0.0, -0.1), (1.0, 2.0, 0.5, 1.0))(x, y)",
           [boxes(5), boxes(5)]),
    OpCase("bounding_box_decode", "BoundingBoxDecode",
           "P.BoundingBoxDecode((15, 24), (0.0, 0.1, 0.0, 0.0), (1.0, 1.0, 0.5, 2.0), "
           "0.05)(x, y)", [boxes(6), t((6, 4), "float32", -2, 2)],
           "BoundingBoxDecode with a non-square max_shape (h 15, w 24) and size deltas "
           "past the wh_ratio_clip limit"),
    OpCase("iou", "IOU", "P.IOU('iou')(x, y)", [boxes(4), boxes(3)]),
    OpCase("iof_float16", "IOU", "P.IOU('iof')(x, y)",
           [boxes(3, dtype="float16"), boxes(2, dtype="float16")]),
]
