"""``refinfer dump``: every selected node's output, streamed to disk.

Each tensor is written (or, with ``stats_only``, summarised) by the
executor's after-hook the moment it is produced and then dropped, so memory
stays what a plain run needs. The directory holds one ``.npy`` per tensor,
``<index>_<safe name>.npy``, and ``manifest.json`` listing, in execution
order: execution index, tensor name (see :mod:`.nodes`), node name, scope
name, op, shape, dtype, min/max/mean/std, NaN/Inf counts and file.

The directory appears only when the run ends. If a node fails, the dump up
to that node is still published (``"complete": false`` and the error in the
manifest), since that is what one needs to debug the failure.
"""
from __future__ import annotations

import os
from typing import Iterable

import numpy as np

from ..errors import NodeError
from ..runtime import LoadedModel
from . import metrics
from .common import model_info, tensor_entry
from ..watch import NodeTensor, select_patterns, watch
from .progress import node_count, progress_bar, with_progress
from .tensorio import MANIFEST, safe_stem, staged_dir, write_json, write_npy

FORMAT = "refinfer-dump"


class DumpError(RuntimeError):
    """A node failed; the partial dump was written."""


class _Writer:
    """The hook's sink: writes each tensor and collects manifest entries."""

    def __init__(self, folder: str, stats_only: bool):
        self.folder, self.stats_only = folder, stats_only
        self.entries: list[dict] = []

    def add(self, tensor: NodeTensor) -> None:
        node = tensor.node
        entry = {"index": tensor.index, "element": tensor.element,
                 "name": tensor.name, "node": node.name, "scope": node.scope,
                 "op": node.op_name}
        if tensor.array is None:
            entry["value"] = "not a tensor"
        else:
            entry.update(self._write(tensor.index, tensor.name, tensor.array))
        self.entries.append(entry)

    def _write(self, index: int, name: str, array: np.ndarray) -> dict:
        entry = {"shape": list(array.shape), "dtype": array.dtype.name,
                 **metrics.stats(array)}
        if not self.stats_only:
            entry["file"] = f"{index:06d}_{safe_stem(name)}.npy"
            write_npy(os.path.join(self.folder, entry["file"]), array)
        return entry

    def add_input(self, k: int, name: str, array: np.ndarray) -> dict:
        entry = {**tensor_entry(name, array), **metrics.stats(array)}
        if not self.stats_only:
            entry["file"] = f"input_{k}.npy"
            write_npy(os.path.join(self.folder, entry["file"]), array)
        return entry


def dump(model: LoadedModel, inputs: list[np.ndarray], out_dir: str,
         nodes: Iterable[str] | None = None, stats_only: bool = False,
         replace: bool = False,
         progress: bool | None = None) -> tuple[list, dict]:
    """Run ``model`` on ``inputs``, dumping the outputs of the nodes matching
    any of the ``nodes`` patterns (all nodes by default) to ``out_dir``.
    Returns the model outputs and the manifest; raises :class:`DumpError`
    (after writing the partial dump) if a node fails. ``progress``: a bar
    on stderr (None: when stderr is a terminal)."""
    model.check_inputs(inputs)
    select = select_patterns(nodes)
    failure, outputs = None, None
    with staged_dir(out_dir, replace) as staging:
        writer = _Writer(staging, stats_only)
        manifest = {"format": FORMAT, "version": 1, **model_info(model),
                    "nodes": list(nodes or []), "stats_only": stats_only}
        manifest["inputs"] = [writer.add_input(k, spec.name, array)
                              for k, (spec, array)
                              in enumerate(zip(model.inputs, inputs))]
        try:
            with progress_bar(node_count(model), "dump", progress) as bar:
                hooks = with_progress(watch(select, writer.add), bar)
                outputs = model.run(inputs, hooks)
        except NodeError as exc:
            failure = exc
        manifest.update(complete=failure is None,
                        error=None if failure is None else str(failure),
                        tensors=writer.entries)
        write_json(os.path.join(staging, MANIFEST), manifest)
    if failure is not None:
        raise DumpError(f"{failure}\n  the dump up to this node is in "
                        f"{out_dir}") from failure
    return outputs, manifest
