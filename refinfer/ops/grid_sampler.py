"""GridSampler2D and GridSampler3D."""
import itertools

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, require_tensors

# In MindIR's order: a PRIMITIVE_FUNCTION node passes the position as a code.
MODES = ("bilinear", "nearest", "bicubic")
PADDINGS = ("zeros", "border", "reflection")


def _named(names):
    """A code or a name (any case) -> the lower-case name; others kept for
    the op's error."""
    def normalise(value):
        if isinstance(value, (int, np.integer)) and 0 <= int(value) < len(names):
            return names[int(value)]
        return str(value).lower()
    return normalise


def _source(grid, size, align_corners, padding_mode):
    """Grid values in [-1, 1] -> input coordinates along an axis of size,
    with border clamping or reflection applied."""
    if align_corners:
        coord = (grid + 1) / 2 * (size - 1)
        low, high = 0.0, size - 1.0
    else:
        coord = ((grid + 1) * size - 1) / 2
        low, high = -0.5, size - 0.5
    if padding_mode == "reflection" and high > low:
        span = high - low
        folded = np.abs(coord - low) % (2 * span)
        coord = low + np.where(folded > span, 2 * span - folded, folded)
    if padding_mode in ("border", "reflection"):
        coord = np.clip(coord, 0, size - 1)
    return coord


def grid_sample(op, input_x, grid, interpolation_mode, padding_mode, align_corners):
    """Samples input_x (N, C, *S) at grid (N, *O, k), k = len(S) coordinates
    in x, y(, z) order (the last spatial axis first); output (N, C, *O)."""
    require_tensors(op, input_x=input_x, grid=grid)
    rank = input_x.ndim - 2
    mode, padding = interpolation_mode, padding_mode
    if mode not in MODES[:2] or padding not in PADDINGS:
        raise ValueError(f"{op}: interpolation_mode {mode!r} / padding_mode "
                         f"{padding!r} not one of {MODES[:2]} / {PADDINGS}")
    if grid.ndim != rank + 2 or grid.shape[0] != input_x.shape[0] \
            or grid.shape[-1] != rank:
        raise ValueError(f"{op}: grid of shape {grid.shape} does not fit input_x of "
                         f"shape {input_x.shape} (expected (N, *out, {rank}))")
    work = compute_dtype(input_x.dtype)
    sizes = input_x.shape[2:]
    coords = [_source(grid[..., rank - 1 - k].astype(np.float64), sizes[k],
                      align_corners, padding) for k in range(rank)]
    batch = np.arange(input_x.shape[0]).reshape((-1,) + (1,) * rank)
    x = np.moveaxis(input_x.astype(work), 1, -1)              # (N, *S, C)

    def gather(index):
        inside = np.all([(i >= 0) & (i < n) for i, n in zip(index, sizes)], axis=0)
        clipped = tuple(np.clip(i, 0, n - 1) for i, n in zip(index, sizes))
        return x[(batch,) + clipped] * inside[..., None]

    if mode == "nearest":
        out = gather([np.rint(c).astype(np.int64) for c in coords])
    else:
        base = [np.floor(c) for c in coords]
        out = 0
        for corner in itertools.product((0, 1), repeat=rank):
            weight = np.prod([np.where(b, c - f, 1 - (c - f))
                              for b, c, f in zip(corner, coords, base)], axis=0)
            index = [(f + b).astype(np.int64) for f, b in zip(base, corner)]
            out = out + gather(index) * weight[..., None].astype(work)
    return np.moveaxis(np.asarray(out, work), -1, 1).astype(input_x.dtype)


CONVERT = {"interpolation_mode": _named(MODES), "padding_mode": _named(PADDINGS),
           "align_corners": args.boolean}


@register("GridSampler2D", family="nn", dtypes=FLOATS, convert=CONVERT,
          no_kernel="vectorised")
def grid_sampler_2d(input_x, grid, interpolation_mode="bilinear", padding_mode="zeros",
                    align_corners=False):
    """Samples an NCHW input at the grid's (x, y) points (ops.grid_sample, 4-D).

    A grid value -1 / 1 is the centre of the first / last pixel with
    align_corners, else their outer edge: src = ((g + 1) * size - 1) / 2.
    "bilinear" blends the 4 neighbours, "nearest" rounds (halves to even);
    padding "zeros" reads 0 outside, "border" clamps, "reflection" mirrors
    the coordinate at the edges. Arguments: input_x (N, C, H, W); grid
    (N, OH, OW, 2); interpolation_mode="bilinear"; padding_mode="zeros";
    align_corners=False. Output (N, C, OH, OW); float16 in float32.
    """
    return grid_sample("GridSampler2D", input_x, grid, interpolation_mode,
                       padding_mode, align_corners)


@register("GridSampler3D", family="nn", dtypes=FLOATS, convert=CONVERT,
          no_kernel="vectorised")
def grid_sampler_3d(input_x, grid, interpolation_mode="bilinear", padding_mode="zeros",
                    align_corners=False):
    """Samples an NCDHW input at the grid's (x, y, z) points (ops.grid_sample, 5-D).

    GridSampler2D's rules with a third axis: "bilinear" is trilinear over 8
    neighbours. Arguments: input_x (N, C, D, H, W); grid (N, OD, OH, OW, 3);
    interpolation_mode="bilinear"; padding_mode="zeros"; align_corners=False.
    Output (N, C, OD, OH, OW).
    """
    return grid_sample("GridSampler3D", input_x, grid, interpolation_mode,
                       padding_mode, align_corners)
