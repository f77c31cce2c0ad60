"""``refinfer bisect MODEL [--input FILE ...] [--seed N]
--against DIR|float64|BACKEND [--backend NAME] [--float64] [--atol A]
[--rtol R] [--tol NAME:ATOL,RTOL ...] [--json FILE] [--progress]``: compare
every node with a reference as the model runs; report the first divergent
node. ``--backend cuda --against reference`` checks the GPU's device plan
node by node against the CPU's reference."""
from __future__ import annotations

from .. import gpu
from ..tools import bisect as tools_bisect
from ..tools import common
from .options import (add_model_inputs, add_precision_args, add_progress_arg,
                      add_tolerance_args, precision)


def add(sub) -> None:
    parser = sub.add_parser(
        "bisect", help="compare every node with a reference as the model "
        "runs; report the first divergent node")
    add_model_inputs(parser)
    parser.add_argument("--against", required=True,
                        metavar="DIR|float64|BACKEND",
                        help="a dump directory (or tensor files), 'float64' "
                        "(the float64 oracle) or a backend name")
    parser.add_argument("--backend", default="reference",
                        help="backend of the run checked (default "
                        "%(default)s; cuda: the GPU's device plan, each node "
                        "compared on a host copy)")
    add_precision_args(parser, cast=False)
    add_tolerance_args(parser, "; against float64 without --atol, --rtol "
                       "or --tol: each op's own error within its known "
                       "float32 error, in ulps of the tensor's magnitude")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the report as JSON (for "
                        "'refinfer graph --report')")
    add_progress_arg(parser)
    parser.set_defaults(command=command, name="bisect")


def command(args) -> int:
    known = [*tools_bisect.backends(), gpu.CUDA]
    if args.backend not in known:
        raise ValueError(f"--backend {args.backend!r}: unknown (known: "
                         f"{', '.join(known)})")
    model = common.load_model(args.model, precision(args), args.backend)
    inputs = common.model_inputs(model, args.input, args.seed)
    result = tools_bisect.bisect(model, inputs, args.against, args.atol,
                                 args.rtol, args.tol, args.progress)
    if args.json:                       # first: stdout may be a closed pipe
        tools_bisect.write_report(args.json, result)
    print(tools_bisect.format_bisection(result))
    return result.exit_code
