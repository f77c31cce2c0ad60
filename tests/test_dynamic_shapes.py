"""Dynamic-shape models through the Lite API: ``resize`` then ``predict`` at
every input shape MindSpore ran them at (the ``shapes`` runs of a golden
case, see tools/golden/make_golden.py ``shape_runs``)."""
import pytest

import refinfer as mslite
from refinfer.tools.tensorio import read_entry

from golden_cases import all_cases, assert_close

DYNAMIC = [c for c in all_cases() if "shapes" in c.meta]


def _arrays(case, entries):
    return [read_entry(case.directory, e) for e in entries]


def _build(case):
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR)
    return model


def _predict_at(model, arrays):
    """Lite's dynamic-shape recipe: resize the input tensors, fill, predict."""
    inputs = model.get_inputs()
    model.resize(inputs, [list(a.shape) for a in arrays])
    for tensor, array in zip(inputs, arrays):
        tensor.set_data_from_numpy(array)
    return [t.get_data_to_numpy() for t in model.predict(inputs)]


def _check_run(case, model, run):
    expected = _arrays(case, run["outputs"])
    got = _predict_at(model, _arrays(case, run["inputs"]))
    assert len(got) == len(expected)
    for k, (out, exp) in enumerate(zip(got, expected)):
        assert_close(out, exp, what=f"{case.name} at {exp.shape}: output {k}",
                     **case.tolerance)


def test_dynamic_cases_exist():
    names = {c.name for c in DYNAMIC}
    assert {"dyn_mlp", "dyn_cnn", "dyn_shape_math", "dyn_shape_branch",
            "dyn_bert"} <= names


@pytest.mark.parametrize("case", DYNAMIC, ids=lambda c: c.name)
def test_declared_inputs_have_unknown_dims(case):
    shapes = [t.shape for t in _build(case).get_inputs()]
    assert any(d == -1 for shape in shapes for d in shape), shapes
    runs = case.meta["shapes"]
    assert len(runs) >= 3
    assert len({str([i["shape"] for i in r["inputs"]]) for r in runs}) == len(runs)


@pytest.mark.parametrize("case", DYNAMIC, ids=lambda c: c.name)
def test_resize_then_predict_matches_mindspore_at_every_shape(case):
    """One model object, resized from shape to shape (forwards, then back to
    the first shape: nothing from an earlier shape may stick)."""
    model = _build(case)
    runs = case.meta["shapes"]
    for run in runs + runs[:1]:
        _check_run(case, model, run)


@pytest.mark.parametrize("case", DYNAMIC, ids=lambda c: c.name)
def test_output_shapes_follow_resize(case):
    """After a resize, get_outputs() reports the new output shapes (or -1
    for models whose control flow decides them at run time); after predict
    it reports the shapes actually produced."""
    model = _build(case)
    for run in case.meta["shapes"]:
        inputs = model.get_inputs()
        model.resize(inputs, [i["shape"] for i in run["inputs"]])
        expected = [o["shape"] for o in run["outputs"]]
        before = [meta.shape for meta in model.get_outputs()]
        for shape, want in zip(before, expected):
            assert len(shape) == len(want)
            assert all(d in (-1, w) for d, w in zip(shape, want)), (shape, want)
        _check_run(case, model, run)
        assert [meta.shape for meta in model.get_outputs()] == expected


def test_predict_needs_resize_for_a_new_shape():
    case = next(c for c in DYNAMIC if c.name == "dyn_mlp")
    model = _build(case)
    first, second = case.meta["shapes"][:2]
    _check_run(case, model, first)
    inputs = model.get_inputs()
    array = _arrays(case, second["inputs"])[0]
    with pytest.raises(RuntimeError, match="data size not equal"):
        inputs[0].set_data_from_numpy(array)
