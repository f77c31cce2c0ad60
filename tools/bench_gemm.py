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
  weight, refinfer/stored.py) and A's rows packed at each call.

Each engine's product is checked against float64 NumPy first, then timed:
``--repeat`` products per shape, best of three rounds, interleaved; the
header names the CPU. ``--shapes`` replaces the default shapes.
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
_packed: dict = {}      # id(weight) -> (weight, packed): the weight kept alive,
                        # so that no other array takes its id while it is cached


def _packed_once(weight, pack):
    """``pack(weight)``, made at the first product with this weight."""
    if id(weight) not in _packed:
        _packed[id(weight)] = (weight, pack(weight))
    return _packed[id(weight)][1]


def _ours(a, b, c):
    """refinfer's own product (refinfer/ops/_kernels/packed.py) with a
    packed once, as a plan packs a convolution's weight."""
    from refinfer.ops._kernels import packed, program
    weight = _packed_once(a, packed.PackedWeight)
    packed.multiply(weight.slivers, weight.depth, b, c, program.no_bias(np.float32),
                    program.no_residual(np.float32), program.ACT_NONE,
                    packed.panel_scratch(), (0, c.shape[0]), (0, c.shape[1]), 0)


def _ours_right(a, b, c):
    """refinfer's own product with b packed once, as a transformer's
    weight is stored, and a's rows packed at each call."""
    from refinfer.ops._kernels import packed, program
    weight = _packed_once(b, packed.PackedRight)
    (m, depth), tiles = a.shape, -(-a.shape[0] // packed.TILE_ROWS)
    rows = program.scratch("bench_rows", (packed.rows_size(m, depth),), np.float32)
    packed.pack_rows(a, rows, (0, tiles))
    packed.multiply_rows(rows, m, depth, weight.slivers, c,
                         program.no_bias(np.float32), program.ACT_NONE,
                         (0, c.shape[1]))


def engines() -> dict:
    """name -> product(a, b, c), or a string saying why it is missing."""
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    found = {"openblas": lambda a, b, c: np.matmul(a, b, out=c),
             "packed": _ours, "packed_right": _ours_right}
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
                product(a, b, c)
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
    names = [name for name in ("openblas", "mkl", "packed", "packed_right", "mlas")
             if name not in missing]
    lines = [f"Single-thread sgemm, GFLOP/s. Machine: {machine()}; {versions()}.", "",
             "| M x K x N | " + " | ".join(names) + " | packed / openblas |",
             "|---|" + "---|" * (len(names) + 1)]
    for shape, rates in rows:
        lines.append(f"| {' x '.join(map(str, shape))} | "
                     + " | ".join(f"{rates[n]:.3g}" for n in names)
                     + f" | {rates['packed'] / rates['openblas']:.2f} |")
    lines += [f"- {name}: {why}" for name, why in missing.items()]
    return "\n".join(lines) + "\n"


def _shapes(text: str) -> list[tuple[int, int, int]]:
    shapes = [tuple(int(d) for d in item.split("x")) for item in text.split(",")]
    if any(len(shape) != 3 or min(shape) < 1 for shape in shapes):
        raise argparse.ArgumentTypeError(f"not M x K x N triples: {text!r}")
    return shapes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--shapes", type=_shapes, default=SHAPES,
                        help="M x K x N triples, e.g. 64x576x3136,128x768x3072")
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
