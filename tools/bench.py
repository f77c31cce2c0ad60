"""Side-by-side benchmark: refinfer against ONNX Runtime, OpenVINO, MindSpore and onnx.reference.

    .venv/bin/python tools/bench.py [--models resnet50,mobilenetv2,bert_base,gpt2_small]
        [--threads 1,2] [--batches 1,8] [--rounds 6] [--markdown FILE]
        [--msenv /work/msenv/bin/python] [--skip-cold] [--skip-dispatch]
        [--setting NAME=VALUE | --blas-mkl]
    .venv/bin/python tools/bench.py --target gpu [--simulator] [--models ...]
        [--batches 1,32]

Models live in ``golden_big/bench/<model>/`` (git-ignored; ``REFINFER_BENCH_DIR`` names
another folder). Missing ones are exported
with MindSpore by ``tools/bench_export.py`` when the MindSpore virtualenv is there; the
transformers' ONNX graphs are built here with the ``onnx`` helper API from the same
weights (MindSpore's ONNX exporter covers CNNs only).

Every engine runs in its own worker process (its peak RSS is its own), with the same
input and the same thread count: refinfer through its Lite API (``context.cpu.thread_num``,
default Numba backend), ONNX Runtime (``intra_op_num_threads``, default graph
optimisations), OpenVINO on the same ONNX file (``INFERENCE_NUM_THREADS``, the latency
hint, float32 precision; ``pip install openvino``, optional like ORT), MindSpore (``mindspore.load`` + ``nn.GraphCell`` in the MindSpore venv,
``runtime_num_threads``) and ``onnx.reference`` (batch 1, 1 thread only: it is slow).
Each worker is pinned to as many cores as it has threads. The workers take turns in
short bursts, a few times over, so a noisy shared machine slows all of them alike; the
table shows medians and the ratio refinfer / peer (below 1: refinfer is faster). Peers
that are not installed are skipped with a note. ``--setting NAME=VALUE`` runs refinfer
once more with that environment variable set (``REFINFER_CONV_GEMM=packed``: its own
product for every convolution with a residual), a column of its own beside refinfer's
default, whose ratio is default / setting; ``--blas-mkl`` is ``--setting REFINFER_BLAS=mkl``
(its products on MKL: ``pip install '.[mkl]'``).

``--target gpu`` measures the GPU instead (ResNet-50, MobileNetV2 and BERT-base at batch 1
and 32 by default): refinfer with ``context.target = ["gpu"]`` on device 0 against ONNX
Runtime's CUDA execution provider (``onnxruntime-gpu``; without it that column says why).
PyTorch is not measured: it has no loader for the MindIR or ONNX models without a
converter. Times are wall time per predict with host inputs and outputs: both engines
return host arrays, so each run includes its copies and the wait for the device. Without a
GPU it stops with "no GPU: ..." unless ``--simulator`` asks for numba's CUDA simulator (a
smoke test of the wiring on a small model; its times mean nothing). Cold start and dispatch
cost are CPU measurements, not run for the GPU.

Also measured: cold start of MobileNetV2 (a fresh process: import, build, first
predict) with an empty and with a warm kernel cache, and the per-node Python cost on a
chain of 2,000 Add nodes.

Worker protocol (stdin/stdout, one line each): ``run K`` -> ``{"times": [...]}`` (seconds),
``rss`` -> ``{"rss_mb": ...}`` (peak resident set), ``quit``. tools/bench_export.py serves
MindSpore with :func:`serve`; this module imports only the standard library and NumPy at
the top, so that the MindSpore venv can import it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_DIR = os.environ.get("REFINFER_BENCH_DIR",
                           os.path.join(ROOT, "golden_big", "bench"))
MODELS = ("resnet50", "mobilenetv2", "bert_base", "gpt2_small")
GPU_MODELS, GPU_BATCHES = ("resnet50", "mobilenetv2", "bert_base"), "1,32"
PEERS = ("ort", "openvino", "mindspore", "onnxref")
# --setting NAME=VALUE: refinfer once more, as engine "refinfer@NAME=VALUE", that
# variable in its environment
SETTING_MARK = "@"
MKL_SETTING = "REFINFER_BLAS=mkl"
# Instruction-set extensions the CPU kernels of refinfer and its peers choose by
# (/proc/cpuinfo's names): the header of every table names those the machine has
CPU_FLAGS = ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16",
             "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8")
SEQ, HIDDEN, HEADS, LAYERS, LN_EPSILON = 128, 768, 12, 12, 1e-7
GPU_TIMING = ("refinfer context.target=[\"gpu\"] (device 0) against ONNX Runtime's "
              "CUDAExecutionProvider; wall time per predict with host inputs and "
              "outputs (copies and the device's completion included).")
BURST_SECONDS = 0.6          # per engine and round
DISPATCH_NODES = 2000


# -- the worker side -------------------------------------------------------------------------
def serve(run_once) -> None:
    """Answer the worker protocol on stdin/stdout around ``run_once()``."""
    for line in sys.stdin:
        command = line.split()
        if not command or command[0] == "quit":
            return
        if command[0] == "run":
            times = []
            for _ in range(int(command[1])):
                start = time.perf_counter()
                run_once()
                times.append(time.perf_counter() - start)
            reply = {"times": times}
        else:
            reply = {"rss_mb": peak_rss_mb()}
        print(json.dumps(reply), flush=True)


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM; ru_maxrss would include the
    parent's peak, which Linux carries across exec)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _refinfer_runner(model_path, x, threads):
    import refinfer as mslite
    context = mslite.Context()
    context.cpu.thread_num = threads
    model = mslite.Model()
    model.build_from_file(model_path, mslite.ModelType.MINDIR, context)
    return lambda: model.predict([x])


def _ort_runner(model_path, x, threads):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(model_path, options,
                                   providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x}
    return lambda: session.run(None, feed)


def _openvino_runner(model_path, x, threads):
    import openvino as ov
    compiled = ov.Core().compile_model(model_path, "CPU", openvino_config(threads))
    request = compiled.create_infer_request()
    return lambda: request.infer({0: x})


def openvino_config(threads: int) -> dict:
    """OpenVINO's CPU settings: float32 arithmetic, as every other engine
    here (on CPUs with AVX512_BF16 or AMX its default is bfloat16, which
    halved its ResNet-50 time on an AMD EPYC with AVX512_BF16)."""
    return {"INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY",
            "INFERENCE_PRECISION_HINT": "f32"}


def _onnxref_runner(model_path, x, threads):
    from onnx.reference import ReferenceEvaluator
    from threadpoolctl import threadpool_limits
    threadpool_limits(threads)
    evaluator = ReferenceEvaluator(model_path)
    feed = {evaluator.input_names[0]: x}
    return lambda: evaluator.run(None, feed)


def _refinfer_gpu_runner(model_path, x, threads):
    """refinfer on GPU 0; predict returns host arrays, so it returns only
    after the device has finished."""
    import refinfer as mslite
    context = mslite.Context()
    context.target = ["gpu"]
    context.gpu.device_id = 0
    model = mslite.Model()
    model.build_from_file(model_path, mslite.ModelType.MINDIR, context)
    return lambda: model.predict([x])


def _ort_cuda_runner(model_path, x, threads):
    """ONNX Runtime's CUDA execution provider, host input and output (as
    refinfer's predict); refused when ORT would quietly run on the CPU."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(model_path, options,
                                   providers=["CUDAExecutionProvider"])
    if session.get_providers()[0] != "CUDAExecutionProvider":
        raise RuntimeError(f"CUDAExecutionProvider did not load (providers: "
                           f"{session.get_providers()})")
    feed = {session.get_inputs()[0].name: x}
    return lambda: session.run(None, feed)


