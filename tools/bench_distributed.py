"""Benchmark: a transformer block sliced N ways under mpirun vs unsliced in one process.

    python tools/bench_distributed.py [--case transformer_block_big] [--ranks 2]
                                      [--threads T] [--rounds 10] [--steps 10]
                                      [--backend numba]

Both sides use the same total number of threads T (default: every usable core): the unsliced
block runs in one process with ``context.cpu.thread_num = T``; the sliced block runs as
``mpirun -n N`` ranks with T // N threads each. The two sides take turns within one job, in
rounds: rank 0 times ``steps`` predicts of the unsliced block while the other ranks sleep (an
MPI barrier would spin on a core), then every rank times ``steps`` sliced predicts, each timed
between barriers and counted as its slowest rank's time. A shared, noisy machine drifts by 20%
and more within a minute; comparing each round's two sides, measured seconds apart, keeps that
drift out of the ratio. Prints each round's medians and speed-up, and the median speed-up over
the rounds; checks that both sides produce the golden output (rtol 1e-4, atol 1e-5). Run it on
an otherwise idle machine.

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


def timed_steps(model, inputs, steps: int, barrier=None) -> tuple[list[float], list]:
    """Seconds per predict, and the last outputs."""
    times, outputs = [], None
    for _ in range(steps):
        if barrier:
            barrier()
        start = time.perf_counter()
        outputs = model.predict(inputs)
        if barrier:
            barrier()
        times.append(time.perf_counter() - start)
    return times, [o.get_data_to_numpy() for o in outputs]


def sleeping_barrier(comm, poll_s: float = 0.005) -> None:
    """A barrier whose waiting ranks sleep: MPI's own barrier polls on the
    core, which the unsliced run needs."""
    request = comm.Ibarrier()
    while not request.Test():
        time.sleep(poll_s)


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
    """One rank of the job (started by mpirun): rounds of unsliced steps on
    rank 0 and sliced steps on every rank; writes its times, and whether
    its outputs match, to OUT/rank<r>.json."""
    from refinfer import distributed
    directory = case_dir(args.case)
    meta, inputs, expected = load(directory)
    rank, size = distributed.rank_and_size()
    world = distributed.current().world
    sliced = build(os.path.join(directory, meta["rank_model"]), rank_threads(args, size),
                   args.backend)
    unsliced = build(os.path.join(directory, meta["unsliced_model"]), args.threads,
                     args.backend) if rank == 0 else None
    report = {"unsliced": [], "sliced": [], "matches": True}
    for _ in range(args.rounds + 1):     # round 0 warms both up, and is dropped
        if unsliced is not None:
            times, outputs = timed_steps(unsliced, inputs, args.steps)
            report["unsliced"].append(times)
            report["matches"] &= matches(outputs, expected)
        sleeping_barrier(world.comm)
        times, outputs = timed_steps(sliced, inputs, args.steps, world.barrier)
        report["sliced"].append(times)
        report["matches"] &= matches(outputs, expected)
    with open(os.path.join(args.rank_worker, f"rank{rank}.json"), "w") as f:
        json.dump({key: value[1:] if isinstance(value, list) else value
                   for key, value in report.items()}, f)


def run_job(args) -> list[dict]:
    from refinfer.distributed import run_mpirun
    with tempfile.TemporaryDirectory() as out:
        job = run_mpirun(args.ranks, [sys.executable, __file__, "--rank-worker", out,
                                      "--case", args.case, "--threads", str(args.threads),
                                      "--rounds", str(args.rounds), "--steps",
                                      str(args.steps), "--backend", args.backend],
                         timeout=1800)
        if job.returncode != 0:
            sys.exit(f"mpirun failed:\n{job.stderr}")
        ranks = []
        for rank in range(args.ranks):
            with open(os.path.join(out, f"rank{rank}.json")) as f:
                ranks.append(json.load(f))
    return ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="transformer_block_big")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                        help="total threads of each side (default: usable cores)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--steps", type=int, default=10, help="predicts per side per round")
    parser.add_argument("--backend", default="numba", choices=("numba", "reference"))
    parser.add_argument("--rank-worker", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rank_worker:
        return rank_worker(args)

    meta, _, _ = load(case_dir(args.case))
    ranks = run_job(args)
    print(f"case {args.case}: {meta['description']}")
    print(f"backend {args.backend}; unsliced: 1 process x {args.threads} threads; sliced: "
          f"{args.ranks} ranks x {rank_threads(args, args.ranks)} threads; "
          f"{args.rounds} rounds of {args.steps} steps per side")
    speedups = []
    for k, one_round in enumerate(ranks[0]["unsliced"]):
        sliced_steps = [max(step) for step in zip(*(r["sliced"][k] for r in ranks))]
        one, many = statistics.median(one_round), statistics.median(sliced_steps)
        speedups.append(one / many)
        print(f"round {k + 1:2d}: unsliced {one * 1e3:7.2f} ms, sliced {many * 1e3:7.2f} ms, "
              f"speed-up {one / many:.2f}x")
    print(f"outputs {'match' if all(r['matches'] for r in ranks) else 'DIFFER'} the golden")
    print(f"speed-up: median {statistics.median(speedups):.2f}x over {len(speedups)} rounds "
          f"(range {min(speedups):.2f}-{max(speedups):.2f}x)")


if __name__ == "__main__":
    main()
