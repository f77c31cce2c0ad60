"""docs/census.md: every primitive MindSpore defines, beside refinfer's status.

The MindSpore side (each primitive's category, whether MindSpore runs it
forward on CPU, whether it can appear in an exported inference graph) is
``tools/census/mindspore-<version>.json``, written by ``tools/census.py`` in
MindSpore's virtualenv. This module adds refinfer's side from the op
registry and the golden cases (:mod:`refinfer.coverage`) and renders the
page: ``refinfer ops --census > docs/census.md`` (tests/test_census.py
checks it is current).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import registry
from .coverage import Coverage
from .out_of_scope import OUT_OF_SCOPE, out_of_scope

# The census of tools/census/: beside the package (a checkout or editable
# install), else in the working directory (an installed package run from a
# checkout), as coverage.GOLDEN_CANDIDATES.
CENSUS_NAME = Path("tools") / "census" / "mindspore-2.7.1.json"
CENSUS_FILE = next((p for p in (Path(__file__).resolve().parent.parent
                                / CENSUS_NAME, CENSUS_NAME) if p.is_file()),
                   CENSUS_NAME)

# Primitives graph mode never exports: it compiles them into recursive
# graphs of Switch, Partial and sequence ops, which refinfer runs. The value
# is the golden case that shows it.
LOWERED = {"WhileLoop": "ctrl_whileloop", "ForiLoop": "ctrl_foriloop",
           "Scan": "ctrl_scan"}

OUTCOMES = {"runs": "runs", "no-cpu-kernel": "no kernel", "unprobed": "unprobed",
            "crashed": "crashed", "timeout": "timeout"}


@dataclass
class CensusRow:
    """One MindSpore primitive and refinfer's status for it."""
    name: str               # the MindIR primitive name
    cls: str                # MindSpore's Python class
    category: str
    cpu: str                # the probe's outcome (a key of OUTCOMES)
    mode: str               # where it ran: "PyNative" or "graph"
    inference: bool         # can appear in an exported inference graph
    status: str             # implemented | lowered | out of scope | missing
    tested: bool
    fast_path: str

    @property
    def in_scope(self) -> bool:
        """MindSpore runs it on CPU, an inference graph can hold it, and it
        is not out of scope on purpose: refinfer should implement it."""
        return (self.cpu == "runs" and self.inference
                and self.status not in ("out of scope", "lowered"))

    @property
    def done(self) -> bool:
        return self.status in ("implemented", "lowered")


def load(path: str | Path = CENSUS_FILE) -> dict:
    with open(path) as f:
        return json.load(f)


def _status(name: str, cls: str, coverage: Coverage) -> tuple[str, bool, str]:
    rows = {row.name: row for row in coverage.rows}
    if name in rows:
        return "implemented", rows[name].tested, rows[name].fast_path
    if cls in LOWERED:
        golden = Path(coverage.golden or "") / LOWERED[cls]
        return "lowered", coverage.golden is not None and golden.is_dir(), ""
    if out_of_scope(name):
        return "out of scope", False, ""
    return "missing", False, ""


def rows(document: dict, coverage: Coverage) -> list[CensusRow]:
    """The census joined with refinfer's registry, sorted by category then
    name."""
    found = []
    for entry in document["primitives"]:
        status, tested, fast = _status(entry["primitive"], entry["class"], coverage)
        found.append(CensusRow(entry["primitive"], entry["class"], entry["category"],
                               entry["outcome"], entry.get("mode", ""),
                               entry["inference_graph"], status, tested, fast))
    return sorted(found, key=lambda r: (r.category, r.name.lower(), r.cls))


def _totals(table: list[CensusRow]) -> list[str]:
    categories = sorted({row.category for row in table})
    lines = ["| Category | Primitives | Run on CPU | In scope | Implemented "
             "(in scope) | Golden-tested (in scope) | Out of scope |",
             "|---|---|---|---|---|---|---|"]
    for label in [*categories, "all"]:
        chosen = [r for r in table if label in ("all", r.category)]
        scope = [r for r in chosen if r.in_scope]
        count = (len(chosen), sum(r.cpu == "runs" for r in chosen), len(scope),
                 sum(r.done for r in scope), sum(r.tested for r in scope),
                 sum(r.status == "out of scope" for r in chosen))
        name = "**all**" if label == "all" else label
        lines.append(f"| {name} | " + " | ".join(map(str, count)) + " |")
    return lines


