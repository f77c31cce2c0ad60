"""Single-thread sgemm candidates side by side, on the products of the
benchmark models (issue 15: "measure the candidates side by side and
choose").

    .venv/bin/python tools/bench_gemm.py [--repeat 10] [--markdown FILE]

GFLOP/s per shape (M x K x N, C = A @ B, float32, row-major) of:

- ``openblas``: NumPy's matmul (the BLAS NumPy loaded);
- ``mkl``: refinfer's MKL path (refinfer/ops/_kernels/blas.py), when the
  ``mkl`` extra is installed;
- ``mlas``: ONNX Runtime's MatMul on one thread (a one-node model; its
  per-run overhead, a few us, is inside);
- ``packed``: refinfer's own product (refinfer/ops/_kernels/packed.py),
  A packed once outside the timing, as a plan packs a convolution's weight;
  on any CPU (the plan uses it only where ``packed.enabled()``);
- ``packed_right``: the same product with B packed once (a transformer's
  weight, refinfer/stored.py) and A's rows packed at each call;
- ``lanes``: refinfer's product with the output channels as the vectors'
  lanes, A packed once as a convolution's weight and B an image's columns
  read in place: what the fused convolutions run on AVX-512 CPUs
  (``packed.lanes_product`` or ``packed.channels_product``, as
  ``packed.in_vectors`` chooses), there only.

Each engine's product is checked against float64 NumPy first, then timed:
``--repeat`` products per shape, best of three rounds, interleaved; the
header names the CPU. ``--shapes`` replaces the default shapes, with
triples or ``resnet50``: every product ResNet-50's plan runs (issue 15:
"each GEMM-shaped product of ResNet-50 reaches >= 95 % of MLAS's
throughput"), the 1x1 convolutions', Winograd's 16 per 3x3 stride-1
layer (C_out x C_in x tiles) and the stem's and the stride-2 3x3
layers' (their im2col shapes).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from bench import machine, versions


# ResNet-50's convolutions (im2col / Winograd / 1x1), MobileNetV2's 1x1,
# BERT's and GPT-2's layers (128 tokens)
SHAPES = ((64, 576, 3136), (128, 1152, 784), (256, 2304, 196), (512, 4608, 49),
          (256, 64, 3136), (64, 147, 12544), (96, 16, 12544), (1280, 320, 49),
          (128, 768, 768), (128, 768, 2304), (128, 768, 3072), (128, 3072, 768))
# M x K x N of ResNet-50's products (batch 1, 224 x 224), in its plan
RESNET50 = ((64, 64, 3136), (256, 64, 3136), (64, 256, 3136), (128, 256, 3136),
            (512, 256, 784), (512, 128, 784), (128, 512, 784), (256, 512, 784),
            (1024, 512, 196), (1024, 256, 196), (256, 1024, 196),
            (512, 1024, 196), (2048, 1024, 49), (2048, 512, 49),
            (512, 2048, 49), (64, 64, 784), (128, 128, 196), (256, 256, 49),
            (512, 512, 16), (64, 147, 12544), (128, 1152, 784),
            (256, 2304, 196), (512, 4608, 49))
NAMED_SHAPES = {"resnet50": RESNET50}
_packed: dict = {}      # (id(weight), kind) -> (weight, packed): the weight kept
                        # alive, so that no other array takes its id while cached


def _packed_once(weight, pack, kind: str):
    """``pack(weight)``, made at the first product of this ``kind`` with
    this weight."""
    key = (id(weight), kind)
    if key not in _packed:
        _packed[key] = (weight, pack(weight))
    return _packed[key][1]


def _ours(a, b, c):
    """refinfer's own product (refinfer/ops/_kernels/packed.py) with a
    packed once, as a plan packs a convolution's weight."""
    from refinfer.ops._kernels import packed, program
    weight = _packed_once(a, packed.PackedWeight, "left")
    packed.multiply(weight.slivers, weight.depth, b, c, program.no_bias(np.float32),
                    program.no_residual(np.float32), program.ACT_NONE,
                    packed.panel_scratch(), (0, c.shape[0]), (0, c.shape[1]), 0)


def _ours_right(a, b, c):
    """refinfer's own product with b packed once, as a transformer's
    weight is stored, and a's rows read in place (as the plan reads
    them: :func:`packed.pitched`)."""
    from refinfer.ops._kernels import packed, program
    weight = _packed_once(b, packed.PackedRight, "right")
    packed.multiply_rows(packed.pitched(a), a.shape[1], weight.slivers, c,
                         program.no_bias(np.float32), program.ACT_NONE,
                         (0, c.shape[1]))


class NotRun(Exception):
    """A candidate that does not take this shape (its row shows '-')."""


