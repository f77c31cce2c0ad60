"""Peak memory of ``refinfer dump`` against a plain predict.

    .venv/bin/python tools/bench_dump_memory.py [MODEL_DIR] [--limit 1.2]

MODEL_DIR is a golden case folder (meta.json, model, inputs); default: the
first of golden_big/resnet50 and golden_big/resnet18 that exists
(regenerate them with ``/work/msenv/bin/python tools/golden/make_golden.py
--big``). Each measurement runs in a fresh process, so each peak RSS
(``ru_maxrss``) is that mode's alone: load the model, run once (predict,
dump of every node to a temporary folder, or a statistics-only dump). Exit
status 1 when a dump's peak exceeds ``--limit`` times the predict's.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CANDIDATES = ("golden_big/resnet50", "golden_big/resnet18")
MODES = ("predict", "dump", "dump-stats")


def measure(case_dir: str, mode: str) -> dict:
    """Run ``mode`` once in this process; its peak RSS and time."""
    from refinfer.runtime import LoadedModel
    from refinfer.tools.dump import dump
    from refinfer.tools.tensorio import read_entry

    with open(os.path.join(case_dir, "meta.json")) as f:
        meta = json.load(f)
    model = LoadedModel(os.path.join(case_dir, meta["model_file"]))
    inputs = [read_entry(case_dir, i) for i in meta["inputs"]]
    start = time.perf_counter()
    files = 0
    if mode == "predict":
        model.run(inputs)
    else:
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "dump")
            _, manifest = dump(model, inputs, out,
                               stats_only=mode == "dump-stats",
                               progress=False)
            files = sum("file" in t for t in manifest["tensors"])
    seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"mode": mode, "peak_rss_mib": round(peak_kib / 1024, 1),
            "seconds": round(seconds, 2), "tensor_files": files}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", nargs="?", help="golden case folder")
    parser.add_argument("--limit", type=float, default=1.2,
                        help="allowed dump/predict peak ratio (default 1.2)")
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    case = args.case or next((os.path.join(ROOT, c) for c in CANDIDATES
                              if os.path.isdir(os.path.join(ROOT, c))), None)
    if case is None:
        print(f"no model: none of {', '.join(CANDIDATES)} exists (run "
              "tools/golden/make_golden.py --big)", file=sys.stderr)
        return 2
    if args.mode:                       # a child: measure one mode
        print(json.dumps(measure(case, args.mode)))
        return 0
    results = [json.loads(subprocess.run(
        [sys.executable, __file__, case, "--mode", mode], check=True,
        capture_output=True, text=True).stdout) for mode in MODES]
    base = results[0]["peak_rss_mib"]
    print(f"model: {os.path.relpath(case, ROOT)}")
    print(f"{'mode':<12}{'peak RSS MiB':>14}{'x predict':>11}{'seconds':>9}"
          f"{'files':>7}")
    for r in results:
        print(f"{r['mode']:<12}{r['peak_rss_mib']:>14.1f}"
              f"{r['peak_rss_mib'] / base:>11.3f}{r['seconds']:>9.2f}"
              f"{r['tensor_files']:>7}")
    worst = max(r["peak_rss_mib"] for r in results[1:]) / base
    print(f"worst dump / predict: {worst:.3f} (limit {args.limit})")
    return 0 if worst <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
