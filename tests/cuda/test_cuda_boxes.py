"""The cuda kernels of the box ops (refinfer/cuda/boxes.py) equal their
NumPy references: BoundingBoxEncode and BoundingBoxDecode with means,
stds, clipped size terms and clipped corners, IOU in both modes with
disjoint, nested and overlapping boxes; float32 (float16 and what the
references refuse are declined)."""
import numpy as np
import pytest

from refinfer.cuda import boxes as box_kernels

from cuda_check import check, run

rng = np.random.default_rng(1361)


def _boxes(count: int) -> np.ndarray:
    """Random (x1, y1, x2, y2) boxes in a 20 x 20 image, float32."""
    corner = rng.uniform(0, 14, (count, 2))
    size = rng.uniform(0, 8, (count, 2))
    return np.concatenate([corner, corner + size], 1).astype(np.float32)


def test_encode():
    anchors, truths = _boxes(7), _boxes(7)
    check("BoundingBoxEncode", anchors, truths)
    check("BoundingBoxEncode", anchors, truths, (0.1, -0.2, 0.0, 0.5),
          (0.1, 0.1, 0.2, 0.2))


def test_decode():
    anchors = _boxes(7)
    deltas = rng.standard_normal((7, 4)).astype(np.float32)
    deltas[0, 2:] = [9.0, -9.0]                       # size terms clipped
    check("BoundingBoxDecode", anchors, deltas, (20, 20))
    check("BoundingBoxDecode", anchors, deltas, (12, 15), (0.1, -0.2, 0.0, 0.5),
          (0.1, 0.1, 0.2, 0.2), 0.1)


@pytest.mark.parametrize("mode", ["iou", "iof"])
def test_iou(mode):
    anchors, truths = _boxes(5), _boxes(4)
    truths[0] = anchors[1] + [1, 1, -1, -1]           # nested
    truths[1] = [30, 30, 32, 33]                      # disjoint from all
    check("IOU", anchors, truths, mode)


def test_every_kernel_is_tested():
    assert set(box_kernels.KERNELS) == {"BoundingBoxEncode", "BoundingBoxDecode", "IOU"}


def test_declines():
    boxes = _boxes(3)
    assert run("IOU", boxes, boxes, "giou") is None
    half = boxes.astype(np.float16)     # (IOU computes it: tests/cuda/test_cuda_half.py)
    assert run("BoundingBoxEncode", half, half) is None
    assert run("BoundingBoxDecode", boxes, boxes[:2].copy(), (20, 20)) is None
    assert run("BoundingBoxEncode", boxes, boxes[:, :3].copy()) is None
