"""``refinfer ops [--markdown] [--golden DIR]``: the supported primitives,
their family, dtypes and golden cases (docs/ops.md)."""
from __future__ import annotations

import os
import sys

from .. import coverage
from .options import UsageError


def add(sub) -> None:
    ops = sub.add_parser("ops", help="the supported primitives: family, "
                         "dtypes, tested by a golden case")
    ops.add_argument("--markdown", action="store_true",
                     help="print docs/ops.md (a Markdown table)")
    ops.add_argument("--golden", metavar="DIR",
                     help="golden cases folder (default: the repository's "
                     "golden/)")
    ops.set_defaults(command=command, name="ops")


def command(args) -> int:
    if args.golden is not None and not os.path.isdir(args.golden):
        raise UsageError(f"--golden {args.golden}: no such folder")
    table = coverage.coverage(args.golden)
    formatted = (coverage.format_markdown(table) if args.markdown
                 else coverage.format_text(table) + "\n")
    sys.stdout.write(formatted)
    return 0
