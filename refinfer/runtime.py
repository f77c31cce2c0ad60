"""A loaded, compiled model ready to run: the layer the API and tools use.

``LoadedModel(path)`` reads the file, builds the graph IR, checks every op is
supported and compiles the plan; ``run(arrays)`` checks the inputs against
the model's declared inputs and returns the flattened outputs.
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import threading
from dataclasses import dataclass
from collections.abc import Mapping, Sequence

import numpy as np

from . import executor, gpu, process, warmup
from .errors import GraphError, NodeError
from .format.reader import MindIRFile, read_mindir
from .format.values import MONAD, Abstract
from .graph import Graph, Model, Node, Ref, RefKind, build_model
from .passes.gemm import store_weights, weights_products_read
from .plan import CallStep, Program, fuses
from .stored import StoredWeight, value_of


TUPLE_OPS = ("MakeTuple", "make_list")     # an output of several elements


@dataclass
class IOSpec:
    """Name, declared shape (-1 = any) and dtype of a model input/output."""
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype | None


class LoadedModel:
    def __init__(self, path: str, backend: str = "reference",
                 dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                 precision: str = "float32", threads=None, weights=None,
                 process_tuning: bool = True,
                 max_call_depth: int = executor.DEFAULT_MAX_CALL_DEPTH,
                 max_graph_calls: int = executor.DEFAULT_MAX_GRAPH_CALLS,
                 data=None, weight_data=None, device_id: int = 0):
        """``weights`` (name -> array) replaces the file's weights, which are
        then not read (a weight-sharing worker's views of shared memory).
        ``process_tuning``: tune malloc for steady predicts once the model is
        built (refinfer/process.py). ``max_call_depth``: how deep graph
        calls may nest in a run; ``max_graph_calls``: how many a run may
        make, 0 for no limit (refinfer/executor.py). ``data``,
        ``weight_data``: the model's bytes and its external weights' bytes,
        read instead of files (format/reader.py). ``device_id``: the GPU
        of a ``cuda`` backend (refinfer/gpu.py)."""
        self.path = os.fspath(path)
        self._swap_lock = threading.Lock()      # see replace_parameters
        self.threads = threads      # refinfer.threads.ThreadSettings or None
        self.max_call_depth = max_call_depth
        self.max_graph_calls = max_graph_calls or None
        self.backend, self.precision = backend, precision
        self.device_id = device_id
        self.last_transfers = None  # the last run's host crossings (cuda backend)
        if backend == gpu.CUDA:
            gpu.select(device_id)
        with _cyclic_gc_paused():
            self.file, self.model = self._built(read_mindir(
                self.path, dec_key, dec_mode, weights, data, weight_data))
            self.program: Program = gpu.compile_for(self.model, backend,
                                                    precision=precision)
        main = self.model.main
        self._data_inputs = [k for k, i in enumerate(main.inputs)
                             if not i.is_monad]
        self.inputs = [_spec(main.inputs[k].short_name, main.inputs[k].abstract)
                       for k in self._data_inputs]
        self.outputs = _output_specs(main)
        _check_outputs_are_tensors(self.path, main)
        self.kernels_compiled = 0       # compile kernels now, not at predict
        self.warmup_note = ""           # why the warm-up stopped early, if it did
        if backend not in ("reference", gpu.CUDA):    # (numba.cuda: at first run)
            self.kernels_compiled, self.warmup_note = \
                warmup.compile_kernels(self)
        if process_tuning:
            process.keep_freed_memory()

    def run(self, arrays: Sequence[np.ndarray], hooks=None,
            keep: bool = False, shapes: Sequence | None = None,
            max_calls: int | None = None, fused: bool | None = None) -> list:
        """Run on one array per data input; returns the flattened outputs.
        ``shapes`` overrides the declared input shapes (after a resize);
        ``max_calls`` bounds the graph calls (executor.CallBudgetExceeded;
        default: the model's ``max_graph_calls``);
        ``fused``: run the fast backend's fused plan (default: unless
        ``hooks`` are given, which then see every node)."""
        self.check_inputs(arrays, shapes)
        args = [MONAD] * len(self.model.main.inputs)
        for k, array in zip(self._data_inputs, arrays):
            args[k] = array
        if self.threads is not None:
            self.threads.apply()
        program = self._program(keep, fused=hooks is None if fused is None
                                else fused)
        try:
            with self._on_device(program) as transfers:
                values = executor.flatten(executor.run(
                    program, args, hooks, self.max_call_depth,
                    self.max_graph_calls if max_calls is None else max_calls))
        except NodeError as exc:
            exc.locate(self.path)
            raise
        self.last_transfers = transfers
        return [self._output_array(k, v) for k, v in enumerate(values)]

    def _on_device(self, program: Program):
        """On the GPU, a run of ``program`` on its stream for the calling
        thread, counting the host crossings (on the CPU: nothing)."""
        if self.backend != gpu.CUDA:
            return contextlib.nullcontext()
        gpu.select(self.device_id)      # (the calling thread's device)
        return gpu.running(program)

    def _output_array(self, index: int, value) -> np.ndarray:
        """Output ``index`` as an array; a value that is no tensor (a
        function, None, text: known only at run time) is an error naming
        the output."""
        array = np.asarray(value) if np.isscalar(value) else value
        if not _is_tensor(array):
            name = self.outputs[index].name if index < len(self.outputs) else "?"
            raise ValueError(f"{self.path}: output {index} ({name!r}) is "
                             f"{_what_value(value)}, not a tensor")
        return array

    def _program(self, keep: bool, fused: bool = True) -> Program:
        """The plan to run. Debugging (``keep``, or hooks: ``fused=False``)
        sees every node: a fast backend's plan without fusions."""
        if not keep and (fused or self.backend == "reference"):
            return self.program
        key = "_keep_program" if keep else "_unfused_program"
        if key not in self.__dict__:
            self.__dict__[key] = gpu.compile_for(self.model, self.backend, keep,
                                                 self.precision, fuse=False)
        return self.__dict__[key]

    # -- weights (issue 6) ------------------------------------------------------
    # Weights are constants baked into the compiled plan, so new weights mean a new
    # graph and plan. ``run`` reads ``self.program`` once, so a run sees all-old or
    # all-new weights; the model's lock keeps concurrent replacements from losing one
    # another.

    def _built(self, file: MindIRFile) -> tuple[MindIRFile, Model]:
        """(file, its model); where the plan is fused (the fast backends,
        float32), weights that only products read are stored first in the
        layout they read (passes/gemm.py)."""
        model = build_model(file)
        if self.backend == gpu.CUDA or not fuses(self.backend, self.precision):
            return file, model
        read = weights_products_read(model)
        if not read:
            return file, model
        del model       # (its references to the weights as they were)
        store_weights(file, read)
        return file, build_model(file)

    def parameters(self, unpack: bool = True) -> Mapping:
        """The weights by name (the MindIR name without its ``<graph>:``
        prefix). A weight stored in its products' layout (refinfer/stored.py)
        is unpacked when it is looked up, into a copy of its own; with
        ``unpack=False`` it is its :class:`StoredWeight`."""
        stored = {_short_name(name): value for graph in self.file.graphs
                  for name, value in graph.parameters.items()}
        return _Weights(stored) if unpack else stored

    def replace_parameters(self, updates: Mapping[str, np.ndarray],
                           copy: bool = True) -> None:
        """Replace some weights, all or nothing. Names are short or full MindIR
        names; unknown names and shape or dtype mismatches raise one ValueError
        listing every problem, and change nothing. ``copy=False`` uses the arrays
        as given (read-only views that must not change, e.g. shared memory),
        or another model's stored weights (refinfer/stored.py: a ModelGroup)."""
        with self._swap_lock:
            file = _with_parameters(self.file, updates, copy)
            with _cyclic_gc_paused():
                file, model = self._built(file)
                program = gpu.compile_for(model, self.backend,
                                          precision=self.precision)
            self.__dict__.pop("_keep_program", None)
            self.__dict__.pop("_unfused_program", None)
            self.file, self.model, self.program = file, model, program

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
        models with graph calls, whose control flow may depend on values,
        for inputs too big to allocate zeros for (warmup.zeros_of), and for
        models that zeros break (a value looked up by SequenceIndex): the
        next predict on real values reports any real error."""
        if any(isinstance(step, CallStep) for plan in self.program.plans.values()
               for step in plan.steps):
            return None
        zeros = warmup.zeros_of(shapes, [spec.dtype for spec in self.inputs])
        if zeros is None:
            return None
        try:
            return [np.shape(v) for v in self.run(zeros, shapes=shapes)]
        except NodeError:
            return None


@contextlib.contextmanager
def _cyclic_gc_paused():
    """Python's cycle collector off while a graph is built: the build makes
    several objects per node and no garbage cycles, and each full
    collection walks every object made so far (a sixth of a 10^5-node
    build's time). Left as it was found; the objects made meanwhile go
    straight to the oldest generation, where the build's would end up
    (the young collections would walk them all twice to move them there,
    a second at 10^6 nodes; a cycle among them is still collected, by the
    next full collection)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()         # every tracked object into the permanent
            gc.unfreeze()       # generation, then into the oldest (no walk)
            gc.enable()


class _Weights(Mapping):
    """A model's weights by name, stored ones unpacked at each lookup."""

    def __init__(self, stored: dict):
        self._stored = stored

    def __getitem__(self, name: str) -> np.ndarray:
        return value_of(self._stored[name])

    def __iter__(self):
        return iter(self._stored)

    def __len__(self) -> int:
        return len(self._stored)


def _short_name(name: str) -> str:
    return name.split(":", 1)[-1]


def _with_parameters(file: MindIRFile, updates: Mapping, copy: bool) -> MindIRFile:
    """``file`` with some parameters replaced, after checking every update."""
    by_key = {}                     # full and short name -> (full name, current array)
    for graph in file.graphs:
        for name, array in graph.parameters.items():
            by_key[name] = (name, array)
            by_key.setdefault(_short_name(name), (name, array))
    problems, new = [], {}
    for key, value in updates.items():
        if key not in by_key:
            problems.append(f"no weight named {key!r}")
            continue
        name, old = by_key[key]
        value = np.array(value, copy=True) if copy else value
        kinds = np.ndarray if copy else (np.ndarray, StoredWeight)
        if not isinstance(value, kinds) or value.shape != old.shape \
                or value.dtype != old.dtype:
            problems.append(f"weight {key!r} is {old.dtype}{list(old.shape)}, got "
                            f"{_describe_value(value)}")
            continue
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        new[name] = value
    if problems:
        known = sorted({_short_name(name) for name, _ in by_key.values()})
        raise ValueError(f"{file.path}: {'; '.join(problems)} (the model's weights: "
                         f"{', '.join(known[:20])}{', ...' if len(known) > 20 else ''})")
    graphs = [dataclasses.replace(g, parameters={n: new.get(n, a) for n, a in
                                                 g.parameters.items()})
              for g in file.graphs]
    return dataclasses.replace(file, graphs=graphs)


def _describe_value(value) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{list(value.shape)}"
    return type(value).__name__


def _spec(name: str, abstract: Abstract) -> IOSpec:
    return IOSpec(name, tuple(abstract.shape), abstract.dtype)


def _check_input(path: str, spec: IOSpec, array) -> None:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{path}: input {spec.name!r} must be a numpy array, "
                        f"got {type(array).__name__}")
    if spec.dtype is not None and array.dtype != spec.dtype:
        raise TypeError(f"{path}: input {spec.name!r} expects dtype "
                        f"{spec.dtype}, got {array.dtype}")
    if not shape_fits(array.shape, spec.shape):
        raise ValueError(f"{path}: input {spec.name!r} expects shape "
                         f"{list(spec.shape)} (-1 = any), got "
                         f"{list(array.shape)}")


def shape_fits(shape: Sequence[int], model_shape: Sequence[int]) -> bool:
    """Whether a tensor of ``shape`` fits a model input declared
    ``model_shape``: same rank and dims, where -1 takes any size and
    ``[-2]`` (dynamic rank) any shape."""
    if list(model_shape) == [-2]:
        return True
    return len(shape) == len(model_shape) and all(
        m < 0 or d == m for d, m in zip(shape, model_shape))


def _output_specs(graph: Graph) -> list[IOSpec]:
    leaves = graph.output_info.abstract.flatten()
    names = _output_names(graph, _output_nodes(graph), graph.output,
                          len(leaves))
    return [IOSpec(n, tuple(a.shape), a.dtype) for n, a in zip(names, leaves)]


def _check_outputs_are_tensors(path: str, graph: Graph) -> None:
    """Refuse at build a model whose output, as the file writes it, is a
    function or a constant that is no tensor (None, text): Lite's outputs
    are tensors. Outputs known only at run time are checked by ``run``."""
    where = f"output {graph.output_info.name!r}"
    for element, ref in _output_leaves(_output_nodes(graph), graph.output,
                                       where):
        if ref.kind is RefKind.GRAPH:
            raise GraphError(path, f"the model's {element} is the graph "
                             f"{ref.key!r} (a function), not a tensor")
        if ref.kind is RefKind.CONST and not _is_tensor_constant(ref.key):
            raise GraphError(path, f"the model's {element} is "
                             f"{_what_value(ref.key)}, not a tensor")


def _output_nodes(graph: Graph) -> dict[str, Node]:
    """The nodes the output is made of, by name: its node and, through
    MakeTuple nodes, their elements' nodes. Found walking back from the
    end (producers come first), without a table of every node (a long
    graph's would be tens of MB at the build's peak), and no further back
    than the last of them."""
    wanted = {graph.output.key} if graph.output.kind is RefKind.NODE else set()
    found = {}
    for node in reversed(graph.nodes):
        if not wanted:
            break
        if node.name not in wanted:
            continue
        wanted.remove(node.name)
        found[node.name] = node
        if node.op is not None and node.op.name in TUPLE_OPS:
            wanted.update(a.ref.key for a in node.args
                          if a.ref.kind is RefKind.NODE and a.ref.key not in found)
    return found


def _output_leaves(nodes: dict, ref: Ref, where: str):
    """``(where, ref)`` for each element of the output, through MakeTuple
    nodes."""
    node = nodes.get(ref.key) if ref.kind is RefKind.NODE else None
    if node is None or node.op is None or node.op.name not in TUPLE_OPS:
        yield where, ref
        return
    for k, arg in enumerate(node.args):
        yield from _output_leaves(nodes, arg.ref, f"{where} element {k}")


def _is_tensor_constant(value) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_is_tensor_constant(v) for v in value)
    return _is_tensor(np.asarray(value) if np.isscalar(value) else value)


