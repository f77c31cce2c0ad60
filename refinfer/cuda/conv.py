"""The ``cuda`` kernels of the convolutions: Conv2D, Conv3D, the mint /
PyTorch-style Conv1DExt, Conv2DExt, Conv3DExt and Convolution, and the
transposed ones (Conv2DBackpropInput / Conv2DTranspose, Conv3DTranspose,
ConvTranspose2D, Convolution with ``transposed``), and Correlate (a
one-channel 1-D convolution), declared in :data:`KERNELS`: one direct
kernel for all of them.

Every rank runs as 3-D (leading unit axes, as the CPU kernels do), one
thread per output element in a grid-stride loop, the sum over the
group's channels and the taps in the compute dtype (float16 in float32):

    forward     y[n, o, p] = bias[o] + sum_{c, k} x[n, g*Cg + c, p*s + k*d - pad]
                                                  * w[o, c, k]
    transposed  y[n, g*Cg + c, p] = bias + sum_{o in g, k} dout[n, o, i] * w[o, c, k]
                where p + pad = i*s + k*d

The two differ only in where a tap reads (:func:`_source`) and which
weight it takes, so they are one kernel with a flag. A direct kernel is
not the fast GPU convolution (an implicit GEMM with shared-memory tiles,
or cuDNN, is): it is the reference one, checked against the NumPy
reference in the simulator. Operands of two dtypes, NHWC layouts and
shapes that do not fit decline (the reference runs or raises its error).
"""
from __future__ import annotations

import numba
import numpy as np
from numba import types

from refinfer import registry
from refinfer.ops._kernels.conv import _geometry, _lift
from refinfer.ops._ref import window as win
from refinfer.ops._ref.common import FLOATS, compute_dtype
from refinfer.ops._ref.conv import (backprop_input_pads, conv3d_pads,
                                    conv3d_transpose_layout, torch_layout)

from . import device
from .device import cuda, device_function
from .index import reverse_v2
from .layout import flat

DTYPES = frozenset(np.dtype(name) for name in FLOATS)


@device_function
def _source(position, tap, before, stride, dilation, size, transposed):
    """The input position that output ``position`` reads through ``tap``
    along one axis; -1 where there is none (padding, or between strides
    of a transposed convolution)."""
    if transposed:
        q = position + before - tap * dilation
        if q < 0 or q % stride:
            return -1
        p = q // stride
    else:
        p = position * stride + tap * dilation - before
    return p if 0 <= p < size else -1


