"""The ``refinfer`` command: one module per subcommand, in the order
``refinfer --help`` lists them.

    refinfer run MODEL [--input FILE ...] [--output-dir DIR] [--seed N]
                 [--distributed [--ranks N]]
    refinfer info MODEL
    refinfer ops [--markdown | --census [FILE]] [--golden DIR]
    refinfer golden MODEL [--input FILE ...] [--seed N] --out DIR [--force]
    refinfer compare EXPECTED ACTUAL [--atol A] [--rtol R]
                     [--tol NAME:ATOL,RTOL ...] [--json FILE]
    refinfer dump MODEL [--input FILE ...] [--seed N] --out DIR
                  [--nodes PATTERN ...] [--stats-only] [--force]
    refinfer bisect MODEL --against DIR|float64|BACKEND ...
    refinfer explain MODEL
    refinfer walk MODEL [--interactive] [--nodes PATTERN ...] ...
    refinfer graph MODEL -o FILE.html|.svg|.dot [--report REPORT.json]
    refinfer warmup MODEL [MODEL ...]

run, golden, dump, bisect and walk take --float64 (the float64 oracle);
dump, compare and bisect take --progress (a bar on stderr).

Errors print one clear message to stderr and exit with status 2;
``compare`` and ``bisect`` exit with 1 when a tensor fails.
"""
from __future__ import annotations

import argparse
import sys

from . import (bisect, compare, dump, explain, golden, graph, info, ops, run,
               walk, warmup)

SUBCOMMANDS = (run, info, ops, golden, compare, dump, bisect, explain, walk,
               graph, warmup)


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
    for subcommand in SUBCOMMANDS:
        subcommand.add(sub)
    return parser
