"""``refinfer walk``: step through a run node by node.

For each kernel node run: its number and op, the op's formula (the first
paragraph of the op's docstring, and the next one when it is math), each
argument (tensors with shape, dtype, min/max/mean/std and the first values;
other arguments by value) and the output the same way.

Interactive mode stops after each shown node and reads a command:
Enter steps, ``c`` continues to the end, ``c PATTERN`` continues silently to
the next node whose scope name, node name or op matches PATTERN (glob or
``re:``), ``p NAME`` prints a tensor's summary, ``save NAME FILE`` writes it
to a ``.npy`` file (atomically), ``h`` lists the commands, ``q`` (or
Ctrl-C, or the end of input) quits. NAME is anything shown so far: an input
of the node (``x``, ``conv1.weight``, ``%2``), a result ``%k``, or a
tensor's scope or node name (``Default/conv1-Conv2d/Conv2D-op0``, with
``:k`` and ``@n`` as :mod:`refinfer.watch` names them). Without it, every
node (or those ``--nodes`` selects) is printed: good for notebooks and
logs.
"""
from __future__ import annotations

import os
import select
import sys
from typing import Callable, TextIO

import numpy as np

from ..graph import RefKind
from ..runtime import LoadedModel
from . import metrics
from .explain import Listing, value_text
from .tensorio import save_npy
from ..watch import NodeRun, node_runs, select_patterns, tensor_leaves

SHOWN_VALUES = 6
PROMPT = "(Enter: step, c: continue, h: help, q: quit) > "
HELP = """commands:
  Enter           run the next node
  c               continue to the end
  c PATTERN       continue to the next node matching PATTERN (glob or re:)
  p NAME          print a tensor shown so far (x, conv1.weight, %2, a scope name)
  save NAME FILE  write that tensor to FILE as .npy
  h               this help
  q, Ctrl-C       quit"""


def read_line(prompt: str) -> str:
    """input(prompt), except from a pipe: there a Ctrl-C the kernel hands
    to another thread (BLAS's or Numba's workers) only sets Python's flag,
    which a main thread blocked in read() never looks at. The line is read
    a byte at a time once select says one is there, waiting in 0.1 s
    slices between which Python raises the KeyboardInterrupt."""
    try:
        fd = None if sys.stdin.isatty() else sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):   # a replaced stdin
        fd = None
    if fd is None:
        return input(prompt)
    print(prompt, end="", flush=True)
    line = bytearray()
    while not line.endswith(b"\n"):
        while not select.select([fd], [], [], 0.1)[0]:
            pass
        byte = os.read(fd, 1)
        if not byte:
            if not line:
                raise EOFError
            break
        line += byte
    return line.decode(errors="replace").rstrip("\n")


class _Quit(Exception):
    """Raised from the hook to end the walk; its text says why."""


def formula(doc: str) -> str:
    """The op's first docstring paragraph, plus the second when it is math
    (not an ``Arguments`` paragraph)."""
    paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip()]
    shown = paragraphs[:1]
    if len(paragraphs) > 1 and "=" in paragraphs[1] and \
            not paragraphs[1].startswith("Argument"):
        shown.append(paragraphs[1])
    return "\n".join(shown)


