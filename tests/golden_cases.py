"""Golden cases MindSpore produced (see tools/golden), for the tests."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass

import numpy as np
import pytest

from refinfer.format import schema
from refinfer.tools.tensorio import entry_path, read_entry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN_DIRS = [os.path.join(ROOT, "golden"), os.path.join(ROOT, "golden_big")]


@dataclass
class GoldenCase:
    name: str
    directory: str
    meta: dict

    @property
    def model_path(self) -> str:
        return os.path.join(self.directory, self.meta["model_file"])

    def file(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def inputs(self) -> list[np.ndarray]:
        return [read_entry(self.directory, i) for i in self.meta["inputs"]]

    def outputs(self) -> list[np.ndarray]:
        return [read_entry(self.directory, o) for o in self.meta["outputs"]]

    def input_files(self) -> list[str]:
        """The inputs as ``refinfer run --input`` takes them: raw .bin files
        (as Lite's benchmark reads them) where the case has them, else .npy
        files or ``arrays.npz:KEY``."""
        return [self.file(i["raw_file"]) if i.get("raw_file")
                else entry_path(self.directory, i) for i in self.meta["inputs"]]

    @property
    def tolerance(self) -> dict:
        return self.meta["tolerance"]

    @property
    def encrypted(self) -> bool:
        return "enc_key" in self.meta


def all_cases() -> list[GoldenCase]:
    """Every single-model case under golden/ (committed) and golden_big/
    (on demand), at any depth (e.g. golden/ops/<case>); a case is a folder
    whose meta.json names a ``model_file``. Named by its relative path."""
    cases = []
    for root in GOLDEN_DIRS:
        for folder, dirs, files in sorted(os.walk(root)):
            dirs.sort()
            if "meta.json" not in files:
                continue
            with open(os.path.join(folder, "meta.json")) as f:
                meta = json.load(f)
            if "model_file" in meta:
                cases.append(GoldenCase(os.path.relpath(folder, root), folder,
                                        meta))
    return cases


def golden_case(name: str) -> GoldenCase:
    for case in all_cases():
        if case.name == name:
            return case
    pytest.skip(f"golden case {name!r} is not present")


def as_bench_model(name: str, bench_dir, batch: str) -> None:
    """Lay golden case ``name`` out in ``bench_dir`` (a pathlib.Path) as
    tools/bench.py reads its models (REFINFER_BENCH_DIR): a folder with the
    model and its input under the label ``batch``, and bench.json."""
    case = golden_case(name)
    folder = bench_dir / name
    folder.mkdir()
    shutil.copy(case.model_path, folder / f"{name}_b{batch}.mindir")
    np.save(folder / f"input_b{batch}.npy", case.inputs()[0])
    (folder / "bench.json").write_text(json.dumps({"files": {batch: {
        "mindir": f"{name}_b{batch}.mindir", "input": f"input_b{batch}.npy"}}}))


def assert_close(actual, expected, rtol, atol, what=""):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} " \
        f"!= {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} " \
        f"!= {expected.dtype}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol,
                               err_msg=what)


def rename_primitive(source, target, old: str, new: str) -> None:
    """Copy the model file ``source`` to ``target`` with every primitive
    ``old`` renamed ``new`` (a model applying an op refinfer lacks)."""
    proto = schema.ModelProto()
    with open(source, "rb") as f:
        proto.ParseFromString(f.read())
    renamed = 0
    for prim in proto.primitives:
        if prim.op_type == old:
            prim.op_type, renamed = new, renamed + 1
    assert renamed, f"no {old} primitive in {source}"
    with open(target, "wb") as f:
        f.write(proto.SerializeToString())
