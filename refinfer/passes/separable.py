"""Inverted residual blocks (MobileNetV2, and the networks built from its
block): three fused convolutions, as the ``conv`` pass leaves them, become
one step, :func:`ops._kernels.separable.inverted_residual`, which keeps the
expanded activations channel-last (see that module for why).

Pattern (each value used by the next node only, as its input)::

    1x1 conv, stride 1, unpadded, one group  [+ bias, activation]
        (or a stem: a one-group conv of at most STEM_DEPTH inputs per output)
    -> 3x3 depthwise conv, stride 1 or 2, undilated  [+ bias, activation]
    -> 1x1 conv, stride 1, unpadded, one group  [+ bias, residual, activation]

The activations must be light ones (``program.activate_light``), and the
block's kernels call BLAS from Numba (``blas.native_gemm()``): other blocks
stay three convolutions. The depthwise convolution's padding is resolved
per input shape at run time, as Conv2D's. A block whose input does not fit
(a dtype the weights do not have) falls back to its three convolutions.
"""
from __future__ import annotations

import numpy as np

from ..graph import Node, Ref, RefKind
from ..ops._kernels import blas, program
from ..ops._kernels.packed import PackedChannels, PackedWeight
from ..ops._kernels.separable import InvertedResidual, inverted_residual
from .conv import is_fused_convolution
from .fused import (GraphEditor, const, fused_node,
                    tensor_abstract)

# the ops a block starts from, before the conv pass fused them
STARTS = frozenset({"Conv2D"})


def fuse_inverted_residuals(editor: GraphEditor) -> None:
    for node in editor.graph.nodes:
        if editor.is_live(node):
            _fuse(editor, node)


# A block may start with a network's stem instead of a 1x1 expansion: a
# convolution of few inputs per output (MobileNetV2's 3x3 stride-2
# convolution of the RGB image, 27), whose im2col matrix is the block's
# input. MobileNetV2's stem and first block (no expansion, a stride-1
# depthwise convolution on 112x112) as one step against three convolutions,
# one process, alternated: the model level (1.011 / 0.980 of the time at
# 1 / 2 threads, within this machine's noise), its empty-cache start 13.5
# -> 11.4 s: the planar depthwise kernel and the NCHW epilogue, which only
# these convolutions used, no longer compile.
STEM_DEPTH = 32


# Stride-1 depthwise planes of more pixels stay with the NCHW convolutions,
# unmeasured. MobileNetV2's 24-144-24 block at 56x56, one process, ms at
# 1 / 2 threads: fused 1.50 / 1.08 (its bands computed a few rows at a time,
# separable.PIECE_BYTES); the whole model 0.992 / 0.965 of the time with
# that block fused as well.
LARGEST_STRIDE_1_PLANE = 56 * 56


def _fuse(editor: GraphEditor, expand: Node) -> None:
    pointwise = _pointwise(expand, None)
    if not (pointwise or _stem(expand)) or _has_residual(expand):
        return
    depthwise = _reader_of(editor, expand)
    if not _depthwise3x3(depthwise, _weight(expand).shape[0]) \
            or _has_residual(depthwise) or pointwise and _large_stride_1_plane(
                editor, depthwise):
        return
    project = _reader_of(editor, depthwise)
    if not _pointwise(project, _weight(depthwise).shape[0]):
        return
    nodes = [expand, depthwise, project]
    if not blas.native_gemm() or any(const(n, 4) >= program.FIRST_HEAVY
                                   for n in nodes):
        return
    block = InvertedResidual(
        *(_plain_weight(n) for n in nodes),
        [const(n, 3) for n in nodes], tuple(const(n, 4) for n in nodes),
        (const(depthwise, 5), const(depthwise, 6), const(depthwise, 7)),
        tuple(const(expand, i) for i in range(5, 9)))
    if _has_residual(project):
        inputs, constants = [expand.args[0].ref, project.args[1].ref], (block,)
    else:
        inputs, constants = [expand.args[0].ref], (None, block)
    editor.replace(nodes, fused_node(nodes, inverted_residual, inputs,
                                     constants))


# A fused convolution's arguments (passes/conv.py): x, residual (None when
# it has none), weight, bias, act, pad_mode, pads, stride, dilation, group.
def _is_fused_convolution(node: Node | None) -> bool:
    return is_fused_convolution(node) and isinstance(
        _weight(node), (np.ndarray, PackedWeight, PackedChannels))


def _weight(node: Node):
    return const(node, 2)


def _plain_weight(node: Node) -> np.ndarray:
    weight = _weight(node)
    return weight if isinstance(weight, np.ndarray) else weight.unpacked()


def _has_residual(node: Node) -> bool:
    return const(node, 1) is not None


def _reader_of(editor: GraphEditor, node: Node) -> Node | None:
    """The node that reads ``node``'s value as its input x, and nothing
    else does."""
    user = editor.sole_user(node)
    if user is None or not user.args \
            or user.args[0].ref != Ref(RefKind.NODE, node.name):
        return None
    return user


def _pointwise(node: Node | None, channels: int | None) -> bool:
    """A 1x1, stride-1, unpadded, one-group fused convolution (reading
    ``channels`` channels, when given)."""
    if not _is_fused_convolution(node):
        return False
    weight = _weight(node)
    pad_mode, pads, stride, dilation, group = \
        (const(node, i) for i in range(5, 10))
    return weight.shape[2:] == (1, 1) and group == 1 \
        and channels in (None, weight.shape[1]) and stride == (1, 1) \
        and dilation == (1, 1) and (pad_mode != "PAD" or not any(pads))


def _stem(node: Node | None) -> bool:
    """A one-group fused convolution reading at most STEM_DEPTH values per
    output (C_in * kh * kw)."""
    return _is_fused_convolution(node) and const(node, 9) == 1 \
        and np.prod(_weight(node).shape[1:]) <= STEM_DEPTH


def _large_stride_1_plane(editor: GraphEditor, depthwise: Node) -> bool:
    """Whether the depthwise convolution has stride 1 and an input plane
    (as MindIR recorded it) of more than LARGEST_STRIDE_1_PLANE pixels."""
    recorded = tensor_abstract(editor, depthwise.args[0].ref)
    return const(depthwise, 7) == (1, 1) and recorded is not None \
        and len(recorded[0]) == 4 \
        and recorded[0][2] * recorded[0][3] > LARGEST_STRIDE_1_PLANE


def _depthwise3x3(node: Node | None, channels: int) -> bool:
    """A 3x3 depthwise fused convolution of ``channels`` channels, stride
    1 or 2, undilated."""
    if not _is_fused_convolution(node):
        return False
    weight = _weight(node)
    stride, dilation, group = (const(node, i) for i in range(7, 10))
    return weight.shape == (channels, 1, 3, 3) and group == channels \
        and dilation == (1, 1) and stride in ((1, 1), (2, 2))