RUNNERS = {"cpu": {"refinfer": _refinfer_runner, "ort": _ort_runner,
                   "openvino": _openvino_runner, "onnxref": _onnxref_runner},
           "gpu": {"refinfer": _refinfer_gpu_runner, "ort": _ort_cuda_runner}}


def pin_to_cores(threads: int) -> None:
    """Confine this worker to ``threads`` cores: a peer that ignores its
    thread setting (MindSpore's runtime_num_threads=1 still ran on two
    cores) cannot use more."""
    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, cores[:max(1, threads)])


def worker_main(engine, model_path, input_path, threads, target="cpu") -> None:
    pin_to_cores(threads)
    start = time.perf_counter()
    runner = RUNNERS[target][engine.split(SETTING_MARK)[0]]
    run_once = runner(model_path, np.load(input_path), threads)
    print(json.dumps({"load_s": time.perf_counter() - start}), flush=True)
    serve(run_once)


# -- the controller side ---------------------------------------------------------------------
class Worker:
    """One engine on one model in its own process (``refinfer@NAME=VALUE``:
    refinfer with that variable in its environment)."""

    def __init__(self, engine, command):
        self.engine = engine
        env = dict(os.environ)
        if SETTING_MARK in engine:
            name, value = engine.split(SETTING_MARK, 1)[1].split("=", 1)
            env[name] = value
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, cwd=ROOT, env=env)
        self.load_s = self._reply()["load_s"]
        self.times: list[float] = []

    def _reply(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.engine} worker failed:\n"
                               f"{self.process.stderr.read()[-2000:]}")
        return json.loads(line)

    def ask(self, command: str) -> dict:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self._reply()

    def run(self, count: int) -> list[float]:
        times = self.ask(f"run {count}")["times"]
        self.times += times
        return times

    def close(self) -> float:
        rss = self.ask("rss")["rss_mb"]
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait()
        return rss


