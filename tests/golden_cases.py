"""Golden cases MindSpore produced (see tools/golden), for the tests."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np
import pytest

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
        return [np.load(self.file(i["file"])) for i in self.meta["inputs"]]

    def outputs(self) -> list[np.ndarray]:
        return [np.load(self.file(o["file"])) for o in self.meta["outputs"]]

    @property
    def tolerance(self) -> dict:
        return self.meta["tolerance"]

    @property
    def encrypted(self) -> bool:
        return "enc_key" in self.meta


def all_cases() -> list[GoldenCase]:
    """Every case under golden/ (committed) and golden_big/ (on demand)."""
    cases = []
    for root in GOLDEN_DIRS:
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            meta_path = os.path.join(root, name, "meta.json")
            if os.path.isfile(meta_path):
                with open(meta_path) as f:
                    cases.append(GoldenCase(name, os.path.dirname(meta_path),
                                            json.load(f)))
    return cases


def golden_case(name: str) -> GoldenCase:
    for case in all_cases():
        if case.name == name:
            return case
    pytest.skip(f"golden case {name!r} is not present")


def assert_close(actual, expected, rtol, atol, what=""):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} " \
        f"!= {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} " \
        f"!= {expected.dtype}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol,
                               err_msg=what)