def _is_tensor(value) -> bool:
    """An array Lite can return: no objects, no text."""
    return isinstance(value, np.ndarray) and value.dtype.kind not in "OUS"


def _what_value(value) -> str:
    """What a value that is no tensor is, for error messages."""
    if value is None or isinstance(value, (str, bytes)):
        return repr(value)[:60]
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return f"a {type(value).__name__} value"


def _output_names(graph: Graph, nodes: dict, ref: Ref, count: int) -> list[str]:
    """Lite names outputs after the producing node's scope name, with
    ``:k`` for element k > 0 of a tuple-valued node (``nodes``:
    :func:`_output_nodes`)."""
    if ref.kind is RefKind.NODE:
        node = nodes[ref.key]
        if node.op is not None and node.op.name in TUPLE_OPS:
            names = []
            for arg in node.args:
                names += _output_names(graph, nodes, arg.ref,
                                       _leaf_count(nodes, arg.ref))
            if len(names) == count:
                return names
        base = node.scope or node.name
    elif ref.kind is RefKind.INPUT:
        base = graph.inputs[ref.key].short_name
    else:
        base = "output"
    return [base] + [f"{base}:{k}" for k in range(1, count)]


def _leaf_count(nodes: dict, ref: Ref) -> int:
    node = nodes.get(ref.key) if ref.kind is RefKind.NODE else None
    if node is None or node.abstract is None:
        return 1
    return len(node.abstract.flatten())
