"""``refinfer warmup MODEL [MODEL ...]``: compile and cache the fast
kernels the models need, so that their first build compiles nothing."""
from __future__ import annotations

import os

from .. import jit
from ..runtime import LoadedModel


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
    for line in warm(args.model):
        print(line)
    return 0


def warm(paths) -> list[str]:
    """Build each model with the Numba backend, which compiles (and
    caches) every kernel it needs; one report line each."""
    lines = []
    for path in paths:
        loaded = LoadedModel(path, backend="numba")
        if any(d < 0 for spec in loaded.inputs for d in spec.shape):
            lines.append(f"{path}: not warmed: its inputs have unknown "
                         "dimensions (kernels compile at the first predict)")
        else:
            lines.append(f"{path}: ready; {loaded.kernels_compiled} kernel "
                         f"signature(s) compiled now, any others were cached "
                         f"(cache: {jit.CACHE_DIR or 'next to the sources'})"
                         + (f"; {loaded.warmup_note}" if loaded.warmup_note else ""))
    return lines