def array_type(array: np.ndarray) -> str:
    """``float32[1,6,28,28]``."""
    return f"{array.dtype.name}[{','.join(map(str, array.shape))}]"


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
    text = array_type(value)
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
                 read: Callable[[str], str] | None = None):
        self.listing = Listing(model)
        self.out, self.interactive, self.values = out, interactive, values
        self.show = select_patterns(nodes)
        self.read = read or read_line
        self.target = None          # node test while continuing to a node
        self.stopping = interactive
        self.shown = 0
        # Name -> value of everything shown so far (for p and save); only
        # kept when interactive, since nothing else reads it.
        self.tensors: dict[str, object] = {}
        self.step_names: list[str] = []     # the names of the last step

    def visit(self, run: NodeRun) -> None:
        if self.target is not None:
            if not self.target(run.node):
                return
            self.target, self.stopping = None, True
        elif not self.show(run.node):
            return
        self.shown += 1
        self.out.write(self.describe(run) + "\n")
        if self.interactive:
            self.remember(run)
        if self.stopping:
            self.ask()

    def remember(self, run: NodeRun) -> None:
        """Name the step's inputs and outputs for ``p`` and ``save``."""
        node = run.node
        k = self.listing.number[node.name]
        graph, _ = self.listing.nodes[k]
        named = {}
        for pos, (arg, value) in enumerate(zip(node.args, run.args)):
            ref = arg.ref
            if ref.kind is RefKind.CONST and id(ref.key) not in \
                    self.listing.weights:
                continue            # attributes and unnamed constants
            named[self.listing.ref_text(graph, ref)] = value
        named[f"%{k}"] = run.output
        for tensor in run.tensors():
            named.setdefault(tensor.name, tensor.array)
            named.setdefault(tensor.node_name, tensor.array)
        self.tensors.update(named)
        self.step_names = list(named)

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
        """Read commands until one moves the walk on."""
        while True:
            try:
                command = self.read(PROMPT).strip()
            except EOFError:            # stdin closed: stop like q
                raise _Quit("stopped") from None
            except KeyboardInterrupt:   # Ctrl-C at the prompt
                self.out.write("\n")
                raise _Quit("interrupted") from None
            word, _, rest = command.partition(" ")
            rest = rest.strip()
            if command == "":
                return
            if command == "q":
                raise _Quit("stopped")
            if command == "c":
                self.stopping = False
                return
            if word == "c":
                self.target = select_patterns([rest])
                self.stopping = False
                return
            if command == "h":
                self.out.write(HELP + "\n")
            elif word == "p" and rest:
                self.print_tensor(rest)
            elif word == "save" and len(rest.split(maxsplit=1)) == 2:
                self.save_tensor(*rest.split(maxsplit=1))
            else:
                self.out.write(f"unknown command {command!r} (h: help)\n")

    def lookup(self, name: str):
        """The value shown under ``name``; None (after saying why) if
        there is none."""
        if name in self.tensors:
            return self.tensors[name]
        self.out.write(f"no tensor {name!r} shown so far; this step has "
                       f"{self.step_listing()}\n")
        return None

    def step_listing(self, limit: int = 8) -> str:
        """The last step's names, the first ``limit`` of them."""
        names = self.step_names
        more = f" and {len(names) - limit} more" if len(names) > limit else ""
        return ", ".join(names[:limit]) + more

    def print_tensor(self, name: str) -> None:
        value = self.lookup(name)
        if value is not None:
            self.out.write(f"{name}: {summary(value, self.values)}\n")

    def save_tensor(self, name: str, path: str) -> None:
        value = self.lookup(name)
        if value is None:
            return
        if not isinstance(value, (np.ndarray, np.generic)):
            self.out.write(f"{name} is not one tensor; save its tensors by "
                           f"name (this step has {self.step_listing()})"
                           "\n")
            return
        array = np.asarray(value)
        try:
            save_npy(path, array)
        except OSError as exc:
            self.out.write(f"cannot save {name} to {path}: {exc}\n")
            return
        self.out.write(f"saved {name} ({array_type(array)}) to {path}\n")


def walk(model: LoadedModel, inputs: list, out: TextIO,
         interactive: bool = False, nodes=None, values: int = SHOWN_VALUES,
         read: Callable[[str], str] | None = None) -> list | None:
    """Run ``model`` printing each (selected) node run to ``out``; returns
    the outputs, or None when the user quit (q, Ctrl-C, end of input)."""
    model.check_inputs(inputs)
    walker = Walker(model, out, interactive, nodes, values, read)
    try:
        outputs = model.run(inputs, node_runs(walker.visit))
    except _Quit as reason:
        out.write(f"{reason} after {walker.shown} node(s) shown\n")
        return None
    if walker.target is not None:
        out.write("no node matched the pattern given to 'c'\n")
    out.write(f"done: {walker.shown} node(s) shown; outputs: "
              + "; ".join(summary(o, values) for o in outputs) + "\n")
    return outputs
