"""Files that are never half-written: the one place output files are
replaced whole (the tools' JSON and .npy files, the Converter's MindIR)."""
from __future__ import annotations

import contextlib
import os
from typing import Iterator


@contextlib.contextmanager
def replaced_file(path: str, binary: bool = False) -> Iterator:
    """A file open for writing next to ``path`` that is renamed onto it when
    the block ends without error and removed otherwise, so ``path`` is
    never half-written."""
    partial = f"{path}.{os.getpid()}.partial"
    try:
        with open(partial, "wb") if binary else \
                open(partial, "w", encoding="utf-8") as f:
            yield f
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
