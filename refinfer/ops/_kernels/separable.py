"""The inverted residual block of MobileNetV2-style networks as one step
(``numba`` backend; the plan's fused block, passes/separable.py): a 1x1
expansion, a 3x3 depthwise convolution and a 1x1 projection, each with its
folded BatchNorm, bias and activation, the projection maybe with a residual
Add.

Run as three NCHW convolutions, the depthwise one is the slow part: its
planes are small (down to 7x7), and a plane at a time spends more on
padding, copying out and set-up than on arithmetic. Inside the block the
expanded activations are channel-last instead, at no cost: the expansion
computes x^T W_e^T, (pixels, C_e), rather than W_e x. The depthwise kernel
then vectorises across channels with no copies, and the projection reads
its channel-last input as the transposed operand of W_p d^T, which is NCHW
again. Measured on one thread (AMD EPYC, MobileNetV2's blocks, against the
three convolutions): 0.66-1.00 of the time, the depthwise kernel alone 2-6x
faster on planes up to 28x28. With more threads each takes a band of output
rows through all three stages: one hand-off per block instead of three
(MobileNetV2 on two threads 10.6-10.7 -> 9.0-9.3 ms).
"""
from __future__ import annotations

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import GEMM_WORK, min_items, parallel_for

from . import blas, program
from .conv import conv_geometry


class InvertedResidual:
    """The packed constants of a block: ``expand`` (C_e, C) and ``project``
    (C_p, C_e) 1x1 weights, ``depthwise`` (3, 3, C_e) channel-last, their
    biases (None: zeros) and ``program.ACT_*`` codes, and the depthwise
    convolution's ``window`` (pad_mode, pads, stride) as Conv2D takes it."""

    def __init__(self, expand, depthwise, project, biases, acts, window):
        self.expand = np.ascontiguousarray(expand[:, :, 0, 0])
        self.depthwise = np.ascontiguousarray(
            depthwise[:, 0].transpose(1, 2, 0))
        self.project = np.ascontiguousarray(project[:, :, 0, 0])
        self.biases = tuple(np.zeros(len(weight), weight.dtype) if b is None
                            else b for b, weight in zip(biases, (
                                self.expand, self.expand, self.project)))
        self.acts, self.window = acts, window


def inverted_residual(x, residual, block: InvertedResidual):
    """act_p(W_p dw(act_e(W_e x + b_e)) + b_p + residual), NCHW, float32 or
    float64; None when x or residual does not fit (the caller falls back).
    ``dw`` is act_d(depthwise3x3(.) + b_d)."""
    channels, expanded = block.expand.shape[1], block.expand.shape[0]
    if not isinstance(x, np.ndarray) or x.dtype != block.expand.dtype \
            or x.ndim != 4 or x.shape[1] != channels:
        return None
    n, _, h, w = x.shape
    pad_mode, pads, stride = block.window
    top, left, oh, ow = conv_geometry((n, expanded, h, w), (expanded, 1, 3, 3),
                                      pad_mode, pads, stride, (1, 1))
    y = np.empty((n, block.project.shape[0], oh, ow), x.dtype)
    if residual is not None and (not isinstance(residual, np.ndarray)
                                 or residual.shape != y.shape
                                 or residual.dtype != y.dtype):
        return None
    x = program.writable(x)
    residual = None if residual is None else program.writable(residual)
    for b in range(n):
        band = _Bands(block, x[b], y[b], None if residual is None
                      else residual[b], top, left)
        parallel_for(oh, band.run, grain=min_items(band.work_per_row, GEMM_WORK))
    return y


