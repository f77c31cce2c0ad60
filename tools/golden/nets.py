"""Network definitions for the golden cases (MindSpore 2.7.1, ``mindspore.nn``).

Only structure lives here: weights are overwritten with seeded NumPy values by
``make_golden.randomize_parameters`` so that the goldens never depend on
MindSpore's own initialisers.

MindSpore compiles ``construct`` from its source text, so these classes must
stay in a real file (not ``python -c``).
"""
import numpy as np

import mindspore as ms
from mindspore import nn, ops
from mindspore.ops import functional as F
from mindspore.ops.operations import _scalar_ops as SCALAR_OPS
from mindspore.ops.operations import _sequence_ops as SEQ
from mindspore.ops.operations.manually_defined import ops_def as SCALAR


# --------------------------------------------------------------------------
# Small networks
# --------------------------------------------------------------------------
class LeNet5(nn.Cell):
    """Classic LeNet-5: two 5x5 valid convs (with bias), ReLU, 2x2 max-pools, three Dense."""

    def __init__(self, num_classes=10, in_channels=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 6, 5, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class MLP(nn.Cell):
    """Dense(4, 8) -> ReLU -> Dense(8, 3)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class CtrlIf(nn.Cell):
    """Python ``if`` on a tensor value, followed by an op after the branch."""

    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return ops.tanh(y)


class CtrlWhile(nn.Cell):
    """``while i < n`` loop (exported as a tail-recursive loop-header graph)."""

    def construct(self, x, n):
        i = ms.Tensor(0, ms.int32)
        while i < n:
            x = x + 1
            i = i + 1
        return x


class MultiOutput(nn.Cell):
    """Returns a tuple of two tensors of different shapes."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()

    def construct(self, x):
        return self.relu(self.fc(x)), self.sigmoid(x)


# --------------------------------------------------------------------------
# MobileNetV2 (width 1.0), as in the MindSpore model zoo / Lite quick start
# --------------------------------------------------------------------------
def _make_divisible(v, divisor=8, min_value=None):
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class ConvBNReLU(nn.Cell):
    """Conv2d (no bias, explicit symmetric padding, optional groups) + BatchNorm2d + ReLU6."""

    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super().__init__()
        padding = (kernel_size - 1) // 2
        self.conv = nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode="pad",
                              padding=padding, group=groups, has_bias=False)
        self.bn = nn.BatchNorm2d(out_planes)
        self.act = nn.ReLU6()

    def construct(self, x):
        return self.act(self.bn(self.conv(x)))


class InvertedResidual(nn.Cell):
    """MobileNetV2 block: 1x1 expand, 3x3 depthwise, 1x1 linear projection, optional residual."""

    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers += [
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
            nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
            nn.BatchNorm2d(oup),
        ]
        self.conv = nn.SequentialCell(layers)

    def construct(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class GlobalAvgPool(nn.Cell):
    """Mean over H and W via ReduceMean (``keep_dims`` selects (N,C,1,1) or (N,C))."""

    def __init__(self, keep_dims=False):
        super().__init__()
        self.mean = ops.ReduceMean(keep_dims=keep_dims)

    def construct(self, x):
        return self.mean(x, (2, 3))


class MobileNetV2(nn.Cell):
    """MobileNetV2 (width_mult 1.0) with a final Softmax, like the Lite quick-start model."""

    SETTINGS = [  # t, c, n, s
        [1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
        [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1],
    ]

    def __init__(self, num_classes=1000, width_mult=1.0):
        super().__init__()
        input_channel = _make_divisible(32 * width_mult)
        last_channel = _make_divisible(1280 * max(1.0, width_mult))
        features = [ConvBNReLU(3, input_channel, stride=2)]
        for t, c, n, s in self.SETTINGS:
            output_channel = _make_divisible(c * width_mult)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel,
                                                 s if i == 0 else 1, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, last_channel, kernel_size=1))
        self.features = nn.SequentialCell(features)
        self.pool = GlobalAvgPool(keep_dims=False)
        self.head = nn.Dense(last_channel, num_classes)
        self.softmax = nn.Softmax(axis=-1)

    def construct(self, x):
        x = self.pool(self.features(x))
        return self.softmax(self.head(x))


# --------------------------------------------------------------------------
# ResNet-18 (BasicBlock, [2, 2, 2, 2]) with a configurable base width
# --------------------------------------------------------------------------
def _conv_bn(in_c, out_c, kernel_size, stride):
    pad = (kernel_size - 1) // 2
    return nn.SequentialCell([
        nn.Conv2d(in_c, out_c, kernel_size, stride, pad_mode="pad", padding=pad, has_bias=False),
        nn.BatchNorm2d(out_c),
    ])


class BasicBlock(nn.Cell):
    """conv3x3-BN-ReLU-conv3x3-BN (+ 1x1 conv+BN downsample) + identity, ReLU."""

    def __init__(self, in_c, out_c, stride):
        super().__init__()
        self.body1 = _conv_bn(in_c, out_c, 3, stride)
        self.body2 = _conv_bn(out_c, out_c, 3, 1)
        self.relu = nn.ReLU()
        self.has_downsample = stride != 1 or in_c != out_c
        self.downsample = _conv_bn(in_c, out_c, 1, stride) if self.has_downsample else None

    def construct(self, x):
        identity = x
        out = self.relu(self.body1(x))
        out = self.body2(out)
        if self.has_downsample:
            identity = self.downsample(x)
        return self.relu(out + identity)


