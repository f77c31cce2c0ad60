"""The device plan: a compiled program placed on the GPU, activations
resident, every host crossing an explicit, counted copy step.

Each kernel step is placed by its op (:func:`placement`):

- ``device``: the op has a cuda kernel. Its tensor arguments arrive as device
  arrays (constants copied to the device once, here), everything else as the
  host value the reference takes; its result stays on the device. A kernel
  that declines (returns None) runs the CPU kernel on host copies, and the
  copies and the decline are counted.
- ``view``: a reshape (Reshape, ExpandDims, Squeeze, Flatten...): metadata
  only, the device array reshaped where it is.
- ``meta``: reads only the shape or dtype (Shape, Size...): given a host
  stand-in of a device array (refinfer/cuda/device.py), never a copy.
- ``pass``: plumbing that moves values without reading them (MakeTuple,
  TupleGetItem, Depend...): values stay where they are.
- ``host``: everything else runs its CPU kernel on host values.

Where a step needs a value on the other side, a copy step is inserted: once
per value and direction (later readers share the copy), its slot freed by
the plan's liveness like any other. The main graph's inputs are copied in
by the first device step that reads them, its output copied out once, at
the end. Values passed into graph calls (control flow) keep their place; a
callee does not know it, so its copies are conditional: made at run time
only for a tensor on the other side (explain marks them).

Every copy of a run is counted in a :class:`Transfers` (count and bytes
each way, declined kernels), the run's when :func:`counting` is active.

Precision: a plan compiled ``float16`` (Lite's GPU ``preferred_fp16``)
rounds the result of every device and host step to float16 precision
where it lies (refinfer/cuda/storage.py: in place on the device, one small
launch), so it adds no copy; ``float32`` (``enforce_fp32``) keeps results
as the kernels make them, in float32 throughout (no TF32: the kernels are
numba's, which never use tensor cores).

One stream: a :class:`DevicePlan` owns a lane (refinfer/cuda/device.py: a
CUDA stream and its buffer pool) per thread that runs it, made at that
thread's first run (:func:`running`). Every kernel, copy and pooled buffer
of a run is ordered on that one stream; the host waits for it only where
values cross to the host: once before the outputs are copied out, and at
each host crossing the plan lists. ModelParallelRunner's workers are
threads sharing one plan: each has its own stream (they run concurrently
on a GPU) and its own pool (a buffer is reused only in its stream's order).
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from refinfer.format.values import Abstract
from refinfer.graph import Model, Node
from refinfer.plan import CallStep, GraphPlan, Program, assign_frees, reads
from refinfer.precision import storing
from refinfer.step import Hooks, KernelStep

from . import device
from .storage import storage

HOST, DEVICE, ANY, NONE = "host", "device", "any", "none"   # where a slot's value is
MIXED = "mixed"     # a sequence gathered from both sides (counts in _Placer.sides)
CPU_BACKEND = "numba"       # the CPU kernels host steps and declines run
COMMUNICATION = "communication"     # the family of AllReduce, AllGather... (host)

# Ops whose result is their first argument's data in another shape.
RESHAPES = frozenset({"Reshape", "ExpandDims", "Squeeze", "Flatten",
                      "FlattenExt", "Identity", "ExpandDimsView",
                      "ConvertToDynamic"})
# Ops that read only their first argument's shape or dtype.
METADATA = frozenset({"Shape", "TensorShape", "Size", "Rank", "DType"})
# Plumbing: the result is (a part of) the first argument / a sequence of the
# arguments / no value (a monad).
FORWARDS = frozenset({"Depend", "Load", "TupleGetItem", "list_getitem"})
GATHERS = frozenset({"MakeTuple", "make_list"})
MONADS = frozenset({"UpdateState"})


# -- counting ------------------------------------------------------------------
@dataclass
class Transfers:
    """A run's host crossings: copies to the device and to the host (each
    array once, with its bytes), the cuda kernels that declined and the
    copies their CPU kernels needed (among the others: the copies a plan
    lists are ``copies - declined_copies``)."""
    to_device: int = 0
    to_device_bytes: int = 0
    to_host: int = 0
    to_host_bytes: int = 0
    declined: int = 0
    declined_copies: int = 0

    @property
    def copies(self) -> int:
        return self.to_device + self.to_host

    def as_dict(self) -> dict[str, int]:
        return {**dataclasses.asdict(self), "copies": self.copies}

    def __str__(self) -> str:
        return (f"{self.copies} host crossing(s): {self.to_device} to the "
                f"device ({self.to_device_bytes} bytes), {self.to_host} to the "
                f"host ({self.to_host_bytes} bytes); {self.declined} cuda "
                f"kernel(s) declined ({self.declined_copies} of the copies)")


_current: contextvars.ContextVar[Transfers | None] = contextvars.ContextVar(
    "refinfer_cuda_transfers", default=None)


@contextlib.contextmanager
def counting() -> Iterator[Transfers]:
    """Count the copies made in this thread until the block ends."""
    transfers = Transfers()
    token = _current.set(transfers)
    try:
        yield transfers
    finally:
        _current.reset(token)


class Lanes:
    """A device plan's lanes, one per thread that runs it (made on the
    thread's GPU at its first run, gone with the thread)."""

    def __init__(self):
        self._mine = threading.local()

    def mine(self) -> device.Lane:
        lane = getattr(self._mine, "lane", None)
        if lane is None:
            lane = self._mine.lane = device.Lane()
        return lane


