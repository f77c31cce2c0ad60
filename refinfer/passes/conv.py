"""Convolution epilogues: fold BatchNorm into the weights, fuse bias,
residual Add and activation into the convolution's output pass.

Pattern (each intermediate value used by the next node only)::

    Conv2D(x, W) [-> BiasAdd(., b)] [-> BatchNorm(., scale, beta, mean, var)
    -> TupleGetItem(., 0)] [-> Add(., residual)] [-> an activation: ReLU,
    ReLU6, HSwish, Sigmoid, Tanh, GeLU, FastGeLU, SiLU, HSigmoid, Mish,
    GeluExt (fused.activation)]

BatchNorm folding (inference mode, constant statistics), in float64 then
rounded to W's dtype:  inv = scale / sqrt(var + eps),  W' = W * inv[o],
b' = (b - mean) * inv + beta.  The fused node computes
act(conv(x, W') + b' + residual) with :func:`ops._kernels.conv.fused_conv2d`.
Weights are packed once here: contiguous, and for 3x3 stride-1 one-group
convolutions transformed for Winograd F(2x2, 3x3)
(:class:`ops._kernels.conv.WinogradFilter`, its u_k with the output
channels as lanes where the plane was recorded) unless MindIR recorded an
output plane of too few tiles (:func:`winograd_pays`); other one-group
float32 weights of convolutions whose output plane MindIR recorded as
W^T, the output channels as the vectors' lanes, on AVX-512 CPUs where
our product is enabled (:func:`ops._kernels.packed.channels_columns`:
slivers for :func:`~ops._kernels.packed.channels_product` on planes of
7-63 pixels, for :func:`~ops._kernels.packed.lanes_product` from 64),
and the others with a residual in slivers for
:func:`ops._kernels.packed.multiply` where that product is enabled.
After the other passes, :func:`write_onto_residuals` lets a fused
convolution write its result over its residual where nothing else reads
the residual any more.
"""
from __future__ import annotations

import dataclasses
import math
from collections import Counter

import numpy as np

from ..graph import Arg, Node, Ref, RefKind, all_args
from ..ops._kernels import packed, program
from ..ops._kernels.conv import WinogradFilter, fused_conv2d
from .fused import (FUSED_BACKEND, GraphEditor, activation, const, fused_node,
                    op_name, tensor_abstract)

FLOAT_WEIGHTS = (np.dtype(np.float32), np.dtype(np.float64))

# Output tiles (2x2 pixels each) below which a 3x3 convolution stays
# im2col + GEMM: Winograd's 16 products of few columns are bound by reading
# their transformed weights, 16/9 of the weight's bytes. Measured on one
# process, AMD EPYC (AVX2), ms at 1 / 2 threads,
# im2col + GEMM against Winograd: 512 x 7x7 (16 tiles) 5.08 / 3.46 against
# 5.47 / 4.23, 256 x 9x9 (25) 2.19 / 1.65 against 2.75 / 1.90, 512 x 11x11
# (36) 8.80 / 5.73 against 7.66 / 5.70, 256 x 14x14 (49) 4.52 / 2.41
# against 3.64 / 2.26.
WINOGRAD_MIN_TILES = 36
# With u_k packed for our own product (WinogradFilter), from a register
# tile's columns (its 16 products have a column per tile) where the weight
# is deep enough. AVX2's 6 x 16 tile, one thread / two, Winograd's time
# against im2col + GEMM's: 512 x 7x7 (16 tiles) 0.79 / 0.86, 256 x 7x7
# 0.77 / 0.83, 1024 x 7x7 0.69 / 0.72, 128 x 8x8 1.05 / 0.86, 64 x 8x8
# 1.58 / 1.40; 4 tiles (256 and 512 x 4x4) 1.6-1.7. AVX-512's 12 x 32 tile
# (AMD Zen 4), where 16 tiles fill half of it: 512, 256 and 1024 x 7x7
# 1.22 / 1.17, 1.18 / 1.17, 1.15 / 1.09; 256 x 14x14 (49) 0.66 / 0.69.
# With u_k packed with the output channels as lanes (AVX-512), ResNet-50's
# 512 x 7x7 layers took 2.15 ms in the model against im2col's 2.8 (its
# time 0.964 at one thread, 0.976 at two).
PACKED_MIN_TILES, PACKED_MIN_CHANNELS = packed.TILE_COLUMNS, 256