@device.jit
def convolve_kernel(x, w, bias, out, sizes, geometry, transposed, zero):
    """out (N, O, OD, OH, OW) of x (N, C, D, H, W): every output element's
    sum over the ``reduce`` channels of its group and the taps.
    sizes = (O, C, D, H, W, reduce, outputs per group); geometry = the
    padding before, kernel, stride, dilation and output size, 3 each."""
    c_out, c_in, d, h, wd, reduce, per_group = sizes
    kd, kh, kw = geometry[3], geometry[4], geometry[5]
    od, oh, ow = geometry[12], geometry[13], geometry[14]
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        q = i // ow
        pz, py, px = (q // oh) % od, q % oh, i % ow
        q //= oh * od
        oc, n = q % c_out, q // c_out
        g = oc // per_group
        acc = zero + bias[oc] if bias.size else zero
        for tz in range(kd):
            z = _source(pz, tz, geometry[0], geometry[6], geometry[9], d, transposed)
            if z < 0:
                continue
            for ty in range(kh):
                y = _source(py, ty, geometry[1], geometry[7], geometry[10], h,
                            transposed)
                if y < 0:
                    continue
                for tx in range(kw):
                    xx = _source(px, tx, geometry[2], geometry[8], geometry[11], wd,
                                 transposed)
                    if xx < 0:
                        continue
                    for r in range(reduce):
                        ic = g * reduce + r
                        # forward: w[oc, r, k]; transposed: w[ic, oc - g*Og, k]
                        row = ic * per_group + oc - g * per_group if transposed \
                            else oc * reduce + r
                        acc += x[(((n * c_in + ic) * d + z) * h + y) * wd + xx] \
                            * w[((row * kd + tz) * kh + ty) * kw + tx]
        out[i] = acc


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernel
    for tools/check_ptx.py, per float dtype and int32."""
    kernels = []
    for dtype in map(np.dtype, FLOATS + ("int32",)):     # int32: Correlate
        value = numba.from_dtype(dtype)[::1]
        kernels.append((f"conv direct, {dtype.name}", convolve_kernel.py_func,
                        (value, value, value, value, types.UniTuple(numba.int64, 7),
                         types.UniTuple(numba.int64, 15), numba.boolean,
                         numba.from_dtype(compute_dtype(dtype)))))
    return kernels


def _fits(x, weight, bias, group: int, transposed: bool) -> bool:
    """Whether the operands make a convolution this kernel runs: one float
    dtype, rank 1 to 3, channels that fit ``group``, a bias per result
    channel."""
    if any(a.dtype != x.dtype for a in (weight, bias) if a is not None) \
            or x.dtype not in DTYPES or weight.ndim not in (3, 4, 5) \
            or x.ndim != weight.ndim or group < 1:
        return False
    c_out, c_group = weight.shape[:2]
    if transposed:      # weight (C_in, C_out / group, *K)
        fits, channels = x.shape[1] == c_out and c_out % group == 0, c_group * group
    else:               # weight (C_out, C_in / group, *K)
        fits, channels = x.shape[1] == c_group * group and c_out % group == 0, c_out
    return fits and (bias is None or tuple(bias.shape) == (channels,))


def convolve(x, weight, bias, pads, stride, dilation, group, out_size=None):
    """The convolution of x (N, C, *S), rank 1 to 3, by weight
    (O, C/group, *K) with ``pads`` (before, after) per axis; transposed
    (x being the forward convolution's output) when ``out_size`` is
    given. None when the operands do not fit."""
    transposed = out_size is not None
    if not _fits(x, weight, bias, group, transposed):
        return None
    channels = weight.shape[1] * group if transposed else weight.shape[0]
    if not transposed:
        out_size = win.output_hw(x.shape[2:], weight.shape[2:], stride, dilation,
                                 pads)
    if min(out_size) <= 0:
        return None
    y = device.empty((x.shape[0], channels) + tuple(out_size), x.dtype)
    if y.size:
        _launch(x, weight, bias, y, pads, stride, dilation, group, transposed)
    return y


def _launch(x, weight, bias, y, pads, stride, dilation, group, transposed):
    """The direct kernel run into y (N, channels, *out_size)."""
    channels = y.shape[1]
    device.launch(convolve_kernel, y.size, flat(x), flat(weight),
                  device.empty(0, x.dtype) if bias is None else bias, flat(y),
                  (channels,) + tuple(_lift(x, 3).shape[1:])
                  + (x.shape[1] // group, channels // group),
                  _geometry(pads, weight.shape[2:], stride, dilation, tuple(y.shape[2:])),
                  transposed, compute_dtype(x.dtype).type(0))


# Correlate's padding (before, after) of the longer sequence for a shorter
# one of length n, per pad mode (NumPy's _pyarray_correlate).
CORRELATE_PADS = {"VALID": lambda n: (0, 0), "SAME": lambda n: (n // 2, n - 1 - n // 2),
                  "FULL": lambda n: (n - 1, n - 1)}


def correlate(a, v, pad_mode="VALID"):
    """Correlate (np.correlate of real sequences): the one-channel 1-D
    convolution of the longer sequence by the shorter, padded as the pad
    mode says; reversed where v is the longer one (NumPy swaps them).
    Integers too (the sum wraps, as NumPy's in the dtype); declines
    sequences the reference refuses or promotes (two dtypes), float16
    and bool."""
    if a.ndim != 1 or v.ndim != 1 or not a.size or not v.size or a.dtype != v.dtype \
            or a.dtype.kind not in "iuf" or a.dtype == np.float16:
        return None
    swapped = a.shape[0] < v.shape[0]
    longer, shorter = (v, a) if swapped else (a, v)
    pads = (CORRELATE_PADS[str(pad_mode).upper()](shorter.shape[0]),)
    length = longer.shape[0] + sum(pads[0]) - shorter.shape[0] + 1
    y = device.empty((1, 1, length), a.dtype)
    _launch(longer.reshape((1, 1, longer.shape[0])),
            shorter.reshape((1, 1, shorter.shape[0])), None, y, pads, (1,), (1,), 1,
            False)
    y = y.reshape(length)
    return reverse_v2(y, (0,)) if swapped else y


def conv2d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0), stride=(1, 1),
           dilation=(1, 1), group=1, data_format="NCHW", pad_list=None):
    """Conv2D, NCHW."""
    if data_format != "NCHW" or x.ndim != 4 or weight.ndim != 4 \
            or kernel_size not in (None, tuple(weight.shape[2:])) \
            or out_channel not in (None, weight.shape[0]):
        return None
    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    pads = win.resolve_pads(x.shape[2:], weight.shape[2:], stride, dilation,
                            pad_mode, pads)
    return convolve(x, weight, None, pads, stride, dilation, group)


def conv3d(x, weight, out_channel=None, kernel_size=None, mode=1,
           pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
           dilation=(1, 1, 1), group=1, data_format="NCDHW", pad_list=None):
    """Conv3D (its checks and padding as the reference's)."""
    pads = conv3d_pads(x, weight, out_channel, kernel_size, pad_mode, pad,
                       stride, dilation, data_format, pad_list)
    return convolve(x, weight, None, pads, stride, dilation, group)


def conv3d_transpose(x, filter, in_channel=None, out_channel=None,
                     kernel_size=None, mode=1, pad_mode="VALID",
                     pad=(0, 0, 0, 0, 0, 0), stride=(1, 1, 1),
                     dilation=(1, 1, 1), group=1, output_padding=(0, 0, 0),
                     data_format="NCDHW", pad_list=None, input_size=None):
    """Conv3DTranspose."""
    pads, out_size = conv3d_transpose_layout(
        x, filter, in_channel, out_channel, pad_mode, pad, stride, dilation,
        group, output_padding, data_format, pad_list, input_size)
    return convolve(x, filter, None, pads, stride, dilation, group, out_size)


def conv2d_backprop_input(out_backprop, filter, input_size, out_channel=None,
                          kernel_size=None, pad_mode="VALID",
                          pad=(0, 0, 0, 0), pad_list=None, mode=1,
                          stride=(1, 1), dilation=(1, 1), group=1,
                          data_format="NCHW"):
    """Conv2DBackpropInput / Conv2DTranspose."""
    pads = backprop_input_pads(out_backprop, filter, input_size, out_channel,
                               pad_mode, pad, pad_list, stride, dilation,
                               group, data_format)
    return convolve(out_backprop, filter, None, pads, stride, dilation, group,
                    tuple(input_size[2:]))


def _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                transposed, output_padding):
    """The mint / PyTorch-style convolutions, batched or not."""
    unbatched = input.ndim == weight.ndim - 1
    if weight.ndim not in (3, 4, 5) or bias is not None and bias.ndim != 1:
        return None
    batched = input.reshape((1,) + tuple(input.shape)) if unbatched else input
    x, stride, dilation, pads, out = torch_layout(
        batched, weight, stride, padding, dilation, transposed, output_padding)
    y = convolve(x, weight, bias, pads, stride, dilation, int(groups), out)
    return y.reshape(tuple(y.shape[1:])) if unbatched and y is not None else y


def conv_ext(input, weight, bias=None, stride=(1,), padding=(0,),
             dilation=(1,), groups=1):
    """Conv1DExt / Conv2DExt / Conv3DExt."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       False, 0)


def conv_transpose2d(input, weight, bias=None, stride=(1,), padding=(0,),
                     output_padding=(0,), groups=1, dilation=(1,)):
    """ConvTranspose2D."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       True, output_padding)


def convolution(input, weight, bias=None, stride=(1,), padding=(0,),
                dilation=(1,), transposed=False, output_padding=(0,),
                groups=1):
    """Convolution, forward or transposed."""
    return _torch_conv(input, weight, bias, stride, padding, dilation, groups,
                       transposed, output_padding)


KERNELS = {"Conv2D": conv2d, "Conv3D": conv3d,
           "Conv3DTranspose": conv3d_transpose,
           "Conv2DBackpropInput": conv2d_backprop_input,
           "Conv2DTranspose": conv2d_backprop_input,
           "Conv1DExt": conv_ext, "Conv2DExt": conv_ext, "Conv3DExt": conv_ext,
           "ConvTranspose2D": conv_transpose2d, "Convolution": convolution,
           "Correlate": correlate}
registry.declare_kernels("cuda", KERNELS)