def worker_command(engine, model_path, input_path, threads, msenv, target="cpu"):
    if engine == "mindspore":
        return [msenv, os.path.join(ROOT, "tools", "bench_export.py"), "serve",
                model_path, input_path, "--threads", str(threads)]
    return [sys.executable, os.path.abspath(__file__), "--worker", engine, model_path,
            input_path, str(threads), target]


def measure(model, batch, threads, engines, rounds, msenv, target="cpu") -> dict:
    """Interleaved bursts of every engine; medians, minimums, load time, peak RSS."""
    folder = os.path.join(BENCH_DIR, model)
    exported = _bench_meta(model)["files"]
    if str(batch) not in exported:
        return {"results": {}, "notes": {"all": f"batch {batch} is not exported "
                                         f"(batches {sorted(exported, key=int)}): "
                                         "re-export with tools/bench_export.py"}}
    meta = exported[str(batch)]
    input_path = os.path.join(folder, meta["input"])
    files = {"refinfer": meta["mindir"], "mindspore": meta["mindir"],
             "ort": meta.get("onnx"), "openvino": meta.get("onnx"),
             "onnxref": meta.get("onnx")}
    workers, notes = [], {}
    for engine in engines:
        try:
            workers.append(Worker(engine, worker_command(
                engine, os.path.join(folder, files[engine.split(SETTING_MARK)[0]]),
                input_path, threads, msenv,
                target)))
        except (RuntimeError, OSError, TypeError) as exc:
            notes[engine] = str(exc).strip().splitlines()[-1][:200]
    bursts = {}
    for worker in workers:       # warm-up, and how many runs make one burst
        first = min(worker.run(2))
        bursts[worker.engine] = max(1, min(20, int(BURST_SECONDS / max(first, 1e-4))))
        worker.times.clear()
    for round_ in range(rounds):
        for worker in workers:
            if worker.engine != "onnxref" or round_ < 2:
                worker.run(bursts[worker.engine] if worker.engine != "onnxref" else 1)
            time.sleep(0.2)      # let spinning BLAS/ORT threads go to sleep
    result = {}
    for worker in workers:
        result[worker.engine] = {"median_ms": float(np.median(worker.times)) * 1e3,
                                 "min_ms": float(np.min(worker.times)) * 1e3,
                                 "runs": len(worker.times), "load_s": worker.load_s,
                                 "rss_mb": worker.close()}
    return {"results": result, "notes": notes}