# the ops a fused group starts from
STARTS = frozenset({"Conv2D"})


def fuse_convolutions(editor: GraphEditor) -> None:
    editor.fuse_each(STARTS, _fuse)


def _fuse(editor: GraphEditor, conv: Node) -> None:
    geometry = _geometry(conv)
    if geometry is None:
        return
    weight = const(conv, 1)
    weight64, bias64 = weight.astype(np.float64), None
    group, residual, act = [conv], None, program.ACT_NONE
    user = editor.sole_user(conv)
    if op_name(user) == "BiasAdd" and _channel_constant(user, 1, weight):
        bias64 = const(user, 1).astype(np.float64)
        group.append(user)
        user = editor.sole_user(user)
    folded = _fold_batch_norm(editor, user, weight64, bias64)
    if folded is not None:
        weight64, bias64, nodes = folded
        group += nodes
        user = editor.sole_user(nodes[-1])
    if op_name(user) == "Add":
        residual = _residual(editor, user, group[-1])
        if residual is not None:
            group.append(user)
            user = editor.sole_user(user)
    if activation(user) is not None:
        act = activation(user)
        group.append(user)
    packed = _pack(editor, conv, weight64, weight.dtype, geometry,
                   residual is not None)
    bias = None if bias64 is None else bias64.astype(weight.dtype)
    inputs = [conv.args[0].ref] + ([residual] if residual is not None else [])
    constants = ((None,) if residual is None else ()) + (
        packed, bias, act) + geometry
    editor.replace(group, fused_node(group, fused_conv2d, inputs, constants))


def write_onto_residuals(editor: GraphEditor) -> None:
    """Let each fused convolution with a residual write its result over
    the residual (``fused_conv2d``'s onto_residual) where no one else can
    see it: the residual is another fused convolution's result (an array
    of its own, not a view of another value), read by fused convolutions
    only (they keep no view of it), this one the last and once (not as
    its image too), and it is not an output of the graph. (After the
    other passes: an inverted residual block takes its convolutions.)"""
    nodes = editor.graph.nodes
    reads = Counter(arg.ref.key for node in nodes for arg in all_args(node)
                    if arg.ref.kind is RefKind.NODE)
    convolutions = {n.name: n for n in nodes if is_fused_convolution(n)}
    seen: Counter = Counter()
    for node in nodes:
        for arg in all_args(node):
            if arg.ref.kind is RefKind.NODE:
                seen[arg.ref.key] += node.name in convolutions
        residual = node.args[1].ref if node.name in convolutions else None
        if residual is not None and residual.kind is RefKind.NODE \
                and residual.key in convolutions \
                and residual.key not in editor.escaping \
                and seen[residual.key] == reads[residual.key] \
                and node.args[0].ref != residual:
            editor.replace([node], dataclasses.replace(node, args=(
                *node.args, Arg(Ref(RefKind.CONST, True)))))


def is_fused_convolution(node: Node | None) -> bool:
    """Whether ``node`` is a convolution this pass fused."""
    return node is not None and node.op is not None \
        and node.op.kernels.get(FUSED_BACKEND) is fused_conv2d


def _pack(editor: GraphEditor, conv: Node, weight64: np.ndarray, dtype,
          geometry, residual: bool):
    """The folded weight, in ``dtype``, as the fused kernel multiplies it:
    Winograd's transform (3x3 stride 1, a large enough plane), else
    packed for our own product with the output channels as lanes where
    its output plane was recorded (:func:`packed.channels_columns`), or
    with the pixels as lanes where it has a residual to add (one group,
    float32, where :func:`packed.enabled`: see that module for why only
    there; packed from float64, with no float32 copy left behind in the
    heap), else contiguous."""
    _pad_mode, _pads, stride, dilation, group = geometry
    packs = packed.serves(dtype)
    plane = _recorded_plane(editor, conv)
    tiles = None if plane is None \
        else math.prod(WinogradFilter.tile_grid(*plane))
    winograd = WinogradFilter.applies(weight64, stride, dilation, group) \
        and winograd_pays(tiles, weight64.shape[1], packs)
    columns = 0 if winograd or group > 1 or plane is None \
        else packed.channels_columns(dtype, plane[0] * plane[1])
    if columns:
        return packed.PackedChannels(weight64, columns)
    if not winograd and residual and group == 1 and packs:
        return packed.PackedWeight(weight64)
    weight = np.ascontiguousarray(weight64.astype(dtype))
    return WinogradFilter(weight, tiles) if winograd else weight


