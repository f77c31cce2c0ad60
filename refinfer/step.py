"""A kernel step of a compiled plan: the one place where a node's kernel
arguments are put together and where a failing kernel is named.

A step's constant arguments sit in its ``template`` (converted and, for the
float64 oracle, widened once, when the step is made); the others are read
from numbered slots at run time, each through its converter. What a step
holds per node is kept small (a graph may have millions): steps alike share
their ``places`` (the positions and converters of the arguments read at run
time) and, when they have no constants, their template. The executor,
the reference fallback of fused kernels (passes/fused.py) and bisect's
shadow run (tools/bisect.py) all run steps made by :func:`kernel_step` with
:meth:`KernelStep.run`, once per node: one call, as the executor's loop is
the interpreter's per-node cost.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

from .errors import NodeError, describe_value
from .graph import Node, Ref, RefKind
from .precision import compose
from .stored import StoredWeight, value_of


class Hooks:
    """Per-node callbacks, ``before(node, args)`` and ``after(node, args,
    result)``; either may be None."""

    def __init__(self, before: Callable | None = None,
                 after: Callable | None = None):
        self.before, self.after = before, after


@dataclass(slots=True)
class KernelStep:
    node: Node
    fn: Callable
    template: list          # positional args; constants filled in
    places: tuple           # (position, convert or None) of each argument
                            # read at run time
    reads: tuple[int, ...]  # the slot each of those is read from
    out: int
    frees: tuple[int, ...] = ()

    @property
    def dynamic(self) -> tuple:
        """``(position, slot, convert or None)`` of each argument read at
        run time."""
        return tuple((pos, slot, convert) for (pos, convert), slot
                     in zip(self.places, self.reads))

    def run(self, slots: Sequence, hooks: Hooks | None = None) -> Any:
        """The kernel's result on its constants and on the dynamic arguments
        read from ``slots`` (anything indexed by slot number) through their
        converters. A failure raises NodeError naming the node, its op and
        the argument types; a NodeError raised inside (by a fused kernel's
        fallback) already names the node that failed, and passes."""
        args = self.template.copy()
        try:
            for (pos, convert), slot in zip(self.places, self.reads):
                value = slots[slot]
                args[pos] = value if convert is None else convert(value)
        except Exception as exc:    # a value its converter refuses
            self._fail(args, exc)
        if hooks is not None and hooks.before is not None:
            hooks.before(self.node, args)
        try:
            result = self.fn(*args)
        except NodeError:
            raise
        except Exception as exc:
            self._fail(args, exc)
        if hooks is not None and hooks.after is not None:
            hooks.after(self.node, args, result)
        return result

    def _fail(self, args: list, exc: Exception) -> NoReturn:
        """Raise the NodeError for a kernel that raised ``exc``, saying
        which operand does not fit where one does not (the kernel's own
        error, about a tuple having no ``ndim``, is then beside the
        point)."""
        node = self.node
        try:
            if node.op is not None:
                node.op.check_operands(args)
                _check_not_a_tensor(node.op, args, exc)
        except TypeError as misfit:
            exc = misfit
        error = NodeError(node.scope or node.name, node.op_name, describe(args),
                          exc)
        if isinstance(exc, MemoryError):    # its message says it all (the
            raise error from None           # size), wrapped as one error
        raise error from exc


def _check_not_a_tensor(op, args: list, exc: Exception) -> None:
    """A clear TypeError where the kernel failed reading a tensor's
    attribute (``ndim``, ``shape``, ``reshape``...) from an argument that is
    no tensor (a number, a bool, None: what a corrupt graph passes): the
    AttributeError's ``obj`` is that argument."""
    if not isinstance(exc, AttributeError) or isinstance(exc.obj, np.ndarray):
        return
    for k, value in enumerate(args[:len(op.params)]):
        if value is exc.obj:
            raise TypeError(f"{op.name}: {op.params[k].name} must be a tensor, "
                            f"got {describe_value(value)}") from None


def kernel_step(node: Node, fn: Callable, slot_of: Callable[[Ref], int],
                out: int, constant: Callable | None = None,
                widen: Callable | None = None) -> KernelStep:
    """The step applying ``fn`` to ``node``'s arguments: constants, mapped
    by ``constant``, go in the template (a weight stored packed is unpacked
    at each run: :class:`_Unpacking`); any other argument is read from slot
    ``slot_of(ref)`` through its converter, then ``widen``. (Made for every
    node of a graph: one loop, and a template only for a step with
    constants.)"""
    args = node.args
    template, places, reads, stored = None, [], [], False
    for pos, arg in enumerate(args):
        ref = arg.ref
        if ref.kind is _CONST:
            if template is None:
                template = [None] * len(args)
            value = ref.key
            if constant is not None:
                value = constant(value_of(value))
            stored = stored or isinstance(value, StoredWeight)
            template[pos] = value
        else:
            places.append((pos, arg.convert if widen is None
                           else compose(widen, arg.convert)))
            reads.append(slot_of(ref))
    if template is None:        # no constant: nothing to replace
        template = _no_constants(len(args))
    elif stored:
        template = _Unpacking(template)
    return KernelStep(node, fn, template, _shared_places(tuple(places)),
                      tuple(reads), out)


class _Unpacking(list):
    """The template of a step that reads a weight stored in its products'
    layout (refinfer/stored.py) plain: a node of the plan without fusions
    that debugging hooks run, a fused node's fallback. ``run`` copies the
    template, and the copy has the weight unpacked: no plain copy is held
    between runs (a transformer's would double its memory)."""

    __slots__ = ()

    def copy(self) -> list:
        return [value_of(value) for value in self]


_CONST = RefKind.CONST      # (a module name: faster to find than the enum's)


@functools.lru_cache(maxsize=1024)
def _shared_places(places: tuple) -> tuple:
    """One tuple per distinct ``places``: most steps of an op share one."""
    return places


@functools.lru_cache(maxsize=64)
def _no_constants(count: int) -> list:
    """The template of every step with ``count`` arguments, all read at run
    time, shared: ``run`` copies it, and ``Program.replace_constants``
    writes only where a constant is."""
    return [None] * count


def describe(values: Sequence) -> str:
    """Short type/shape summary of argument values, for error messages."""
    return ", ".join(describe_value(v) for v in values)