def _bench_meta(model) -> dict:
    with open(os.path.join(BENCH_DIR, model, "bench.json")) as f:
        return json.load(f)


# -- models ----------------------------------------------------------------------------------
def ensure_models(models, msenv) -> list[str]:
    """Export missing models with MindSpore, build missing transformer ONNX graphs;
    returns notes about what could not be prepared."""
    notes = []
    missing = [m for m in models
               if not os.path.exists(os.path.join(BENCH_DIR, m, "bench.json"))]
    if missing:
        if not msenv or not os.path.exists(msenv):
            notes.append(f"models {missing} are not exported and no MindSpore venv was "
                         "found (--msenv): skipped")
        else:
            subprocess.run([msenv, os.path.join(ROOT, "tools", "bench_export.py"), "export",
                            *missing, "--out", BENCH_DIR], check=True, cwd=ROOT)
    for model in models:
        if os.path.exists(os.path.join(BENCH_DIR, model, "bench.json")):
            notes += _ensure_onnx(model)
    return notes


def _ensure_onnx(model) -> list[str]:
    meta = _bench_meta(model)
    if meta.get("onnx") not in ("helper",):
        return []
    try:
        import onnx
    except ImportError:
        return [f"{model}: onnx is not installed, no ONNX graph (pip install '.[bench]')"]
    folder = os.path.join(BENCH_DIR, model)
    changed = False
    for batch, files in meta["files"].items():
        name = f"{model}_b{batch}.onnx"
        if not os.path.exists(os.path.join(folder, name)):
            if model == "elementwise2000":
                graph = add_chain_onnx()
            else:
                weights = dict(np.load(os.path.join(folder, "weights.npz")))
                graph = transformer_onnx(weights, int(batch), model == "gpt2_small")
            onnx.save(graph, os.path.join(folder, name))
        files["onnx"], changed = name, True
    if changed:
        with open(os.path.join(folder, "bench.json"), "w") as f:
            json.dump(meta, f, indent=2)
    return []


class _OnnxBuilder:
    """Nodes and initializers of one ONNX graph, named automatically."""

    def __init__(self):
        self.nodes, self.initializers, self.count = [], [], 0

    def name(self, hint="t"):
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, value, hint="c"):
        from onnx import numpy_helper
        name = self.name(hint)
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, op_type, *inputs, **attrs):
        from onnx import helper
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def model(self, x_shape, output):
        from onnx import TensorProto, helper
        graph = helper.make_graph(
            self.nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                x_shape)],
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, None)],
            self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8     # readable by every ONNX Runtime with opset 17
        return model


def transformer_onnx(weights, batch, decoder):
    """The BERT (post-LN) or GPT-2 (pre-LN, causal, final LN) stack of
    tools/bench_export.py, from its weights."""
    g, x = _OnnxBuilder(), "x"

    def dense(value, prefix):
        w = g.const(weights[prefix + ".weight"].T.copy(), "w")
        return g.op("Add", g.op("MatMul", value, w), g.const(weights[prefix + ".bias"]))

    def norm(value, prefix):
        return g.op("LayerNormalization", value, g.const(weights[prefix + ".gamma"]),
                    g.const(weights[prefix + ".beta"]), axis=-1, epsilon=LN_EPSILON)

    def heads(value):
        shape = g.const(np.array([batch, SEQ, HEADS, HIDDEN // HEADS], np.int64))
        return g.op("Transpose", g.op("Reshape", value, shape), perm=[0, 2, 1, 3])

    def attention(value, prefix):
        q, k, v = (heads(dense(value, f"{prefix}.{n}")) for n in ("query", "key", "value"))
        scale = g.const(np.float32(1.0 / np.sqrt(HIDDEN // HEADS)))
        scores = g.op("Mul", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])),
                      scale)
        if decoder:
            mask = np.triu(np.full((SEQ, SEQ), -1e4, np.float32), 1)
            scores = g.op("Add", scores, g.const(mask))
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        merged = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]),
                      g.const(np.array([batch, SEQ, HIDDEN], np.int64)))
        return dense(merged, f"{prefix}.out")

    def gelu(value):   # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = g.op("Mul", g.op("Mul", value, value), value)
        inner = g.op("Add", value, g.op("Mul", cube, g.const(np.float32(0.044715))))
        t = g.op("Tanh", g.op("Mul", inner, g.const(np.float32(np.sqrt(2 / np.pi)))))
        return g.op("Mul", g.op("Mul", value, g.const(np.float32(0.5))),
                    g.op("Add", t, g.const(np.float32(1.0))))

    def ffn(value, prefix):
        return dense(gelu(dense(value, prefix + ".up")), prefix + ".down")

    for layer in range(LAYERS):
        p = f"layers.{layer}"
        if decoder:
            x = g.op("Add", x, attention(norm(x, p + ".norm1"), p + ".attention"))
            x = g.op("Add", x, ffn(norm(x, p + ".norm2"), p + ".ffn"))
        else:
            x = norm(g.op("Add", x, attention(x, p + ".attention")), p + ".norm1")
            x = norm(g.op("Add", x, ffn(x, p + ".ffn")), p + ".norm2")
    if decoder:
        x = norm(x, "norm")
    return g.model([batch, SEQ, HIDDEN], x)


