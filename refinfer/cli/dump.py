"""``refinfer dump MODEL [--input FILE ...] [--seed N] --out DIR
[--nodes PATTERN ...] [--stats-only] [--force] [--float64] [--target gpu]
[--progress]``: every (selected) node output, streamed to .npy files (on
the GPU target: host copies of the device plan's values)."""
from __future__ import annotations

from .. import gpu
from ..tools import common
from ..tools.dump import dump
from .options import (add_model_inputs, add_output_dir, add_precision_args,
                      add_progress_arg, add_target_arg, precision)


def add(sub) -> None:
    parser = sub.add_parser(
        "dump", help="stream every (selected) node output to .npy files")
    add_model_inputs(parser)
    add_output_dir(parser)
    parser.add_argument("--nodes", nargs="+", metavar="PATTERN",
                        help="only nodes whose scope name, node name or op "
                        "matches a glob, or a regex written re:REGEX")
    parser.add_argument("--stats-only", action="store_true",
                        help="write statistics to the manifest, no tensors")
    add_precision_args(parser, cast=False)
    add_target_arg(parser, "dump the device plan's values (host copies)")
    add_progress_arg(parser)
    parser.set_defaults(command=command, name="dump")


def command(args) -> int:
    backend = gpu.choose([args.target], "reference")
    model = common.load_model(args.model, precision(args), backend)
    inputs = common.model_inputs(model, args.input, args.seed)
    _, manifest = dump(model, inputs, args.out, args.nodes, args.stats_only,
                       args.force, args.progress)
    runs = len({entry["index"] for entry in manifest["tensors"]})
    what = "statistics of " if args.stats_only else ""
    print(f"dumped {what}{len(manifest['tensors'])} tensor(s) of {runs} "
          f"node run(s) to {args.out}")
    return 0
