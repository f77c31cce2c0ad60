"""The op coverage table: every registered primitive with its family, its
dtypes and whether a golden case tests it.

"Tested" means at least one committed golden case (a folder under
``golden/`` whose meta.json names a ``model_file``) applies the primitive;
the primitives are read from the models themselves with refinfer's own
reader, not from the meta files. ``refinfer ops`` prints the table and
``refinfer ops --markdown`` writes ``docs/ops.md``.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import registry
from .errors import MindIRError
from .format.reader import MindIRFile, read_mindir

# Where the repository's golden/ folder may be: beside the package (a
# checkout or editable install), or in the working directory (an installed
# package run from a checkout).
GOLDEN_CANDIDATES = (Path(__file__).resolve().parent.parent / "golden",
                     Path("golden"))

DTYPE_ABBREVIATIONS = {
    "float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "bool", "complex64": "c64", "complex128": "c128",
}


@dataclass
class OpRow:
    """One line of the table; ``cases`` are the golden cases using the op."""
    name: str
    family: str
    dtypes: tuple[str, ...]
    cases: list[str] = field(default_factory=list)
    fast_path: str = ""     # "numba", or why the reference is the fast path
    cuda: bool | None = None    # has a cuda kernel; None: not asked

    @property
    def tested(self) -> bool:
        return bool(self.cases)


@dataclass
class Coverage:
    rows: list[OpRow]
    golden: str | None                  # the folder read, None if absent
    unsupported: dict[str, list[str]]   # used by golden cases, not registered
    unreadable: list[str] = field(default_factory=list)  # e.g. bfloat16
    looked: list[str] = field(default_factory=list)  # folders tried

    @property
    def tested_count(self) -> int:
        return sum(row.tested for row in self.rows)


def primitive_applications(mindir: MindIRFile) -> Counter:
    """Primitive name -> how many nodes of any graph apply it."""
    counts = Counter()
    for graph in mindir.graphs:
        for node in graph.nodes:
            prim = mindir.primitive_of(node)
            if prim is not None:
                counts[prim.op_name] += 1
    return counts


def primitives_used(mindir: MindIRFile) -> set[str]:
    """Names of the primitives that nodes of any graph apply."""
    return set(primitive_applications(mindir))


def golden_usage(root: str | os.PathLike,
                 unreadable: list[str] | None = None) -> dict[str, list[str]]:
    """Primitive name -> sorted names of the golden cases under ``root``
    that use it. Encrypted cases are skipped (they repeat plain ones); cases
    this installation cannot read (bfloat16 weights without ml_dtypes) are
    appended to ``unreadable``."""
    usage: dict[str, set[str]] = {}
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        if "meta.json" not in files:
            continue
        with open(os.path.join(folder, "meta.json")) as f:
            meta = json.load(f)
        if "enc_key" in meta:
            continue
        case = os.path.relpath(folder, root)
        for model_file in _model_files(meta):
            try:
                mindir = read_mindir(os.path.join(folder, model_file))
            except MindIRError:
                if unreadable is not None:
                    unreadable.append(case)
                break
            for name in primitives_used(mindir):
                usage.setdefault(name, set()).add(case)
    return {name: sorted(cases) for name, cases in usage.items()}


def _model_files(meta: dict) -> list[str]:
    """A case's model file, or one file per rank for sliced models."""
    if "model_file" in meta:
        return [meta["model_file"]]
    if "rank_model" in meta:
        return [meta["rank_model"].format(rank=r) for r in range(meta["ranks"])]
    return []


def coverage(golden: str | os.PathLike | None = None,
             cuda: set[str] | None = None) -> Coverage:
    """The table for every registered op; ``golden`` defaults to the
    repository's golden/ folder (no folder: nothing counts as tested);
    ``cuda``: the ops with a cuda kernel (refinfer.cuda.load_kernels
    declares them; None leaves the column out)."""
    places = [Path(golden)] if golden is not None else GOLDEN_CANDIDATES
    root = next((p for p in places if p.is_dir()), places[0])
    unreadable: list[str] = []
    usage = golden_usage(root, unreadable) if root.is_dir() else {}
    rows = [OpRow(op.name, op.family, op.dtypes, usage.get(op.name, []),
                  op.fast_path, None if cuda is None else op.name in cuda)
            for op in registry.list_ops()]
    unsupported = {name: cases for name, cases in sorted(usage.items())
                   if not registry.has_op(name)}
    return Coverage(rows, str(root) if root.is_dir() else None, unsupported,
                    unreadable, [str(p.resolve()) for p in places])