def add_chain_onnx():
    g, x = _OnnxBuilder(), "x"
    c = g.const(np.full((1, 16), 1e-3, np.float32))
    for _ in range(DISPATCH_NODES):
        x = g.op("Add", x, c)
    return g.model([1, 16], x)


# -- cold start and dispatch ---------------------------------------------------------------
# Also times each top-level kernel compile (Numba's compile events; a
# kernel's helpers count as its own time), printed as JSON before the total.
COLD_SCRIPT = """
import json, time, sys
start = time.perf_counter()
import numpy as np
from numba.core import event
compiles, depth = [], [0, 0.0]
class Timer(event.Listener):
    def on_start(self, ev):
        depth[0] += 1
        if depth[0] == 1:
            depth[1] = time.perf_counter()
    def on_end(self, ev):
        depth[0] -= 1
        if depth[0] == 0:
            compiles.append((ev.data["dispatcher"].py_func.__qualname__,
                             time.perf_counter() - depth[1]))
event.register("numba:compile", Timer())
import refinfer as mslite
model = mslite.Model()
model.build_from_file(sys.argv[1], mslite.ModelType.MINDIR)
model.predict([np.load(sys.argv[2])])
total = time.perf_counter() - start
print(json.dumps(compiles))
print(total)
"""
SLOWEST_SHOWN = 3


def cold_start(model="mobilenetv2") -> dict:
    """Fresh-process import + build + first predict, empty then warm kernel cache."""
    folder = os.path.join(BENCH_DIR, model)
    files = _bench_meta(model)["files"]["1"]
    args = [os.path.join(folder, files["mindir"]), os.path.join(folder, files["input"])]
    cache = tempfile.mkdtemp(prefix="refinfer-bench-cache-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    result = {}
    try:
        for label in ("empty_cache", "warm_cache"):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", COLD_SCRIPT, *args], env=env,
                                  capture_output=True, text=True, check=True, cwd=ROOT)
            compiles, total = done.stdout.splitlines()[-2:]
            compiles, by_kernel = json.loads(compiles), Counter()
            for name, seconds in compiles:
                by_kernel[name] += seconds
            result[label] = {"wall_s": time.perf_counter() - start,
                             "in_process_s": float(total),
                             "kernels_compiled": len(compiles),
                             "slowest_compiles_s": dict(
                                 by_kernel.most_common(SLOWEST_SHOWN))}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return result


def dispatch_cost() -> dict:
    """Per-node cost on the 2,000-Add chain: refinfer's executor overhead (plan run
    minus the bare kernel calls), its fused Numba plan, ONNX Runtime without graph
    optimisations (each Add a kernel)."""
    return json.loads(subprocess.run([sys.executable, os.path.abspath(__file__),
                                      "--dispatch-worker"], capture_output=True, text=True,
                                     check=True, cwd=ROOT).stdout)