class _Bands:
    """One image of a block, computable in bands of output rows, each
    through all three stages (one hand-off to the worker threads per block,
    and a band's activations stay in cache between stages): the input rows
    a band reads (its rows and the halo the 3x3 window adds) are expanded
    into the thread's own buffer, the band's depthwise rows go to a buffer
    shared by the bands, and the projection writes the band's pixels."""

    def __init__(self, block, image, out, residual, top, left):
        self.block, self.top, self.left = block, top, left
        self.image = image.reshape(image.shape[0], -1)
        self.height, self.width = image.shape[1], image.shape[2]
        expanded = block.expand.shape[0]
        oh, ow = out.shape[1], out.shape[2]
        self.out = out.reshape(out.shape[0], -1)
        self.residual = program.no_residual(out.dtype) if residual is None \
            else residual.reshape(self.out.shape)
        self.depthwise_out = program.scratch("depthwise", (oh, ow, expanded),
                                             out.dtype)
        self.stride = block.window[2][0]
        self.work_per_row = expanded * (
            self.stride * self.width * image.shape[0] + ow * (9 + out.shape[0]))

    def run(self, lo, hi):
        block, stride = self.block, self.stride
        first = max(0, lo * stride - self.top)
        last = min(self.height, (hi - 1) * stride - self.top + 3)
        expanded = self._expand(first, last)
        depthwise3x3_nhwc(expanded, block.depthwise, block.biases[1],
                          self.depthwise_out, stride, self.top + first, self.left,
                          block.acts[1], lo, hi)
        ow = self.depthwise_out.shape[1]
        rows = self.depthwise_out[lo:hi].reshape((hi - lo) * ow, -1)
        program.activate_heavy(rows, block.acts[1])
        pixels = slice(lo * ow, hi * ow)
        blas.matmul(block.project, rows.T, self.out[:, pixels])
        program.epilogue(self.out, block.biases[2], self.residual,
                         block.acts[2], lo * ow, hi * ow)
        program.activate_heavy(self.out[:, pixels], block.acts[2])

    def _expand(self, first, last):
        """act_e(x^T W_e^T + b_e) of input rows first <= r < last, as
        (rows, W, C_e) in the calling thread's buffer."""
        block, width = self.block, self.width
        pixels = slice(first * width, last * width)
        e = program.scratch("expanded", ((last - first) * width,
                                         block.expand.shape[0]), self.out.dtype)
        blas.matmul(self.image[:, pixels].T, block.expand.T, e)
        bias_activation_rows(e, block.biases[0], block.acts[0])
        program.activate_heavy(e, block.acts[0])
        return e.reshape(last - first, width, -1)


@kernel
def bias_activation_rows(y, bias, act):
    """In place: y[r] = act(y[r] + bias) for every row of y (bias along the
    last axis; y contiguous, activated as one span: rows may be short),
    act light (:func:`program.activate_light`)."""
    for r in range(y.shape[0]):
        for k in range(y.shape[1]):
            y[r, k] += bias[k]
    program.activate_light(y.reshape(1, y.size), 0, 0, y.size, act)


@kernel
def depthwise3x3_nhwc(x, w, bias, y, stride, top, left, act, lo, hi):
    """Channel-last depthwise 3x3 for output rows lo <= i < hi:
    y[i, j, c] = act(bias[c] + sum_{p,q} w[p, q, c] *
    x[i*stride + p - top, j*stride + q - left, c]), taps outside x being
    zeros (padding); x (H, W, C), w (3, 3, C), bias (C,), y (OH, OW, C). The loops run
    across channels (vectorised); inside the image the nine taps are one
    expression, in the NCHW kernel's order of additions. act: light ones
    only (:func:`program.activate_light`)."""
    h, width, channels = x.shape
    ow = y.shape[1]
    flat = y.reshape(y.shape[0], ow * channels)
    for i in range(lo, hi):
        r = i * stride - top
        for j in range(ow):
            c = j * stride - left
            out = y[i, j]
            if 0 <= r and r + 2 < h and 0 <= c and c + 2 < width:
                a0, a1, a2 = x[r, c], x[r, c + 1], x[r, c + 2]
                b0, b1, b2 = x[r + 1, c], x[r + 1, c + 1], x[r + 1, c + 2]
                d0, d1, d2 = x[r + 2, c], x[r + 2, c + 1], x[r + 2, c + 2]
                for k in range(channels):
                    out[k] = (bias[k] + w[0, 0, k] * a0[k] + w[0, 1, k] * a1[k]
                              + w[0, 2, k] * a2[k] + w[1, 0, k] * b0[k]
                              + w[1, 1, k] * b1[k] + w[1, 2, k] * b2[k]
                              + w[2, 0, k] * d0[k] + w[2, 1, k] * d1[k]
                              + w[2, 2, k] * d2[k])
                continue
            for k in range(channels):
                out[k] = bias[k]
            for p in range(max(0, -r), min(3, h - r)):
                for q in range(max(0, -c), min(3, width - c)):
                    tap, src = w[p, q], x[r + p, c + q]
                    for k in range(channels):
                        out[k] += tap[k] * src[k]
        program.activate_light(flat, i, 0, ow * channels, act)
