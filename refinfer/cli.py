"""The ``refinfer`` command.

    refinfer run MODEL [--input FILE ...] [--output-dir DIR] [--seed N]
                 [--distributed [--ranks N]]
    refinfer info MODEL
    refinfer ops [--markdown] [--golden DIR]
    refinfer golden MODEL [--input FILE ...] [--seed N] --out DIR [--force]
    refinfer compare EXPECTED ACTUAL [--atol A] [--rtol R]
                     [--tol NAME:ATOL,RTOL ...] [--json FILE]
    refinfer dump MODEL [--input FILE ...] [--seed N] --out DIR
                  [--nodes PATTERN ...] [--stats-only] [--force]
    refinfer bisect | explain | walk | graph  (refinfer/tools/commands.py)
    refinfer warmup MODEL [MODEL ...]

run, golden, dump, bisect and walk take --float64 (the float64 oracle);
dump, compare and bisect take --progress (a bar on stderr).

Errors print one clear message to stderr and exit with status 2;
``compare`` exits with 1 when a tensor fails.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from . import coverage, distributed, registry
from . import warmup as fast_warmup
from .api import Model, ModelType
from .api.enums import numpy_type
from .inputs import make_inputs
from .format.reader import read_mindir
from .runtime import IOSpec
from .tools import commands as tools_commands
from .tools import common as tools_common
from .tools import compare as tools_compare
from .tools import dump as tools_dump
from .tools import golden as tools_golden

PRINTED_VALUES = 50


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.command(args)
    except (RuntimeError, ValueError, TypeError, OSError) as exc:
        print(f"refinfer {args.name}: error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="refinfer", description="Reference interpreter for MindSpore "
        "MindIR models")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="run a model and print its outputs")
    run.add_argument("model", help=".mindir file")
    run.add_argument("--input", nargs="+", metavar="FILE",
                     help="one file per input: .npy, or raw .bin like Lite's "
                     "benchmark (default: seeded random data)")
    run.add_argument("--output-dir", metavar="DIR",
                     help="also write each output as output_<i>.npy and .bin")
    run.add_argument("--seed", type=int, default=0,
                     help="seed of the random inputs (default 0)")
    run.add_argument("--distributed", action="store_true",
                     help="a sliced model: MODEL names each rank's file with "
                     "{rank}; run under mpirun -n N (or give --ranks); "
                     "prints every rank's outputs, rank by rank")
    run.add_argument("--ranks", type=int, metavar="N",
                     help="with --distributed outside mpirun: run N ranks as "
                     "threads of this process")
    tools_commands.add_precision_args(run)
    run.set_defaults(command=cmd_run, name="run")

    info = sub.add_parser("info", help="inputs, outputs, ops and weights")
    info.add_argument("model", help=".mindir file")
    info.set_defaults(command=cmd_info, name="info")

    ops = sub.add_parser("ops", help="the supported primitives: family, "
                         "dtypes, tested by a golden case")
    ops.add_argument("--markdown", action="store_true",
                     help="print docs/ops.md (a Markdown table)")
    ops.add_argument("--golden", metavar="DIR",
                     help="golden cases folder (default: the repository's "
                     "golden/)")
    ops.set_defaults(command=cmd_ops, name="ops")
    _add_golden(sub)
    _add_compare(sub)
    _add_dump(sub)
    tools_commands.add_commands(sub)
    _add_warmup(sub)
    return parser


def _add_warmup(sub) -> None:
    warmup = sub.add_parser(
        "warmup", help="compile and cache the fast kernels the models need "
        "(before deployment: the first build then compiles nothing)")
    warmup.add_argument("model", nargs="+", help=".mindir file(s)")
    warmup.set_defaults(command=cmd_warmup, name="warmup")


def cmd_warmup(args) -> int:
    for path in args.model:
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: no such model file")
    for line in fast_warmup.warm(args.model):
        print(line)
    return 0


def _add_model_args(parser: argparse.ArgumentParser) -> None:
    """MODEL, its inputs and the output directory (golden, dump)."""
    tools_commands.add_model_inputs(parser)
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output directory (written atomically)")
    parser.add_argument("--force", action="store_true",
                        help="replace DIR if it exists")


def _add_golden(sub) -> None:
    golden = sub.add_parser(
        "golden", help="write inputs, outputs (.npy, .bin, Lite calibration "
        "text) and a manifest")
    _add_model_args(golden)
    tools_commands.add_precision_args(golden)
    golden.set_defaults(command=cmd_golden, name="golden")


def _add_compare(sub) -> None:
    compare = sub.add_parser(
        "compare", help="compare tensors: metrics and pass/fail per tensor")
    compare.add_argument("expected", help=".npy, Lite calibration .txt, or "
                         "a directory (golden, dump or .npy files)")
    compare.add_argument("actual", help="same kinds as EXPECTED")
    tools_commands.add_tolerance_args(compare)
    compare.add_argument("--json", metavar="FILE",
                         help="also write the report as JSON")
    tools_commands.add_progress_arg(compare)
    compare.set_defaults(command=cmd_compare, name="compare")


def _add_dump(sub) -> None:
    dump = sub.add_parser(
        "dump", help="stream every (selected) node output to .npy files")
    _add_model_args(dump)
    dump.add_argument("--nodes", nargs="+", metavar="PATTERN",
                      help="only nodes whose scope name, node name or op "
                      "matches a glob, or a regex written re:REGEX")
    dump.add_argument("--stats-only", action="store_true",
                      help="write statistics to the manifest, no tensors")
    tools_commands.add_precision_args(dump, cast=False)
    tools_commands.add_progress_arg(dump)
    dump.set_defaults(command=cmd_dump, name="dump")


def _build(path: str, config: dict | None = None) -> Model:
    """``path`` may name a rank's file with ``{rank}``."""
    if not os.path.exists(distributed.expand_rank(path)):
        raise FileNotFoundError(f"{path}: no such model file")
    model = Model()
    model.build_from_file(path, ModelType.MINDIR, config_dict=config)
    return model


