"""A loaded, compiled model ready to run: the layer the API and tools use.

``LoadedModel(path)`` reads the file, builds the graph IR, checks every op is
supported and compiles the plan; ``run(arrays)`` checks the inputs against
the model's declared inputs and returns the flattened outputs.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from . import executor
from .format.reader import read_mindir
from .format.values import MONAD, Abstract
from .graph import Graph, Model, Ref, build_model
from .plan import CallStep, Program, compile_model


@dataclass
class IOSpec:
    """Name, declared shape (-1 = any) and dtype of a model input/output."""
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype | None


class LoadedModel:
    def __init__(self, path: str, backend: str = "reference",
                 dec_key: bytes | None = None, dec_mode: str = "AES-GCM"):
        self.path = os.fspath(path)
        self.file = read_mindir(self.path, dec_key, dec_mode)
        self.model: Model = build_model(self.file)
        self.backend = backend
        self.program: Program = compile_model(self.model, backend)
        main = self.model.main
        self._data_inputs = [k for k, i in enumerate(main.inputs)
                             if not i.is_monad]
        self.inputs = [_spec(main.inputs[k].short_name, main.inputs[k].abstract)
                       for k in self._data_inputs]
        self.outputs = _output_specs(main)

    def run(self, arrays: Sequence[np.ndarray], hooks=None,
            keep: bool = False, shapes: Sequence | None = None) -> list:
        """Run on one array per data input; returns the flattened outputs.
        ``shapes`` overrides the declared input shapes (after a resize)."""
        self.check_inputs(arrays, shapes)
        args = [MONAD] * len(self.model.main.inputs)
        for k, array in zip(self._data_inputs, arrays):
            args[k] = array
        program = self._program(keep)
        return [np.asarray(v) if np.isscalar(v) else v
                for v in executor.flatten(executor.run(program, args, hooks))]

    def _program(self, keep: bool) -> Program:
        if not keep:
            return self.program
        if not hasattr(self, "_keep_program"):
            self._keep_program = compile_model(self.model, self.backend, True)
        return self._keep_program

    def check_inputs(self, arrays: Sequence, shapes=None) -> None:
        if len(arrays) != len(self.inputs):
            raise ValueError(f"{self.path}: the model takes {len(self.inputs)} "
                             f"input(s) ({', '.join(i.name for i in self.inputs)})"
                             f", got {len(arrays)}")
        for k, (spec, array) in enumerate(zip(self.inputs, arrays)):
            if shapes is not None:
                spec = IOSpec(spec.name, tuple(shapes[k]), spec.dtype)
            _check_input(self.path, spec, array)

    def infer_output_shapes(self, shapes: Sequence) -> list | None:
        """Output shapes for these input shapes, by a run on zeros; None for
        models with graph calls, whose control flow may depend on values."""
        if any(isinstance(step, CallStep) for plan in self.program.plans.values()
               for step in plan.steps):
            return None
        zeros = [np.zeros(shape, spec.dtype)
                 for shape, spec in zip(shapes, self.inputs)]
        return [np.shape(v) for v in self.run(zeros, shapes=shapes)]


def _spec(name: str, abstract: Abstract) -> IOSpec:
    return IOSpec(name, tuple(abstract.shape), abstract.dtype)


def _check_input(path: str, spec: IOSpec, array) -> None:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{path}: input {spec.name!r} must be a numpy array, "
                        f"got {type(array).__name__}")
    if spec.dtype is not None and array.dtype != spec.dtype:
        raise TypeError(f"{path}: input {spec.name!r} expects dtype "
                        f"{spec.dtype}, got {array.dtype}")
    if spec.shape == (-2,):
        return
    fits = len(spec.shape) == array.ndim and all(
        d < 0 or d == a for d, a in zip(spec.shape, array.shape))
    if not fits:
        raise ValueError(f"{path}: input {spec.name!r} expects shape "
                         f"{list(spec.shape)} (-1 = any), got "
                         f"{list(array.shape)}")


def _output_specs(graph: Graph) -> list[IOSpec]:
    leaves = graph.output_info.abstract.flatten()
    names = _output_names(graph, graph.output, len(leaves))
    return [IOSpec(n, tuple(a.shape), a.dtype) for n, a in zip(names, leaves)]


def _output_names(graph: Graph, ref: Ref, count: int) -> list[str]:
    """Lite names outputs after the producing node's scope name, with
    ``:k`` for element k > 0 of a tuple-valued node."""
    nodes = {n.name: n for n in graph.nodes}
    if ref.kind == "node":
        node = nodes[ref.key]
        if node.op is not None and node.op.name in ("MakeTuple", "make_list"):
            names = []
            for arg in node.args:
                names += _output_names(graph, arg.ref,
                                       _leaf_count(nodes, arg.ref))
            if len(names) == count:
                return names
        base = node.scope or node.name
    elif ref.kind == "input":
        base = graph.inputs[ref.key].short_name
    else:
        base = "output"
    return [base] + [f"{base}:{k}" for k in range(1, count)]


def _leaf_count(nodes: dict, ref: Ref) -> int:
    node = nodes.get(ref.key) if ref.kind == "node" else None
    if node is None or node.abstract is None:
        return 1
    return len(node.abstract.flatten())
