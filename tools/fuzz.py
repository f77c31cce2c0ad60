"""Fuzz refinfer with mutated golden MindIR files (issue 17).

    .venv/bin/python tools/fuzz.py --cases 5000 --seed 1 [--out DIR] [--timeout 10]
        [--models GLOB,GLOB ...] [--max-bytes N] [--jobs 1] [--backend numba,reference]
        [--no-minimise] [--budget 150] [--boundscheck]
    .venv/bin/python tools/fuzz.py --replay DIR/<signature folder>

Each case is a golden model with one to three mutations (tools/fuzzer/
mutate.py), built with ``refinfer.Model().build_from_file`` and predicted on
inputs of its declared shapes in a worker process with a 4 GiB address
space and a time limit per case. Outcomes: ok, clean (refinfer refused the
file on purpose), raw (a Python exception refinfer did not mean to raise),
memory (an unwrapped MemoryError), crash (the worker died), hang (time
limit); see tools/fuzzer/worker.py for the exact rules. Each distinct
failure signature (outcome, exception type, innermost refinfer frame) is
minimised and written to ``--out`` as a folder with the model, case.json
and the traceback. Cases are the same for the same seed, models and case
count. Exit status 1 when a raw exception, crash, hang or memory failure
was found.

``--boundscheck`` runs the workers with ``NUMBA_BOUNDSCHECK=1`` (their own
kernel cache): a Numba kernel that would read or write outside an array
raises IndexError there, a ``raw`` finding naming the kernel, where without
it the write corrupts the heap and the worker dies later, in another case
(a ``crash`` whose reproducer does not crash alone).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from fuzzer.minimise import Shrinker
from fuzzer.mutate import Case, load_source, make_case, mutated_bytes
from fuzzer.pool import ROOT, Worker
from refinfer.process import default_cache_dir

DEFAULT_MODELS = ("golden/*/model.mindir,golden/*/model_graph.mindir",
                  "golden/ops/*/model.mindir")
FAILURES = ("raw", "memory", "crash", "hang")
OUTCOMES = ("ok", "clean") + FAILURES
HANG_BUDGET = 6


@dataclass
class Finding:
    """The first case of a signature, and every case that had it."""
    case: Case
    result: dict
    cases: list[int] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.cases)


@dataclass
class Report:
    outcomes: Counter = field(default_factory=Counter)
    findings: dict[str, Finding] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, case: Case, result: dict) -> None:
        self.outcomes[result["outcome"]] += 1
        if result["outcome"] in FAILURES:
            finding = self.findings.setdefault(result["signature"],
                                               Finding(case, result))
            finding.cases.append(case.index)

    @property
    def failed(self) -> bool:
        return any(self.outcomes[o] for o in FAILURES)


def sources_from(groups, max_bytes: int | None = None) -> list[list]:
    """One group of golden sources per comma-separated list of globs
    (relative to the checkout), without model files over ``max_bytes``."""
    return [[load_source(path) for pattern in group.split(",")
             for path in sorted(glob.glob(os.path.join(ROOT, pattern)))
             if max_bytes is None or os.path.getsize(path) <= max_bytes]
            for group in groups]


class CaseRunner:
    """Writes a case's files into a scratch folder and runs them on its
    own worker."""

    def __init__(self, scratch: str, timeout: float):
        self.folder = tempfile.mkdtemp(dir=scratch)
        self.timeout, self.worker = timeout, Worker()

    def run(self, case: Case, data: bytes | None = None) -> dict:
        if data is None:
            data = mutated_bytes(case)[0]
        model = write_case(self.folder, case, data)
        return self.worker.run({
            "model": model, "backend": case.backend, "input_seed": case.input_seed,
            "dec_key": case.source.dec_key, "dec_mode": case.source.dec_mode,
            "timeout": self.timeout})

    def close(self) -> None:
        self.worker.stop()


def write_case(folder: str, case: Case, data: bytes) -> str:
    """Write the model file and its companions into ``folder`` (emptied
    first); the model's path."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, content in [(case.source.name, data), *case.source.companions.items()]:
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
    return os.path.join(folder, case.source.name)


