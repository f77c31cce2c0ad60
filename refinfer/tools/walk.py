"""``refinfer walk``: step through a run node by node.

For each kernel node run: its number and op, the op's formula (the first
paragraph of the op's docstring, and the next one when it is math), each
argument (tensors with shape, dtype, min/max/mean/std and the first values;
other arguments by value) and the output the same way.

Interactive mode stops after each shown node and reads a command:
Enter steps, ``c`` continues to the end, ``c PATTERN`` continues silently to
the next node whose scope name, node name or op matches PATTERN (glob or
``re:``), ``q`` quits. Without it, every node (or those ``--nodes``
selects) is printed: good for notebooks and logs.
"""
from __future__ import annotations

from typing import Callable, TextIO

import numpy as np

from ..graph import RefKind
from ..runtime import LoadedModel
from . import metrics
from .explain import Listing, value_text
from ..watch import NodeRun, node_runs, select_patterns, tensor_leaves

SHOWN_VALUES = 6
HELP = "[Enter] step, c: continue, c PATTERN: continue to a node, q: quit"


class _Quit(Exception):
    """Raised from the hook to end the walk."""


def formula(doc: str) -> str:
    """The op's first docstring paragraph, plus the second when it is math
    (not an ``Arguments`` paragraph)."""
    paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip()]
    shown = paragraphs[:1]
    if len(paragraphs) > 1 and "=" in paragraphs[1] and \
            not paragraphs[1].startswith("Argument"):
        shown.append(paragraphs[1])
    return "\n".join(shown)


def summary(value, count: int = SHOWN_VALUES) -> str:
    """``float32[1,6,28,28] min .. max .. mean .. std .. [v0, v1, ...]``;
    non-tensors by value."""
    leaves = tensor_leaves(value) if isinstance(value, (tuple, list)) \
        else [value]
    if len(leaves) > 1:
        return "(" + "; ".join(summary(v, count) for v in leaves) + ")"
    value = leaves[0]
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "biuf":
        return value_text(value) if value is not None else "function"
    text = f"{value.dtype.name}[{','.join(map(str, value.shape))}]"
    if value.size <= 1:
        return text + (f" = {value.ravel()[0].item()!r}" if value.size
                       else " (empty)")
    stats = metrics.stats(value)
    text += "".join(f" {k} {stats[k]:.4g}" for k in ("min", "max", "mean",
                                                     "std"))
    for key in ("nan", "inf"):
        if stats[key]:
            text += f" {key} {stats[key]}"
    first = ", ".join(f"{v:.4g}" if isinstance(v, float) else str(v)
                      for v in value.ravel()[:count].tolist())
    more = ", ..." if value.size > count else ""
    return f"{text}  [{first}{more}]"


class Walker:
    """The after-hook's sink: prints node runs and, when interactive, asks
    what to do next."""

    def __init__(self, model: LoadedModel, out: TextIO, interactive: bool,
                 nodes=None, values: int = SHOWN_VALUES,
                 read: Callable[[str], str] = input):
        self.listing = Listing(model)
        self.out, self.interactive, self.values = out, interactive, values
        self.show = select_patterns(nodes)
        self.read = read
        self.target = None          # node test while continuing to a node
        self.stopping = interactive
        self.shown = 0

    def visit(self, run: NodeRun) -> None:
        if self.target is not None:
            if not self.target(run.node):
                return
            self.target, self.stopping = None, True
        elif not self.show(run.node):
            return
        self.shown += 1
        self.out.write(self.describe(run) + "\n")
        if self.stopping:
            self.ask()

    def describe(self, run: NodeRun) -> str:
        node = run.node
        graph, _ = self.listing.nodes[self.listing.number[node.name]]
        k = self.listing.number[node.name]
        occurrence = f" (run {run.occurrence + 1})" if run.occurrence else ""
        lines = [f"── step {run.index}: %{k} = {node.op_name}  "
                 f"{node.scope or node.name}{occurrence}"]
        doc = formula(node.op.doc) if node.op is not None else ""
        lines += [f"   │ {line}" for line in doc.splitlines()]
        attributes = []
        for pos, (arg, value) in enumerate(zip(node.args, run.args)):
            text = self.listing.arg_text(graph, node, pos)
            if text is None:
                continue
            if arg.ref.kind is RefKind.CONST and "=" in text:
                attributes.append(text)
            else:
                lines.append(f"   in  {text}: {summary(value, self.values)}")
        if attributes:
            lines.append(f"   with {', '.join(attributes)}")
        lines.append(f"   out %{k}: {summary(run.output, self.values)}")
        return "\n".join(lines)

    def ask(self) -> None:
        while True:
            try:
                command = self.read(f"({HELP}) > ").strip()
            except EOFError:            # stdin closed: stop like q
                raise _Quit() from None
            if command == "":
                return
            if command == "q":
                raise _Quit()
            if command == "c":
                self.stopping = False
                return
            if command.startswith("c "):
                self.target = select_patterns([command[2:].strip()])
                self.stopping = False
                return
            self.out.write(f"unknown command {command!r}: {HELP}\n")


def walk(model: LoadedModel, inputs: list, out: TextIO,
         interactive: bool = False, nodes=None, values: int = SHOWN_VALUES,
         read: Callable[[str], str] = input) -> list | None:
    """Run ``model`` printing each (selected) node run to ``out``; returns
    the outputs, or None when the user quit."""
    model.check_inputs(inputs)
    walker = Walker(model, out, interactive, nodes, values, read)
    try:
        outputs = model.run(inputs, node_runs(walker.visit))
    except _Quit:
        out.write(f"stopped after {walker.shown} node(s) shown\n")
        return None
    if walker.target is not None:
        out.write("no node matched the pattern given to 'c'\n")
    out.write(f"done: {walker.shown} node(s) shown; outputs: "
              + "; ".join(summary(o, values) for o in outputs) + "\n")
    return outputs
