"""``refinfer explain MODEL``: the graph as a program."""
from __future__ import annotations

from ..tools import common
from ..tools.explain import explain


def add(sub) -> None:
    parser = sub.add_parser("explain", help="print the graph as a program")
    parser.add_argument("model", help=".mindir file")
    parser.set_defaults(command=command, name="explain")


def command(args) -> int:
    print(explain(common.load_model(args.model)))
    return 0
