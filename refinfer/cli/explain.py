"""``refinfer explain MODEL [--target gpu]``: the graph as a program; with
``--target gpu`` also the device plan: each node's placement and every host
crossing, with the totals (refinfer/cuda/plan.py)."""
from __future__ import annotations

from .. import gpu
from ..tools import common
from ..tools.explain import explain
from .options import add_target_arg


def add(sub) -> None:
    parser = sub.add_parser("explain", help="print the graph as a program")
    parser.add_argument("model", help=".mindir file")
    add_target_arg(parser, "also list where each node runs and every host "
                   "crossing of the device plan")
    parser.set_defaults(command=command, name="explain")


def command(args) -> int:
    backend = gpu.choose([args.target], "reference")
    model = common.load_model(args.model, backend=backend)
    print(explain(model))
    if backend == gpu.CUDA:
        print(gpu.describe(model.program))
    return 0