@dataclass
class DevicePlan(Program):
    """A program placed on the GPU (:func:`place`) and its lanes."""
    lanes: Lanes = field(default_factory=Lanes, compare=False, repr=False)


@contextlib.contextmanager
def running(program: Program) -> Iterator[Transfers]:
    """Run ``program`` on the calling thread's stream of it (a device
    plan's own, see the module's docstring) while counting the copies."""
    lane = program.lanes.mine() if isinstance(program, DevicePlan) \
        else device.lane()
    with device.using(lane), counting() as transfers:
        yield transfers


def send(value):
    """``value`` with every host array in it (tuples and lists walked)
    copied to the device, counted."""
    if isinstance(value, np.ndarray):
        count = _current.get()
        if count is not None:
            count.to_device += 1
            count.to_device_bytes += value.nbytes
        return device.to_device(value)
    if isinstance(value, (tuple, list)):
        return type(value)(send(v) for v in value)
    return value


def fetch(value):
    """``value`` with every device array in it copied to the host, counted;
    the host waits for the stream once, after queueing every copy."""
    copied = _copy_out(value)
    if copied is not value:
        device.synchronize()
    return copied


def _copy_out(value):
    """``value`` with its device arrays' copies to the host queued."""
    if device.is_device_array(value):
        count = _current.get()
        if count is not None:
            count.to_host += 1
            count.to_host_bytes += value.nbytes
        return device.copy_out(value)
    if isinstance(value, (tuple, list)):
        copied = [_copy_out(v) for v in value]
        if all(c is v for c, v in zip(copied, value)):
            return value
        return type(value)(copied)
    return value


def _peek(value):
    """Host copies of device arrays for hooks and messages: not counted
    (a debugging run's copies are not the plan's crossings)."""
    if device.is_device_array(value):
        return device.to_host(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_peek(v) for v in value)
    return value


def _stand_ins(value):
    """Device arrays replaced by host stand-ins (shape and dtype only)."""
    if device.is_device_array(value):
        return device.stand_in(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_stand_ins(v) for v in value)
    return value


# -- steps ---------------------------------------------------------------------
class _ReadsOneSlot:
    """The plan's view of a step reading the one slot ``source``."""
    __slots__ = ()

    @property
    def dynamic(self) -> tuple:
        return ((0, self.source, None),)

    @property
    def reads(self) -> tuple:
        return (self.source,)