def _best(fn, repeat=30) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def dispatch_worker() -> None:
    from refinfer import executor
    from refinfer.plan import compile_model
    from refinfer.runtime import LoadedModel
    folder = os.path.join(BENCH_DIR, "elementwise2000")
    files = _bench_meta("elementwise2000")["files"]["1"]
    x = np.load(os.path.join(folder, files["input"]))
    path = os.path.join(folder, files["mindir"])
    reference = LoadedModel(path)
    program = reference.program
    steps = program.plans[program.main].steps
    # The same kernels called back to back: what the plan costs on top is dispatch.
    calls = [(step.fn, step.template) for step in steps]

    def bare():
        y = x
        for fn, template in calls:
            y = fn(y, template[1])
    total = _best(lambda: executor.run(program, [x]))
    kernels = _best(bare)
    unfused = compile_model(reference.model, "numba", fuse=False)
    numba_model = LoadedModel(path, backend="numba")
    result = {"nodes": len(steps),
              "reference_us": total / len(steps) * 1e6,
              "executor_overhead_us": (total - kernels) / len(steps) * 1e6,
              "numba_unfused_us": _best(lambda: executor.run(unfused, [x])) / len(steps) * 1e6,
              "numba_fused_us": _best(lambda: numba_model.run([x])) / len(steps) * 1e6}
    try:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(os.path.join(folder, files["onnx"]), options,
                                       providers=["CPUExecutionProvider"])
        feed = {session.get_inputs()[0].name: x}
        result["ort_no_opt_us"] = _best(lambda: session.run(None, feed)) / len(steps) * 1e6
    except (ImportError, KeyError):
        pass
    print(json.dumps(result))


# -- report ----------------------------------------------------------------------------------
def machine() -> str:
    import platform
    from refinfer.cpu import cpu_field     # (here: the MindSpore venv imports this file)
    return (f"{cpu_field('model name')}{_generation()} "
            f"({', '.join(cpu_flags()) or 'no AVX2'}), "
            f"{len(os.sched_getaffinity(0))} usable cores, "
            f"Python {platform.python_version()}, NumPy {np.__version__}, "
            f"load average {os.getloadavg()[0]:.1f} at start")


def _generation() -> str:
    """", family F model M": what tells CPUs of one model name apart (a
    virtual machine's "AMD EPYC" was a Zen 3 in some sessions, a Zen 4,
    family 25 model 17, in another)."""
    from refinfer.cpu import cpu_field
    family, model = cpu_field("cpu family"), cpu_field("model")
    return f", family {family} model {model}" if family and model else ""


def cpu_flags() -> list[str]:
    """Which of :data:`CPU_FLAGS` the first CPU of /proc/cpuinfo has."""
    from refinfer.cpu import cpu_flags as present
    flags = present()
    return [flag for flag in CPU_FLAGS if flag in flags]


def versions() -> str:
    out = []
    for module in ("numba", "onnxruntime", "openvino", "onnx"):
        try:
            out.append(f"{module} {__import__(module).__version__}")
        except ImportError:
            out.append(f"{module} not installed")
    return ", ".join(out)


def ratio(mine, peer):
    return f"{mine / peer:.2f}" if mine and peer else "-"