def winograd_pays(tiles, channels: int, packs: bool) -> bool:
    """Whether a 3x3 convolution of ``tiles`` Winograd tiles (None where
    unknown) and ``channels`` input channels is faster so: from
    WINOGRAD_MIN_TILES; where its filter ``packs`` and has at least
    PACKED_MIN_CHANNELS input channels, from PACKED_MIN_TILES, or from a
    tile's rows where u_k takes the channels as lanes."""
    if tiles is None:
        return True
    if not packs or channels < PACKED_MIN_CHANNELS:
        return tiles >= WINOGRAD_MIN_TILES
    return tiles >= PACKED_MIN_TILES \
        or packed.channels_columns(np.float32, tiles) > 0


def _recorded_plane(editor: GraphEditor, conv: Node):
    """(OH, OW) of the convolution's output as MindIR recorded it, None
    where it did not."""
    recorded = tensor_abstract(editor, Ref(RefKind.NODE, conv.name))
    if recorded is None or len(recorded[0]) != 4 or min(recorded[0][2:]) < 0:
        return None
    return tuple(recorded[0][2:])


def _geometry(conv: Node):
    """(pad_mode, pads, stride, dilation, group) when the convolution's
    settings and weight are constants the fast kernel handles, else None."""
    (weight, out_channel, kernel_size, _mode, pad_mode, pad, stride, dilation,
     group, data_format, pad_list) = [const(conv, i) for i in range(1, 12)]
    if any(v is Ellipsis for v in (weight, out_channel, kernel_size, pad_mode,
                                   pad, stride, dilation, group, data_format,
                                   pad_list)):
        return None
    if not isinstance(weight, np.ndarray) or weight.ndim != 4 \
            or weight.dtype not in FLOAT_WEIGHTS or data_format != "NCHW":
        return None
    c_out, _, kh, kw = weight.shape
    if kernel_size not in (None, (kh, kw)) or out_channel not in (None, c_out) \
            or group < 1 or c_out % group:
        return None
    pads = pad_list if pad_mode == "PAD" and pad_list is not None else pad
    return pad_mode, tuple(pads), tuple(stride), tuple(dilation), int(group)


def _channel_constant(node: Node, index: int, weight: np.ndarray) -> bool:
    """Argument ``index`` of ``node`` is a constant (C_out,) vector of the
    weight's dtype, applied along axis 1 (NCHW)."""
    value = const(node, index)
    layout = const(node, 2) if op_name(node) == "BiasAdd" else "NCHW"
    return (isinstance(value, np.ndarray) and value.shape == weight.shape[:1]
            and value.dtype == weight.dtype and layout == "NCHW")


def _fold_batch_norm(editor, bn, weight64, bias64):
    """(W', b', [BatchNorm, TupleGetItem]) when ``bn`` is an inference
    BatchNorm on constants whose only use is its output 0, else None."""
    if op_name(bn) != "BatchNorm":
        return None
    values = [const(bn, i) for i in range(1, 9)]
    scale, beta, mean, var, training, eps, _momentum, layout = values
    vectors = (scale, beta, mean, var)
    if training is not False or layout != "NCHW" or not all(
            isinstance(v, np.ndarray) and v.shape == weight64.shape[:1]
            for v in vectors):
        return None
    getter = editor.sole_user(bn)
    if op_name(getter) != "TupleGetItem" or const(getter, 1) != 0:
        return None
    scale, beta, mean, var = (v.astype(np.float64) for v in vectors)
    inv = scale / np.sqrt(var + float(eps))
    bias64 = np.zeros_like(mean) if bias64 is None else bias64
    return (weight64 * inv[:, None, None, None], (bias64 - mean) * inv + beta,
            [bn, getter])


def _residual(editor: GraphEditor, add: Node, conv_out: Node) -> Ref | None:
    """The other operand of ``add`` when it is a run-time tensor recorded
    with the same shape and dtype as the convolution's output."""
    refs = [a.ref for a in add.args]
    mine = Ref(RefKind.NODE, conv_out.name)
    if len(refs) != 2 or refs.count(mine) != 1:
        return None
    other = refs[1] if refs[0] == mine else refs[0]
    expected = tensor_abstract(editor, mine)
    if other.kind not in (RefKind.NODE, RefKind.INPUT) or expected is None:
        return None
    return other if tensor_abstract(editor, other) == expected else None