@dataclass(slots=True)
class CopyStep(_ReadsOneSlot):
    """Copy the value of slot ``source`` to the device (``to`` DEVICE) or
    the host; ``certain``: the value is known to be on the other side (not
    so for a callee's inputs, copied only where they are); ``arrays``: the
    tensors in it (a tuple's each count)."""
    source: int
    to: str
    out: int
    certain: bool
    arrays: int = 1
    node: Node | None = None      # the node whose argument it is, for explain
    frees: tuple[int, ...] = ()

    def run(self, slots, hooks=None):
        value = slots[self.source]
        return send(value) if self.to == DEVICE else fetch(value)


@dataclass(slots=True)
class ReleaseStep(_ReadsOneSlot):
    """Give the device array of slot ``source``, read by nothing after
    this, to the device pool (refinfer/cuda/device.py); ``out`` stays
    None."""
    source: int
    out: int
    frees: tuple[int, ...] = ()

    def run(self, slots, hooks=None):
        value = slots[self.source]
        if device.is_device_array(value):   # (not a pair of results)
            device.release(value)


def _allocates(step) -> bool:
    """Whether ``step``'s result is always a new device array of its own."""
    return isinstance(step, DeviceStep) and step.placement == DEVICE \
        and step.node.op.recipe is not None


def _reads_without_keeping(step) -> bool:
    """Whether ``step`` neither keeps nor aliases the device arrays it
    reads (so they may be reused once it has run)."""
    return _allocates(step) or isinstance(step, CopyStep) and step.to == HOST


@dataclass(slots=True)
class DeviceStep(KernelStep):
    """A kernel step of the device plan: hooks see host copies of its
    arguments and result, and its errors describe device arrays by dtype
    and shape."""
    placement: str = DEVICE

    def run(self, slots, hooks: Hooks | None = None):
        if hooks is not None:
            hooks = Hooks(hooks.before and _on_host(hooks.before),
                          hooks.after and _on_host(hooks.after))
        return KernelStep.run(self, slots, hooks)

    def _fail(self, args, exc):
        KernelStep._fail(self, _stand_ins(list(args)), exc)


def _on_host(hook: Callable) -> Callable:
    return lambda node, *values: hook(node, *map(_peek, values))


# -- kernels -------------------------------------------------------------------
def device_kernel(op) -> Callable:
    """The cuda kernel of ``op``, or where it declines the CPU kernel on
    host copies, its result copied back (counted)."""
    fast, cpu = op.kernels["cuda"], op.kernel(CPU_BACKEND)

    def run(*args):
        result = fast(*args)
        if result is not None:
            return result
        count = _current.get()
        if count is None:
            return send(cpu(*fetch(args)))
        before = count.copies
        result = send(cpu(*fetch(args)))
        count.declined += 1
        count.declined_copies += count.copies - before
        return result
    return run


def view_kernel(op) -> Callable:
    """A reshape of a device array: the reference runs on a stand-in for
    the new shape, the device array is reshaped to it (no data moves)."""
    reference = op.reference

    def run(x, *rest):
        if not device.is_device_array(x):
            return reference(x, *rest)
        shape = reference(device.stand_in(x), *rest).shape
        return x if shape == x.shape else x.reshape(shape)
    return run


def metadata_kernel(op) -> Callable:
    """The reference on a stand-in of a device array (shape and dtype)."""
    reference = op.reference
    return lambda x, *rest: reference(_stand_ins(x), *rest)


def placement(op) -> str:
    """Where the steps of ``op`` run (see the module's docstring)."""
    if op.name in RESHAPES:
        return "view"
    if op.name in METADATA:
        return "meta"
    if op.name in FORWARDS or op.name in GATHERS or op.name in MONADS:
        return "pass"
    return DEVICE if "cuda" in op.kernels else HOST


_KERNELS = {DEVICE: device_kernel, "view": view_kernel,
            "meta": metadata_kernel}


