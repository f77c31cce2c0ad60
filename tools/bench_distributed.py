"""Benchmark: a transformer block sliced 2 ways under mpirun vs unsliced in one process.

    python tools/bench_distributed.py [--case transformer_block_big] [--ranks 2]
                                      [--threads T] [--repeat 20] [--backend numba]

Both sides use the same total number of threads T (default: every usable core): the unsliced
block runs in one process with ``context.cpu.thread_num = T``; the sliced block runs as
``mpirun -n N`` ranks with T // N threads each. A sliced step is timed between barriers on every
rank and counts as its slowest rank's time. Prints the median step times and the speed-up, and
checks that both sides produce the golden output (rtol 1e-4, atol 1e-5). Run it on an otherwise
idle machine: BLAS threads competing with other processes for the cores make any timing moot.

The default case is large and not committed; make it first with the MindSpore venv:

    /work/msenv/bin/python tools/golden/distributed/make_distributed.py transformer_block_big
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOLDEN_DIRS = [os.path.join(ROOT, "golden_big", "distributed"),
               os.path.join(ROOT, "golden", "distributed")]


def case_dir(name: str) -> str:
    for root in GOLDEN_DIRS:
        if os.path.exists(os.path.join(root, name, "meta.json")):
            return os.path.join(root, name)
    sys.exit(f"golden case {name!r} not found: generate it with "
             "tools/golden/distributed/make_distributed.py (see this script's help)")


def build(path: str, threads: int, backend: str):
    import refinfer as mslite
    context = mslite.Context()
    context.cpu.thread_num = threads
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR, context,
                          config_dict={"refinfer": {"backend": backend}})
    return model


def timed_steps(model, inputs, repeat: int, barrier=None) -> tuple[list[float], list]:
    """Seconds per predict (after one warm-up), and the last outputs."""
    outputs = model.predict(inputs)
    times = []
    for _ in range(repeat):
        if barrier:
            barrier()
        start = time.perf_counter()
        outputs = model.predict(inputs)
        if barrier:
            barrier()
        times.append(time.perf_counter() - start)
    return times, [o.get_data_to_numpy() for o in outputs]


def load(directory: str):
    with open(os.path.join(directory, "meta.json")) as f:
        meta = json.load(f)
    inputs = [np.load(os.path.join(directory, i["file"])) for i in meta["inputs"]]
    expected = [np.load(os.path.join(directory, o["file"])) for o in meta["outputs"]]
    return meta, inputs, expected


def matches(outputs, expected) -> bool:
    return all(np.allclose(o, e, rtol=1e-4, atol=1e-5) for o, e in zip(outputs, expected))


def rank_threads(args, ranks: int) -> int:
    return max(1, args.threads // ranks)


def rank_worker(args) -> None:
    """One rank of the sliced run (started by mpirun): times its steps and
    writes them, with whether its outputs match, to OUT/rank<r>.json."""
    from refinfer import distributed
    directory = case_dir(args.case)
    meta, inputs, expected = load(directory)
    rank, size = distributed.rank_and_size()
    model = build(os.path.join(directory, meta["rank_model"]), rank_threads(args, size),
                  args.backend)
    world = distributed.current().world
    times, outputs = timed_steps(model, inputs, args.repeat, world.barrier)
    with open(os.path.join(args.rank_worker, f"rank{rank}.json"), "w") as f:
        json.dump({"times": times, "matches": matches(outputs, expected)}, f)


def sliced_steps(args) -> tuple[list[float], bool]:
    from refinfer.distributed import run_mpirun
    with tempfile.TemporaryDirectory() as out:
        job = run_mpirun(args.ranks, [sys.executable, __file__, "--rank-worker", out,
                                      "--case", args.case, "--threads", str(args.threads),
                                      "--repeat", str(args.repeat), "--backend",
                                      args.backend], timeout=1800)
        if job.returncode != 0:
            sys.exit(f"mpirun failed:\n{job.stderr}")
        ranks = []
        for rank in range(args.ranks):
            with open(os.path.join(out, f"rank{rank}.json")) as f:
                ranks.append(json.load(f))
    steps = [max(step) for step in zip(*(r["times"] for r in ranks))]
    return steps, all(r["matches"] for r in ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="transformer_block_big")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        help="total threads of each side (default: usable cores)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--backend", default="numba", choices=("numba", "reference"))
    parser.add_argument("--rank-worker", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rank_worker:
        return rank_worker(args)

    directory = case_dir(args.case)
    meta, inputs, expected = load(directory)
    model = build(os.path.join(directory, meta["unsliced_model"]), args.threads, args.backend)
    unsliced, outputs = timed_steps(model, inputs, args.repeat)
    sliced, sliced_ok = sliced_steps(args)
    one, many = statistics.median(unsliced), statistics.median(sliced)
    print(f"case {args.case}: {meta['description']}")
    print(f"backend {args.backend}, {args.threads} thread(s) per side, {args.repeat} steps")
    print(f"unsliced, 1 process x {args.threads} threads: {one * 1e3:8.2f} ms/step "
          f"(output {'matches' if matches(outputs, expected) else 'DIFFERS'})")
    print(f"sliced, {args.ranks} ranks x {rank_threads(args, args.ranks)} threads: "
          f"{many * 1e3:8.2f} ms/step (outputs {'match' if sliced_ok else 'DIFFER'})")
    print(f"speed-up: {one / many:.2f}x")


if __name__ == "__main__":
    main()
