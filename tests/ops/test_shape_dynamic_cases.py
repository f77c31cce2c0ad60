"""Per-op golden cases exported with unknown input dims (op_cases ``dynamic=True``):
ops MindSpore constant-folds away in static graphs (ZerosLike, OnesLike) or only
builds from shape arithmetic (Arange, LinSpaceExt). Lite's recipe: resize the
inputs to the case's shapes, fill, predict."""
import glob
import json
import os

import numpy as np
import pytest

import refinfer as mslite
from refinfer.tools.tensorio import read_entry

OPS_GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "golden", "ops")


def _dynamic_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(OPS_GOLDEN, "*", "meta.json"))):
        with open(path) as f:
            meta = json.load(f)
        if meta.get("dynamic_shape"):
            cases.append((os.path.dirname(path), meta))
    return cases


CASES = _dynamic_cases()


def test_dynamic_op_cases_exist():
    ops = {op for _, meta in CASES for op in meta["op"]}
    assert {"ZerosLike", "OnesLike", "Arange", "LinSpaceExt"} <= ops


@pytest.mark.parametrize("folder,meta", CASES, ids=[m["case"] for _, m in CASES])
def test_dynamic_op_case_matches_golden(folder, meta):
    model = mslite.Model()
    model.build_from_file(os.path.join(folder, meta["model_file"]),
                          mslite.ModelType.MINDIR)
    inputs = model.get_inputs()
    assert any(d == -1 for t in inputs for d in t.shape)
    arrays = [read_entry(folder, i) for i in meta["inputs"]]
    model.resize(inputs, [list(a.shape) for a in arrays])
    for tensor, array in zip(inputs, arrays):
        tensor.set_data_from_numpy(array)
    outputs = [t.get_data_to_numpy() for t in model.predict(inputs)]
    expected = [read_entry(folder, o) for o in meta["outputs"]]
    assert len(outputs) == len(expected)
    for got, exp in zip(outputs, expected):
        assert got.dtype == exp.dtype and got.shape == exp.shape
        np.testing.assert_allclose(got, exp, **meta["tolerance"])