def _kernel(op, where: str) -> Callable:
    make = _KERNELS.get(where)
    if make is not None:
        return make(op)
    return op.kernel(CPU_BACKEND if where == HOST else "reference")


# -- placing a program ---------------------------------------------------------
def place(program: Program, model: Model) -> Program:
    """The device plan of ``program`` (compiled for the ``cuda`` backend
    from ``model``): its steps placed, copy steps inserted, tensor
    constants of device steps copied to the device once (shared by every
    step that reads the same array)."""
    pinned = {name for plan in program.plans.values() for name in plan.free_slots}
    on_device: dict[int, Any] = {}      # id(host constant) -> its device copy
    store = storage(program.precision)
    plans = {name: _Placer(plan, model.graphs[name], name == program.main,
                           pinned, on_device, program.keep, store).place()
             for name, plan in program.plans.items()}
    return DevicePlan(plans, program.main, "cuda", program.keep, program.precision)


class _Placer:
    def __init__(self, plan: GraphPlan, graph, main: bool, pinned: set,
                 on_device: dict, keep: bool, store: Callable | None = None):
        self.plan, self.main, self.keep = plan, main, keep
        self.on_device = on_device
        self.store = store      # what each computed result goes through (float16)
        self.template = list(plan.template)
        self.freeable = {s for name, s in plan.names.items()
                         if name not in pinned}
        self.where = self._initial_places(graph)
        self.abstracts = {k: i.abstract for k, i in enumerate(graph.inputs)}
        self.copies: dict[tuple[int, str], int] = {}
        self.sides: dict[int, dict[str, int]] = {}   # MIXED slot -> tensors per side
        self.steps: list = []

    def _initial_places(self, graph) -> dict[int, str]:
        """Inputs of the main graph are on the host (monads are no value);
        a callee's inputs and free variables may be anywhere."""
        where = {}
        for k, value_info in enumerate(graph.inputs):
            monad = value_info.is_monad
            where[k] = NONE if monad else HOST if self.main else ANY
        for slot in self.plan.free_slots.values():
            where[slot] = ANY
        for slot in self.plan.constant_slots:
            constant = self.template[slot]
            where[slot] = HOST if isinstance(constant, np.ndarray) else NONE
        return where

    def place(self) -> GraphPlan:
        for step in self.plan.steps:
            if isinstance(step, KernelStep):
                self._place_kernel(step)
            else:
                self._place_call(step)
        output = self.plan.output
        if self.main:
            output = self._argument(output, HOST, None)
            if output != self.plan.output and isinstance(self.steps[-2], CallStep):
                self.steps[-2].tail = False     # the copy follows it
        if not self.keep:
            self._add_releases(self.freeable - {output})
            done = bytearray([1]) * len(self.template)
            for slot in self.freeable - {output}:
                done[slot] = 0
            assign_frees(self.steps, done)
        return dataclasses.replace(self.plan, template=self.template,
                                   steps=self.steps, output=output)

    def _add_releases(self, freeable: set) -> None:
        """A ReleaseStep after the last reader of each buffer that may go
        back to the device pool: made by an elementwise (recipe) kernel,
        which always allocates its result, and read only by such kernels
        and copies to the host, which never keep or alias it."""
        fresh = {s.out for s in self.steps if _allocates(s)} & freeable
        last: dict[int, int] = {}
        for index, step in enumerate(self.steps):
            for slot in reads(step):
                if slot in fresh and not _reads_without_keeping(step):
                    fresh.discard(slot)
                elif slot in fresh:
                    last[slot] = index
        for slot, index in sorted(last.items(), key=lambda item: -item[1]):
            if slot in fresh:
                self.template.append(None)
                self.steps.insert(index + 1, ReleaseStep(slot, len(self.template) - 1))

    def _place_call(self, step: CallStep) -> None:
        self.steps.append(dataclasses.replace(step, frees=()))
        self.where[step.out] = ANY

    def _place_kernel(self, step: KernelStep) -> None:
        node, op = step.node, step.node.op
        where = placement(op)
        dynamic = tuple((pos, self._argument(slot, self._need(
            where, pos, convert, node), node), convert)
            for pos, slot, convert in step.dynamic)
        template = [self._constant(value, node, pos) if where == DEVICE
                    else value for pos, value in enumerate(step.template)]
        places = tuple((pos, convert) for pos, _, convert in dynamic)
        reads = tuple(slot for _, slot, _ in dynamic)
        # views, metadata and plumbing compute no new float values
        store = self.store if where in (DEVICE, HOST) else None
        self.steps.append(DeviceStep(node, storing(_kernel(op, where), store),
                                     template, places, reads, step.out,
                                     placement=where))
        self.abstracts[step.out] = node.abstract
        self.where[step.out] = self._result_place(where, node, dynamic, step.out)

    @staticmethod
    def _need(where: str, pos: int, convert, node: Node) -> str:
        """Where argument ``pos`` must be for a step placed at ``where``."""
        if where in ("pass", "view", "meta") and pos == 0 and convert is None:
            return ANY      # read where it is
        if where == "pass":
            return ANY
        if where == DEVICE and convert is None:
            return DEVICE
        return HOST     # host kernels; converters read host values

    def _argument(self, slot: int, need: str, node: Node) -> int:
        """The slot to read for ``slot``'s value at ``need``: the slot
        itself, or its copy (made once per direction)."""
        have = self.where.get(slot, NONE)
        if need == ANY or have in (need, NONE):
            return slot
        return self._copy(slot, need, node)

    def _copy(self, slot: int, to: str, node: Node | None) -> int:
        key = (slot, to)
        if key not in self.copies:
            self.template.append(None)
            out = len(self.template) - 1
            have = self.where.get(slot)
            arrays = self.sides[slot][HOST if to == DEVICE else DEVICE] \
                if have == MIXED else _tensor_count(self.abstracts.get(slot))
            self.steps.append(CopyStep(slot, to, out, have != ANY, arrays, node))
            self.copies[key] = out
            self.where[out] = to
            self.freeable.add(out)
        return self.copies[key]

    def _constant(self, value, node: Node, pos: int):
        """A tensor constant of a device step: its device copy, made once
        (converted arguments stay host values)."""
        if not isinstance(value, np.ndarray) or node.args[pos].convert is not None:
            return value
        if id(value) not in self.on_device:
            self.on_device[id(value)] = (value, device.to_device(value))
        return self.on_device[id(value)][1]

    def _result_place(self, where: str, node: Node, dynamic: tuple,
                      out: int) -> str:
        if where == DEVICE:
            return DEVICE
        if where == "pass":
            return self._passed_place(node, dynamic, out)
        if where == "view" and dynamic and dynamic[0][0] == 0:
            return self.where.get(dynamic[0][1], NONE)
        return HOST if _holds_tensors(node.abstract) else NONE

    def _passed_place(self, node: Node, dynamic: tuple, out: int) -> str:
        """Where plumbing's result is: its first argument's place (a part
        of it: anywhere, if that was MIXED), or for a sequence of its
        arguments their common place, MIXED (with the tensors on each
        side counted) where they are on both sides."""
        if node.op.name in MONADS:
            return NONE
        if node.op.name not in GATHERS:
            first = [self.where.get(slot, NONE) for pos, slot, _ in dynamic
                     if pos == 0]
            return ANY if first == [MIXED] else first[0] if first else NONE
        places = [(self.where.get(slot, NONE), slot) for _, slot, _ in dynamic]
        kinds = {place for place, _ in places} - {NONE}
        if len(kinds) <= 1:
            return kinds.pop() if kinds else NONE
        if not kinds <= {DEVICE, HOST}:
            return ANY
        self.sides[out] = {side: sum(_tensor_count(self.abstracts.get(slot))
                                     for place, slot in places if place == side)
                           for side in (DEVICE, HOST)}
        return MIXED


