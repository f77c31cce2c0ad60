"""The ``refinfer`` command: one module per subcommand, in the order
``refinfer --help`` lists them.

    refinfer --version
    refinfer run MODEL [--input FILE ...] [--input-shapes SHAPES]
                 [--output-dir DIR] [--seed N] [--loop-count N] [--threads N]
                 [--backend numba|reference] [--json [FILE]]
                 [--distributed [--ranks N]]
    refinfer benchmark --modelFile MODEL [Lite's benchmark flags ...]
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

Exit status, the same for every subcommand (docs/cli.md):

- 0: done; every check passed.
- 1: a check failed: a tensor of ``compare`` or ``bisect``, the accuracy
  of ``benchmark``.
- 2: usage error: the command line is wrong (an unknown option, a missing
  or malformed value, options that do not go together); nothing ran.
- 3: model or data error: a file is missing or unreadable, the model is
  invalid or fails to run, the inputs do not fit it.
- 130: interrupted (Ctrl-C).

Errors print one clear message to stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import sys

from .. import __version__
from . import (benchmark, bisect, compare, dump, explain, golden, graph, info,
               ops, run, walk, warmup)
from .options import UsageError

SUBCOMMANDS = (run, benchmark, info, ops, golden, compare, dump, bisect,
               explain, walk, graph, warmup)

EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3
EXIT_INTERRUPTED = 130      # 128 + SIGINT, as shells report it


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:   # --help, --version (0) or a usage error (2)
        return EXIT_USAGE if exc.code not in (None, 0) else EXIT_OK
    try:
        return args.command(args)
    except UsageError as exc:
        print(f"refinfer {args.name}: usage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (RuntimeError, ValueError, TypeError, OSError) as exc:
        print(f"refinfer {args.name}: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"refinfer {args.name}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="refinfer", description="Reference interpreter for MindSpore "
        "MindIR models")
    parser.add_argument("--version", action="version",
                        version=f"refinfer {__version__}")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    for subcommand in SUBCOMMANDS:
        subcommand.add(sub)
    return parser
