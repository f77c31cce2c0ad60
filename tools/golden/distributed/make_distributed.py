"""Generate the distributed golden cases: per-rank sliced MindIR files made by MindSpore on CPU.

Run with the MindSpore dev venv (msrun starts the ranks with the ``python`` of that venv):

    /work/msenv/bin/python tools/golden/distributed/make_distributed.py [CASE ...]
        [--out golden/distributed] [--big] [--big-out golden_big/distributed] [--port 8150]

No CASE = every committed case; ``--big`` adds the large ones (the benchmark's transformer
block), written under ``--big-out``. Cases are grouped by rank count and each group runs as one
``msrun`` job (``worker.py``): MindSpore's CPU collectives (mccl) need every rank alive.

After the job the driver checks each case: every listed file exists, and for tensor-parallel
cases every rank's outputs equal the unsliced network's (rtol 1e-4, atol 1e-5) -- the hand
slicing is right before refinfer ever sees it.
"""
import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # make_golden, one up
import cases
from make_golden import make_writable  # MindSpore writes its files 0400

HERE = Path(__file__).resolve().parent

REPO = HERE.parents[2]
MSRUN_TIMEOUT_S = 900


def prepare(case_dir):
    if case_dir.exists():
        make_writable(case_dir)
        shutil.rmtree(case_dir)
    case_dir.mkdir(parents=True)


def run_job(ranks, out_root, names, port):
    """One msrun job of ``ranks`` workers over ``names``; raises with the workers' errors."""
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
               GLOG_v="3")
    with tempfile.TemporaryDirectory(prefix="msrun_") as log_dir:
        command = [str(bin_dir / "msrun"), f"--worker_num={ranks}",
                   f"--local_worker_num={ranks}", f"--master_port={port}",
                   f"--log_dir={log_dir}", "--join=True", str(HERE / "worker.py"),
                   str(out_root), *names]
        result = subprocess.run(command, env=env, capture_output=True, text=True,
                                timeout=MSRUN_TIMEOUT_S, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"msrun failed ({result.returncode}):\n" + worker_errors(log_dir))


def worker_errors(log_dir):
    """The worker log lines that are not MindSpore's INFO/WARNING chatter."""
    lines = []
    for log in sorted(Path(log_dir).glob("*.log")):
        text = [line for line in log.read_text(errors="replace").splitlines()
                if line.strip() and not line.startswith(("[INFO]", "[WARNING]"))]
        lines += [f"--- {log.name}"] + text[-40:]
    return "\n".join(lines)


def check_case(case, case_dir):
    """Every file listed; tensor-parallel ranks equal the unsliced outputs."""
    meta = json.loads((case_dir / "meta.json").read_text())
    for r in range(case.ranks):
        assert (case_dir / meta["rank_model"].format(rank=r)).is_file(), (case.name, r)
    rank_outputs = [[np.load(case_dir / f) for f in files] for files in meta["rank_outputs"]]
    if "outputs" in meta:
        expected = [np.load(case_dir / o["file"]) for o in meta["outputs"]]
        for r, outputs in enumerate(rank_outputs):
            for k, (got, want) in enumerate(zip(outputs, expected)):
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5,
                                           err_msg=f"{case.name} rank {r} output {k}")
    make_writable(case_dir)


def selected_cases(names, big):
    if names:
        unknown = [n for n in names if n not in cases.CASES_BY_NAME]
        if unknown:
            raise SystemExit(f"unknown case(s): {', '.join(unknown)}")
        return [cases.CASES_BY_NAME[n] for n in names]
    return [c for c in cases.CASES if big or not c.big]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--out", default=str(REPO / "golden" / "distributed"))
    parser.add_argument("--big", action="store_true", help="also the large cases")
    parser.add_argument("--big-out", default=str(REPO / "golden_big" / "distributed"))
    parser.add_argument("--port", type=int, default=8150, help="msrun master port")
    args = parser.parse_args()

    def job_key(case):
        return case.ranks, args.big_out if case.big else args.out

    chosen = sorted(selected_cases(args.cases, args.big), key=job_key)
    for (ranks, out_root), group in itertools.groupby(chosen, key=job_key):
        group = list(group)
        for case in group:
            prepare(Path(out_root) / case.name)
        print(f"msrun {ranks} ranks: {', '.join(c.name for c in group)}", flush=True)
        run_job(ranks, Path(out_root).resolve(), [c.name for c in group], args.port)
        for case in group:
            check_case(case, Path(out_root) / case.name)
    print(f"wrote {len(chosen)} case(s)")


if __name__ == "__main__":
    main()
