"""BoundingBoxEncode, BoundingBoxDecode and IOU: boxes (x1, y1, x2, y2) with
MindSpore's inclusive pixel convention (width = x2 - x1 + 1)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, require_dtype

BOX_DTYPES = ("float16", "float32")


def _centres(op, name, boxes):
    """(cx, cy, w, h) of (n, 4) float boxes, in the compute dtype."""
    require_dtype(op, name, boxes, FLOATS)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{op}: {name} must be (n, 4), got shape {list(boxes.shape)}")
    b = boxes.astype(compute_dtype(boxes.dtype), copy=False)
    w, h = b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1
    return b[:, 0] + 0.5 * (w - 1), b[:, 1] + 0.5 * (h - 1), w, h


@register("BoundingBoxEncode", family="nn", dtypes=BOX_DTYPES, no_kernel="vectorised",
          convert={"means": args.floats, "stds": args.floats})
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """The deltas that move anchor boxes onto ground-truth boxes.

    d = ((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph)), then
    (d - means) / stds, with centres and sizes of the inclusive boxes (w =
    x2 - x1 + 1). Arguments (classic PRIMITIVE): anchor_box,
    groundtruth_box (n, 4); means, stds (attributes, 4 each). Output (n,
    4), the boxes' dtype.
    """
    px, py, pw, ph = _centres("BoundingBoxEncode", "anchor_box", anchor_box)
    gx, gy, gw, gh = _centres("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
    d = np.stack(((gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)), -1)
    return ((d - np.array(means)) / np.array(stds)).astype(anchor_box.dtype)


@register("BoundingBoxDecode", family="nn", dtypes=BOX_DTYPES, no_kernel="vectorised",
          convert={"max_shape": args.ints, "means": args.floats, "stds": args.floats,
                   "wh_ratio_clip": args.scalar})
def bounding_box_decode(anchor_box, deltas, max_shape=(), means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """Boxes from anchors and deltas (the inverse of BoundingBoxEncode).

    d = deltas * stds + means, its size terms clipped to +-|log
    wh_ratio_clip|; centre (px + pw dx, py + ph dy), size (pw e^dw, ph e^dh);
    corners (cx -+ (w - 1) / 2), x clipped to [0, max_shape[1]], y to [0,
    max_shape[0]]. Arguments (classic PRIMITIVE): anchor_box, deltas (n,
    4); max_shape (h, w), means, stds, wh_ratio_clip=0.016 (attributes;
    max_shape has no default in MindSpore). Output (n, 4), deltas' dtype.
    """
    if len(max_shape) != 2:
        raise ValueError(f"BoundingBoxDecode: max_shape must be (h, w), got {max_shape}")
    px, py, pw, ph = _centres("BoundingBoxDecode", "anchor_box", anchor_box)
    if deltas.shape != anchor_box.shape:
        raise ValueError(f"BoundingBoxDecode: deltas must have anchor_box's shape "
                         f"{list(anchor_box.shape)}, got {list(deltas.shape)}")
    d = deltas.astype(px.dtype) * np.array(stds) + np.array(means)
    limit = abs(np.log(wh_ratio_clip))
    dw, dh = (np.clip(d[:, k], -limit, limit) for k in (2, 3))
    cx, cy = px + pw * d[:, 0], py + ph * d[:, 1]
    w, h = pw * np.exp(dw), ph * np.exp(dh)
    x1, x2 = (np.clip(cx + s * (w - 1) / 2, 0, max_shape[1]) for s in (-1, 1))
    y1, y2 = (np.clip(cy + s * (h - 1) / 2, 0, max_shape[0]) for s in (-1, 1))
    return np.stack((x1, y1, x2, y2), -1).astype(deltas.dtype)


@register("IOU", family="nn", dtypes=BOX_DTYPES, no_kernel="vectorised",
          convert={"mode": str})
def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union (or over the ground-truth area) of box pairs.

    y[i, j] = area(gt_i & anchor_j) / area(gt_i | anchor_j) for mode "iou",
    / area(gt_i) for "iof", with inclusive areas ((x2 - x1 + 1) (y2 - y1 +
    1)). Arguments (classic PRIMITIVE): anchor_boxes (N, 4), gt_boxes (M,
    4); mode="iou" (attribute). Output (M, N), the boxes' dtype.
    """
    if mode not in ("iou", "iof"):
        raise ValueError(f"IOU: mode must be 'iou' or 'iof', got {mode!r}")
    _, _, aw, ah = _centres("IOU", "anchor_boxes", anchor_boxes)
    _, _, gw, gh = _centres("IOU", "gt_boxes", gt_boxes)
    a = anchor_boxes.astype(aw.dtype)[None, :, :]
    g = gt_boxes.astype(aw.dtype)[:, None, :]
    overlap = [np.clip(np.minimum(g[..., k + 2], a[..., k + 2])
                       - np.maximum(g[..., k], a[..., k]) + 1, 0, None) for k in (0, 1)]
    inter = overlap[0] * overlap[1]
    gt_area = (gw * gh)[:, None]
    union = gt_area if mode == "iof" else gt_area + (aw * ah)[None, :] - inter
    return (inter / union).astype(anchor_boxes.dtype)
