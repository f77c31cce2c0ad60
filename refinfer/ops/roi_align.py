"""ROIAlign."""
import math

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import resize as resize_kernels
from ._ref.common import FLOATS, compute_dtype
from ._ref.window import check_4d


def _bilinear(plane, y, x):
    """Caffe2's ROIAlign sampling of a (C, H, W) plane at (y, x): 0 beyond
    one pixel outside, coordinates clamped at the far edge."""
    height, width = plane.shape[1:]
    if y < -1 or y > height or x < -1 or x > width:
        return 0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = min(int(y), height - 1), min(int(x), width - 1)
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    y, x = (y0 if y0 == height - 1 else y), (x0 if x0 == width - 1 else x)
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[:, y0, x0] + (1 - ly) * lx * plane[:, y0, x1]
            + ly * (1 - lx) * plane[:, y1, x0] + ly * lx * plane[:, y1, x1])


@register("ROIAlign", family="nn", dtypes=FLOATS,
          convert={name: args.scalar for name in ("pooled_height", "pooled_width",
                                                  "spatial_scale", "sample_num",
                                                  "roi_end_mode")},
          kernels={"numba": resize_kernels.roi_align})
def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """Average-pools each region of interest into a fixed grid of bins (Mask R-CNN).

    roi = (batch, x1, y1, x2, y2) in input pixels: start = (x1, y1) * scale,
    end = (x2, y2) + roi_end_mode then * scale; width and height at least 1.
    Each of the pooled_height x pooled_width bins averages sample_num x
    sample_num bilinear samples at the centres of its sub-cells (sample_num
    <= 0: ceil(roi size / pooled size) per axis, Caffe2's rule; MindSpore
    2.7.1 CPU returns NaN there). Arguments (classic
    PRIMITIVE attributes but features, rois): features (N, C, H, W); rois
    (R, 5); pooled_height; pooled_width; spatial_scale; sample_num=2;
    roi_end_mode=1 (0 or 1). Output (R, C, pooled_height, pooled_width).
    A roi with an infinity or NaN is a clear error.
    """
    check_4d(features, "ROIAlign")
    if rois.ndim != 2 or rois.shape[1] != 5:
        raise ValueError(f"ROIAlign: rois must have shape (R, 5), got {rois.shape}")
    unbounded = np.argwhere(~np.isfinite(rois))
    if len(unbounded):
        r = unbounded[0][0]
        raise ValueError(f"ROIAlign: roi {r} is not finite: {rois[r].tolist()}")
    work = compute_dtype(features.dtype)
    planes = features.astype(np.float64)
    ph, pw = args.integer(pooled_height), args.integer(pooled_width)
    if ph < 1 or pw < 1:
        raise ValueError(f"ROIAlign: pooled_height and pooled_width must be >= 1, "
                         f"got {ph} and {pw}")
    out = np.zeros((rois.shape[0], features.shape[1], ph, pw), np.float64)
    for r, (batch, x1, y1, x2, y2) in enumerate(rois.astype(np.float64)):
        if not 0 <= int(batch) < features.shape[0]:
            raise ValueError(f"ROIAlign: roi {r} names batch {int(batch)} of "
                             f"{features.shape[0]}")
        start_x, start_y = x1 * spatial_scale, y1 * spatial_scale
        width = max((x2 + roi_end_mode) * spatial_scale - start_x, 1.0)
        height = max((y2 + roi_end_mode) * spatial_scale - start_y, 1.0)
        bin_h, bin_w = height / ph, width / pw
        grid_h = int(sample_num) if sample_num > 0 else math.ceil(height / ph)
        grid_w = int(sample_num) if sample_num > 0 else math.ceil(width / pw)
        for i, j in np.ndindex(ph, pw):
            total = sum(_bilinear(planes[int(batch)],
                                  start_y + i * bin_h + (a + 0.5) * bin_h / grid_h,
                                  start_x + j * bin_w + (b + 0.5) * bin_w / grid_w)
                        for a in range(grid_h) for b in range(grid_w))
            out[r, :, i, j] = total / (grid_h * grid_w)
    return out.astype(work).astype(features.dtype)