def _lanes(a, b, c):
    """refinfer's product with the output channels as lanes, a packed once
    as a convolution's weight, b an image's columns read in place."""
    from refinfer.ops._kernels import packed, program
    (m, n), none = c.shape, program.ACT_NONE
    if n < packed.IMAGE_ROWS:   # (a convolution's plan takes the BLAS there)
        raise NotRun
    columns = packed.VECTOR if packed.in_vectors(n) else packed.IMAGE_COLUMNS
    weight = _packed_once(a, lambda w: packed.PackedChannels(w, columns),
                          "channels")
    bias, residual = program.no_bias(np.float32), program.no_residual(np.float32)
    if columns == packed.VECTOR:
        packed.lanes_product(b, 0, weight.slivers, 0, m, 0, n, c, bias,
                             residual, none)
    else:
        product = program.scratch("bench_channels", (n, m), np.float32)
        packed.channels_product(b, weight.slivers, 0, m, product, c, bias,
                                residual, none)


def engines() -> dict:
    """name -> product(a, b, c), or a string saying why it is missing."""
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    from refinfer.ops._kernels import packed
    found = {"openblas": lambda a, b, c: np.matmul(a, b, out=c),
             "packed": _ours, "packed_right": _ours_right,
             "lanes": _lanes if packed.TILE_NAME == "avx512" else
             "the channels as lanes run only with the AVX-512 tile"}
    os.environ.setdefault("REFINFER_BLAS", "mkl")   # (read at the first product)
    from refinfer.ops._kernels import blas
    found["mkl"] = (blas.matmul if blas._mkl_sgemm() is not None
                    else "the mkl extra is not installed")
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
        found["mlas"] = _mlas
    except ImportError:
        found["mlas"] = "ONNX Runtime (and onnx) are not installed"
    return found


_sessions: dict = {}


def _mlas(a, b, c):
    """ONNX Runtime's MatMul of a by the constant b (one thread)."""
    key = (a.shape, b.shape, b.ctypes.data)
    if key not in _sessions:
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper
        graph = helper.make_graph(
            [helper.make_node("MatMul", ["a", "b"], ["c"])], "gemm",
            [helper.make_tensor_value_info("a", TensorProto.FLOAT, a.shape)],
            [helper.make_tensor_value_info("c", TensorProto.FLOAT, c.shape)],
            [numpy_helper.from_array(b, "b")])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        _sessions[key] = ort.InferenceSession(model.SerializeToString(), options,
                                              providers=["CPUExecutionProvider"])
    c[...] = _sessions[key].run(None, {"a": a})[0]


def measure(shapes, repeat: int) -> tuple[list, dict]:
    """Each engine's GFLOP/s on each shape, after checking its product
    against float64 NumPy."""
    rng = np.random.default_rng(0)
    found = engines()
    runnable = {k: v for k, v in found.items() if callable(v)}
    rows = []
    for m, k, n in shapes:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        want = a.astype(np.float64) @ b
        best = {}
        for _ in range(3):
            for name, product in runnable.items():
                c = np.empty((m, n), np.float32)
                try:
                    product(a, b, c)
                except NotRun:
                    best[name] = float("inf")
                    continue
                error = float(np.abs(c - want).max() / np.abs(want).max())
                if not error < 1e-5:
                    raise SystemExit(f"bench_gemm.py: {name} is wrong on {m} x {k} "
                                     f"x {n}: relative error {error:.1e}")
                start = time.perf_counter()
                for _ in range(repeat):
                    product(a, b, c)
                seconds = (time.perf_counter() - start) / repeat
                best[name] = min(best.get(name, seconds), seconds)
        rows.append(((m, k, n), {name: 2 * m * k * n / s / 1e9 for name, s in best.items()}))
    return rows, {k: v for k, v in found.items() if not callable(v)}


def report(rows: list, missing: dict) -> str:
    names = [name for name in ("openblas", "mkl", "packed", "packed_right",
                               "lanes", "mlas") if name not in missing]
    ratios = [(f"{mine} / {peer}", mine, peer) for mine, peer in (
        ("packed", "openblas"), ("lanes", "mlas")) if peer in names
        and mine in names]
    lines = [f"Single-thread sgemm, GFLOP/s. Machine: {machine()}; {versions()}.", "",
             "| M x K x N | " + " | ".join(names + [r[0] for r in ratios]) + " |",
             "|---|" + "---|" * (len(names) + len(ratios))]
    for shape, rates in rows:
        lines.append(f"| {' x '.join(map(str, shape))} | "
                     + " | ".join([f"{rates[n]:.3g}" if rates[n] else "-"
                                   for n in names] + [
                         f"{rates[mine] / rates[peer]:.2f}" if rates[mine]
                         else "-" for _, mine, peer in ratios]) + " |")
    lines += [f"- {name}: {why}" for name, why in missing.items()]
    return "\n".join(lines) + "\n"


def _shapes(text: str) -> list[tuple[int, int, int]]:
    if text in NAMED_SHAPES:
        return list(NAMED_SHAPES[text])
    shapes = [tuple(int(d) for d in item.split("x")) for item in text.split(",")]
    if any(len(shape) != 3 or min(shape) < 1 for shape in shapes):
        raise argparse.ArgumentTypeError(f"not M x K x N triples: {text!r}")
    return shapes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--shapes", type=_shapes, default=SHAPES,
                        help="M x K x N triples, e.g. 64x576x3136,128x768x3072, "
                             "or resnet50 (its plan's products)")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    text = report(*measure(args.shapes, args.repeat))
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