class ResNet18(nn.Cell):
    """ResNet-18. The stem max-pool uses pad_mode "same" as MindSpore's model zoo / mindcv do."""

    def __init__(self, base_width=64, num_classes=1000):
        super().__init__()
        self.stem = nn.SequentialCell([
            nn.Conv2d(3, base_width, 7, 2, pad_mode="pad", padding=3, has_bias=False),
            nn.BatchNorm2d(base_width),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same"),
        ])
        blocks = []
        in_c = base_width
        for stage, out_mult in enumerate((1, 2, 4, 8)):
            out_c = base_width * out_mult
            for i in range(2):
                blocks.append(BasicBlock(in_c, out_c, 2 if (i == 0 and stage > 0) else 1))
                in_c = out_c
        self.layers = nn.SequentialCell(blocks)
        self.pool = GlobalAvgPool(keep_dims=True)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(in_c, num_classes)

    def construct(self, x):
        x = self.layers(self.stem(x))
        return self.fc(self.flatten(self.pool(x)))


# --------------------------------------------------------------------------
# ResNet-50 (Bottleneck, [3, 4, 6, 3]) with a configurable base width
# --------------------------------------------------------------------------
class Bottleneck(nn.Cell):
    """1x1 reduce, 3x3 (stride), 1x1 expand x4, each + BN; projection shortcut; ReLU."""

    expansion = 4

    def __init__(self, in_c, width, stride):
        super().__init__()
        out_c = width * self.expansion
        self.body = nn.SequentialCell([
            _conv_bn(in_c, width, 1, 1), nn.ReLU(),
            _conv_bn(width, width, 3, stride), nn.ReLU(),
            _conv_bn(width, out_c, 1, 1),
        ])
        self.relu = nn.ReLU()
        self.has_downsample = stride != 1 or in_c != out_c
        self.downsample = _conv_bn(in_c, out_c, 1, stride) if self.has_downsample else None

    def construct(self, x):
        identity = self.downsample(x) if self.has_downsample else x
        return self.relu(self.body(x) + identity)


class ResNet50(nn.Cell):
    """ResNet-50 (v1.5: stride in the 3x3 conv), stem as ResNet18."""

    def __init__(self, base_width=64, num_classes=1000):
        super().__init__()
        self.stem = nn.SequentialCell([
            nn.Conv2d(3, base_width, 7, 2, pad_mode="pad", padding=3, has_bias=False),
            nn.BatchNorm2d(base_width), nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same"),
        ])
        blocks, in_c = [], base_width
        for stage, depth in enumerate((3, 4, 6, 3)):
            width = base_width * 2 ** stage
            for i in range(depth):
                blocks.append(Bottleneck(in_c, width, 2 if (i == 0 and stage > 0) else 1))
                in_c = width * Bottleneck.expansion
        self.layers = nn.SequentialCell(blocks)
        self.pool = GlobalAvgPool(keep_dims=False)
        self.fc = nn.Dense(in_c, num_classes)

    def construct(self, x):
        return self.fc(self.pool(self.layers(self.stem(x))))


# --------------------------------------------------------------------------
# MobileNetV3-small: hard-swish, hard-sigmoid squeeze-excite
# --------------------------------------------------------------------------
class ConvBNAct(nn.Cell):
    """Conv2d (no bias, 'pad' k//2, groups) + BatchNorm2d + activation (a Cell or None)."""

    def __init__(self, in_c, out_c, kernel_size=1, stride=1, groups=1, act=None):
        super().__init__()
        self.conv = nn.Conv2d(in_c, out_c, kernel_size, stride, pad_mode="pad",
                              padding=kernel_size // 2, group=groups, has_bias=False)
        self.bn = nn.BatchNorm2d(out_c)
        self.act = act
        self.has_act = act is not None

    def construct(self, x):
        x = self.bn(self.conv(x))
        return self.act(x) if self.has_act else x


class SqueezeExcite(nn.Cell):
    """x * gate(conv(act(conv(mean_hw(x))))): MobileNetV3 (ReLU, HSigmoid, ReduceMean) or
    EfficientNet (SiLU, Sigmoid, AdaptiveAvgPool2d) flavour."""

    def __init__(self, channels, squeezed, act, gate, adaptive_pool=False):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1) if adaptive_pool else GlobalAvgPool(keep_dims=True)
        self.reduce = nn.Conv2d(channels, squeezed, 1, has_bias=True)
        self.act = act
        self.expand = nn.Conv2d(squeezed, channels, 1, has_bias=True)
        self.gate = gate

    def construct(self, x):
        scale = self.gate(self.expand(self.act(self.reduce(self.pool(x)))))
        return x * scale


class ResidualBlock(nn.Cell):
    """``layers`` in sequence, plus the input where stride 1 keeps the shape (inverted
    residual blocks of MobileNetV3 and EfficientNet)."""

    def __init__(self, layers, in_c, out_c, stride):
        super().__init__()
        self.block = nn.SequentialCell(layers)
        self.residual = stride == 1 and in_c == out_c

    def construct(self, x):
        if self.residual:
            return x + self.block(x)
        return self.block(x)


