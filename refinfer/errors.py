"""Exception types (all derive from RuntimeError, as MindSpore Lite's do),
and how error messages show values."""
from __future__ import annotations

import numpy as np

class UsageError(ValueError):
    """A command line that is wrong although it parses: an option's value
    that is malformed or applies to nothing (a tolerance, a pattern, a
    format, a flag value), or options that do not go together. The library
    raises it for the values it parses; the ``refinfer`` command exits with
    status 2 on it, as on argparse's own errors (refinfer/cli/__init__.py).
    A ValueError, so that library callers catching those still do."""


SHOWN_ITEMS = 8         # elements of a sequence an error message shows
SHOWN_VALUES = 4        # values of a tensor an error message shows
SHOWN_CHARS = 80        # characters of any other value's repr


def describe_value(value, shown: int = 0) -> str:
    """A value for an error message, never a whole array: a tensor's dtype
    and shape (``float32[2, 4]``) and its first ``shown`` values, at most
    ``SHOWN_ITEMS`` elements of a sequence, a function's type, the start of
    any other value's repr."""
    if isinstance(value, np.ndarray):
        text = f"{value.dtype}{list(value.shape)}"
        if shown and value.size:
            first = ", ".join(map(str, value.reshape(-1)[:shown].tolist()))
            text += f" [{first}{', ...' if value.size > shown else ''}]"
        return text
    if isinstance(value, (tuple, list)):
        inner = ", ".join(describe_value(v, shown) for v in value[:SHOWN_ITEMS])
        more = ", ..." if len(value) > SHOWN_ITEMS else ""
        return f"({inner}{more})" if isinstance(value, tuple) else f"[{inner}{more}]"
    if callable(value):
        return type(value).__name__
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


class MindIRError(RuntimeError):
    """A model file that cannot be read: names the file and what is wrong."""

    def __init__(self, path, message: str):
        super().__init__(f"{path}: {message}")
        self.path = str(path)


class EncryptedModelError(MindIRError):
    """The file is an encrypted MindIR and no usable key was given."""


class UnsupportedOpsError(MindIRError):
    """The model uses primitives refinfer does not implement (all listed);
    ``why`` maps those it leaves out on purpose to (category, reason)."""

    def __init__(self, path, missing: dict[str, list[str]],
                 why: dict[str, tuple[str, str]] | None = None):
        why = why or {}
        lines = [f"  {op} (used by {len(nodes)} node(s), e.g. {nodes[0]})"
                 + (f": out of scope ({why[op][0]}): {why[op][1]}" if op in why
                    else "")
                 for op, nodes in sorted(missing.items())]
        super().__init__(path, f"{len(missing)} unsupported op(s):\n"
                         + "\n".join(lines))
        self.missing = missing
        self.out_of_scope = why


class GraphError(MindIRError):
    """A structurally invalid graph (undefined name, cycle, bad arguments)."""


class NodeError(RuntimeError):
    """A kernel failed: names the node, its op and its inputs."""

    def __init__(self, node: str, op: str, inputs: str, cause: BaseException):
        super().__init__(f"node {node!r} (op {op}) failed: "
                         f"{type(cause).__name__}: {cause}\n  inputs: {inputs}")
        self.node, self.op = node, op
        self.path = ""

    def locate(self, path: str) -> None:
        """Name the model file too, in front of the message (once: a run
        nested in another, a fused kernel's fallback, leaves it to the
        outer one)."""
        if not self.path:
            self.path = path
            self.args = (f"{path}: {self.args[0]}",) + self.args[1:]


class CallDepthError(NodeError):
    """Graph calls nested deeper than the model's ``max_call_depth``."""


class CallBudgetExceeded(NodeError):
    """A run made more graph calls than its budget (``max_graph_calls``, or
    the build's warm-up budget) allows."""