def run_campaign(cases: int, seed: int, sources, backends, timeout: float,
                 jobs: int = 1, progress=None) -> Report:
    """Run cases 0..cases-1 of campaign ``seed`` on ``jobs`` workers."""
    report, lock, next_index = Report(), threading.Lock(), iter(range(cases))
    errors = []                 # a fuzzer bug in a thread ends the campaign
    start = time.monotonic()

    def serve(scratch):
        runner = CaseRunner(scratch, timeout)
        try:
            while not errors:
                with lock:
                    index = next(next_index, None)
                if index is None:
                    return
                case = make_case(index, seed, sources, backends)
                result = runner.run(case)
                with lock:
                    report.add(case, result)
                    if progress:
                        progress(report)
        except BaseException as exc:    # noqa: BLE001  re-raised below
            errors.append(exc)
        finally:
            runner.close()

    with tempfile.TemporaryDirectory(prefix="refinfer-fuzz-") as scratch:
        threads = [threading.Thread(target=serve, args=(scratch,))
                   for _ in range(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    report.seconds = time.monotonic() - start
    return report


def minimise(finding: Finding, timeout: float, budget: int) -> tuple[Case, bytes]:
    """The finding's case with fewer steps and a smaller file, same
    signature. A hang costs a whole time limit per try: only a few."""
    signature = finding.result["signature"]
    if finding.result["outcome"] == "hang":
        budget = min(budget, HANG_BUDGET)
    with tempfile.TemporaryDirectory(prefix="refinfer-fuzz-min-") as scratch:
        runner = CaseRunner(scratch, timeout)
        case = finding.case
        try:
            shrinker = Shrinker(lambda data: runner.run(case, data)["signature"],
                                budget)
            case = shrinker.steps(case, signature)
            data = mutated_bytes(case)[0]
            if case.kind == "struct":
                data = shrinker.tree(data, signature)
        finally:
            runner.close()
    return case, data


def write_reproducer(out: str, signature: str, finding: Finding, case: Case,
                     data: bytes) -> str:
    """A folder under ``out`` with the minimised model, case.json and the
    traceback of the first case."""
    folder = os.path.join(out, _slug(signature))
    model = write_case(folder, case, data)
    notes = mutated_bytes(case)[1]
    info = {"signature": signature, "cases": sorted(finding.cases),
            "outcome": finding.result["outcome"], "stage": finding.result["stage"],
            "error": finding.result["error"],
            "model": os.path.basename(model),
            "golden": os.path.relpath(case.source.path, ROOT),
            "backend": case.backend, "input_seed": case.input_seed,
            "dec_key": case.source.dec_key, "dec_mode": case.source.dec_mode,
            "case_index": case.index, "kind": case.kind,
            "steps": [list(s) for s in case.steps], "mutations": notes,
            "minimised_bytes": len(data)}
    with open(os.path.join(folder, "case.json"), "w") as f:
        json.dump(info, f, indent=2)
    with open(os.path.join(folder, "traceback.txt"), "w") as f:
        f.write(finding.result["traceback"])
    return folder


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", signature).strip("_")[:120]


def replay(folder: str, timeout: float) -> dict:
    """Run a reproducer folder's model once; its result."""
    with open(os.path.join(folder, "case.json")) as f:
        info = json.load(f)
    worker = Worker()
    try:
        return worker.run({
            "model": os.path.abspath(os.path.join(folder, info["model"])),
            "backend": info["backend"], "input_seed": info["input_seed"],
            "dec_key": info["dec_key"], "dec_mode": info["dec_mode"],
            "timeout": timeout})
    finally:
        worker.stop()


def summary(report: Report, cases: int) -> str:
    rate = cases / report.seconds if report.seconds else 0.0
    lines = [f"{cases} cases in {report.seconds:.1f} s ({rate:.1f} cases/s)", "",
             f"{'outcome':<8} {'cases':>7}"]
    lines += [f"{o:<8} {report.outcomes[o]:>7}" for o in OUTCOMES]
    if report.findings:
        lines += ["", f"{'cases':>6}  signature  (first error)"]
        for signature, finding in sorted(report.findings.items(),
                                         key=lambda kv: -kv[1].count):
            lines.append(f"{finding.count:>6}  {signature}")
            lines.append(f"{'':>8}{finding.result['error'][:150]}")
    return "\n".join(lines)


def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="fuzz-out",
                        help="folder for the reproducers (default fuzz-out)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds per case (default 10)")
    parser.add_argument("--models", action="append",
                        help="globs of model files relative to the checkout, "
                        "comma-separated; cases pick a --models group first, then "
                        "a file (default: the golden models, the op models)")
    parser.add_argument("--max-bytes", type=int,
                        help="leave out model files larger than this")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--backend", default="numba,reference",
                        help="backends, taken in turn by the cases")
    parser.add_argument("--no-minimise", action="store_true")
    parser.add_argument("--budget", type=int, default=150,
                        help="worker runs to minimise each signature")
    parser.add_argument("--boundscheck", action="store_true",
                        help="Numba kernels check every index (slower first "
                        "compiles, own cache): finds out-of-bounds writes")
    parser.add_argument("--replay", metavar="DIR",
                        help="run one reproducer folder and print its outcome")
    return parser.parse_args(argv)


def _check_bounds_in_workers() -> None:
    """Workers (which inherit this environment) compile bounds-checked
    kernels, cached apart from the unchecked ones: Numba's cache index
    does not tell them apart."""
    os.environ["NUMBA_BOUNDSCHECK"] = "1"
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(default_cache_dir(),
                                                 "boundscheck")


def main(argv=None) -> int:
    args = _arguments(argv)
    if args.boundscheck:
        _check_bounds_in_workers()
    if args.replay:
        result = replay(args.replay, args.timeout)
        print(f"{result['outcome']} {result['signature']}\n{result['traceback']}")
        return int(result["outcome"] in FAILURES)
    sources = sources_from(args.models or DEFAULT_MODELS, args.max_bytes)
    if not any(sources):
        print("no model matches --models", file=sys.stderr)
        return 2
    backends = tuple(args.backend.split(","))

    def progress(report):
        done = sum(report.outcomes.values())
        if done % 100 == 0:
            print(f"  {done}/{args.cases} cases, {len(report.findings)} "
                  "failure signature(s)", file=sys.stderr, flush=True)

    report = run_campaign(args.cases, args.seed, sources, backends, args.timeout,
                          args.jobs, progress)
    print(summary(report, args.cases))
    for signature, finding in report.findings.items():
        case, data = (finding.case, mutated_bytes(finding.case)[0]) \
            if args.no_minimise else minimise(finding, args.timeout, args.budget)
        folder = write_reproducer(args.out, signature, finding, case, data)
        print(f"reproducer: {folder} ({len(data)} bytes)")
    return int(report.failed)


if __name__ == "__main__":
    sys.exit(main())