def cmd_run(args) -> int:
    if not args.distributed:
        print(_run_text(args), end="")
        return 0
    # Every rank runs its own file on the same inputs (docs/distributed.md).
    texts = distributed.each_rank(args.ranks, lambda: _run_text(args))
    for rank, text in enumerate(texts or ()):    # None on MPI ranks but 0
        print(f"rank {rank}:\n{text}", end="")
    return 0


def _run_text(args) -> str:
    """Run the model; its outputs in Lite's quick-start format."""
    oracle = {"precision": tools_commands.precision(args),
              "cast_outputs": str(args.cast_outputs).lower()}
    model = _build(args.model, {"refinfer": oracle})
    specs = [IOSpec(t.name, tuple(t.shape), np.dtype(numpy_type(t.dtype)))
             for t in model.get_inputs()]
    arrays = make_inputs(specs, args.input, args.seed)
    if any(d < 0 for spec in specs for d in spec.shape):
        # Dynamic-shape model: take the shapes of the given .npy inputs.
        model.resize(model.get_inputs(), [list(a.shape) for a in arrays])
    outputs = model.predict(arrays)
    if args.output_dir:
        directory = os.path.join(args.output_dir, "rank{rank}") \
            if args.distributed else args.output_dir
        _save_outputs(distributed.expand_rank(directory),
                      [o.get_data_to_numpy() for o in outputs])
    return "".join(_output_text(o.name, o.data_size, o.element_num,
                                o.get_data_to_numpy()) for o in outputs)


def _output_text(name, data_size, element_num, data: np.ndarray) -> str:
    """MindSpore Lite's quick-start format."""
    values = data.reshape(-1)[:PRINTED_VALUES]
    return (f"tensor's name is:{name} data size is:{data_size} tensor elements "
            f"num is:{element_num}\noutput data is: "
            f"{' '.join(str(v) for v in values)} \n")


def _save_outputs(directory: str, arrays: list[np.ndarray]) -> None:
    os.makedirs(directory, exist_ok=True)
    for k, array in enumerate(arrays):
        np.save(os.path.join(directory, f"output_{k}.npy"), array)
        array.tofile(os.path.join(directory, f"output_{k}.bin"))


def cmd_info(args) -> int:
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


def cmd_ops(args) -> int:
    table = coverage.coverage(args.golden)
    formatted = (coverage.format_markdown(table) if args.markdown
                 else coverage.format_text(table) + "\n")
    sys.stdout.write(formatted)
    return 0


def cmd_golden(args) -> int:
    model = tools_common.load_model(args.model,
                                    tools_commands.precision(args))
    inputs = tools_common.model_inputs(model, args.input, args.seed)
    seed = None if args.input else args.seed
    manifest = tools_golden.make_golden(model, inputs, args.out, args.force,
                                        seed, args.cast_outputs)
    print(f"wrote {len(manifest['inputs'])} input(s) and "
          f"{len(manifest['outputs'])} output(s) to {args.out}")
    return 0


def cmd_compare(args) -> int:
    report = tools_compare.compare_paths(args.expected, args.actual,
                                         args.atol, args.rtol, args.tol,
                                         args.progress)
    print(tools_compare.format_report(report))
    if args.json:
        tools_compare.write_report(args.json, report)
    return report.exit_code


def cmd_dump(args) -> int:
    model = tools_common.load_model(args.model,
                                    tools_commands.precision(args))
    inputs = tools_common.model_inputs(model, args.input, args.seed)
    _, manifest = tools_dump.dump(model, inputs, args.out, args.nodes,
                                  args.stats_only, args.force, args.progress)
    runs = len({entry["index"] for entry in manifest["tensors"]})
    what = "statistics of " if args.stats_only else ""
    print(f"dumped {what}{len(manifest['tensors'])} tensor(s) of {runs} "
          f"node run(s) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