def _summary(table: list[CensusRow], version: str) -> str:
    scope = [r for r in table if r.in_scope]
    done = sum(r.done for r in scope)
    share = 100.0 * done / len(scope) if scope else 0.0
    outcomes = Counter(r.cpu for r in table)
    return (f"MindSpore {version} defines {len(table)} primitives; the probe ran "
            f"{outcomes['runs']} on CPU, found no CPU kernel for "
            f"{outcomes['no-cpu-kernel']}, and could not build a call for "
            f"{outcomes['unprobed']} ({outcomes['crashed']} crashed, "
            f"{outcomes['timeout']} timed out). Of the {len(scope)} in scope "
            f"(run on CPU, can appear in an inference graph, not out of scope "
            f"on purpose) refinfer implements {done} ({share:.1f} %).")


def _cpu_text(row: CensusRow) -> str:
    text = OUTCOMES.get(row.cpu, row.cpu)
    return f"{text} (graph)" if row.cpu == "runs" and row.mode == "graph" else text


def format_markdown(document: dict, coverage: Coverage) -> str:
    """docs/census.md."""
    table = rows(document, coverage)
    version = document["mindspore_version"]
    lines = [
        "# MindSpore primitive census",
        "",
        "Generated; do not edit by hand (tests/test_census.py checks it is "
        "current). Regenerate the MindSpore side (minutes, in MindSpore's "
        "virtualenv) and then this page:",
        "",
        "```sh",
        "msenv/bin/python tools/census.py            # -> tools/census/"
        f"mindspore-{version}.json",
        "refinfer ops --census > docs/census.md",
        "```",
        "",
        _summary(table, version),
        "",
        "How each column is decided:",
        "",
        "- *Category*: by name and defining module (`tools/census.py`, "
        "`NAME_RULES`); a heuristic, good for totals rather than for any one op.",
        "- *MindSpore CPU*: `tools/census.py` **runs** each primitive on tiny "
        "arguments built from its argument names and MindSpore's own complaints "
        "(several shapes and dtypes), in PyNative mode and, where PyNative has "
        "no kernel, compiled (*graph*), each probe in a worker process with a "
        "time limit. *no kernel*: MindSpore's shape inference passed and then it "
        "had no CPU kernel. *unprobed*: no call got past the constructor or "
        "shape inference, so the census cannot tell (the JSON file keeps "
        "MindSpore's error); such ops are not counted in scope.",
        "- *Inference*: whether the primitive can appear in an exported "
        "inference graph (not for training-only ops and summaries, nor for the "
        "compile-time and PyNative-only ones that graph mode resolves or refuses "
        "before export).",
        "- *refinfer*: *implemented* (registered, see docs/ops.md), *lowered* "
        "(graph mode compiles it into sub-graphs refinfer runs; the golden case "
        "shows it), *out of scope* (a clear build error says why), or *missing*. "
        "*Tested*: a golden case applies it. *Fast path*: as in docs/ops.md.",
        "",
        "Out of scope on purpose, each with a build error that names the "
        "category and the reason (`refinfer/out_of_scope.py`):",
        "",
        *(f"- **{label}**: {scope.reason}." for label, scope in OUT_OF_SCOPE.items()),
        "",
        "## Totals",
        "",
        *_totals(table),
        "",
        "## Every primitive",
        "",
        "| Primitive | Category | MindSpore CPU | Inference | refinfer | Tested "
        "| Fast path |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in table:
        name = row.name if row.name == row.cls else f"{row.name} (`{row.cls}`)"
        lines.append(f"| {name} | {row.category} | {_cpu_text(row)} | "
                     f"{'yes' if row.inference else 'no'} | {row.status} | "
                     f"{'yes' if row.tested else 'no'} | {row.fast_path or '-'} |")
    registered = {r.name for r in table}
    extra = [op.name for op in registry.list_ops() if op.name not in registered]
    if extra:
        lines += ["", f"Registered in refinfer but not a MindSpore {version} "
                  f"primitive class ({len(extra)}; graph-mode internals such as "
                  "closures and containers): " + ", ".join(extra) + "."]
    return "\n".join(lines) + "\n"
