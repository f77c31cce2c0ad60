"""``refinfer info MODEL``: inputs, outputs, op counts and weights."""
from __future__ import annotations

from .. import coverage, registry
from ..format.reader import read_mindir


def add(sub) -> None:
    info = sub.add_parser("info", help="inputs, outputs, ops and weights")
    info.add_argument("model", help=".mindir file")
    info.set_defaults(command=command, name="info")


def command(args) -> int:
    mindir = read_mindir(args.model)
    main = mindir.main
    print(f"model: {mindir.path}")
    print(f"MindSpore version: {mindir.model_version or '?'}, "
          f"mind_ir_version {mindir.mind_ir_version}, "
          f"{len(mindir.graphs)} graph(s)")
    print("inputs:")
    for info in main.inputs:
        if not info.is_monad:
            print(f"  {info.short_name}: {_type_text(info.abstract)}")
    print("outputs:")
    for leaf in main.output.abstract.flatten():
        print(f"  {_type_text(leaf)}")
    weights = list(main.parameters.values())
    print(f"parameters: {len(weights)} tensors, "
          f"{sum(w.size for w in weights):,} values, "
          f"{sum(w.nbytes for w in weights) / 2**20:.2f} MiB")
    print("ops:")
    counts = coverage.primitive_applications(mindir)
    for op, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        note = "" if registry.has_op(op) else "  (unsupported)"
        print(f"  {op:<24} {count}{note}")
    return 0


def _type_text(abstract) -> str:
    dtype = abstract.dtype.name if abstract.dtype is not None else abstract.kind
    return f"{dtype}{list(abstract.shape)}"
