"""Network definitions for the golden cases (MindSpore 2.7.1, ``mindspore.nn``).

Only structure lives here: weights are overwritten with seeded NumPy values by
``make_golden.randomize_parameters`` so that the goldens never depend on
MindSpore's own initialisers.

MindSpore compiles ``construct`` from its source text, so these classes must
stay in a real file (not ``python -c``).
"""
import mindspore as ms
from mindspore import nn, ops


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
