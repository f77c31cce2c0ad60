"""Debugging features of ``Model``: kernel callbacks and refinfer's settings.

Kernel callbacks mirror MindSpore Lite's C++ ``MSKernelCallBack``
(``bool(inputs, outputs, const MSCallBackParam &)``): ``before`` and
``after`` are called around every kernel with the kernel's input tensors,
its output tensors (empty before the kernel ran) and a
:class:`CallBackParam`. As in Lite, a callback returning ``False`` only logs
``run kernel before_callback failed, name: ...`` and the run goes on; any
other return value (``None`` included) is success.

refinfer's own settings come in the config section ``[refinfer]`` (config
file or ``config_dict={"refinfer": {...}}``):

- ``precision``: ``float32`` (default), ``float64`` (the float64 oracle) or
  ``float16`` (float16 storage, float32 arithmetic: what the GPU's
  ``preferred_fp16`` runs; on the CPU its oracle), refinfer/precision.py;
- ``cast_outputs``: ``true`` to cast float64 oracle outputs back to the
  model's declared output dtypes (default ``false``: outputs in float64).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..executor import Hooks
from ..precision import PRECISIONS
from ..watch import tensor_leaves, tensor_name
from .enums import data_type_of
from .tensor import Tensor, _TensorImpl

log = logging.getLogger("refinfer")
SECTION = "refinfer"
TRUE, FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


@dataclass(frozen=True)
class CallBackParam:
    """Lite's ``MSCallBackParam``: ``node_name`` is the kernel's name (the
    node's scope name, as Lite names kernels and outputs), ``node_type`` its
    op; ``index`` counts the kernels run so far, from 0."""
    node_name: str
    node_type: str
    index: int


def kernel_hooks(before: Callable | None,
                 after: Callable | None) -> Hooks | None:
    """Executor hooks calling Lite-style kernel callbacks (None if none)."""
    for name, callback in (("before", before), ("after", after)):
        if callback is not None and not callable(callback):
            raise TypeError(f"{name} must be callable, but got "
                            f"{type(callback)}.")
    if before is None and after is None:
        return None
    count = 0

    def param(node) -> CallBackParam:
        return CallBackParam(node.scope or node.name, node.op_name, count)

    def run_before(node, args) -> None:
        _call(before, "before", _tensors(_arrays(args)), [], param(node))

    def run_after(node, args, output) -> None:
        nonlocal count
        if after is not None:
            base = node.scope or node.name
            outputs = _tensors(tensor_leaves(output),
                               lambda k: tensor_name(base, k, 0))
            _call(after, "after", _tensors(_arrays(args)), outputs,
                  param(node))
        count += 1
    return Hooks(run_before if before is not None else None, run_after)


def _call(callback, which: str, inputs, outputs, param) -> None:
    if callback(inputs, outputs, param) is False:
        log.warning("run kernel %s_callback failed, name: %s", which,
                    param.node_name)


def _arrays(value) -> list[np.ndarray]:
    """The arrays in a kernel argument (tuples flattened); numbers, tuples of
    numbers (attributes such as strides), dtypes and closures are not
    tensors."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in _arrays(v)]
    return []


def _tensors(arrays, name=lambda k: "") -> list[Tensor]:
    """Lite Tensors sharing the memory of ``arrays``."""
    tensors = []
    for array in arrays:
        if array is None or array.dtype.kind not in "biuf":
            continue
        impl = _TensorImpl(name(len(tensors)), data_type_of(array.dtype),
                           array.shape, data=array)
        tensors.append(Tensor(impl))
    return tensors


def refinfer_settings(config: dict) -> tuple[str, bool]:
    """``(precision, cast_outputs)`` from the ``[refinfer]`` config section;
    ValueError for unknown keys or values."""
    section = dict(config.get(SECTION) or {})
    precision = str(section.pop("precision", "float32")).strip().lower()
    cast = str(section.pop("cast_outputs", "false")).strip().lower()
    if section:
        raise ValueError(f"unknown key(s) in [{SECTION}]: "
                         f"{', '.join(sorted(section))} (known: backend, "
                         "precision, cast_outputs, process_tuning, "
                         "max_call_depth, max_graph_calls)")
    if precision not in PRECISIONS:
        raise ValueError(f"[{SECTION}] precision={precision!r}: expected one "
                         f"of {', '.join(PRECISIONS)}")
    if cast not in TRUE + FALSE:
        raise ValueError(f"[{SECTION}] cast_outputs={cast!r}: expected true "
                         "or false")
    return precision, cast in TRUE
