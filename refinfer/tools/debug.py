"""Intermediate tensors from Python, without keeping every value alive.

    from refinfer.runtime import LoadedModel
    from refinfer.tools.debug import run_debug

    model = LoadedModel("golden/lenet5/model.mindir")
    kept = run_debug(model, [x], keep="*conv1*")          # glob or "re:..."
    kept = run_debug(model, [x], keep=["Default/relu-ReLU/ReLU-op0"])

Only the asked-for tensors are copied out (by an after-hook); the run still
frees every other value at its last use.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..runtime import LoadedModel
from ..watch import keep_hooks


def run_debug(model: LoadedModel, inputs: Sequence[np.ndarray],
              keep) -> dict[str, np.ndarray]:
    """Run ``model`` and return the outputs of the nodes ``keep`` selects:
    a pattern (glob or ``re:`` regex over scope name, node name or op) or a
    list of exact scope/node names.

    Each tensor appears twice, under its scope-based name and its node-name
    based name (``:k`` for tuple element k > 0, ``@n`` for the n-th repeated
    run in a loop). Values that are not tensors (closures) are left out.
    """
    kept: dict[str, np.ndarray] = {}
    model.run(list(inputs), keep_hooks(keep, kept))
    return kept
