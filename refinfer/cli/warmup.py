"""``refinfer warmup MODEL [MODEL ...]``: compile and cache the fast
kernels the models need, so that their first build compiles nothing."""
from __future__ import annotations

import os

from .. import warmup


def add(sub) -> None:
    parser = sub.add_parser(
        "warmup", help="compile and cache the fast kernels the models need "
        "(before deployment: the first build then compiles nothing)")
    parser.add_argument("model", nargs="+", help=".mindir file(s)")
    parser.set_defaults(command=command, name="warmup")


def command(args) -> int:
    for path in args.model:
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: no such model file")
    for line in warmup.warm(args.model):
        print(line)
    return 0
