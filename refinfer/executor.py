"""Run a compiled program.

Graph calls run on an explicit stack of frames, never by Python recursion:
loops are exported as tail calls (the loop body calls the loop header
again), so a tail call replaces the current frame and a 10,000-iteration
loop needs no deeper stack than one iteration. Other calls nest, up to the
model's ``max_call_depth`` (MindSpore's setting of that name, 1000 by
default): a graph that calls itself without end stops there with an error
naming the graph and the call node, not after a long climb.

A run is given a budget of graph calls (the model's ``max_graph_calls``,
100,000 by default; the build's warm-up run on zeros has its own,
refinfer/warmup.py): every loop iteration is a call, so a budget bounds the
run even when a loop written into the file never ends, and the error names
the graph and the call node. Limits are checked per call, never per kernel
step.

Hooks: ``before(node, inputs)`` and ``after(node, inputs, output)`` are
called around every kernel step when given; without hooks the loop does no
extra work.
"""
from __future__ import annotations

import sys
from typing import Any, Sequence

from .closure import Closure, GraphRef
from .errors import CallBudgetExceeded, CallDepthError, NodeError
from .plan import CallStep, GraphPlan, Program
from .precision import storage_map
from .step import Hooks, describe

DEFAULT_MAX_CALL_DEPTH = 1000       # MindSpore's max_call_depth default
# Graph calls in one run: ~10 s of a tiny loop body on the reference
# backend, far more iterations than inference loops make.
DEFAULT_MAX_GRAPH_CALLS = 100_000


class _Frame:
    __slots__ = ("plan", "slots", "pc", "pending")

    def __init__(self, plan: GraphPlan, args: Sequence, env: dict):
        if len(args) != plan.n_inputs:
            raise TypeError(f"graph {plan.name!r} takes {plan.n_inputs} "
                            f"arguments, got {len(args)}")
        self.plan = plan
        self.slots = plan.template.copy()
        self.slots[:plan.n_inputs] = args
        for name, slot in plan.free_slots.items():
            self.slots[slot] = env[name]
        self.pc = 0
        self.pending: CallStep | None = None

    def lookup(self, name: str) -> Any:
        return self.slots[self.plan.names[name]]


def run(program: Program, inputs: Sequence, hooks: Hooks | None = None,
        max_call_depth: int = DEFAULT_MAX_CALL_DEPTH,
        max_calls: int | None = None) -> Any:
    """Run the main graph on ``inputs``; returns its (possibly tuple) value.

    Calls nested deeper than ``max_call_depth`` raise CallDepthError; more
    than ``max_calls`` graph calls in all (None: no limit) raise
    CallBudgetExceeded."""
    stack = [_Frame(program.plans[program.main], _entered(program, inputs), {})]
    calls_left = sys.maxsize if max_calls is None else max_calls
    while True:
        frame = stack[-1]
        call = _run_steps(frame, hooks)
        if call is None:
            value = frame.slots[frame.plan.output]
            stack.pop()
            if not stack:
                return value
            _finish_call(stack[-1], value)
            continue
        calls_left -= 1
        callee = _enter(program, frame, call)
        if calls_left < 0:
            raise _budget_error(frame, call, callee, max_calls)
        if call.tail:
            stack[-1] = callee
        else:
            frame.pending = call
            stack.append(callee)
            if len(stack) > max_call_depth:
                raise _depth_error(frame, call, callee, max_call_depth)


def _entered(program: Program, inputs: Sequence) -> list:
    """The main graph's inputs as the program's precision stores them
    (float16: rounded, refinfer/precision.py)."""
    store = storage_map(program.precision)
    return list(inputs) if store is None else [store(value) for value in inputs]


def _run_steps(frame: _Frame, hooks: Hooks | None) -> CallStep | None:
    """Run kernel steps until the graph ends (None) or a call is due."""
    slots, steps = frame.slots, frame.plan.steps
    pc, end = frame.pc, len(steps)      # (locals: the loop runs once per node)
    while pc < end:
        step = steps[pc]
        pc += 1
        if type(step) is CallStep:
            frame.pc = pc       # (where the frame resumes after the call)
            return step
        slots[step.out] = step.run(slots, hooks)
        for slot in step.frees:
            slots[slot] = None
    frame.pc = pc
    return None


def _enter(program: Program, frame: _Frame, call: CallStep) -> _Frame:
    """The frame for a call step: unwrap closures, bind arguments, capture
    the free variables the callee reads from the caller's scope."""
    value = frame.slots[call.callee]
    args = tuple(frame.slots[s] for s in call.args)
    if isinstance(value, Closure):
        value, bound = value.unwrap()
        args = bound + args
    if not isinstance(value, GraphRef):
        raise NodeError(call.node.scope or call.node.name, call.node.op_name,
                        describe(args),
                        TypeError(f"cannot call a {type(value).__name__}"))
    plan = program.plans[value.name]
    try:
        env = {name: frame.lookup(name) for name in plan.free_slots}
        return _Frame(plan, args, env)
    except (TypeError, KeyError) as exc:
        raise NodeError(call.node.name, call.node.op_name, describe(args),
                        exc) from exc


def _depth_error(frame: _Frame, call: CallStep, callee: _Frame,
                 limit: int) -> CallDepthError:
    """The error for a call one level deeper than ``limit``: names the
    calling graph, its call node and the graph called."""
    node = call.node
    args = callee.slots[:callee.plan.n_inputs]
    cause = RecursionError(
        f"graph {frame.plan.name!r} calls graph {callee.plan.name!r} (node "
        f"{node.name!r}) at call depth {limit + 1}, deeper than "
        f"max_call_depth={limit} (a graph that calls itself without end?); "
        f"[refinfer] max_call_depth sets the limit")
    return CallDepthError(node.scope or node.name, node.op_name,
                          describe(args), cause)


def _budget_error(frame: _Frame, call: CallStep, callee: _Frame,
                  budget: int) -> CallBudgetExceeded:
    """The error for the call one past ``budget``: names the calling graph,
    its call node and the graph called."""
    node = call.node
    args = callee.slots[:callee.plan.n_inputs]
    cause = RuntimeError(
        f"graph {frame.plan.name!r} calls graph {callee.plan.name!r} (node "
        f"{node.name!r}): more than {budget} graph calls in one run (a loop "
        f"that never ends?); [refinfer] max_graph_calls sets the limit "
        f"(0: none)")
    return CallBudgetExceeded(node.scope or node.name, node.op_name,
                              describe(args), cause)


def _finish_call(frame: _Frame, value: Any) -> None:
    call = frame.pending
    frame.slots[call.out] = value
    for slot in call.frees:
        frame.slots[slot] = None
    frame.pending = None


def flatten(value) -> list:
    """Model outputs as Lite exposes them: tuples flattened depth-first."""
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in flatten(v)]
    return [value]
