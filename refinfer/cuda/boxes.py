"""The ``cuda`` kernels of the box ops: BoundingBoxEncode,
BoundingBoxDecode (a thread per box) and IOU (a thread per pair),
declared in :data:`KERNELS`.

Boxes are (x1, y1, x2, y2) with MindSpore's inclusive pixel convention
(width x2 - x1 + 1), as ops/bounding_box.py. Each kernel computes in the
reference's dtypes step by step: the centres and sizes in float32, then
the terms that meet the float64 means and stds (or the float64 clip
limit) in float64, the result cast to float32. float16 boxes of IOU are
computed in float32 and the result cast, as the reference
(refinfer/cuda/half.py); the encoder and decoder decline them.
"""
from __future__ import annotations

import numpy as np

from refinfer import registry

from . import device
from .device import cuda, device_function, dmath
from .half import in_float32


@device_function
def _lesser(a, b):
    """np.minimum of two numbers: a NaN in either wins."""
    return a if a < b or a != a else b


@device_function
def _greater(a, b):
    """np.maximum of two numbers: a NaN in either wins."""
    return a if a > b or a != a else b


@device_function
def _clip(value, low, high):
    """np.clip(value, low, high): a NaN stays NaN."""
    return _lesser(_greater(value, low), high)


@device_function
def _centre(boxes, i):
    """(cx, cy, w, h) of box i, in float32."""
    one, half = np.float32(1), np.float32(0.5)
    w = boxes[i, 2] - boxes[i, 0] + one
    h = boxes[i, 3] - boxes[i, 1] + one
    return boxes[i, 0] + half * (w - one), boxes[i, 1] + half * (h - one), w, h


@device.jit
def _encode(anchors, truths, means, stds, out):
    """out[i] = ((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh /
    ph)) of anchor i and ground-truth box i, less means, over stds (in
    float64)."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        px, py, pw, ph = _centre(anchors, i)
        gx, gy, gw, gh = _centre(truths, i)
        out[i, 0] = (np.float64((gx - px) / pw) - means[0]) / stds[0]
        out[i, 1] = (np.float64((gy - py) / ph) - means[1]) / stds[1]
        out[i, 2] = (np.float64(dmath.log(gw / pw)) - means[2]) / stds[2]
        out[i, 3] = (np.float64(dmath.log(gh / ph)) - means[3]) / stds[3]


@device.jit
def _decode(anchors, deltas, means, stds, limit, height, width, out):
    """out[i] = the box of anchor i moved by deltas[i] * stds + means (in
    float64; the size terms clipped to [-limit, limit]), x clipped to
    [0, width], y to [0, height]."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        px, py, pw, ph = _centre(anchors, i)
        dx = np.float64(deltas[i, 0]) * stds[0] + means[0]
        dy = np.float64(deltas[i, 1]) * stds[1] + means[1]
        dw = _clip(np.float64(deltas[i, 2]) * stds[2] + means[2], -limit, limit)
        dh = _clip(np.float64(deltas[i, 3]) * stds[3] + means[3], -limit, limit)
        cx, cy = px + pw * dx, py + ph * dy
        half_w, half_h = (pw * dmath.exp(dw) - 1) / 2, (ph * dmath.exp(dh) - 1) / 2
        out[i, 0] = _clip(cx - half_w, 0.0, width)
        out[i, 1] = _clip(cy - half_h, 0.0, height)
        out[i, 2] = _clip(cx + half_w, 0.0, width)
        out[i, 3] = _clip(cy + half_h, 0.0, height)


@device.jit
def _iou(anchors, truths, over_truth, out):
    """out[i, j] = the inclusive area of ground-truth box i & anchor j over
    that of their union (``over_truth``: over the ground-truth box's)."""
    count, zero, one = anchors.shape[0], np.float32(0), np.float32(1)
    for k in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        i, j = k // count, k % count
        _, _, aw, ah = _centre(anchors, j)
        _, _, gw, gh = _centre(truths, i)
        overlap = one
        for axis in range(2):
            side = _lesser(truths[i, axis + 2], anchors[j, axis + 2]) \
                - _greater(truths[i, axis], anchors[j, axis]) + one
            overlap *= _greater(side, zero)
        union = gw * gh if over_truth else gw * gh + aw * ah - overlap
        out[i, j] = overlap / union


def _boxes(*arrays) -> bool:
    """Whether every array is float32 boxes (n, 4)."""
    return all(a.dtype == np.float32 and a.ndim == 2 and a.shape[1] == 4
               for a in arrays)


def _parameters(means, stds):
    """The means and stds as float64 device arrays (4 each)."""
    return (device.to_device(np.asarray(means, np.float64)),
            device.to_device(np.asarray(stds, np.float64)))


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """BoundingBoxEncode; declines boxes the reference refuses or casts."""
    if not _boxes(anchor_box, groundtruth_box) \
            or anchor_box.shape[0] != groundtruth_box.shape[0] \
            or len(means) != 4 or len(stds) != 4:
        return None
    out = device.empty(tuple(anchor_box.shape), anchor_box.dtype)
    if out.size:
        device.launch(_encode, out.shape[0], anchor_box, groundtruth_box,
                      *_parameters(means, stds), out)
    return out


def bounding_box_decode(anchor_box, deltas, max_shape=(), means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """BoundingBoxDecode; declines what the reference refuses or casts."""
    if not _boxes(anchor_box, deltas) or len(max_shape) != 2 \
            or tuple(deltas.shape) != tuple(anchor_box.shape) \
            or len(means) != 4 or len(stds) != 4:
        return None
    out = device.empty(tuple(deltas.shape), deltas.dtype)
    if out.size:
        with np.errstate(all="ignore"):
            limit = abs(np.log(np.float64(wh_ratio_clip)))
        device.launch(_decode, out.shape[0], anchor_box, deltas,
                      *_parameters(means, stds), limit, float(max_shape[0]),
                      float(max_shape[1]), out)
    return out


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """IOU: (M, N) for M ground-truth boxes and N anchors; declines a mode
    the reference refuses."""
    if not _boxes(anchor_boxes, gt_boxes) or mode not in ("iou", "iof"):
        return None
    out = device.empty((gt_boxes.shape[0], anchor_boxes.shape[0]), anchor_boxes.dtype)
    if out.size:
        device.launch(_iou, out.size, anchor_boxes, gt_boxes, mode == "iof", out)
    return out


KERNELS = {"BoundingBoxEncode": bounding_box_encode,
           "BoundingBoxDecode": bounding_box_decode, "IOU": in_float32(iou)}
registry.declare_kernels("cuda", KERNELS)

_BOXES, _PARAMETERS = "float32[:, ::1]", "float64[::1]"
# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("encode boxes", _encode,
        f"void({_BOXES}, {_BOXES}, {_PARAMETERS}, {_PARAMETERS}, {_BOXES})"),
       ("decode boxes", _decode,
        f"void({_BOXES}, {_BOXES}, {_PARAMETERS}, {_PARAMETERS}, float64, float64,"
        f" float64, {_BOXES})"),
       ("iou", _iou, f"void({_BOXES}, {_BOXES}, boolean, {_BOXES})")]
