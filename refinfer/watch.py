"""Watching node outputs as a model runs: selection, naming, the hook.

A node is selected by patterns over its scope name (``Default/conv1-Conv2d/
Conv2D-op0``), its node name (``..._construct_14:output:3``) or its op
(``Conv2D``): a glob (``fnmatch``, case-sensitive) or, with the prefix
``re:``, a regular expression searched anywhere in the text.

Tensors are named as MindSpore Lite names outputs: the node's scope name
(its node name when it has none), ``:k`` for element ``k > 0`` of a tuple
output, and ``@n`` for the ``n``-th repeated run of the same name (loops).
"""
from __future__ import annotations

import fnmatch
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from .errors import UsageError
from .executor import Hooks

_SCALARS = (np.generic, bool, int, float)


def pattern_matcher(pattern: str) -> Callable[[str], bool]:
    """A test of one text against a glob or a ``re:`` regular expression."""
    if pattern.startswith("re:"):
        try:
            regex = re.compile(pattern[3:])
        except re.error as exc:
            raise UsageError(f"bad regular expression {pattern!r}: {exc}") \
                from exc
        return lambda text: regex.search(text) is not None
    return lambda text: fnmatch.fnmatchcase(text, pattern)


def node_texts(node) -> tuple[str, ...]:
    """What selection looks at: scope name, node name, op name."""
    op = node.op.name if node.op is not None else node.op_name
    return tuple(t for t in (node.scope, node.name, op) if t)


def select_patterns(patterns: Iterable[str] | None) -> Callable:
    """Nodes matching any of ``patterns`` (all nodes for None or empty)."""
    tests = [pattern_matcher(p) for p in patterns or ()]
    if not tests:
        return lambda node: True
    return _cached(lambda node: any(test(text) for test in tests
                                    for text in node_texts(node)))


def select_names(names: Iterable[str]) -> Callable:
    """Nodes whose scope name or node name is one of ``names``."""
    wanted = set(names)
    return _cached(lambda node: node.scope in wanted or node.name in wanted)


def selector(keep) -> Callable:
    """``keep`` as a node test: a pattern string, or a list of exact names."""
    if isinstance(keep, str):
        return select_patterns([keep])
    if keep is None:
        raise ValueError("keep must be a pattern or a list of node names")
    return select_names(keep)


def _cached(test: Callable) -> Callable:
    """``test`` evaluated once per node (nodes in loops run many times)."""
    seen: dict[int, bool] = {}

    def cached(node) -> bool:
        key = id(node)
        if key not in seen:
            seen[key] = bool(test(node))
        return seen[key]
    return cached


def tensor_leaves(value) -> list:
    """The tensors in a node's output, one per leaf of a (nested) tuple;
    ``None`` for values that are not tensors (closures, graphs). A tuple of
    plain numbers (a shape) is one tensor."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, _SCALARS):
        return [np.asarray(value)]
    if isinstance(value, (tuple, list)):
        if value and all(isinstance(v, _SCALARS) for v in value):
            return [np.asarray(value)]
        return [leaf for v in value for leaf in tensor_leaves(v)]
    return [None]


def tensor_name(base: str, element: int, occurrence: int) -> str:
    """``base``, ``base:k`` for tuple element k > 0, then ``@n`` for the
    n-th repeated run."""
    name = base if element == 0 else f"{base}:{element}"
    return name if occurrence == 0 else f"{name}@{occurrence}"


@dataclass
class NodeTensor:
    """One tensor a node run produced (``array`` None if not a tensor)."""
    index: int          # execution index: kernel steps run so far, from 0
    element: int        # position in a tuple output
    occurrence: int     # earlier runs of a node with the same scope name
    node: object        # the graph node
    array: np.ndarray | None

    @property
    def name(self) -> str:
        """Lite-style name, by scope name."""
        node = self.node
        return tensor_name(node.scope or node.name, self.element,
                           self.occurrence)

    @property
    def node_name(self) -> str:
        """The same, by node name."""
        return tensor_name(self.node.name, self.element, self.occurrence)


@dataclass
class NodeRun:
    """One kernel step as it ran: its arguments and output."""
    index: int          # execution index: kernel steps run so far, from 0
    occurrence: int     # earlier runs of a node with the same scope name
    node: object
    args: list          # the kernel's positional arguments
    output: object

    def tensors(self) -> list[NodeTensor]:
        """The output's tensors, one per leaf of a tuple."""
        return [NodeTensor(self.index, k, self.occurrence, self.node, array)
                for k, array in enumerate(tensor_leaves(self.output))]


def node_runs(sink: Callable[[NodeRun], None]) -> Hooks:
    """Executor hooks passing every kernel step, numbered, to ``sink``."""
    counts = Counter()
    index = -1

    def after(node, args, output) -> None:
        nonlocal index
        index += 1
        base = node.scope or node.name
        occurrence = counts[base]
        counts[base] += 1
        sink(NodeRun(index, occurrence, node, args, output))
    return Hooks(after=after)


def watch(select: Callable, sink: Callable[[NodeTensor], None]) -> Hooks:
    """Executor hooks that pass each selected node's output tensors to
    ``sink`` as soon as they are produced; nothing is kept."""
    def take(run: NodeRun) -> None:
        if select(run.node):
            for tensor in run.tensors():
                sink(tensor)
    return node_runs(take)


def keep_hooks(keep, kept: dict) -> Hooks:
    """Executor hooks copying the outputs of the nodes ``keep`` selects into
    ``kept`` (named as :func:`run_debug` names them)."""
    def sink(tensor: NodeTensor) -> None:
        if tensor.array is None:
            return
        array = np.array(tensor.array, copy=True)
        kept[tensor.name] = array
        kept.setdefault(tensor.node_name, array)
    return watch(selector(keep), sink)
