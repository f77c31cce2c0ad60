"""Compile graphs into flat execution plans, once per model and backend.

A plan is a list of steps over numbered slots. Slots hold the graph's
inputs, the free variables it reads from enclosing graphs, node results and
the constants that calls and the output need. Each step knows the slots it
reads and writes and the slots whose last reader it is, so the executor frees
values as soon as they are dead (unless the caller asks to keep them).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Iterator, Mapping

from .closure import GraphRef
from . import passes
from .graph import Graph, Model, Node, Ref, RefKind
from .precision import constant_map, storage_map, storing, value_map
from .step import KernelStep, kernel_step
from .stored import value_of


@dataclass(slots=True)
class CallStep:
    node: Node
    callee: int             # slot holding the function value
    args: tuple[int, ...]
    out: int
    tail: bool = False      # last step, result is the graph's output
    frees: tuple[int, ...] = ()


@dataclass
class GraphPlan:
    name: str
    n_inputs: int
    input_names: list[str]
    template: list                       # initial slot contents
    free_slots: dict[str, int]           # free variable -> slot
    names: dict[str, int]                # node / input name -> slot
    steps: list
    output: int
    constant_slots: tuple[int, ...] = ()   # slots whose template is a constant

    def constant_places(self) -> Iterator[tuple[str, list, int]]:
        """``(place, holder, index)`` of every constant: ``holder[index]``
        is slot ``K``'s initial value (place ``slots/K``: constants read by
        calls or the output) or argument ``K`` of step ``I`` (``I/args/K``:
        weights, derived weights, settings)."""
        for k in self.constant_slots:
            yield f"slots/{k}", self.template, k
        for i, step in enumerate(self.steps):
            if isinstance(step, KernelStep):
                dynamic = {pos for pos, _ in step.places}
                for k in range(len(step.template)):
                    if k not in dynamic:
                        yield f"{i}/args/{k}", step.template, k


@dataclass
class Program:
    plans: dict[str, GraphPlan]
    main: str
    backend: str
    keep: bool = False
    precision: str = "float32"

    def constants(self) -> Iterator[tuple[str, Any]]:
        """``(place, value)`` for every constant of every graph's plan; a
        place, ``GRAPH/slots/K`` or ``GRAPH/I/args/K``, names the same
        constant in every program compiled alike from the same model file
        (see :meth:`GraphPlan.constant_places`)."""
        for place, holder, k in self._constant_places():
            yield place, holder[k]

    def replace_constants(self, values: Mapping[str, Any]) -> None:
        """Put ``values[place]`` in the place of each constant named, e.g.
        an equal array in shared memory (weight sharing). Runs started
        afterwards read the new values. A place that holds no constant is a
        KeyError, and then nothing is replaced."""
        unknown = set(values)
        found = []
        for place, holder, k in self._constant_places():
            if place in values:
                found.append((holder, k, values[place]))
                unknown.discard(place)
        if unknown:
            raise KeyError(f"no constant at {', '.join(sorted(unknown))}")
        for holder, k, value in found:
            holder[k] = value

    def _constant_places(self) -> Iterator[tuple[str, list, int]]:
        for name, plan in self.plans.items():
            for place, holder, k in plan.constant_places():
                yield f"{name}/{place}", holder, k


def step_count(program: Program) -> int | None:
    """Kernel steps one run of ``program`` executes; None when graph calls
    (control flow, loops) make it depend on the data."""
    # (types compared in C, not a generator over a million steps)
    if any(CallStep in map(type, plan.steps) for plan in program.plans.values()):
        return None
    return len(program.plans[program.main].steps)


def fuses(backend: str, precision: str = "float32") -> bool:
    """Whether a fused plan rewrites the graph (refinfer/passes): on the
    fast backends, in float32."""
    return backend != "reference" and precision == "float32"


def compile_model(model: Model, backend: str = "reference",
                  keep: bool = False, precision: str = "float32",
                  fuse: bool = True) -> Program:
    """One plan per graph. ``keep`` disables freeing (debugging);
    ``precision="float64"`` compiles the float64 oracle, ``"float16"``
    float16 storage (refinfer/precision.py: every kernel's result rounded);
    ``fuse=False`` keeps a fast backend's plan op by op (refinfer/passes).
    For the GPU, refinfer/gpu.py's compile_model places this compiler's
    ``cuda`` plan on the device (refinfer/cuda/plan.py)."""
    pinned = set().union(*(g.free_vars for g in model.graphs.values()))
    widen = (constant_map(precision), value_map(precision))
    graphs = model.graphs
    if fuse and fuses(backend, precision):
        graphs = passes.optimize(model)
    plans = {name: _GraphCompiler(g, backend, keep, pinned, widen,
                                  storage_map(precision)).compile()
             for name, g in graphs.items()}
    return Program(plans, model.main.name, backend, keep, precision)


class _GraphCompiler:
    def __init__(self, graph: Graph, backend: str, keep: bool, pinned: set,
                 widen: tuple = (None, None), store=None):
        self.graph, self.backend, self.keep = graph, backend, keep
        self.pinned = pinned            # read by callees: never freed
        self.widen_constant, self.widen_value = widen   # precision mapping
        self.store = store              # and of the results (float16)
        self.template: list = [None] * len(graph.inputs)
        self.names = {i.name: k for k, i in enumerate(graph.inputs)}
        self.free_slots = {n: self._new_slot() for n in graph.free_vars}
        self.names.update(self.free_slots)
        self.const_slots: dict = {}
        self.kernels: dict[int, Any] = {}   # id(op) -> its kernel (see _kernel)

    def _new_slot(self, value: Any = None) -> int:
        self.template.append(value)
        return len(self.template) - 1

    def slot(self, ref: Ref) -> int:
        """The slot holding ``ref``'s value (constants get one too)."""
        kind = ref.kind
        if kind is _NODE or kind is _FREE:      # (most refs: asked first)
            return self.names[ref.key]
        if kind is RefKind.INPUT:
            return ref.key
        # Constants live as long as the graph's refs do, so ids are stable.
        graph = ref.kind is RefKind.GRAPH
        key = ref.key if graph else id(ref.key)
        if key not in self.const_slots:
            value = GraphRef(ref.key) if graph \
                else self.constant(value_of(ref.key))
            self.const_slots[key] = self._new_slot(value)
        return self.const_slots[key]

    def constant(self, value: Any) -> Any:
        return value if self.widen_constant is None else self.widen_constant(value)

    def compile(self) -> GraphPlan:
        steps, names, template = [], self.names, self.template
        for node in self.graph.nodes:
            out = len(template)         # a new slot (``_new_slot``)
            template.append(None)
            steps.append(self._step(node, out))
            names[node.name] = out
        output = self.slot(self.graph.output)
        if steps and isinstance(steps[-1], CallStep) and steps[-1].out == output:
            steps[-1].tail = True
        if not self.keep:
            self._add_frees(steps, output)
        return GraphPlan(self.graph.name, len(self.graph.inputs),
                         [i.name for i in self.graph.inputs], self.template,
                         self.free_slots, self.names, steps, output,
                         tuple(sorted(self.const_slots.values())))

    def _step(self, node: Node, out: int):
        op = node.op
        if op is None:
            return CallStep(node, self.slot(node.callee),
                            tuple(self.slot(a.ref) for a in node.args), out)
        fn = self.kernels.get(id(op)) or self._kernel(op)
        return kernel_step(node, fn, self.slot, out, self.widen_constant,
                           self.widen_value)

    def _kernel(self, op) -> Any:
        """``op``'s kernel for the backend, its results stored as the
        precision asks; made once per op, not per node (a graph has a few
        kinds of op and may have millions of nodes). The op outlives the
        compiler: its id is a key."""
        fn = self.kernels[id(op)] = storing(op.kernel(self.backend), self.store)
        return fn

    def _add_frees(self, steps: list, output: int) -> None:
        """Give each step the slots it reads for the last time; constants,
        the output and the values callees read are never freed."""
        # one byte per slot, not a set of them (a set of a million slots
        # would be 32 MB more at the build's peak)
        kept = bytearray(len(self.template))
        names = self.names      # (the few pinned names looked up, not every name)
        for slot in chain(self.const_slots.values(), [output], (
                names[name] for name in self.pinned if name in names)):
            kept[slot] = 1
        assign_frees(steps, kept)


def assign_frees(steps: list, done: bytearray) -> None:
    """Set each step's ``frees`` to the slots it is the last reader of,
    among those whose byte in ``done`` is 0 (also used by the device plan,
    refinfer/cuda/plan.py): walking the steps backwards, the first reader of
    a slot met is its last. Marks the slots it assigns in ``done``."""
    for step in reversed(steps):
        last = []
        for slot in reads(step):
            if not done[slot]:          # (marked at once: read twice, freed once)
                done[slot] = 1
                last.append(slot)
        last.sort()
        step.frees = tuple(last)


_NODE, _FREE = RefKind.NODE, RefKind.FREE    # (module names: found faster)


def reads(step) -> list[int]:
    """The slots ``step`` reads."""
    if type(step) is CallStep:
        return [step.callee, *step.args]
    return step.reads
