"""``refinfer ops [--markdown | --census | --index] [--golden DIR]``: the
supported primitives, their family, dtypes, golden cases and cuda kernels
(docs/ops.md), the MindSpore primitive census beside them (docs/census.md),
or the module registering each (refinfer/ops/_index.py)."""
from __future__ import annotations

import os
import sys

from .. import census, coverage, gpu, registry


def add(sub) -> None:
    ops = sub.add_parser("ops", help="the supported primitives: family, "
                         "dtypes, tested by a golden case")
    ops.add_argument("--markdown", action="store_true",
                     help="print docs/ops.md (a Markdown table)")
    ops.add_argument("--census", nargs="?", const=str(census.CENSUS_FILE),
                     metavar="FILE", help="print docs/census.md: every MindSpore "
                     "primitive of the census FILE (default: the repository's "
                     "tools/census/) beside refinfer's status")
    ops.add_argument("--index", action="store_true",
                     help="print refinfer/ops/_index.py: the module registering "
                     "each primitive (a build imports only those it uses)")
    ops.add_argument("--golden", metavar="DIR",
                     help="golden cases folder (default: the repository's "
                     "golden/)")
    ops.set_defaults(command=command, name="ops")


def command(args) -> int:
    if args.index:
        sys.stdout.write(index_source())
        return 0
    if args.golden is not None and not os.path.isdir(args.golden):
        raise FileNotFoundError(f"--golden {args.golden}: no such folder")
    table = coverage.coverage(args.golden, cuda_kernels())
    if args.census:
        formatted = census.format_markdown(census.load(args.census), table)
    elif args.markdown:
        formatted = coverage.format_markdown(table)
    else:
        formatted = coverage.format_text(table) + "\n"
    sys.stdout.write(formatted)
    return 0


def cuda_kernels() -> set[str]:
    """The ops with a cuda kernel (this imports numba.cuda, which needs no
    GPU; the CPU path never does)."""
    return gpu.kernel_ops()


def index_source() -> str:
    """refinfer/ops/_index.py, from the registry as it stands."""
    rows = "".join(f"    {name!r}: {module!r},\n"
                   for name, module in registry.module_index().items())
    return ('"""Which module of refinfer.ops registers each primitive: a build '
            'imports\nonly the op files its model uses (refinfer/registry.py '
            '``_load``).\nGenerated: ``refinfer ops --index > '
            'refinfer/ops/_index.py``."""\n'
            f"OP_MODULES = {{\n{rows}}}\n")