def _dtypes_text(dtypes: tuple[str, ...]) -> str:
    return " ".join(DTYPE_ABBREVIATIONS.get(d, d) for d in dtypes) or "-"


def _tested_text(cov: Coverage, row: OpRow) -> str:
    """yes / no; ``?`` when no golden cases were found to tell."""
    if cov.golden is None:
        return "?"
    return "yes" if row.tested else "no"


def _summary(cov: Coverage) -> str:
    if cov.golden is None:
        looked = " or ".join(cov.looked)
        return (f"{len(cov.rows)} primitives; tested by a golden case: "
                f"unknown (no golden/ folder found at {looked}: run from a "
                "checkout or pass --golden DIR; docs/ops.md in the "
                "repository has the table)")
    text = (f"{len(cov.rows)} primitives, {cov.tested_count} tested by a "
            f"golden case")
    if cov.unreadable:
        text += (f" (not read here: {', '.join(cov.unreadable)}; see "
                 "`refinfer info` on them)")
    return text


def _cuda_text(row: OpRow) -> str:
    """yes / no: whether the op has a cuda kernel; ``?`` when not asked."""
    return "?" if row.cuda is None else "yes" if row.cuda else "no"


def format_text(cov: Coverage) -> str:
    """The table for a terminal."""
    table = [("primitive", "family", "tested", "fast path", "cuda", "dtypes")]
    table += [(row.name, row.family, _tested_text(cov, row),
               row.fast_path or "-", _cuda_text(row), _dtypes_text(row.dtypes))
              for row in cov.rows]
    widths = [max(len(cells[i]) for cells in table) for i in range(5)]
    lines = [" ".join([*(c.ljust(w) for c, w in zip(cells, widths)),
                       cells[5]]) for cells in table]
    lines.append(_summary(cov))
    if cov.unsupported:
        lines.append("used by golden cases but not supported: "
                     + ", ".join(cov.unsupported))
    return "\n".join(lines)


def format_markdown(cov: Coverage) -> str:
    """docs/ops.md: the same table as Markdown."""
    lines = [
        "# Supported primitives",
        "",
        "Generated by `refinfer ops --markdown > docs/ops.md`; do not edit "
        "by hand (a test checks it is current).",
        "",
        f"{_summary(cov)}. *Tested* means a committed golden case under "
        "`golden/` applies the primitive (read from the model files); dtypes "
        "are those the reference kernel supports (f32 = float32, i64 = int64, "
        "...). *Fast path* is `numba` where the op has a Numba kernel (the "
        "default backend), else the reason its NumPy reference already is "
        "the fast path:",
        "",
        *(f"- `{key}`: {text};" for key, text in
          registry.NO_KERNEL_REASONS.items()),
        "",
        "*CUDA* is `yes` where the op has a numba.cuda kernel for the GPU "
        "(refinfer/cuda/, docs/architecture.md \"The cuda backend\"); the "
        "others run their CPU kernel on host copies in a GPU plan.",
        "",
        "| Primitive | Family | Tested | Fast path | CUDA | Dtypes |",
        "|---|---|---|---|---|---|",
    ]
    for row in cov.rows:
        lines.append(f"| {row.name} | {row.family} | "
                     f"{_tested_text(cov, row)} | "
                     f"{row.fast_path or '-'} | {_cuda_text(row)} | "
                     f"{_dtypes_text(row.dtypes)} |")
    if cov.unsupported:
        lines += ["", "Used by golden cases but not supported: "
                  + ", ".join(cov.unsupported) + "."]
    return "\n".join(lines) + "\n"
