"""Shared helpers for the tools tests (imported as a plain module)."""
from __future__ import annotations

import functools
import json
import os

import numpy as np

from refinfer.cli import main as cli_main
from refinfer.runtime import LoadedModel
from refinfer.tools.tensorio import entry_path, read_entry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
GOLDEN = os.path.join(ROOT, "golden")


def golden_file(case: str, name: str) -> str:
    return os.path.join(GOLDEN, case, name)


def golden_meta(case: str) -> dict:
    with open(golden_file(case, "meta.json")) as f:
        return json.load(f)


def golden_inputs(case: str) -> list[np.ndarray]:
    return [read_entry(golden_file(case, ""), i)
            for i in golden_meta(case)["inputs"]]


def golden_outputs(case: str) -> list[np.ndarray]:
    return [read_entry(golden_file(case, ""), o)
            for o in golden_meta(case)["outputs"]]


def golden_input_files(case: str) -> list[str]:
    return [entry_path(golden_file(case, ""), i)
            for i in golden_meta(case)["inputs"]]


@functools.lru_cache(maxsize=None)
def golden_model(case: str) -> LoadedModel:
    """The compiled model of a golden case (shared: runs do not change it)."""
    return LoadedModel(golden_file(case, golden_meta(case)["model_file"]))


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``refinfer ARGV``."""
    code = cli_main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def read_json(path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def leftovers(folder) -> list[str]:
    """Staging folders a tool left in ``folder`` (there must be none)."""
    return [n for n in os.listdir(folder) if n.endswith((".partial", ".old"))]


def perturbed_model(folder, case: str, weight: str, index: int,
                    delta: float) -> str:
    """A copy of the case's model file with ``weight[index] += delta``: the
    weight's bytes are found in the file (they must occur exactly once) and
    rewritten in place, so the copy is a valid MindIR file."""
    path = golden_file(case, golden_meta(case)["model_file"])
    array = golden_model(case).parameters()[weight]
    data = open(path, "rb").read()
    original = np.ascontiguousarray(array).tobytes()
    assert data.count(original) == 1, f"{weight} not found once in {path}"
    changed = np.array(array, copy=True)
    changed.reshape(-1)[index] += np.float32(delta)
    target = os.path.join(str(folder), f"{case}_perturbed.mindir")
    with open(target, "wb") as f:
        f.write(data.replace(original, changed.tobytes()))
    return target