def markdown(rows, cold, dispatch, notes, header) -> str:
    # refinfer with a setting (--setting): two more columns, its time and
    # refinfer's default over it
    variant = next((engine for _, measured in rows for engine in measured["results"]
                    if SETTING_MARK in engine), None)
    setting = variant and variant.split(SETTING_MARK, 1)[1]
    lines = [header, "",
             "| model | batch | threads | refinfer ms | "
             + (f"refinfer, {setting} ms | ratio | " if variant else "")
             + "ORT ms | ratio | OpenVINO ms | ratio "
             "| MindSpore ms | ratio | onnx.reference ms | speed-up | RSS MB refinfer / ORT |",
             "|---|---|---|---|" + ("---|---|" if variant else "")
             + "---|---|---|---|---|---|---|---|---|"]
    for (model, batch, threads), measured in rows:
        r = measured["results"]

        def med(engine):
            return r.get(engine, {}).get("median_ms")

        mine, ort, ov, ms, ref = (med(e) for e in ("refinfer", "ort", "openvino",
                                                    "mindspore", "onnxref"))
        rss = (f"{r['refinfer']['rss_mb']:.0f} / {r['ort']['rss_mb']:.0f}"
               if "refinfer" in r and "ort" in r else "-")
        speedup = f"{ref / mine:.0f}x" if ref and mine else "-"
        with_setting = (f"{_ms(med(variant))} | {ratio(mine, med(variant))} | "
                        if variant else "")
        lines.append(f"| {model} | {batch} | {threads} | {_ms(mine)} | {with_setting}"
                     f"{_ms(ort)} | "
                     f"{ratio(mine, ort)} | {_ms(ov)} | {ratio(mine, ov)} | {_ms(ms)} | "
                     f"{ratio(mine, ms)} | {_ms(ref)} | "
                     f"{speedup} | {rss} |")
        for engine, note in measured["notes"].items():
            notes.append(f"{model} b{batch} t{threads}: {engine} skipped: {note}")
    if cold:
        lines += ["", "Cold start, MobileNetV2 (fresh process: import + build + first "
                  "predict):", ""]
        for label, c in cold.items():
            slowest = ", ".join(f"{name} {seconds:.1f} s" for name, seconds
                                in c["slowest_compiles_s"].items())
            lines.append(f"- {label.replace('_', ' ')}: {c['wall_s']:.2f} s wall "
                         f"({c['in_process_s']:.2f} s in process), "
                         f"{c['kernels_compiled']} kernel(s) compiled"
                         + (f" (slowest: {slowest})" if slowest else ""))
    if dispatch:
        lines += ["", f"Per-node cost on a chain of {dispatch['nodes']} Add nodes "
                  "(µs per node):", ""]
        for key, value in dispatch.items():
            if key != "nodes":
                lines.append(f"- {key}: {value:.2f}")
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def _ms(value):
    """Milliseconds to 0.1, or two significant digits below 1 ms (a small
    model's time rounded to 0.0 reads as nothing measured)."""
    if not value:
        return "-"
    return f"{value:.1f}" if value >= 1 else f"{value:.2g}"


def available_engines(msenv, target="cpu") -> tuple[list[str], list[str]]:
    if target == "gpu":
        return gpu_engines()
    engines, notes = ["refinfer"], []
    for module, engine, install in (("onnxruntime", "ort", "'.[bench]'"),
                                    ("openvino", "openvino", "openvino"),
                                    ("onnx", "onnxref", "'.[bench]'")):
        try:
            __import__(module)
            engines.append(engine)
        except ImportError:
            notes.append(f"{engine}: {module} not installed (pip install {install}): "
                         "skipped")
    if msenv and os.path.exists(msenv):
        engines.insert(2, "mindspore")
    else:
        notes.append("mindspore: no MindSpore venv (--msenv): skipped")
    return engines, notes


def gpu_engines() -> tuple[list[str], list[str]]:
    """refinfer, and ONNX Runtime where its CUDA execution provider is
    installed; PyTorch is never measured (see the module docstring)."""
    engines = ["refinfer"]
    notes = ["torch: not measured: PyTorch has no loader for the MindIR or ONNX models "
             "without a converter"]
    try:
        import onnxruntime
        providers = onnxruntime.get_available_providers()
    except ImportError:
        providers = None
    if providers and "CUDAExecutionProvider" in providers:
        engines.append("ort")
    else:
        notes.append("ort: no CUDAExecutionProvider (pip install onnxruntime-gpu; "
                     f"available: {providers or 'onnxruntime not installed'}): skipped")
    return engines, notes