def _holds_tensors(abstract: Abstract | None) -> bool:
    """Whether a value of ``abstract`` has a tensor in it (unknown: yes)."""
    return _tensor_count(abstract) > 0


def _tensor_count(abstract: Abstract | None) -> int:
    """The tensors in a value of ``abstract`` (unknown: one)."""
    if abstract is None or abstract.kind == "other":
        return 1
    return sum(leaf.kind == "tensor" for leaf in abstract.flatten())


def device_weights_bytes(program: Program) -> int:
    """Bytes of the tensor constants the device plan holds on the device."""
    seen, total = set(), 0
    for plan in program.plans.values():
        for step in plan.steps:
            if isinstance(step, DeviceStep) and step.placement == DEVICE:
                for value in step.template:
                    if device.is_device_array(value) and id(value) not in seen:
                        seen.add(id(value))
                        total += value.nbytes
    return total


# -- explaining ----------------------------------------------------------------
def crossings(program: Program) -> list[tuple[str, CopyStep, str]]:
    """``(graph, copy step, what it copies)`` of every copy step, in plan
    order: the host crossings one run makes (a conditional one, of a
    callee's value, only where the value is on the other side)."""
    found = []
    for name, plan in program.plans.items():
        slot_names = {slot: key for key, slot in plan.names.items()}
        copied = {step.out: step.source for step in plan.steps
                  if isinstance(step, CopyStep)}
        for step in plan.steps:
            if isinstance(step, CopyStep):
                source = copied.get(step.source, step.source)
                what = slot_names.get(source, f"constant slot {source}")
                found.append((name, step, what))
    return found


