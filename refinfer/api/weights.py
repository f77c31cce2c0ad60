"""The Lite side of live weight updates: ``update_weights`` arguments, the
``variable_weights_file`` config form, and weights from checkpoint files.

Lite (``BaseModel.update_weights``) takes a list of lists of named ``Tensor``
and matches them to the model's weights by name. With
``[ascend_context] variable_weights_file=names.txt`` (one weight name a line;
``[cpu_context]`` works too) only the listed weights may change, and a tensor
without a name takes the name at its position in that list.
"""
from __future__ import annotations

import os

import numpy as np

from ..checkpoint import load_checkpoint
from .tensor import Tensor

SECTIONS = ("cpu_context", "ascend_context")
VARIABLE_WEIGHTS_KEY = "variable_weights_file"


def check_weights(weights) -> None:
    """Lite's type checks and messages (Model.update_weights)."""
    if not isinstance(weights, list):
        raise TypeError(f"weights must be list, but got {type(weights)}.")
    for i, weight in enumerate(weights):
        if not isinstance(weight, list):
            raise TypeError(f"weight must be list, but got {type(weight)}.")
        for j, tensor in enumerate(weight):
            if not isinstance(tensor, Tensor):
                raise TypeError(f"weights element must be Tensor, but got "
                                f"{type(tensor)} as index {i}{j}.")


def variable_weight_names(config: dict, config_path: str,
                          known: dict) -> list[str] | None:
    """The names listed by ``variable_weights_file``, checked against the
    model's weights ``known``; None when the key is not set."""
    value = next((config[s][VARIABLE_WEIGHTS_KEY] for s in SECTIONS
                  if VARIABLE_WEIGHTS_KEY in config.get(s, {})), None)
    if value is None:
        return None
    path = _resolve(value.strip().strip("\"'"), config_path)
    with open(path, encoding="utf-8") as f:
        names = [line.strip() for line in f
                 if line.strip() and not line.lstrip().startswith("#")]
    unknown = [n for n in names if n not in known and n.split(":", 1)[-1] not in known]
    if unknown:
        raise ValueError(f"{VARIABLE_WEIGHTS_KEY} {path!r} names weights the "
                         f"model does not have: {', '.join(unknown)}")
    return names


def _resolve(path: str, config_path: str) -> str:
    """As given (relative to the working directory), else next to the config file."""
    beside_config = os.path.join(os.path.dirname(config_path), path)
    if os.path.exists(path) or not config_path or not os.path.exists(beside_config):
        return path
    return beside_config


def named_updates(weights: list, variable: list[str] | None) -> dict[str, np.ndarray]:
    """``{name: array}`` from Lite's list of lists of Tensor."""
    tensors = [tensor for group in weights for tensor in group]
    updates = {}
    for index, tensor in enumerate(tensors):
        name = tensor.name or _positional_name(index, len(tensors), variable)
        if variable is not None and name not in variable:
            raise ValueError(f"weight {name!r} is not listed in {VARIABLE_WEIGHTS_KEY}, "
                             f"which allows: {', '.join(variable)}")
        if name in updates:
            raise ValueError(f"weight {name!r} is given twice")
        updates[name] = tensor.get_data_to_numpy()
    return updates


def _positional_name(index: int, count: int, variable: list[str] | None) -> str:
    if variable is None or count != len(variable):
        raise ValueError(f"weight tensor {index} has no name: set Tensor.name to the "
                         f"weight's name, or list the names in {VARIABLE_WEIGHTS_KEY} "
                         "and pass one tensor per listed name, in that order")
    return variable[index]


def checkpoint_updates(source, known: dict, strict: bool):
    """Split ``source`` (a .ckpt/.safetensors path or a name -> array dict)
    into updates for the weights ``known``, the weights it lacks and its
    entries that are no weight of the model (an error when ``strict``)."""
    weights = load_checkpoint(source) if isinstance(source, (str, os.PathLike)) \
        else dict(source)
    updates = {name: array for name, array in weights.items()
               if name in known or name.split(":", 1)[-1] in known}
    unused = sorted(set(weights) - set(updates))
    given = {name.split(":", 1)[-1] for name in updates}
    missing = sorted(set(known) - given)
    if not updates or (strict and unused):
        raise ValueError(f"{len(unused)} of {len(weights)} entries name no weight of the "
                         f"model: {', '.join(unused[:10])}")
    return updates, missing, unused