def gpu_device(simulator: bool) -> str:
    """The GPU the workers will use, by name; under ``simulator`` numba's
    CUDA simulator, chosen for the workers through their environment.
    Raises RuntimeError("no GPU: ...") where there is none."""
    if simulator:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
        return "numba's CUDA simulator (times mean nothing)"
    from numba import cuda
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") != "0":
        raise RuntimeError("no GPU: NUMBA_ENABLE_CUDASIM is set; unset it on a GPU "
                           "machine, or pass --simulator for a smoke test")
    if not cuda.is_available():
        raise RuntimeError("no GPU: numba.cuda finds no CUDA driver or device; run on "
                           "a GPU machine, or pass --simulator for a smoke test")
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def _setting(text: str) -> str:
    """NAME=VALUE, NAME an environment variable's name."""
    name, equals, _value = text.partition("=")
    if not (equals and name.isidentifier()):
        raise argparse.ArgumentTypeError(f"not NAME=VALUE: {text!r}")
    return text


def main(argv=None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker_main(*sys.argv[2:5], int(sys.argv[5]), *sys.argv[6:7])
        return 0
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--dispatch-worker":
        dispatch_worker()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--simulator", action="store_true",
                        help="with --target gpu: numba's CUDA simulator (a smoke test)")
    parser.add_argument("--models", help=f"default {','.join(MODELS)}; "
                                         f"{','.join(GPU_MODELS)} on the GPU")
    parser.add_argument("--threads", help="default 1,2; 1 on the GPU")
    parser.add_argument("--batches", help=f"default 1,8; {GPU_BATCHES} on the GPU")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--msenv", default=os.environ.get("REFINFER_MSENV_PYTHON",
                                                          "/work/msenv/bin/python"))
    parser.add_argument("--markdown", metavar="FILE")
    parser.add_argument("--skip-cold", action="store_true")
    parser.add_argument("--skip-dispatch", action="store_true")
    variant = parser.add_mutually_exclusive_group()
    variant.add_argument("--setting", type=_setting, metavar="NAME=VALUE",
                         help="refinfer once more with this environment variable, "
                              "e.g. REFINFER_CONV_GEMM=packed")
    variant.add_argument("--blas-mkl", dest="setting", action="store_const",
                         const=MKL_SETTING, help=f"--setting {MKL_SETTING} (the mkl "
                                                 "extra)")
    args = parser.parse_args(argv)
    gpu = args.target == "gpu"
    if args.simulator and not gpu:
        parser.error("--simulator goes with --target gpu")
    models = (args.models or ",".join(GPU_MODELS if gpu else MODELS)).split(",")
    threads_list = args.threads or ("1" if gpu else "1,2")
    batches = args.batches or (GPU_BATCHES if gpu else "1,8")
    header = f"Machine: {machine()}; {versions()}."
    if gpu:
        try:
            header += f" Target gpu: {gpu_device(args.simulator)}; " + GPU_TIMING
        except RuntimeError as exc:
            parser.error(str(exc))
        args.skip_cold = args.skip_dispatch = True      # CPU measurements
    notes = ensure_models(models + ([] if gpu else ["elementwise2000"]), args.msenv)
    engines, engine_notes = available_engines(args.msenv, args.target)
    notes += engine_notes
    if args.setting:
        from refinfer.ops._kernels.blas import _mkl_library
        engine = f"refinfer{SETTING_MARK}{args.setting}"
        if args.setting == MKL_SETTING and _mkl_library() is None:
            notes.append(f"{engine}: the mkl extra is not installed (pip install "
                         "'.[mkl]'): skipped")
        else:
            engines.insert(1, engine)
    rows = []
    for model in models:
        if not os.path.exists(os.path.join(BENCH_DIR, model, "bench.json")):
            continue
        for batch in map(int, batches.split(",")):
            for threads in map(int, threads_list.split(",")):
                chosen = [e for e in engines
                          if e != "onnxref" or (batch == 1 and threads == 1)]
                measured = measure(model, batch, threads, chosen, args.rounds, args.msenv,
                                   args.target)
                rows.append(((model, batch, threads), measured))
                print(json.dumps({"model": model, "batch": batch, "threads": threads,
                                  **measured}), flush=True)
    cold = None if args.skip_cold else cold_start()
    dispatch = None if args.skip_dispatch else dispatch_cost()
    report = markdown(rows, cold, dispatch, notes, header)
    print(report)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
