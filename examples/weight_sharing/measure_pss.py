"""Measure the memory of 1 master + 3 workers with and without weight sharing.

    python examples/weight_sharing/measure_pss.py [MODEL] [--workers 3] [--no-predict]
                                                 [--backend numba|reference]

Starts the processes with ``spawn``; each builds MODEL (default: the golden MobileNetV2) and
runs one predict, then the parent reads their PSS from ``/proc/PID/smaps_rollup`` (shared pages
are divided among the processes that map them, so PSS adds up where RSS double-counts). Three
runs: ``baseline`` (the same processes, no model built: interpreter, NumPy and refinfer),
``private`` (every process builds the model the ordinary way) and ``shared`` (the master
publishes its weights, the workers attach). Prints a table; the figures in
docs/weight-sharing.md come from it.
"""
import argparse
import ctypes
import multiprocessing
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_MODEL = os.path.join(ROOT, "golden", "mobilenetv2", "model.mindir")
MiB = 1024 * 1024


def child(mode, model_path, predict, backend, connection):
    """Build the model as ``mode`` asks, read every weight once (so that their pages are
    mapped and counted), return freed heap memory to the OS (the same for every mode), report,
    and wait for the parent to finish measuring."""
    import refinfer as mslite
    model = mslite.Model()
    connection.send(model.get_model_info("current_pid"))
    config = dict(connection.recv(), refinfer={"backend": backend})
    if mode != "baseline":
        model.build_from_file(model_path, mslite.ModelType.MINDIR, config_dict=config)
        if predict:
            inputs = model.get_inputs()
            for tensor in inputs:
                tensor.set_data_from_numpy(np.zeros(tensor.shape, np.float32))
            model.predict(inputs)
        sum(float(a.sum()) for a in model._loaded.parameters().values())
    ctypes.CDLL(None).malloc_trim(0)
    connection.send(model.get_model_info("shareable_weight_mem_handle"))
    connection.recv()                 # measured: exit


def pss_kib(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Pss:"))


def segment_pss_kib(pid):
    """PSS of the process's mappings of refinfer weight segments (from /proc/PID/smaps)."""
    found, in_segment = 0, False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if "-" in fields[0] and not fields[0].endswith(":"):      # a mapping's header
                in_segment = len(fields) > 5 and "/refinfer_w_" in fields[5]
            elif in_segment and fields[0] == "Pss:":
                found += int(fields[1])
    return found


def run(mode, model_path, workers, predict, backend):
    """Total PSS and PSS of the shared segment (KiB) of the master and ``workers`` workers
    after building ``mode``."""
    spawn = multiprocessing.get_context("spawn")
    pipes, processes = [], []
    for _ in range(workers + 1):
        parent, child_end = spawn.Pipe()
        process = spawn.Process(target=child, args=(mode, model_path, predict, backend,
                                                            child_end))
        process.start()
        pipes.append(parent)
        processes.append(process)
    pids = [pipe.recv() for pipe in pipes]
    master, *others = pipes
    master.send({"cpu_context": {"shareable_weight_pid_list": ", ".join(pids[1:])}}
                if mode == "shared" else {})
    handle = master.recv()
    for pipe in others:
        pipe.send({"cpu_context": {"shareable_weight_mem_handle": handle}}
                  if mode == "shared" else {})
    for pipe in others:
        pipe.recv()
    total = sum(pss_kib(process.pid) for process in processes)
    segment = sum(segment_pss_kib(process.pid) for process in processes)
    for pipe in pipes:
        pipe.send("exit")
    for process in processes:
        process.join(30)
    return total, segment


def weight_bytes(model_path):
    import refinfer as mslite
    model = mslite.Model()
    model.build_from_file(model_path, mslite.ModelType.MINDIR,
                          config_dict={"refinfer": {"backend": "reference"}})
    return sum(a.nbytes for a in model._loaded.parameters().values())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", nargs="?", default=DEFAULT_MODEL)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--no-predict", action="store_true")
    parser.add_argument("--backend", default="numba", choices=("numba", "reference"))
    args = parser.parse_args(argv)
    weights = weight_bytes(args.model)
    results = {mode: run(mode, args.model, args.workers, not args.no_predict, args.backend)
               for mode in ("baseline", "private", "shared")}
    print(f"model {args.model}: weights {weights / MiB:.1f} MiB; 1 master + {args.workers} "
          f"workers, {args.backend} backend, "
          f"{'build only' if args.no_predict else 'build + 1 predict'}, "
          f"Python {sys.version.split()[0]}")
    print(f"{'run':10} {'total PSS':>10} {'minus baseline':>15} {'segment PSS':>12}")
    for mode, (total, segment) in results.items():
        extra = total - results["baseline"][0]
        print(f"{mode:10} {total / 1024:8.1f} MiB {extra / 1024:11.1f} MiB "
              f"{segment / 1024:8.1f} MiB")
    saved = (results["private"][0] - results["shared"][0]) * 1024
    print(f"sharing saves {saved / MiB:.1f} MiB = {saved / weights:.2f}x the weights "
          f"({weights / MiB:.1f} MiB)")

if __name__ == "__main__":
    main()
