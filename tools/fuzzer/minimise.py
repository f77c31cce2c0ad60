"""The smallest file that keeps a failure's signature.

First the case's mutation steps: each is dropped in turn while the
signature stays. Then, for a file that still decodes as a MindIR field
tree, whole fields (nodes, parameters, attributes, functions, ...) are cut
away message by message, halves first, then quarters and so on down to
single fields, while the signature stays. Every try is one worker run, and
a budget bounds the tries.
"""
from __future__ import annotations

from . import protowire as pw
from .mutate import Case, mutated_bytes


class Shrinker:
    """Minimises against ``check(model_bytes) -> signature``."""

    def __init__(self, check, budget: int = 200):
        self.check, self.budget = check, budget

    def _keeps(self, data: bytes, signature: str) -> bool:
        if self.budget <= 0:
            return False
        self.budget -= 1
        return self.check(data) == signature

    def steps(self, case: Case, signature: str) -> Case:
        """``case`` with the steps it does not need dropped."""
        k = 0
        while k < len(case.steps) and len(case.steps) > 1:
            fewer = case.with_steps(case.steps[:k] + case.steps[k + 1:])
            if self._keeps(mutated_bytes(fewer)[0], signature):
                case = fewer
            else:
                k += 1
        return case

    def tree(self, data: bytes, signature: str) -> bytes:
        """``data`` with the fields it does not need cut away."""
        try:
            root = pw.decode(data)
        except ValueError:
            return data
        pending = [root]
        while pending and self.budget > 0:
            message = pending.pop(0)
            self._cut_fields(root, message, signature)
            pending += [f.value for f in message.fields if f.is_message]
        return pw.encode(root)

    def _cut_fields(self, root: pw.Message, message: pw.Message,
                    signature: str) -> None:
        """Remove chunks of ``message``'s fields (halves, quarters, ...)
        while ``root`` keeps the signature."""
        chunk = max(1, len(message.fields) // 2)
        while message.fields and self.budget > 0:
            start = 0
            while start < len(message.fields) and self.budget > 0:
                kept = message.fields
                message.fields = kept[:start] + kept[start + chunk:]
                if not self._keeps(pw.encode(root), signature):
                    message.fields = kept
                    start += chunk
            if chunk == 1:
                return
            chunk = max(1, chunk // 2)