def describe(program: Program) -> str:
    """Each node's placement and every host crossing, with the totals."""
    lines = []
    for name, plan in program.plans.items():
        lines.append(f"graph {name}:")
        for step in plan.steps:
            if isinstance(step, DeviceStep):
                lines.append(f"  {step.placement:<6} {step.node.name} "
                             f"({step.node.op_name})")
            elif isinstance(step, CallStep):
                lines.append(f"  call   {step.node.name}")
    found = crossings(program)
    lines.append("host crossings:")
    for graph, step, what in found:
        reader = f", read by {step.node.name} ({step.node.op_name})" \
            if step.node is not None else " (the output)"
        when = "" if step.certain else " [if it is on the host side]" \
            if step.to == DEVICE else " [if it is on the device]"
        arrays = f" ({step.arrays} tensors)" if step.arrays != 1 else ""
        lines.append(f"  {graph}: {what}{arrays} to the {step.to}{reader}{when}")
    certain = [s for _, s, _ in found if s.certain]
    to_device = sum(s.arrays for s in certain if s.to == DEVICE)
    to_host = sum(s.arrays for s in certain if s.to == HOST)
    lines.append(f"total: {to_device + to_host} host crossing(s), {to_device} to "
                 f"the device, {to_host} to the host; {len(found) - len(certain)} "
                 f"more conditional ones (values passed into graph calls)")
    talking, carried = communication_crossings(program)
    if talking:
        lines.append(f"communication: {carried} of the crossings carry the values "
                     f"of {talking} communication op(s) to and from the "
                     f"communicator (MPI, or run_local's threads), which reads and "
                     f"writes host memory")
    return "\n".join(lines)


def communication_crossings(program: Program) -> tuple[int, int]:
    """(communication ops, the tensors their certain crossings carry): a
    communication op (AllReduce, AllGather...) runs on the host, so its
    device arguments cross to the host and its result back, like any host
    op's."""
    talking = carried = 0
    for plan in program.plans.values():
        talkers = {step.out for step in plan.steps if isinstance(step, DeviceStep)
                   and step.node.op.family == COMMUNICATION}
        talking += len(talkers)
        carried += sum(step.arrays for step in plan.steps
                       if isinstance(step, CopyStep) and step.certain
                       and (step.source in talkers or step.node is not None
                            and step.node.op.family == COMMUNICATION))
    return talking, carried
