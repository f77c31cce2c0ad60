"""Progress bars for the tools that can run long (dump, compare, bisect).

Bars go to stderr, never stdout (which scripts parse), and appear only when
stderr is a terminal or when asked for (``--progress``). tqdm draws them.
"""
from __future__ import annotations

import sys

from tqdm import tqdm

from ..executor import Hooks
from ..plan import step_count
from ..runtime import LoadedModel


def progress_bar(total: int | None, desc: str, enabled: bool | None = None,
                 unit: str = "node") -> tqdm:
    """A bar on stderr; ``enabled=None``: only if stderr is a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr,
                disable=not enabled, leave=False, dynamic_ncols=True)


def node_count(model: LoadedModel) -> int | None:
    """Kernel steps one run executes; None when graph calls (control flow,
    loops) make it depend on the data."""
    return step_count(model.program)


def with_progress(hooks: Hooks | None, bar: tqdm) -> Hooks:
    """``hooks`` that also advance ``bar`` after every kernel step."""
    before = hooks.before if hooks is not None else None
    after = hooks.after if hooks is not None else None

    def advance(node, inputs, output) -> None:
        if after is not None:
            after(node, inputs, output)
        bar.update(1)
    return Hooks(before, advance)
