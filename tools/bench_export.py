"""MindSpore side of the benchmark (tools/bench.py): export the models, time MindSpore.

Run with the MindSpore virtualenv (refinfer never imports MindSpore):

    /work/msenv/bin/python tools/bench_export.py export [MODEL ...] [--out golden_big/bench]
    /work/msenv/bin/python tools/bench_export.py serve MODEL INPUT --threads N

``export`` writes, per model and batch size, ``<name>_b<batch>.mindir`` and an input
``input_b<batch>.npy``; CNNs also get ``<name>_b<batch>.onnx`` from MindSpore's own ONNX
exporter; transformers get ``weights.npz`` (the same weights, named by parameter) from
which tools/bench.py builds the ONNX graph with the ``onnx`` helper API. A ``bench.json``
describes the model (no ``meta.json``: these are not golden test cases).

Models: ResNet-50 (v1.5: stride on the 3x3 convolution), MobileNetV2 (the golden case's
network), a BERT-base-sized encoder (12 post-LayerNorm layers, hidden 768, 12 heads, FFN
3072, sequence 128, tanh-GeLU) and a GPT-2-small-sized decoder (12 pre-LayerNorm layers,
causal mask, final LayerNorm); the transformers take hidden states (B, 128, 768), no
embedding tables. ``elementwise2000``: a chain of 2,000 Add nodes on a (1, 16) tensor,
for the per-node dispatch cost. Weights are seeded random values.

``serve`` is tools/bench.py's MindSpore worker: it loads one exported file with
``mindspore.load`` + ``nn.GraphCell`` and answers the worker protocol on stdin/stdout.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("GLOG_v", "3")  # keep MindSpore's C++ logging quiet

import mindspore as ms
from mindspore import nn, ops

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import nets  # MobileNetV2 of the golden cases

HERE = Path(__file__).resolve().parent

SEQ, HIDDEN, HEADS, FFN, LAYERS = 128, 768, 12, 3072, 12
BATCHES = (1, 8, 32)     # 32 for tools/bench.py --target gpu


# -- networks ----------------------------------------------------------------------------
class Bottleneck(nn.Cell):
    """ResNet-50 v1.5 block: 1x1 reduce, 3x3 (carries the stride), 1x1 expand (x4), each
    with BatchNorm; ReLU after the first two and after the residual add."""

    def __init__(self, in_c, width, stride):
        super().__init__()
        out_c = width * 4
        self.conv1 = nets._conv_bn(in_c, width, 1, 1)
        self.conv2 = nets._conv_bn(width, width, 3, stride)
        self.conv3 = nets._conv_bn(width, out_c, 1, 1)
        self.relu = nn.ReLU()
        self.has_downsample = stride != 1 or in_c != out_c
        self.downsample = nets._conv_bn(in_c, out_c, 1, stride) if self.has_downsample \
            else None

    def construct(self, x):
        identity = x
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        out = self.conv3(out)
        if self.has_downsample:
            identity = self.downsample(x)
        return self.relu(out + identity)


class ResNet50(nn.Cell):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.SequentialCell([
            nn.Conv2d(3, 64, 7, 2, pad_mode="pad", padding=3, has_bias=False),
            nn.BatchNorm2d(64), nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")])
        blocks, in_c = [], 64
        for stage, (width, count) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3))):
            for i in range(count):
                blocks.append(Bottleneck(in_c, width, 2 if i == 0 and stage > 0 else 1))
                in_c = width * 4
        self.layers = nn.SequentialCell(blocks)
        self.pool = nets.GlobalAvgPool(keep_dims=False)
        self.fc = nn.Dense(in_c, num_classes)

    def construct(self, x):
        return self.fc(self.pool(self.layers(self.stem(x))))


class SelfAttention(nn.Cell):
    """Multi-head self-attention; ``causal`` adds a -1e4 mask above the diagonal."""

    def __init__(self, causal):
        super().__init__()
        self.query, self.key, self.value = (nn.Dense(HIDDEN, HIDDEN) for _ in range(3))
        self.out = nn.Dense(HIDDEN, HIDDEN)
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.context = ops.BatchMatMul()
        self.softmax = nn.Softmax(axis=-1)
        self.scale = 1.0 / float(np.sqrt(HIDDEN // HEADS))
        mask = np.triu(np.full((SEQ, SEQ), -1e4, np.float32), 1) if causal \
            else np.zeros((SEQ, SEQ), np.float32)
        self.mask = ms.Tensor(mask)
        self.causal = causal

    def heads(self, x):
        b = x.shape[0]
        return ops.transpose(ops.reshape(x, (b, SEQ, HEADS, HIDDEN // HEADS)), (0, 2, 1, 3))

    def construct(self, x):
        b = x.shape[0]
        q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
        scores = self.scores(q, k) * self.scale
        if self.causal:
            scores = scores + self.mask
        context = self.context(self.softmax(scores), v)
        context = ops.reshape(ops.transpose(context, (0, 2, 1, 3)), (b, SEQ, HIDDEN))
        return self.out(context)


class FeedForward(nn.Cell):
    def __init__(self):
        super().__init__()
        self.up, self.down = nn.Dense(HIDDEN, FFN), nn.Dense(FFN, HIDDEN)
        self.gelu = nn.GELU(approximate=True)

    def construct(self, x):
        return self.down(self.gelu(self.up(x)))


class EncoderLayer(nn.Cell):
    """BERT: post-LayerNorm."""

    def __init__(self):
        super().__init__()
        self.attention, self.ffn = SelfAttention(causal=False), FeedForward()
        self.norm1, self.norm2 = nn.LayerNorm((HIDDEN,)), nn.LayerNorm((HIDDEN,))

    def construct(self, x):
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.ffn(x))


class DecoderLayer(nn.Cell):
    """GPT-2: pre-LayerNorm, causal attention."""

    def __init__(self):
        super().__init__()
        self.attention, self.ffn = SelfAttention(causal=True), FeedForward()
        self.norm1, self.norm2 = nn.LayerNorm((HIDDEN,)), nn.LayerNorm((HIDDEN,))

    def construct(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.ffn(self.norm2(x))


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.SequentialCell([EncoderLayer() for _ in range(LAYERS)])

    def construct(self, x):
        return self.layers(x)


class Decoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.SequentialCell([DecoderLayer() for _ in range(LAYERS)])
        self.norm = nn.LayerNorm((HIDDEN,))

    def construct(self, x):
        return self.norm(self.layers(x))


class AddBlock(nn.Cell):
    """``length`` dependent Add nodes: y = (((x + c) + c) + ...)."""

    def __init__(self, length):
        super().__init__()
        self.length = length
        self.c = ms.Tensor(np.full((1, 16), 1e-3, np.float32))

    def construct(self, x):
        for _ in range(self.length):
            x = x + self.c
        return x


def add_chain(length=2000, block=100):
    """Blocks of 100 Adds (MindSpore unrolls loops recursively, to depth 1000)."""
    return nn.SequentialCell([AddBlock(block) for _ in range(length // block)])


MODELS = {
    # name: (network factory, input shape without batch, ONNX from MindSpore, batches)
    "resnet50": (ResNet50, (3, 224, 224), True, BATCHES),
    "mobilenetv2": (nets.MobileNetV2, (3, 224, 224), True, BATCHES),
    "bert_base": (Encoder, (SEQ, HIDDEN), False, BATCHES),
    "gpt2_small": (Decoder, (SEQ, HIDDEN), False, BATCHES),
    "elementwise2000": (add_chain, (16,), False, (1,)),
}


# -- export --------------------------------------------------------------------------------
def randomize(net, rng):
    """Seeded weights: He-normal convolutions (gain 1), uniform dense layers, BatchNorm
    statistics near identity, LayerNorm gamma ~1 and beta ~0."""
    for name, param in net.parameters_and_names():
        shape, leaf = tuple(param.shape), name.rsplit(".", 1)[-1]
        if leaf in ("gamma", "moving_variance"):
            value = rng.uniform(0.7, 1.3, shape)
        elif leaf in ("beta", "moving_mean", "bias"):
            value = rng.normal(0.0, 0.05, shape)
        elif len(shape) == 4:
            value = rng.normal(0.0, np.sqrt(1.0 / np.prod(shape[1:])), shape)
        else:
            bound = 1.0 / np.sqrt(shape[-1])
            value = rng.uniform(-bound, bound, shape)
        param.set_data(ms.Tensor(value.astype(np.float32)))


def export(name, out_root):
    factory, shape, onnx_export, batches = MODELS[name]
    folder = Path(out_root) / name
    folder.mkdir(parents=True, exist_ok=True)
    net = factory()
    net.set_train(False)
    randomize(net, np.random.default_rng(2024))
    files = {}
    for batch in batches:
        x = np.random.default_rng([2024, batch]).standard_normal((batch,) + shape)
        x = x.astype(np.float32)
        np.save(folder / f"input_b{batch}.npy", x)
        stem = str(folder / f"{name}_b{batch}")
        ms.export(net, ms.Tensor(x), file_name=stem, file_format="MINDIR")
        files[batch] = {"mindir": f"{name}_b{batch}.mindir", "input": f"input_b{batch}.npy"}
        if onnx_export:
            ms.export(net, ms.Tensor(x), file_name=stem, file_format="ONNX")
            files[batch]["onnx"] = f"{name}_b{batch}.onnx"
    if not onnx_export:     # tools/bench.py builds the ONNX graph from these
        np.savez(folder / "weights.npz", **{p.name: p.asnumpy()
                                            for p in net.get_parameters()})
    meta = {"model": name, "mindspore_version": ms.__version__, "files": files,
            "onnx": "mindspore" if onnx_export else "helper"}
    (folder / "bench.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"exported {name} to {folder}")


# -- timing --------------------------------------------------------------------------------
def serve_model(path, input_path, threads):
    """A tools/bench.py worker: ``mindspore.load`` + ``nn.GraphCell`` on CPU."""
    sys.path.insert(0, str(HERE))
    import bench  # standard library and NumPy only at import
    bench.pin_to_cores(threads)
    start = time.perf_counter()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")
    ms.set_context(runtime_num_threads=threads)
    cell = nn.GraphCell(ms.load(path))
    x = ms.Tensor(np.load(input_path))
    print(json.dumps({"load_s": time.perf_counter() - start}), flush=True)
    bench.serve(lambda: cell(x).asnumpy())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("export")
    exp.add_argument("models", nargs="*", default=list(MODELS))
    exp.add_argument("--out", default="golden_big/bench")
    srv = sub.add_parser("serve")
    srv.add_argument("model")
    srv.add_argument("input")
    srv.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "export":
        for name in args.models:
            export(name, args.out)
    else:
        serve_model(args.model, args.input, args.threads)


if __name__ == "__main__":
    main()
