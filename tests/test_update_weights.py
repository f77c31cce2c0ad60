"""Live weight updates: ``Model.update_weights`` (Lite), ``Model.load_weights`` (checkpoints).

Golden: golden/mlp_update holds an exported MLP, new weights as MindSpore wrote them (.ckpt,
.safetensors) and MindSpore's outputs of the exported file run with those weights
(``GraphCell(load(file), params_init=new)``). Bad updates must change nothing, and a
predict running during updates must see all-old or all-new weights.
"""
from __future__ import annotations

import os
import threading

import numpy as np
import pytest

import refinfer as mslite
from golden_cases import assert_close, golden_case

CASE = "mlp_update"


@pytest.fixture(scope="module")
def case():
    return golden_case(CASE)


def built(case, **kwargs) -> mslite.Model:
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR, **kwargs)
    return model


def run(model, x) -> np.ndarray:
    return model.predict([mslite.Tensor(x)])[0].get_data_to_numpy().copy()


def new_weights(case) -> dict[str, np.ndarray]:
    return mslite.load_checkpoint(case.file("new_weights.ckpt"))


def named(weights: dict) -> list[mslite.Tensor]:
    tensors = []
    for name, array in weights.items():
        tensor = mslite.Tensor(np.array(array))
        tensor.name = name
        tensors.append(tensor)
    return tensors


def expect_updated(case, model):
    x, = case.inputs()
    assert_close(run(model, x), np.load(case.file("updated_output_0.npy")),
                 what="after the update", **case.tolerance)


def test_update_weights_gives_mindspores_outputs_with_the_new_weights(case):
    model = built(case)
    x, = case.inputs()
    assert_close(run(model, x), case.outputs()[0], what="before", **case.tolerance)
    model.update_weights([named(new_weights(case))])
    expect_updated(case, model)


@pytest.mark.parametrize("name", ["new_weights.ckpt", "new_weights.safetensors"])
def test_load_weights_from_checkpoint_files(case, name):
    model = built(case)
    assert model.load_weights(case.file(name)) == ([], [])
    expect_updated(case, model)


def test_load_weights_ignores_entries_that_are_no_weights(case):
    model = built(case)
    weights = dict(new_weights(case), **{"moments.fc1.weight": np.zeros((8, 4), np.float32),
                                          "global_step": np.int32(7)})
    del weights["fc2.bias"]
    missing, unused = model.load_weights(weights)
    assert (missing, unused) == (["fc2.bias"], ["global_step", "moments.fc1.weight"])
    with pytest.raises(RuntimeError, match="load weights failed! Error is 2 of 5 entries"):
        built(case).load_weights(weights, strict=True)


def test_the_update_copies_the_callers_arrays(case):
    model = built(case)
    weights = {k: np.array(v) for k, v in new_weights(case).items()}
    model.update_weights([named(weights)])
    for array in weights.values():
        array[...] = 0
    expect_updated(case, model)


# -- bad updates change nothing ---------------------------------------------------------------
BAD_UPDATES = {
    "unknown name": ({"fc3.weight": np.zeros((3, 8), np.float32)}, "no weight named 'fc3.weight'"),
    "shape": ({"fc1.weight": np.zeros((4, 8), np.float32)},
              r"'fc1.weight' is float32\[8, 4\], got float32\[4, 8\]"),
    "dtype": ({"fc1.bias": np.zeros(8, np.float64)},
              r"'fc1.bias' is float32\[8\], got float64\[8\]"),
}


@pytest.mark.parametrize("what", BAD_UPDATES)
def test_a_bad_update_changes_nothing(case, what):
    bad, message = BAD_UPDATES[what]
    model = built(case)
    x, = case.inputs()
    before = run(model, x)
    good_and_bad = dict(new_weights(case), **bad)
    with pytest.raises(RuntimeError, match="update weight failed! Error is .*" + message) \
            as info:
        model.update_weights([named(good_and_bad)])
    assert model.model_path_ in str(info.value)
    np.testing.assert_array_equal(run(model, x), before)


def test_unnamed_tensors_need_variable_weights_file(case):
    with pytest.raises(RuntimeError, match="weight tensor 0 has no name"):
        built(case).update_weights([[mslite.Tensor(np.zeros(8, np.float32))]])


@pytest.mark.parametrize("weights, message", [
    ((), "weights must be list, but got <class 'tuple'>."),
    ([()], "weight must be list, but got <class 'tuple'>."),
    ([[mslite.Tensor(np.zeros(2, np.float32)), "x"]],
     "weights element must be Tensor, but got <class 'str'> as index 01."),
])
def test_lite_argument_checks(case, weights, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        built(case).update_weights(weights)


# -- Lite's config.ini form -------------------------------------------------------------------
def write_config(tmp_path, names) -> str:
    (tmp_path / "update_weight_name_list.txt").write_text("\n".join(names) + "\n")
    config = tmp_path / "config.ini"
    config.write_text('[ascend_context]\nvariable_weights_file="update_weight_name_list.txt"\n')
    return str(config)


def test_variable_weights_file_names_unnamed_tensors_in_order(case, tmp_path):
    """The reference page's form: ``model.update_weights([[mslite.Tensor(data)]])``."""
    weights = new_weights(case)
    model = built(case, config_path=write_config(tmp_path, list(weights)))
    model.update_weights([[mslite.Tensor(np.array(a)) for a in weights.values()]])
    expect_updated(case, model)


def test_variable_weights_file_limits_what_may_change(case, tmp_path):
    model = built(case, config_path=write_config(tmp_path, ["fc1.weight"]))
    with pytest.raises(RuntimeError, match="'fc2.bias' is not listed in variable_weights_file"):
        model.update_weights([named({"fc2.bias": np.zeros(3, np.float32)})])


def test_variable_weights_file_with_an_unknown_name_fails_the_build(case, tmp_path):
    with pytest.raises(RuntimeError, match="names weights the model does not have: fc9.bias"):
        built(case, config_path=write_config(tmp_path, ["fc9.bias"]))


# -- concurrency --------------------------------------------------------------------------------
def test_a_concurrent_predict_sees_all_old_or_all_new_weights(case):
    """Three threads predict while the weights flip between two sets: every output must be
    one of the two outputs (a mix of fc1 from one set and fc2 from the other is neither)."""
    model = built(case)
    x, = case.inputs()
    old = {k: np.array(v) for k, v in model._loaded.parameters().items()}
    new = new_weights(case)
    expected = [run(model, x)]
    model.update_weights([named(new)])
    expected.append(run(model, x))
    mixed = dict(old, **{k: v for k, v in new.items() if k.startswith("fc1")})
    model.update_weights([named(mixed)])
    assert not any(np.array_equal(run(model, x), e) for e in expected), "mix undetectable"
    model.update_weights([named(old)])

    stop, seen, errors = threading.Event(), [], []

    def client():
        while not stop.is_set():
            out = run(model, x)
            if not any(np.array_equal(out, e) for e in expected):
                errors.append(out)
            seen.append(out)

    threads = [threading.Thread(target=client) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for k in range(60):
            model.update_weights([named(new if k % 2 else old)])
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert seen and not errors, f"{len(errors)} of {len(seen)} outputs mixed old and new"


def test_unbuilt_model(case):
    with pytest.raises(RuntimeError, match="not built"):
        mslite.Model().update_weights([])
    assert os.path.exists(case.file("new_weights.ckpt"))
