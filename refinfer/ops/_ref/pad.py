"""Padding shared by Pad, PadV3, MirrorPad and ConstantPadND: their widths,
np.pad for the references, and the source index of every output position
of one axis (:func:`index_map`) for the Numba kernels, which pad by
gathering."""
from __future__ import annotations

import numpy as np

from refinfer import args
from refinfer.errors import describe_value

# Mode names of the pad primitives -> np.pad modes.
NUMPY_MODES = {"constant": "constant", "reflect": "reflect",
               "symmetric": "symmetric", "edge": "edge", "replicate": "edge",
               "circular": "wrap"}


def padding_mode(value) -> str:
    """Normaliser: a mode name of NUMPY_MODES in any case."""
    if isinstance(value, str) and value.lower() in NUMPY_MODES:
        return value.lower()
    raise ValueError(f"unknown padding mode {describe_value(value)} "
                     f"(expected one of {sorted(NUMPY_MODES)})")


def from_last_axis(flat, ndim: int, contiguous: bool = True):
    """Per-axis (before, after) pairs from torch-style flat padding, which
    starts at the last axis: (before_last, after_last, before_prev, ...)
    when ``contiguous``, else (befores from the last axis..., afters...).
    Axes not mentioned get (0, 0)."""
    flat = [int(v) for v in flat]
    if len(flat) % 2 or len(flat) > 2 * ndim:
        raise ValueError(f"padding {tuple(flat)} must hold an even number of "
                         f"at most {2 * ndim} values")
    half = len(flat) // 2
    pairs = [(flat[2 * i], flat[2 * i + 1]) if contiguous
             else (flat[i], flat[half + i]) for i in range(half)]
    return [(0, 0)] * (ndim - half) + pairs[::-1]


def axis_pairs(x: np.ndarray, paddings) -> list[tuple[int, int]]:
    """Pad's widths: one (before, after) pair per axis, first axis first."""
    if not isinstance(paddings, (tuple, list, np.ndarray)):
        raise TypeError(f"Pad: paddings must be (before, after) pairs, got "
                        f"{describe_value(paddings)}")
    if len(paddings) != x.ndim:
        raise ValueError(f"Pad: {len(paddings)} (before, after) pairs for "
                         f"rank {x.ndim}")
    widths = [args.ints(pair) for pair in paddings]
    if any(len(pair) != 2 for pair in widths):
        raise ValueError(f"Pad: paddings must be (before, after) pairs, got "
                         f"{describe_value(paddings)}")
    return widths


def mirror_pairs(x: np.ndarray, paddings, mode) -> list[tuple[int, int]]:
    """MirrorPad's widths: a (rank, 2) tensor, checked with the mode."""
    if mode not in ("reflect", "symmetric"):
        raise ValueError(f"MirrorPad: unknown mode {mode!r}")
    widths = [(int(b), int(a)) for b, a in paddings.reshape(-1, 2)]
    if len(widths) != x.ndim:
        raise ValueError(f"MirrorPad: paddings {paddings.shape} for rank "
                         f"{x.ndim}")
    return widths


def pad(x: np.ndarray, widths, mode: str = "constant", value=0):
    """np.pad with negative widths cropping instead (torch semantics)."""
    crop = tuple(slice(max(-b, 0), x.shape[i] - max(-a, 0))
                 for i, (b, a) in enumerate(widths))
    grow = [(max(b, 0), max(a, 0)) for b, a in widths]
    x = x[crop]
    if mode == "constant":
        return np.pad(x, grow, mode="constant",
                      constant_values=np.asarray(value).astype(x.dtype))
    return np.pad(x, grow, mode=NUMPY_MODES[mode])


def torch_pad(x: np.ndarray, flat, mode="constant", value=None,
              contiguous=True, runner=pad):
    """Padding by torch-style flat widths (:func:`from_last_axis`) with a
    fill of None meaning 0 (PadV3, ConstantPadND): :func:`pad`, or
    ``runner``, a kernel with its signature."""
    widths = from_last_axis(flat, x.ndim, contiguous)
    return runner(x, widths, mode, 0 if value is None else value)


def index_map(length: int, before: int, after: int, mode: str) -> np.ndarray:
    """For one axis of ``length``, padded (or cropped, where negative) by
    ``before`` / ``after`` in ``mode``: the source index of each output
    position, -1 where mode "constant" fills. Equal to what :func:`pad`
    does to np.arange(length), also for widths beyond the axis length;
    the axis must keep at least one element after cropping."""
    first = max(-before, 0)
    kept = length - first - max(-after, 0)
    i = np.arange(-max(before, 0), kept + max(after, 0), dtype=np.int64)
    mode = NUMPY_MODES[mode]
    if mode == "constant":
        i[(i < 0) | (i >= kept)] = -1 - first
    elif mode == "edge":
        np.clip(i, 0, kept - 1, out=i)
    elif mode == "wrap":
        i %= kept
    elif mode == "reflect":         # period 2 (kept - 1), about the ends
        period = max(2 * kept - 2, 1)
        i %= period
        np.subtract(period, i, out=i, where=i >= kept)
    else:                           # symmetric: period 2 kept, ends repeated
        i %= 2 * kept
        np.subtract(2 * kept - 1, i, out=i, where=i >= kept)
    return i + first
