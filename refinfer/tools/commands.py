"""The debugging sub-commands of ``refinfer`` (bisect, explain, walk, graph)
and the options they share with run, golden, dump and compare.

    refinfer bisect MODEL [--input FILE ...] [--seed N] --against DIR|float64|BACKEND
                    [--backend NAME] [--float64] [--atol A] [--rtol R]
                    [--tol NAME:ATOL,RTOL ...] [--json FILE] [--progress]
    refinfer explain MODEL
    refinfer walk MODEL [--input FILE ...] [--seed N] [--interactive]
                  [--nodes PATTERN ...] [--values K] [--float64]
    refinfer graph MODEL -o FILE.html|.svg|.dot [--report REPORT.json]
"""
from __future__ import annotations

import argparse
import sys

from . import bisect as tools_bisect
from . import common
from .compare import DEFAULT_ATOL, DEFAULT_RTOL
from .explain import explain
from .graphview import write_graph
from .walk import SHOWN_VALUES, walk


def add_precision_args(parser: argparse.ArgumentParser,
                       cast: bool = True) -> None:
    """``--float64``/``--oracle`` (and ``--cast-outputs``)."""
    parser.add_argument("--float64", "--oracle", dest="float64",
                        action="store_true",
                        help="run in float64 (the float64 oracle: float32 "
                        "weights, inputs and casts widened)")
    if cast:
        parser.add_argument("--cast-outputs", action="store_true",
                            help="with --float64: cast the outputs back to "
                            "the model's output dtypes")


def precision(args) -> str:
    return "float64" if args.float64 else "float32"


def add_progress_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", action="store_true", default=None,
                        help="show a progress bar on stderr (default: only "
                        "when stderr is a terminal)")


def add_tolerance_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--atol", type=float, default=DEFAULT_ATOL,
                        help="absolute tolerance (default %(default)g)")
    parser.add_argument("--rtol", type=float, default=DEFAULT_RTOL,
                        help="relative tolerance (default %(default)g)")
    parser.add_argument("--tol", action="append", metavar="NAME:ATOL,RTOL",
                        help="tolerance for one tensor (NAME may be a glob);"
                        " repeatable")


def add_model_inputs(parser: argparse.ArgumentParser) -> None:
    """MODEL, ``--input`` and ``--seed``."""
    parser.add_argument("model", help=".mindir file")
    parser.add_argument("--input", nargs="+", metavar="FILE",
                        help="one file per input: .npy or raw .bin "
                        "(default: seeded random data)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random inputs (default 0)")


def add_commands(sub) -> None:
    """Register bisect, explain, walk and graph."""
    bisect = sub.add_parser(
        "bisect", help="compare every node with a reference as the model "
        "runs; report the first divergent node")
    add_model_inputs(bisect)
    bisect.add_argument("--against", required=True,
                        metavar="DIR|float64|BACKEND",
                        help="a dump directory (or tensor files), 'float64' "
                        "(the float64 oracle) or a backend name")
    bisect.add_argument("--backend", default="reference",
                        help="backend of the run checked (default "
                        "%(default)s)")
    add_precision_args(bisect, cast=False)
    add_tolerance_args(bisect)
    bisect.add_argument("--json", metavar="FILE",
                        help="also write the report as JSON (for "
                        "'refinfer graph --report')")
    add_progress_arg(bisect)
    bisect.set_defaults(command=cmd_bisect, name="bisect")

    explain_ = sub.add_parser("explain", help="print the graph as a program")
    explain_.add_argument("model", help=".mindir file")
    explain_.set_defaults(command=cmd_explain, name="explain")

    walk_ = sub.add_parser("walk", help="step through a run node by node")
    add_model_inputs(walk_)
    walk_.add_argument("--interactive", action="store_true",
                       help="stop after each node (Enter: step, c: continue,"
                       " c PATTERN: continue to a node, q: quit)")
    walk_.add_argument("--nodes", nargs="+", metavar="PATTERN",
                       help="show only nodes matching a glob or re:REGEX "
                       "(scope name, node name or op)")
    walk_.add_argument("--values", type=int, default=SHOWN_VALUES,
                       help="first values shown per tensor (default "
                       "%(default)s)")
    add_precision_args(walk_, cast=False)
    walk_.set_defaults(command=cmd_walk, name="walk")

    graph = sub.add_parser("graph", help="draw the graph (.html, .svg, "
                           ".dot)")
    graph.add_argument("model", help=".mindir file")
    graph.add_argument("-o", "--output", required=True, metavar="FILE",
                       help="FILE.html (self-contained), FILE.dot, FILE.svg "
                       "(needs Graphviz)")
    graph.add_argument("--report", metavar="JSON",
                       help="colour nodes by error: a 'compare --json' or "
                       "'bisect --json' report")
    graph.set_defaults(command=cmd_graph, name="graph")


def cmd_bisect(args) -> int:
    if args.backend not in tools_bisect.backends():
        raise ValueError(f"--backend {args.backend!r}: unknown (known: "
                         f"{', '.join(tools_bisect.backends())})")
    model = common.load_model(args.model, precision(args), args.backend)
    inputs = common.model_inputs(model, args.input, args.seed)
    result = tools_bisect.bisect(model, inputs, args.against, args.atol,
                                 args.rtol, args.tol, args.progress)
    if args.json:                       # first: stdout may be a closed pipe
        tools_bisect.write_report(args.json, result)
    print(tools_bisect.format_bisection(result))
    return result.exit_code


def cmd_explain(args) -> int:
    print(explain(common.load_model(args.model)))
    return 0


def cmd_walk(args) -> int:
    model = common.load_model(args.model, precision(args))
    inputs = common.model_inputs(model, args.input, args.seed)
    walk(model, inputs, sys.stdout, args.interactive, args.nodes,
         args.values)
    return 0


def cmd_graph(args) -> int:
    drawing = write_graph(common.load_model(args.model), args.output,
                          args.report)
    print(f"wrote {args.output}: {len(drawing.boxes())} boxes in "
          f"{len(drawing.clusters)} graph(s)")
    return 0