def mobilenetv3_block(in_c, kernel, exp_c, out_c, use_se, act, stride):
    """Expand 1x1, depthwise kxk, optional SE (ReLU, HSigmoid gate), project 1x1."""
    layers = []
    if exp_c != in_c:
        layers.append(ConvBNAct(in_c, exp_c, 1, act=act()))
    layers.append(ConvBNAct(exp_c, exp_c, kernel, stride, groups=exp_c, act=act()))
    if use_se:
        layers.append(SqueezeExcite(exp_c, _make_divisible(exp_c // 4), nn.ReLU(),
                                    nn.HSigmoid()))
    layers.append(ConvBNAct(exp_c, out_c, 1))
    return ResidualBlock(layers, in_c, out_c, stride)


class MobileNetV3Small(nn.Cell):
    """MobileNetV3-small (Howard et al. 2019, table 2) with a width multiplier."""

    SETTINGS = [  # kernel, expansion, out, SE, activation (HS = hard-swish), stride
        (3, 16, 16, True, "RE", 2), (3, 72, 24, False, "RE", 2), (3, 88, 24, False, "RE", 1),
        (5, 96, 40, True, "HS", 2), (5, 240, 40, True, "HS", 1), (5, 240, 40, True, "HS", 1),
        (5, 120, 48, True, "HS", 1), (5, 144, 48, True, "HS", 1), (5, 288, 96, True, "HS", 2),
        (5, 576, 96, True, "HS", 1), (5, 576, 96, True, "HS", 1),
    ]

    def __init__(self, width_mult=1.0, last_channel=1024, num_classes=1000):
        super().__init__()
        acts = {"RE": nn.ReLU, "HS": nn.HSwish}
        in_c = _make_divisible(16 * width_mult)
        layers = [ConvBNAct(3, in_c, 3, 2, act=nn.HSwish())]
        for kernel, exp, out, use_se, act, stride in self.SETTINGS:
            out_c = _make_divisible(out * width_mult)
            layers.append(mobilenetv3_block(in_c, kernel, _make_divisible(exp * width_mult),
                                            out_c, use_se, acts[act], stride))
            in_c = out_c
        last_conv = _make_divisible(576 * width_mult)
        layers.append(ConvBNAct(in_c, last_conv, 1, act=nn.HSwish()))
        self.features = nn.SequentialCell(layers)
        self.pool = GlobalAvgPool(keep_dims=False)
        self.classifier = nn.SequentialCell([
            nn.Dense(last_conv, last_channel), nn.HSwish(), nn.Dropout(p=0.2),
            nn.Dense(last_channel, num_classes),
        ])

    def construct(self, x):
        return self.classifier(self.pool(self.features(x)))


# --------------------------------------------------------------------------
# VGG-style: stacks of 3x3 convs with bias, max-pools, Dense classifier with Dropout
# --------------------------------------------------------------------------
class VGGStyle(nn.Cell):
    """VGG-11 layout ([c, M, 2c, M, 4c, 4c, M, 8c, 8c, M]) at base width c, 'same' convs."""

    def __init__(self, base_width=8, num_classes=10, image_size=32):
        super().__init__()
        plan = [1, "M", 2, "M", 4, 4, "M", 8, 8, "M"]
        layers, in_c = [], 3
        for item in plan:
            if item == "M":
                layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            else:
                layers += [nn.Conv2d(in_c, base_width * item, 3, pad_mode="same",
                                     has_bias=True), nn.ReLU()]
                in_c = base_width * item
        self.features = nn.SequentialCell(layers)
        self.flatten = nn.Flatten()
        spatial = image_size // 16
        self.classifier = nn.SequentialCell([
            nn.Dense(in_c * spatial * spatial, 64), nn.ReLU(), nn.Dropout(p=0.5),
            nn.Dense(64, 64), nn.ReLU(), nn.Dropout(p=0.5),
            nn.Dense(64, num_classes),
        ])

    def construct(self, x):
        return self.classifier(self.flatten(self.features(x)))


# --------------------------------------------------------------------------
# EfficientNet-style: MBConv blocks with SiLU and squeeze-excite
# --------------------------------------------------------------------------
def mbconv(in_c, out_c, kernel, stride, expand_ratio):
    """EfficientNet MBConv: expand 1x1 + SiLU, depthwise kxk + SiLU, SE (SiLU, Sigmoid
    gate, AdaptiveAvgPool2d), project 1x1."""
    hidden = in_c * expand_ratio
    layers = []
    if expand_ratio != 1:
        layers.append(ConvBNAct(in_c, hidden, 1, act=nn.SiLU()))
    layers += [
        ConvBNAct(hidden, hidden, kernel, stride, groups=hidden, act=nn.SiLU()),
        SqueezeExcite(hidden, max(1, in_c // 4), nn.SiLU(), nn.Sigmoid(), adaptive_pool=True),
        ConvBNAct(hidden, out_c, 1),
    ]
    return ResidualBlock(layers, in_c, out_c, stride)


class EfficientNetStyle(nn.Cell):
    """A shortened EfficientNet-B0: stem, five MBConv stages, 1x1 head, pool, Dense."""

    SETTINGS = [  # expansion, out, repeats, stride, kernel
        (1, 8, 1, 1, 3), (6, 12, 2, 2, 3), (6, 20, 2, 2, 5), (6, 40, 1, 2, 3), (6, 56, 1, 1, 5),
    ]

    def __init__(self, num_classes=10):
        super().__init__()
        layers, in_c = [ConvBNAct(3, 16, 3, 2, act=nn.SiLU())], 16
        for expand, out_c, repeats, stride, kernel in self.SETTINGS:
            for i in range(repeats):
                layers.append(mbconv(in_c, out_c, kernel, stride if i == 0 else 1, expand))
                in_c = out_c
        layers.append(ConvBNAct(in_c, 128, 1, act=nn.SiLU()))
        self.features = nn.SequentialCell(layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.dropout = nn.Dropout(p=0.2)
        self.fc = nn.Dense(128, num_classes)

    def construct(self, x):
        x = self.flatten(self.pool(self.features(x)))
        return self.fc(self.dropout(x))


# --------------------------------------------------------------------------
# U-Net-style: transposed-conv and resize up-sampling, skip concatenation
# --------------------------------------------------------------------------
class DoubleConv(nn.Cell):
    """(3x3 conv + BN + ReLU) x 2."""

    def __init__(self, in_c, out_c):
        super().__init__()
        self.body = nn.SequentialCell([ConvBNAct(in_c, out_c, 3, act=nn.ReLU()),
                                       ConvBNAct(out_c, out_c, 3, act=nn.ReLU())])

    def construct(self, x):
        return self.body(x)


class UNetStyle(nn.Cell):
    """Three-level U-Net: max-pool down; up by Conv2dTranspose(2, stride 2), by bilinear
    resize (align_corners=False) and by nearest resize; skips joined with Concat."""

    def __init__(self, in_c=3, base=8, num_classes=2):
        super().__init__()
        self.enc1 = DoubleConv(in_c, base)
        self.enc2 = DoubleConv(base, base * 2)
        self.enc3 = DoubleConv(base * 2, base * 4)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.up3 = nn.Conv2dTranspose(base * 4, base * 2, 2, stride=2, has_bias=True)
        self.dec2 = DoubleConv(base * 4, base * 2)
        self.reduce2 = nn.Conv2d(base * 2, base, 1, has_bias=True)
        self.dec1 = DoubleConv(base * 2, base)
        self.head = nn.Conv2d(base, num_classes, 1, has_bias=True)
        self.aux = nn.Conv2d(base * 4, num_classes, 1, has_bias=True)

    def construct(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        e3 = self.enc3(self.pool(e2))
        d2 = self.dec2(ops.cat((self.up3(e3), e2), axis=1))
        up = ops.interpolate(self.reduce2(d2), size=e1.shape[2:], mode="bilinear",
                             align_corners=False)
        d1 = self.dec1(ops.cat((up, e1), axis=1))
        aux = ops.interpolate(self.aux(e3), scale_factor=4.0, mode="nearest",
                              recompute_scale_factor=True)
        return self.head(d1) + aux


# --------------------------------------------------------------------------
# 1-D and 3-D conv nets
# --------------------------------------------------------------------------
class Conv1DNet(nn.Cell):
    """Conv1d (pad, dilation, stride) + BatchNorm1d + ReLU, MaxPool1d, AvgPool1d, Dense."""

    def __init__(self, in_c=4, num_classes=5):
        super().__init__()
        self.conv1 = nn.Conv1d(in_c, 8, 5, pad_mode="pad", padding=2, has_bias=True)
        self.bn1 = nn.BatchNorm1d(8)
        self.conv2 = nn.Conv1d(8, 16, 3, stride=2, pad_mode="same", dilation=2, has_bias=False)
        self.relu = nn.ReLU()
        self.max_pool = nn.MaxPool1d(kernel_size=2, stride=2)
        self.avg_pool = nn.AvgPool1d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16 * 4, num_classes)

    def construct(self, x):
        x = self.max_pool(self.relu(self.bn1(self.conv1(x))))
        x = self.avg_pool(self.relu(self.conv2(x)))
        return self.fc(self.flatten(x))


class Conv3DNet(nn.Cell):
    """Conv3d + BatchNorm3d + ReLU, MaxPool3d, Conv3d (stride), AvgPool3d, Dense."""

    def __init__(self, in_c=2, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv3d(in_c, 8, 3, pad_mode="pad", padding=1, has_bias=True)
        self.bn1 = nn.BatchNorm3d(8)
        self.relu = nn.ReLU()
        self.max_pool = nn.MaxPool3d(kernel_size=2, stride=2)
        self.conv2 = nn.Conv3d(8, 16, 3, stride=(1, 2, 2), pad_mode="same", has_bias=False)
        self.avg_pool = nn.AvgPool3d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16 * 2 * 2 * 2, num_classes)

    def construct(self, x):
        x = self.max_pool(self.relu(self.bn1(self.conv1(x))))
        x = self.avg_pool(self.relu(self.conv2(x)))
        return self.fc(self.flatten(x))


# --------------------------------------------------------------------------
# Transformers: BERT-like encoder, GPT-2-like decoder, ViT
# --------------------------------------------------------------------------
class SelfAttention(nn.Cell):
    """Multi-head attention: q/k/v Dense, BatchMatMul(q, k^T) * d^-0.5 + additive mask,
    Softmax, BatchMatMul with v, merge heads, output Dense."""

    def __init__(self, hidden, heads, fused_qkv=False):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.fused_qkv = fused_qkv
        self.qkv = nn.Dense(hidden, 3 * hidden) if fused_qkv else None
        self.query = None if fused_qkv else nn.Dense(hidden, hidden)
        self.key = None if fused_qkv else nn.Dense(hidden, hidden)
        self.value = None if fused_qkv else nn.Dense(hidden, hidden)
        self.out = nn.Dense(hidden, hidden)
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.context = ops.BatchMatMul()
        self.softmax = nn.Softmax(axis=-1)
        self.scale = self.head_dim ** -0.5

    def _heads(self, x, batch, seq):
        return ops.transpose(ops.reshape(x, (batch, seq, self.heads, self.head_dim)),
                             (0, 2, 1, 3))

    def construct(self, x, mask):
        batch, seq, hidden = x.shape
        if self.fused_qkv:
            q, k, v = ops.split(self.qkv(x), hidden, axis=-1)
        else:
            q, k, v = self.query(x), self.key(x), self.value(x)
        q, k, v = self._heads(q, batch, seq), self._heads(k, batch, seq), \
            self._heads(v, batch, seq)
        probs = self.softmax(self.scores(q, k) * self.scale + mask)
        context = ops.transpose(self.context(probs, v), (0, 2, 1, 3))
        return self.out(ops.reshape(context, (batch, seq, hidden)))


class BertLayer(nn.Cell):
    """Post-norm encoder layer: LN(x + attn(x)), LN(h + FFN(h)) with exact GeLU."""

    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.norm1 = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.ffn = nn.SequentialCell([nn.Dense(hidden, intermediate),
                                      nn.GELU(approximate=False),
                                      nn.Dense(intermediate, hidden), nn.Dropout(p=0.1)])
        self.norm2 = nn.LayerNorm((hidden,), epsilon=1e-12)

    def construct(self, x, mask):
        h = self.norm1(x + self.attention(x, mask))
        return self.norm2(h + self.ffn(h))


class BertEncoder(nn.Cell):
    """BERT: token + segment + position embeddings, LayerNorm, post-norm layers with an
    attention mask (1 = attend), tanh pooler on the first token."""

    def __init__(self, vocab=64, hidden=32, layers=2, heads=4, intermediate=64, max_len=16,
                 type_vocab=2):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_len, hidden)
        self.segment = nn.Embedding(type_vocab, hidden)
        self.norm = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.dropout = nn.Dropout(p=0.1)
        self.layers = nn.CellList([BertLayer(hidden, heads, intermediate)
                                   for _ in range(layers)])
        self.pooler = nn.Dense(hidden, hidden, activation="tanh")
        self.position_ids = ms.Tensor(np.arange(max_len, dtype=np.int32)[None])

    def construct(self, input_ids, token_type_ids, attention_mask):
        seq = input_ids.shape[1]
        x = self.word(input_ids) + self.segment(token_type_ids) \
            + self.position(self.position_ids[:, :seq])
        x = self.dropout(self.norm(x))
        mask = (1.0 - attention_mask.astype(ms.float32)) * -10000.0
        mask = ops.expand_dims(ops.expand_dims(mask, 1), 1)
        for layer in self.layers:
            x = layer(x, mask)
        return x, self.pooler(x[:, 0])


class GPT2Block(nn.Cell):
    """Pre-norm decoder block: x + attn(LN(x)), x + MLP(LN(x)) with tanh-GeLU."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm((hidden,), epsilon=1e-5)
        self.attention = SelfAttention(hidden, heads, fused_qkv=True)
        self.norm2 = nn.LayerNorm((hidden,), epsilon=1e-5)
        self.mlp = nn.SequentialCell([nn.Dense(hidden, 4 * hidden), nn.GELU(approximate=True),
                                      nn.Dense(4 * hidden, hidden)])

    def construct(self, x, mask):
        x = x + self.attention(self.norm1(x), mask)
        return x + self.mlp(self.norm2(x))


class GPT2Decoder(nn.Cell):
    """GPT-2: token + learned position embeddings, causal mask (ones -> tril), pre-norm
    blocks, final LayerNorm, LM head tied to the token embedding (logits)."""

    def __init__(self, vocab=64, hidden=32, layers=2, heads=4, max_len=16):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_len, hidden)
        self.blocks = nn.CellList([GPT2Block(hidden, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm((hidden,), epsilon=1e-5)
        self.position_ids = ms.Tensor(np.arange(max_len, dtype=np.int32)[None])

    def construct(self, input_ids):
        seq = input_ids.shape[1]
        x = self.word(input_ids) + self.position(self.position_ids[:, :seq])
        causal = ops.tril(ops.ones((seq, seq), ms.float32))
        mask = (1.0 - causal) * -1e9
        for block in self.blocks:
            x = block(x, mask)
        x = self.norm(x)
        return ops.matmul(x, self.word.embedding_table.T)


class ViTBlock(nn.Cell):
    """Pre-norm encoder block with exact GeLU MLP."""

    def __init__(self, hidden, heads, mlp_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm((hidden,), epsilon=1e-6)
        self.attention = SelfAttention(hidden, heads, fused_qkv=True)
        self.norm2 = nn.LayerNorm((hidden,), epsilon=1e-6)
        self.mlp = nn.SequentialCell([nn.Dense(hidden, mlp_dim), nn.GELU(approximate=False),
                                      nn.Dense(mlp_dim, hidden)])

    def construct(self, x):
        x = x + self.attention(self.norm1(x), 0.0)
        return x + self.mlp(self.norm2(x))


class ViT(nn.Cell):
    """Vision Transformer: conv patch embedding, class token (broadcast + concat),
    learned position embedding, pre-norm blocks, LayerNorm, head on the class token."""

    def __init__(self, image_size=32, patch=8, hidden=32, layers=2, heads=4, mlp_dim=64,
                 num_classes=10):
        super().__init__()
        patches = (image_size // patch) ** 2
        self.patch_embed = nn.Conv2d(3, hidden, patch, stride=patch, has_bias=True)
        self.cls_token = ms.Parameter(ms.Tensor(np.zeros((1, 1, hidden), np.float32)))
        self.pos_embedding = ms.Parameter(
            ms.Tensor(np.zeros((1, patches + 1, hidden), np.float32)))
        self.blocks = nn.SequentialCell([ViTBlock(hidden, heads, mlp_dim)
                                         for _ in range(layers)])
        self.norm = nn.LayerNorm((hidden,), epsilon=1e-6)
        self.head = nn.Dense(hidden, num_classes)

    def construct(self, x):
        x = self.patch_embed(x)
        batch, hidden = x.shape[0], x.shape[1]
        x = ops.transpose(ops.reshape(x, (batch, hidden, -1)), (0, 2, 1))
        cls = ops.broadcast_to(self.cls_token, (batch, -1, -1))
        x = ops.cat((cls, x), axis=1) + self.pos_embedding
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])


# --------------------------------------------------------------------------
# RNN classifiers
# --------------------------------------------------------------------------
class LSTMClassifier(nn.Cell):
    """2-layer bidirectional nn.LSTM (batch_first), Dense on the last time step."""

    def __init__(self, input_size=8, hidden=16, num_classes=4):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden, num_layers=2, batch_first=True,
                           bidirectional=True)
        self.fc = nn.Dense(2 * hidden, num_classes)

    def construct(self, x):
        out, _ = self.rnn(x)
        return self.fc(out[:, -1])


class GRUClassifier(nn.Cell):
    """1-layer nn.GRU (batch_first) with a given initial state; Dense on the final state
    plus the first step's output."""

    def __init__(self, input_size=8, hidden=16, num_classes=4):
        super().__init__()
        self.rnn = nn.GRU(input_size, hidden, num_layers=1, batch_first=True)
        self.fc = nn.Dense(hidden, num_classes)

    def construct(self, x, h0):
        out, h = self.rnn(x, h0)
        return self.fc(h[-1] + out[:, 0])


# --------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------
class CtrlWhileIf(nn.Cell):
    """``while i < n`` whose body holds an ``if`` on a tensor value."""

    def construct(self, x, n):
        i = ms.Tensor(0, ms.int32)
        while i < n:
            if x.sum() > 4.0:
                x = x * 0.5
            else:
                x = x + 1.0
            i = i + 1
        return x


class CtrlEarlyReturn(nn.Cell):
    """Early ``return`` inside a branch; later code runs only on the other path."""

    def construct(self, x):
        if x.max() > 2.0:
            return x * 2.0
        y = ops.relu(x)
        if y.sum() < 1.0:
            return y - 1.0
        return ops.exp(-y)


class CtrlWhileBreak(nn.Cell):
    """``while`` on a tensor condition with a ``break``; returns the state and the count."""

    def construct(self, x, limit):
        k = ms.Tensor(0, ms.int32)
        while k < 50:
            x = ops.tanh(x) + 0.25
            k = k + 1
            if x.min() > limit:
                break
        return x, k


class CtrlNestedLoops(nn.Cell):
    """Nested ``while`` loops with an ``if`` in the inner one that applies a Dense layer:
    branch and loop graphs read the layer's weights, so they take a UMonad input that the
    Partial closures bind."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)

    def construct(self, x, n):
        i = ms.Tensor(0, ms.int32)
        total = ops.zeros_like(x)
        while i < n:
            j = ms.Tensor(0, ms.int32)
            while j < i:
                if (x * j).sum() > 0:
                    total = total + self.fc(x) * 0.1
                else:
                    total = total - x
                j = j + 1
            x = ops.tanh(x + total)
            i = i + 1
        return x, total


class CtrlUnrolledFor(nn.Cell):
    """A Python ``for`` over range(3) (unrolled at export) with an ``if`` on a tensor
    value in each step, and a conditional Dense layer."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)

    def construct(self, x):
        for k in range(3):
            if x.mean() > 0.1 * k:
                x = self.fc(x) * 0.5
            else:
                x = x + 1
        return x


# --------------------------------------------------------------------------
# Dynamic shapes and scalar / sequence plumbing
# --------------------------------------------------------------------------
class DynConvNet(nn.Cell):
    """Conv + BN + ReLU, max-pool, conv, global mean, Dense: any batch, height and width."""

    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell([
            ConvBNAct(3, 8, 3, act=nn.ReLU()), nn.MaxPool2d(kernel_size=2, stride=2),
            ConvBNAct(8, 16, 3, act=nn.ReLU()),
        ])
        self.pool = GlobalAvgPool(keep_dims=False)
        self.fc = nn.Dense(16, 5)

    def construct(self, x):
        return self.fc(self.pool(self.body(x)))


class DynShapeMath(nn.Cell):
    """Shape arithmetic on (batch, seq, 8) inputs: Shape, TupleGetItem, scalar + - * / //
    % ** and negation, ScalarCast, ScalarToTensor, TupleToTensor, Reshape with computed
    shapes; ScalarMax/Min/Bool/Uadd called as primitives (Python's max() and bool() are
    folded or refused in graphs)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 6)

    def construct(self, x):
        batch, seq, features = x.shape
        y = self.fc(x.reshape(batch * seq, features)).reshape(batch, seq, -1)
        scale = seq / (batch + 1)
        offset = (seq // 2) - (seq % 3) + batch ** 2 + (-batch)
        y = y * scale + ops.scalar_to_tensor(offset, ms.float32)
        shape = ops.tuple_to_array(x.shape)
        count = int(scale * 10.0) + float(seq) + SCALAR.ScalarMax()(batch, seq) * 100 \
            + SCALAR.ScalarMin()(batch, seq) * 1000 + SCALAR.ScalarUadd()(features)
        single = SCALAR.ScalarBool()(batch - 1)
        return y, shape, ops.scalar_to_tensor(count, ms.float32), \
            ops.scalar_to_tensor(single, ms.bool_)


class DynShapeBranch(nn.Cell):
    """``if`` on shape values: scalar comparisons (> == < >= <=), ``not``, ``and``."""

    def construct(self, x):
        batch, seq = x.shape
        if seq > 4:
            x = x * 2.0
        if not batch == 1:
            x = x + 10.0
        if batch >= 2 and seq <= 6:
            x = x - 3.0
        if seq < 3:
            x = -x
        return x


class SeqPlumbing(nn.Cell):
    """Tensor <-> scalar and tuple conversions: TensorToScalar, TensorToTuple,
    TupleGetItem, tuple_setitem, TupleToTensor, scalar arithmetic on the elements."""

    def construct(self, x, v):
        values = SEQ.TensorToTuple()(v)
        first, second, third = values
        k = SEQ.TensorToScalar()(x.sum())
        swapped = F.tuple_setitem(values, 0, third)
        y = x * k + SEQ.TupleToTensor()(swapped, ms.int32)
        return y, ops.scalar_to_tensor(first * second - k, ms.float32)


class ListPlumbing(nn.Cell):
    """Lists: TensorToList, list_getitem, list_setitem (``values[0] = ...``), ListToTensor.
    MindSpore exports these but has no CPU kernels for TensorToList / ListToTensor."""

    def construct(self, v):
        values = SEQ.TensorToList()(v)
        values[0] = values[1] + values[2]
        return SEQ.ListToTensor()(values, ms.int32)


class CtrlWhileLoopOp(nn.Cell):
    """ops.WhileLoop with a (tensor, int) carry, 4 steps: graph mode lowers it to
    a recursive loop graph (Switch + Partial); the primitive is never exported.
    (MindSpore 2.7.1 cannot compile a loop function that calls ops.* functions,
    nor one that reads construct's arguments: the body is plain arithmetic.)"""

    def construct(self, x):
        def keep_going(state):
            return state[1] < 4

        def step(state):
            return (state[0] * state[0] * 0.5 - state[0], state[1] + 1)

        return ops.WhileLoop()(keep_going, step, (x, 0))[0]


class CtrlForiLoopOp(nn.Cell):
    """ops.ForiLoop(0, 5, ...) not unrolled: a loop graph over a range that
    collects the indices with ListAppend."""

    def construct(self, x):
        def step(i, value):
            return value * 0.5 + i

        return ops.ForiLoop()(0, 5, step, x, unroll=False)


class CtrlScanOp(nn.Cell):
    """ops.Scan over a list of three tensors, not unrolled: make_list,
    list_getitem and ListAppend collect the per-step outputs (ops.stack cannot
    take the list: its length is only known at run time)."""

    def construct(self, x, w):
        def step(carry, item):
            carry = carry * 0.5 + item * item
            return carry, carry - item

        carry, ys = ops.Scan()(step, x, [w, x * 0.5, w - 1.0], unroll=False)
        return carry, ys[0], ys[2]


class TupleOps(nn.Cell):
    """The tuple and scalar primitives graph mode runs on tuples known only at
    run time (here the values of two int64 vectors): sequence_len,
    SequenceMax/Min/Count/Index/Add/Slice/Mul/ZerosLike, InSequence, shape_mul,
    make_range, bit_and/or and the tuple comparisons."""

    def construct(self, a, b):
        ta, tb = SEQ.TensorToTuple()(a), SEQ.TensorToTuple()(b)
        n = SEQ.sequence_len()(ta)
        ints = (n, SEQ.SequenceMax()(ta), SEQ.SequenceMin()(ta), SEQ.shape_mul()(ta),
                SEQ.SequenceCount()(ta, 3), SEQ.SequenceIndex()(ta, 3, 0, n),
                SCALAR_OPS.bit_and()(n, 6), SCALAR_OPS.bit_or()(n, 8))
        flags = (SEQ.InSequence()(3, ta), SEQ.tuple_equal()(ta, tb),
                 SEQ.tuple_lt()(ta, tb), SEQ.tuple_le()(ta, tb),
                 SEQ.tuple_greater_than()(ta, tb), SEQ.tuple_greater_equal()(ta, tb))
        tuples = (SEQ.SequenceAdd()(ta, tb), SEQ.SequenceSlice()(ta, 1, n, 2),
                  SEQ.SequenceMul()(tb, 2), SEQ.make_range()(1, n, 2),
                  SEQ.SequenceZerosLike()(ta))
        to_tensor = SEQ.TupleToTensor()
        return (to_tensor(ints, ms.int64), to_tensor(flags, ms.bool_),
                *(to_tensor(t, ms.int64) for t in tuples))


class ScalarLogNet(nn.Cell):
    """ScalarLog of a run-time scalar (math.log of a tensor's sum)."""

    def construct(self, x):
        total = SEQ.TensorToScalar()(x.sum())
        return ops.scalar_to_tensor(SCALAR.ScalarLog()(total), ms.float32)


class ListOps(nn.Cell):
    """Lists built at run time (ListAppend on a mutable empty list), ListInsert,
    list_getitem, sequence_len and the list comparisons."""

    def construct(self, a, b):
        la, lb = ms.mutable([], True), ms.mutable([], True)
        for v in SEQ.TensorToTuple()(a):
            la = SEQ.ListAppend()(la, v)
        for v in SEQ.TensorToTuple()(b):
            lb = SEQ.ListAppend()(lb, v)
        inserted = SEQ.ListInsert()(la, 1, 7)
        flags = (SEQ.list_equal()(la, lb), SEQ.list_lt()(la, lb), SEQ.list_le()(la, lb),
                 SEQ.list_greater_than()(la, lb), SEQ.list_greater_equal()(la, lb),
                 SEQ.list_equal()(la, la))
        ints = (SEQ.sequence_len()(inserted), inserted[1], inserted[-1])
        return (SEQ.TupleToTensor()(flags, ms.bool_),
                SEQ.TupleToTensor()(ints, ms.int64))


# --------------------------------------------------------------------------
# Dtypes
# --------------------------------------------------------------------------
class Float16Params(nn.Cell):
    """float16 parameters and inputs: Dense, LayerNorm, exact GeLU, Softmax, all float16."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16, dtype=ms.float16)
        self.norm = nn.LayerNorm((16,), dtype=ms.float16)
        self.fc2 = nn.Dense(16, 4, dtype=ms.float16)

    def construct(self, x):
        return ops.softmax(self.fc2(ops.gelu(self.norm(self.fc1(x)))), -1)


class MixedPrecisionCNN(nn.Cell):
    """``amp.auto_mixed_precision(net, "O2")`` of DynConvNet: float16 convs and Dense,
    float32 BatchNorm, Casts between, float32 output."""

    def __init__(self):
        super().__init__()
        self.net = ms.amp.auto_mixed_precision(DynConvNet(), "O2")

    def construct(self, x):
        return self.net(x)


class Float64Net(nn.Cell):
    """float64 parameters and inputs: Dense, Tanh, Muls, Softmax, Exp, SumExt."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8, dtype=ms.float64)
        self.fc2 = nn.Dense(8, 3, dtype=ms.float64)

    def construct(self, x):
        return ops.softmax(self.fc2(ops.tanh(self.fc1(x))) * 2.0, -1), ops.exp(x).sum(1)


class IntegerOps(nn.Cell):
    """int8/int16/int32/int64/uint8/bool inputs: promotion between integer widths, scalar
    arithmetic keeping the dtype, comparisons to bool, logic, Select, Casts, reductions."""

    def construct(self, a8, b16, c32, d64, u8, mask):
        wide = a8 + b16
        scaled = c32 * 3 - 7
        halves = d64 // 2
        bright = u8 > 100
        keep = ops.logical_and(mask, bright)
        chosen = ops.select(keep, c32, scaled)
        total = (wide.astype(ms.int32) + chosen).sum(axis=1)
        as_float = u8.astype(ms.float32) / 255.0 + mask.astype(ms.float32)
        return wide, halves, keep, total, as_float, ops.logical_not(mask)


class BFloat16Add(nn.Cell):
    """bfloat16 weights and intermediates (MindSpore's CPU runs only Cast and Add in
    bfloat16): float32 in, Cast to bfloat16, Add a bfloat16 parameter, Cast back."""

    def __init__(self):
        super().__init__()
        self.bias = ms.Parameter(ms.Tensor(np.zeros((8,), np.float32), ms.bfloat16),
                                 name="bias")

    def construct(self, x):
        h = x.astype(ms.bfloat16)
        return (h + self.bias + h).astype(ms.float32)


# --------------------------------------------------------------------------
# Op packs: the ops of issue 14 as users call them (nn / ops APIs)
# --------------------------------------------------------------------------
class OpPackVision(nn.Cell):
    """Conv2d, nn.LRN, nn.ChannelShuffle (MindSpore exports it as Reshape/Transpose),
    ops.grid_sample (a learned grid, bilinear and nearest), ops.ResizeBicubic,
    ops.matrix_band_part, ops.index_fill, Dense."""

    def __init__(self, batch=2, size=6):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, pad_mode="same", has_bias=True)
        self.lrn = nn.LRN(depth_radius=2, bias=1.0, alpha=0.1, beta=0.75)
        self.shuffle = nn.ChannelShuffle(groups=2)
        self.grid = ms.Parameter(ms.Tensor(np.zeros((batch, 5, 5, 2), np.float32)),
                                 name="grid")
        self.resize = ops.ResizeBicubic(half_pixel_centers=True)
        self.index = ms.Tensor(np.array([0, 3], np.int32))
        self.fc = nn.Dense(8 * 4 * 4, 5)

    def construct(self, x):
        x = self.shuffle(self.lrn(ops.relu(self.conv(x))))
        grid = ops.tanh(self.grid)
        x = ops.grid_sample(x, grid, "bilinear", "zeros", False) \
            + ops.grid_sample(x, grid, "nearest", "border", True)
        x = self.resize(x, (4, 4))
        x = ops.matrix_band_part(x, 1, 2)
        x = ops.index_fill(x, 1, self.index, 0.5)
        return self.fc(ops.flatten(x))


class OpPackIndex(nn.Cell):
    """Scatters and index adds as users call them: ops.index_add,
    ops.tensor_scatter_elements (add), ops.scatter, Tensor.masked_scatter,
    ops.tensor_scatter_div, ops.scatter_add on a computed tensor, P.SegmentSum,
    Dense, Softmax."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)
        self.rows = ms.Tensor(np.array([5, 0, 5], np.int32))
        self.where = ms.Tensor(np.array([[[1, 0, 5, 1], [1, 1, 0, 2]]] * 2, np.int32))
        self.cols = ms.Tensor(np.tile(np.array([[3, 0], [1, 1], [2, 3]], np.int64),
                                      (2, 2, 1)))
        self.first = ms.Tensor(np.array([[1], [0]], np.int32))
        self.pairs = ms.Tensor(np.array([2, 0, 2], np.int32))
        self.segments = ms.Tensor(np.array([0, 0, 1, 1, 1, 3], np.int32))

    def construct(self, x):                                  # x: (2, 6, 4)
        h = self.fc(x)
        h = ops.index_add(h, self.rows, h[:, :3] * 0.5, 1)
        h = ops.tensor_scatter_elements(h, self.where, h[:, :2] - 1.0, 1, "add")
        h = ops.scatter(h, 2, self.cols, h[..., :2] * 2.0)
        h = h.masked_scatter(h > 0.5, -h)
        h = ops.tensor_scatter_div(h, self.first, ops.ones((2, 6, 4), ms.float32) * 4.0)
        rows = ops.scatter_add(h[0], self.pairs, h[1, :3])  # (6, 4)
        summed = ops.operations.SegmentSum()(rows, self.segments)
        return ops.softmax(summed, -1)


class OpPackStats(nn.Cell):
    """Losses, norms and statistics as users call them: ops.kl_div,
    nn.SoftmaxCrossEntropyWithLogits, ops.L2Loss, ops.histc, Tensor.fill_diagonal,
    ops.mvlgamma, ops.population_count, Dense, LogSoftmax."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 8)
        self.teacher = nn.Dense(8, 8)
        self.cross_entropy = nn.SoftmaxCrossEntropyWithLogits()
        self.l2 = ops.L2Loss()

    def construct(self, x):                                  # x: (4, 8)
        h = self.fc(x)
        target = ops.softmax(self.teacher(x), -1)
        loss = ops.kl_div(ops.log_softmax(h, -1), target, "batchmean") + self.l2(h)
        bits = ops.population_count(ops.cast(h * 100.0, ms.int32)).astype(ms.float32)
        grid = h.fill_diagonal(0.0) * ops.mvlgamma(ops.abs(h) + 1.0, 2) + bits
        return loss, self.cross_entropy(h, target), ops.histc(h, 4, -1.0, 1.0), grid


class OpPackSpectral(nn.Cell):
    """A spectral filter: Dense, ops.rfft / irfft (ortho), ops.fft2, ops.real / imag,
    ops.fftshift, ops.cdist, ops.cross, ops.unsorted_segment_sum, Softmax."""

    def __init__(self, length=16, channels=6):
        super().__init__()
        self.proj = nn.Dense(channels, channels)
        self.gain = ms.Parameter(ms.Tensor(np.ones((length // 2 + 1, 1), np.float32)),
                                 name="gain")
        self.segments = ms.Tensor(np.array([0, 1, 1, 2, 2, 0], np.int32))
        self.length = length

    def construct(self, x):
        h = self.proj(x)                                     # (N, L, C)
        spectrum = ops.rfft(h, dim=1, norm="ortho")
        filtered = ops.irfft(spectrum * self.gain.astype(ms.complex64), self.length, 1,
                             "ortho")
        plane = ops.fft2(filtered)
        power = ops.fftshift(ops.real(plane) ** 2 + ops.imag(plane) ** 2, (1, 2))
        distance = ops.cdist(power, filtered, 2.0)            # (N, L, L)
        pooled = ops.unsorted_segment_sum(ops.transpose(filtered, (2, 0, 1)),
                                          self.segments, 3)   # (3, N, L)
        turned = ops.cross(pooled, pooled[::-1] * 0.5 + 1.0, 0)
        return ops.softmax(distance, -1), ops.transpose(turned, (1, 0, 2))
