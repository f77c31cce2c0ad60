"""Before/after benchmark: this checkout against another one, interleaved in one run.

    .venv/bin/python tools/bench_ab.py BASE_DIR [--models mobilenetv2,resnet50_narrow]
        [--threads 1] [--rounds 8] [--cold-runs 2] [--markdown FILE]

BASE_DIR is a checkout of the version to compare with (``git worktree add /tmp/base REV``).
A model is a golden/ case, or one of tools/bench.py's full-size models (resnet50,
bert_base, ...: batch 1, from its BENCH_DIR). Each runs in two worker processes, one
importing refinfer from BASE_DIR and one from this checkout, with the model's inputs and the
default (Numba) backend. The two take turns in short bursts, a few times over, so a noisy
shared machine slows both alike; the table shows the median predict time of each and the
ratio this / base (above 1: this checkout is slower). Cold start is a fresh process
(import, build, first predict) of MobileNetV2, the two sides alternating, with an empty
and with a warm kernel cache.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

from bench import BENCH_DIR, BURST_SECONDS, Worker, pin_to_cores, serve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "golden")
MODELS = ("mobilenetv2", "resnet50_narrow", "resnet18_narrow", "efficientnet_style",
          "unet_style", "bert_tiny", "gpt2_tiny", "vit_tiny", "lstm_classifier")
COLD_MODEL = "mobilenetv2"


def is_case(model: str) -> bool:
    """Whether ``model`` names a golden case (else a full-size benchmark model)."""
    return os.path.isdir(os.path.join(GOLDEN, model))


def model_file(model: str) -> str:
    if is_case(model):
        return os.path.join(GOLDEN, model, "model.mindir")
    return os.path.join(BENCH_DIR, model, f"{model}_b1.mindir")


def golden_inputs(model: str) -> list[np.ndarray]:
    """The case's inputs, read without refinfer (the worker's refinfer is
    the checkout under test, maybe one without tensorio.read_entry)."""
    if not is_case(model):
        return [np.load(os.path.join(BENCH_DIR, model, "input_b1.npy"))]
    meta = json.load(open(os.path.join(GOLDEN, model, "meta.json")))
    return [np.load(os.path.join(GOLDEN, model, i["file"])) if i.get("file")
            else np.fromfile(os.path.join(GOLDEN, model, i["raw_file"]),
                             i["dtype"]).reshape(i["shape"])
            for i in meta["inputs"]]


def build(model: str, threads: int):
    import refinfer as mslite
    context = mslite.Context()
    context.cpu.thread_num = threads
    built = mslite.Model()
    built.build_from_file(model_file(model), mslite.ModelType.MINDIR, context)
    return built


def worker_main(model: str, threads: int) -> None:
    pin_to_cores(threads)
    start = time.perf_counter()
    built, inputs = build(model, threads), golden_inputs(model)
    print(json.dumps({"load_s": time.perf_counter() - start}), flush=True)
    serve(lambda: built.predict(inputs))


def cold_main(model: str) -> None:
    """One cold start: import, build, first predict (timed by the caller)."""
    build(model, 1).predict(golden_inputs(model))


def side_command(checkout: str, *args: str) -> list[str]:
    """This script run with refinfer imported from ``checkout``."""
    return ["env", f"PYTHONPATH={checkout}", sys.executable,
            os.path.abspath(__file__), *args]


def measure(model: str, sides: dict, threads: int, rounds: int) -> dict:
    workers = {name: Worker(name, side_command(path, "--worker", model, str(threads)))
               for name, path in sides.items()}
    bursts = {}
    for name, worker in workers.items():     # warm-up; runs per burst
        bursts[name] = max(1, min(20, int(BURST_SECONDS / max(min(worker.run(2)), 1e-4))))
        worker.times.clear()
    for _ in range(rounds):
        for name, worker in workers.items():
            worker.run(bursts[name])
    result = {name: 1e3 * float(np.median(w.times)) for name, w in workers.items()}
    for worker in workers.values():
        worker.close()
    return result


def cold_start(sides: dict, runs: int, empty: bool) -> dict:
    """Median seconds of a fresh process per side, alternating sides."""
    times = {name: [] for name in sides}
    with tempfile.TemporaryDirectory() as warm_cache:
        for _ in range(runs):
            for name, path in sides.items():
                cache = tempfile.mkdtemp() if empty else os.path.join(warm_cache, name)
                env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                if not empty and not os.path.isdir(cache):     # fill it once, untimed
                    subprocess.run(side_command(path, "--cold", COLD_MODEL), env=env,
                                   check=True, cwd=ROOT, capture_output=True)
                start = time.perf_counter()
                subprocess.run(side_command(path, "--cold", COLD_MODEL), env=env,
                               check=True, cwd=ROOT, capture_output=True)
                times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) for name, t in times.items()}


def cpu_name() -> str:
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def table(rows: list[tuple], threads: int) -> str:
    lines = [f"CPU: {cpu_name()}, {threads} thread(s); medians, interleaved in one run",
             "", "| model | base ms | this ms | this / base |", "|---|---|---|---|"]
    lines += [f"| {name} | {base:.3f} | {this:.3f} | {this / base:.3f} |"
              for name, base, this in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", help="checkout of the version to compare with")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--cold-runs", type=int, default=2,
                        help="fresh processes per side and cache state (0: skip)")
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args()
    sides = {"base": os.path.abspath(args.base), "this": ROOT}
    rows = []
    for model in args.models.split(","):
        ms = measure(model, sides, args.threads, args.rounds)
        rows.append((model, ms["base"], ms["this"]))
        print(f"{model}: base {ms['base']:.3f} ms, this {ms['this']:.3f} ms", flush=True)
    for empty in (True, False) if args.cold_runs else ():
        seconds = cold_start(sides, args.cold_runs, empty)
        label = f"cold start {COLD_MODEL}, {'empty' if empty else 'warm'} cache (s)"
        rows.append((label, seconds["base"], seconds["this"]))
    text = table(rows, args.threads)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker_main(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1:2] == ["--cold"]:
        cold_main(sys.argv[2])
    else:
        main()
