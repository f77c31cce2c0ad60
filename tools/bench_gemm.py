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
- ``numba``: a packed GEMM of our own, BLIS-style: B packed in 24-column
  slivers, A in 4-row slivers, a 4 x 24 register tile per micro-kernel
  (12 AVX2 accumulators, three B loads and four broadcasts per k, no
  spill). LLVM makes that tile only with its SLP vectoriser, which Numba
  leaves off (``numba.config.SLP_VECTORIZE``, read at each compilation);
  this process turns it on for everything it compiles, which is why the
  prototype is a tool and not a kernel yet: the switch is process-wide
  and outside Numba's cache key (the tool's kernels are not cached).

Each engine's product is checked against float64 NumPy first, then timed:
``--repeat`` products per shape, best of three rounds, interleaved; the
header names the CPU. ``--shapes`` replaces the default shapes.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numba
import numpy as np

from bench import machine, versions

numba.config.SLP_VECTORIZE = True   # for this tool's compilations (see above)

# ResNet-50's convolutions (im2col / Winograd / 1x1), MobileNetV2's 1x1, BERT's
SHAPES = ((64, 576, 3136), (128, 1152, 784), (256, 2304, 196), (512, 4608, 49),
          (256, 64, 3136), (64, 147, 12544), (96, 16, 12544), (1280, 320, 49),
          (128, 768, 3072), (128, 3072, 768))
MR, NR = 4, 24                  # register tile
KC, MC, NC = 256, 128, 3072     # cache blocks: B sliver in L1, A block in L2


def _micro_source() -> str:
    """The micro-kernel: C[ci:ci+mr, cj:cj+nr] (+)= A sliver @ B sliver,
    written out over MR x NR scalars for LLVM to tile into registers."""
    tile = [(i, j) for i in range(MR) for j in range(NR)]
    lines = ["def micro(kc, ap, a_off, bp, b_off, c, ci, cj, mr, nr, accumulate, tile):"]
    lines += [f"    c{i}_{j} = zero" for i, j in tile]
    lines += ["    u = np.uint64", "    for p in range(u(kc)):",
              f"        ab = u(a_off) + p * u({MR})", f"        bb = u(b_off) + p * u({NR})"]
    lines += [f"        b{j} = bp[bb + u({j})]" for j in range(NR)]
    for i in range(MR):
        lines.append(f"        a = ap[ab + u({i})]")
        lines += [f"        c{i}_{j} += a * b{j}" for j in range(NR)]
    lines += [f"    tile[{i * NR + j}] = c{i}_{j}" for i, j in tile]
    lines += ["    for i in range(u(mr)):", "        row, first = u(ci) + i, u(cj)",
              f"        base = i * u({NR})",
              "        if accumulate:", "            for j in range(u(nr)):",
              "                c[row, first + j] += tile[base + j]",
              "        else:", "            for j in range(u(nr)):",
              "                c[row, first + j] = tile[base + j]"]
    return "\n".join(lines)


_jit = numba.njit(nogil=True, error_model="numpy", fastmath={"contract"})
_namespace = {"np": np, "zero": np.float32(0)}
exec(_micro_source(), _namespace)
micro = _jit(_namespace["micro"])


@_jit
def _pack_b(b, pc, kc, jc, nc, bp):
    """B[pc:pc+kc, jc:jc+nc] as NR-column slivers, k-major, zero-padded."""
    u = np.uint64
    for jr in range(0, nc, NR):
        base, width = u((jr // NR) * kc * NR), min(NR, nc - jr)
        for p in range(kc):
            row, col = base + u(p * NR), u(jc + jr)
            if width == NR:         # (a constant trip count: vectorised)
                for j in range(u(NR)):
                    bp[row + j] = b[pc + p, col + j]
            else:
                for j in range(NR):
                    bp[row + u(j)] = b[pc + p, col + u(j)] if j < width else 0


@_jit
def _pack_a(a, ic, mc, pc, kc, ap):
    """A[ic:ic+mc, pc:pc+kc] as MR-row slivers, k-major, zero-padded."""
    u = np.uint64
    for ir in range(0, mc, MR):
        base, height = u((ir // MR) * kc * MR), min(MR, mc - ir)
        for p in range(kc):
            if height == MR:
                for i in range(MR):
                    ap[base + u(p * MR + i)] = a[ic + ir + i, pc + p]
            else:
                for i in range(MR):
                    ap[base + u(p * MR + i)] = a[ic + ir + i, pc + p] \
                        if i < height else 0


@_jit
def numba_gemm(a, b, c):
    m, k = a.shape
    n = b.shape[1]
    bp = np.empty(KC * (min(NC, n) + NR), np.float32)
    ap = np.empty(KC * (min(MC, m) + MR), np.float32)
    tile = np.empty(MR * NR, np.float32)
    for jc in range(0, n, NC):
        nc = min(NC, n - jc)
        for pc in range(0, k, KC):
            kc = min(KC, k - pc)
            _pack_b(b, pc, kc, jc, nc, bp)
            for ic in range(0, m, MC):
                mc = min(MC, m - ic)
                _pack_a(a, ic, mc, pc, kc, ap)
                for jr in range(0, nc, NR):
                    for ir in range(0, mc, MR):
                        micro(kc, ap, (ir // MR) * kc * MR, bp, (jr // NR) * kc * NR,
                              c, ic + ir, jc + jr, min(MR, mc - ir),
                              min(NR, nc - jr), pc > 0, tile)
    return c


def engines() -> dict:
    """name -> product(a, b, c), or a string saying why it is missing."""
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    found = {"openblas": lambda a, b, c: np.matmul(a, b, out=c),
             "numba": numba_gemm}
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
    names = [name for name in ("openblas", "mkl", "numba", "mlas") if name not in missing]
    lines = [f"Single-thread sgemm, GFLOP/s. Machine: {machine()}; {versions()}.", "",
             "| M x K x N | " + " | ".join(names) + " | numba / openblas |",
             "|---|" + "---|" * (len(names) + 1)]
    for shape, rates in rows:
        lines.append(f"| {' x '.join(map(str, shape))} | "
                     + " | ".join(f"{rates[n]:.1f}" for n in names)
                     + f" | {rates['numba'] / rates['openblas']:.2f} |")
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
