"""How long building a very long model takes, and its peak memory.

    python tools/bench_build.py --nodes 100000 [--op relu|add]
        [--backend numba|reference] [--profile [--functions]]

Writes a chain of ``--nodes`` nodes (``--op relu``: ReLUs, fused into one
by the elementwise pass; ``--op add``: x + x, none fused) on a (2, 4) input
(the golden mlp's input and ReLU node, copied: tools/golden has no
MindSpore-free exporter) to a temporary folder, then builds it with ``Model.build_from_file`` in a fresh
process and prints the build's seconds (wall and CPU; the import of
refinfer's API before it, timed apart) and the process's
peak RSS (the build process only: generating the file does not count). ``--profile``
prints the build's phases (read, graph, plan with the passes, warm-up) and
the RSS after each instead; ``--functions`` adds the functions that took
longest (cProfile).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "golden" / "mlp" / "model.mindir"


def chain_model(nodes: int, op: str = "relu", skip: int = 0) -> bytes:
    """The golden mlp's graph cut down to its input and a chain of
    ``nodes`` nodes, each reading the one before: ``relu`` nodes (the
    elementwise pass fuses them all into one) or ``add`` nodes adding the
    value before to itself (each its own group: nothing fuses). ``skip``
    (``add`` only): the second operand is the value ``skip`` nodes back
    instead (skip connections, as a drawing of a real network has)."""
    from refinfer.format import schema

    proto = schema.ModelProto()
    proto.ParseFromString(TEMPLATE.read_bytes())
    graph = proto.graph
    relu = next(n for n in graph.node if n.op_type.startswith("REF::ReLU"))
    relu.attribute[0].tensors[0].dims[:] = [2, 4]
    if op == "add":
        add = proto.primitives.add(name="Add:99", op_type="Add",
                                   prim_type=schema.PRIMITIVE_FUNCTION)
        relu.op_type = f"REF::{add.name}"
    template = relu.SerializeToString()
    values = [graph.input[0].name]
    del graph.node[:], graph.parameter[:]
    for k in range(nodes):
        node = graph.node.add()
        node.MergeFromString(template)
        node.name = node.output[0] = f"{graph.name}:{op}_{k}"
        second = values[max(len(values) - skip, 0)] if skip else values[-1]
        node.input[:] = [values[-1], second] if op == "add" else [values[-1]]
        node.domain = f"Default/{op}{k}-Op/Op-op0"
        values.append(node.name)
    graph.output[0].name = values[-1]
    graph.output[0].tensor[0].dims[:] = [2, 4]
    return proto.SerializeToString()


def build(path: str, backend: str) -> dict:
    """Build ``path`` in this process; seconds and peak RSS (MiB). The
    import of the API (numba among it: the same for every model) is timed
    apart from the build; the model is freed after the clock stops (0.7 s
    at 10^6 nodes: a process that builds a model keeps it)."""
    start = time.perf_counter()
    import refinfer as mslite
    mslite.Model        # (the package imports its API at first use)
    imported = time.perf_counter()
    cpu = time.process_time()
    model = mslite.Model()      # kept: freeing it is not part of the build
    model.build_from_file(path, mslite.ModelType.MINDIR, config_dict={
        "refinfer": {"backend": backend}})
    seconds = time.perf_counter() - imported
    # CPU seconds too: on a shared machine the wall time follows the load
    return {"build_s": round(seconds, 2),
            "build_cpu_s": round(time.process_time() - cpu, 2),
            "import_s": round(imported - start, 2),
            "peak_rss_mib": round(_peak_rss_mib())}


def _peak_rss_mib() -> float:
    """This process's peak resident memory since it started (VmHWM).
    Not ``getrusage``'s ru_maxrss: Linux keeps that across fork and exec,
    so it reported the generating process's peak (2 GB at 10^6 nodes)."""
    with open("/proc/self/status") as f:
        line = next(line for line in f if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def profile(path: str, backend: str, functions: bool) -> None:
    """Each build phase's seconds and the RSS after it; then, if asked, the
    25 functions that took longest in a whole build (cProfile)."""
    import cProfile
    import pstats

    from refinfer import warmup
    from refinfer.format.reader import read_mindir
    from refinfer.graph import build_model
    from refinfer.plan import compile_model
    from refinfer.runtime import LoadedModel

    def timed(label, fn, *args):
        start = time.perf_counter()
        result = fn(*args)
        print(f"{label:>8}: {time.perf_counter() - start:6.2f} s, "
              f"RSS {_rss_mib():5.0f} MiB")
        return result

    model = timed("read", read_mindir, path)
    model = timed("graph", build_model, model)
    timed("plan", compile_model, model, backend)
    loaded = LoadedModel(path, "reference")     # (no warm-up: timed next)
    loaded.backend, loaded.program = backend, compile_model(model, backend)
    timed("warm-up", warmup.compile_kernels, loaded)
    if not functions:
        return
    profiler = cProfile.Profile()
    profiler.runcall(LoadedModel, path, backend)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def _rss_mib() -> float:
    """This process's resident memory now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--op", default="relu", choices=("relu", "add"),
                        help="relu: one fused chain; add: nothing fuses")
    parser.add_argument("--backend", default="numba",
                        choices=("numba", "reference"))
    parser.add_argument("--profile", action="store_true",
                        help="the build's phases, not the numbers")
    parser.add_argument("--functions", action="store_true",
                        help="with --profile: the costliest functions too")
    parser.add_argument("--build", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build:          # the fresh process measuring one build
        print(json.dumps(build(args.build, args.backend)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "chain.mindir")
        Path(path).write_bytes(chain_model(args.nodes, args.op))
        if args.profile:
            profile(path, args.backend, args.functions)
            return 0
        out = subprocess.run([sys.executable, __file__, "--build", path,
                              "--backend", args.backend],
                             capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    print(json.dumps({"nodes": args.nodes, "op": args.op,
                      "backend": args.backend, **result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
