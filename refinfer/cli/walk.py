"""``refinfer walk MODEL [--input FILE ...] [--seed N] [--interactive]
[--nodes PATTERN ...] [--values K] [--float64]``: step through a run node
by node. Ctrl-C at the prompt quits like ``q`` (exit status 0); while a
model loads or a node runs it stops with status 130, without a traceback."""
from __future__ import annotations

import sys

from ..tools import common
from ..tools.walk import SHOWN_VALUES, walk
from .options import add_model_inputs, add_precision_args, precision

INTERRUPTED = 130       # the shell's status for a command ended by Ctrl-C


def add(sub) -> None:
    parser = sub.add_parser("walk", help="step through a run node by node")
    add_model_inputs(parser)
    parser.add_argument("--interactive", action="store_true",
                        help="stop after each node (Enter: step, c: continue,"
                        " c PATTERN: continue to a node, p NAME: print a "
                        "tensor, save NAME FILE: write it as .npy, h: help, "
                        "q or Ctrl-C: quit)")
    parser.add_argument("--nodes", nargs="+", metavar="PATTERN",
                        help="show only nodes matching a glob or re:REGEX "
                        "(scope name, node name or op)")
    parser.add_argument("--values", type=int, default=SHOWN_VALUES,
                        help="first values shown per tensor (default "
                        "%(default)s)")
    add_precision_args(parser, cast=False)
    parser.set_defaults(command=command, name="walk")


def command(args) -> int:
    try:
        model = common.load_model(args.model, precision(args))
        inputs = common.model_inputs(model, args.input, args.seed)
        walk(model, inputs, sys.stdout, args.interactive, args.nodes,
             args.values)
    except KeyboardInterrupt:       # Ctrl-C while loading or running
        print("\nrefinfer walk: interrupted", file=sys.stderr)
        return INTERRUPTED
    return 0
