"""The ``cuda`` kernels of the paddings beside Pad's: MirrorPad, PadV3 and
ConstantPadND, every mode (constant, reflect, symmetric, edge, circular)
and negative widths that crop, declared in :data:`KERNELS`.

One gather: each axis has a map from output position to source position
(-1 where the constant fills), built on the host by the reference's own
``index_map`` (ops/_ref/pad.py: small, the sum of the output's axis
lengths), so the device kernel only adds up ``map[coordinate] * stride``.
MirrorPad's paddings are a tensor: its (rank, 2) widths are read back
from the device (one small copy per call).
"""
from __future__ import annotations

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref.pad import from_last_axis, index_map, mirror_pairs

from . import device
from .device import cuda
from .layout import contiguous_strides, flat


@device.jit
def pad_by_maps(x, out, dims, maps, starts, strides, fill):
    """out[i] = x at the sum over axes d of maps[starts[d] + coordinate_d]
    * strides[d], fill[0] where an axis maps to -1."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        at, rest = 0, i
        for d in range(dims.size - 1, -1, -1):
            source = maps[starts[d] + rest % dims[d]]
            if source < 0:
                at = -1
                break
            at += source * strides[d]
            rest //= dims[d]
        out[i] = x[at] if at >= 0 else fill[0]


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernel for
    tools/check_ptx.py: float32 data, int64 maps."""
    f32, i64 = numba.float32[::1], numba.int64[::1]
    return [("pad by maps", pad_by_maps.py_func, (f32, f32, i64, i64, i64, i64, f32))]


def padded(x, widths, mode: str, fill):
    """x padded (cropped where negative) by ``widths``, one (before, after)
    pair per axis, in ``mode``; ``fill`` a one-element device array of x's
    dtype (the constant). An axis cropped to nothing keeps only the
    constant's growth; None where the reference raises (growing it in
    another mode)."""
    shape = tuple(x.shape)
    maps = []
    for length, (before, after) in zip(shape, widths):
        growth = max(before, 0) + max(after, 0)
        if length - max(-before, 0) - max(-after, 0) > 0:
            maps.append(index_map(length, before, after, mode))
        elif mode == "constant" or growth == 0:
            maps.append(np.full(growth, -1, np.int64))
        else:
            return None
    out = device.empty(tuple(m.size for m in maps), x.dtype)
    if out.size:
        starts = np.cumsum([0] + [m.size for m in maps[:-1]])
        device.launch(pad_by_maps, out.size, flat(x), flat(out),
                      device.constant(tuple(out.shape) or (1,)),
                      device.constant(np.concatenate(maps) if maps else [0]),
                      device.constant(starts), device.constant(contiguous_strides(shape)),
                      fill.reshape(1))
    return out


def _fill(value, dtype):
    """The constant as a one-element device array of ``dtype``: a device
    array as it is (None, to decline, where its dtype differs: the
    reference casts), a host value cast as NumPy does."""
    if device.is_device_array(value):
        return value if value.size == 1 and value.dtype == dtype else None
    return device.to_device(np.asarray(0 if value is None else value)
                            .astype(dtype).reshape(1))


def mirror_pad(x, paddings, mode="reflect"):
    """MirrorPad: reflect or symmetric widths from a (rank, 2) tensor."""
    widths = device.to_host(paddings) if device.is_device_array(paddings) \
        else np.asarray(paddings)
    try:
        pairs = mirror_pairs(x, widths, mode)
    except ValueError:
        return None
    return padded(x, pairs, mode, _fill(0, x.dtype))


def pad_v3(x, paddings, constant_value=None, mode="constant",
           paddings_contiguous=True):
    """PadV3: torch-style widths from the last axis, four modes."""
    if device.is_device_array(paddings):
        paddings = device.to_host(paddings)
    fill = _fill(constant_value, x.dtype)
    try:
        widths = from_last_axis(paddings, x.ndim, paddings_contiguous)
    except ValueError:
        return None
    return None if fill is None else padded(x, widths, mode, fill)


def constant_pad_nd(input, padding, value=0.0):
    """ConstantPadND: PadV3's constant mode with a scalar fill."""
    return pad_v3(input, padding, value)


KERNELS = {"MirrorPad": mirror_pad, "PadV3": pad_v3, "ConstantPadND": constant_pad_nd}
registry.declare_kernels("cuda", KERNELS)
