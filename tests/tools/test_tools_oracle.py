"""The float64 oracle: a float32 model compiled to run in float64."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer import executor, registry
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind
from refinfer.plan import compile_model
from refinfer.precision import to_float64
from refinfer.runtime import LoadedModel

from helpers_tools import (golden_file, golden_inputs, golden_meta,
                           golden_model, read_json, run_cli)

MLP = golden_file("mlp", "model.mindir")


def oracle(case: str) -> LoadedModel:
    return LoadedModel(golden_file(case, golden_meta(case)["model_file"]),
                       precision="float64")


def mlp_in_float64(x: np.ndarray) -> np.ndarray:
    """Dense(4,8) -> ReLU -> Dense(8,3) by hand, in float64, from the
    model's own weights."""
    w = {k: v.astype(np.float64)
         for k, v in golden_model("mlp").parameters().items()}
    hidden = np.maximum(x.astype(np.float64) @ w["fc1.weight"].T
                        + w["fc1.bias"], 0.0)
    return hidden @ w["fc2.weight"].T + w["fc2.bias"]


def test_oracle_is_closer_to_exact_float64_than_float32():
    x = golden_inputs("mlp")[0]
    exact = mlp_in_float64(x)
    float32 = golden_model("mlp").run([x])[0]
    float64 = oracle("mlp").run([x])[0]
    assert float32.dtype == np.float32 and float64.dtype == np.float64
    np.testing.assert_allclose(float64, exact, rtol=1e-13, atol=1e-15)
    error32 = np.max(np.abs(float32 - exact))
    assert 0 < error32 < 1e-6                      # float32 rounding
    assert np.max(np.abs(float64 - exact)) < error32 / 1e6


@pytest.mark.parametrize("case", ["lenet5", "multi_output", "ctrl_if",
                                  "ctrl_if_neg"])
def test_oracle_and_float32_differ_by_rounding_only(case):
    inputs = golden_inputs(case)
    plain = golden_model(case).run(inputs)
    widened = oracle(case).run(inputs)
    for a, b in zip(plain, widened):
        assert b.dtype == np.float64
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert any(np.any(a != b) for a, b in zip(plain, widened))


def test_oracle_loop_is_exact_where_float32_drifts():
    """10,000 times x + 1: float32 rounds at every step, float64 is exact
    (x has 24 significant bits, x + 10,000 needs fewer than 53)."""
    x, n = golden_inputs("ctrl_while_long")
    exact = x.astype(np.float64) + int(n)
    widened = oracle("ctrl_while_long").run([x, n])[0]
    plain = golden_model("ctrl_while_long").run([x, n])[0]
    np.testing.assert_array_equal(widened, exact)
    assert np.max(np.abs(plain - exact)) > 1e-4


def cast_model(dtype) -> Model:
    """One graph: y = Cast(x, dtype)."""
    cast = registry.get_op("Cast")
    x = ValueInfo("g:x", Abstract("tensor", (3,), np.dtype(np.float32)))
    node = Node("g:y", "Default/Cast-op0", cast,
                [Arg(Ref(RefKind.INPUT, 0)),
                 Arg(Ref(RefKind.CONST, np.dtype(dtype)))])
    graph = Graph("g", [x], [node], Ref(RefKind.NODE, "g:y"), x)
    return Model("cast.mindir", {"g": graph}, graph, {})


@pytest.mark.parametrize("target, float32_result, float64_result", [
    (np.float32, np.float32, np.float64),     # Cast to float32 keeps float64
    (np.float16, np.float16, np.float16),
    (np.int32, np.int32, np.int32),
])
def test_oracle_maps_dtype_arguments(target, float32_result, float64_result):
    x = np.array([1.5, -2.25, 3.0], np.float32)
    for precision, expected in (("float32", float32_result),
                                ("float64", float64_result)):
        program = compile_model(cast_model(target), precision=precision)
        y = executor.run(program, [x])
        assert y.dtype == expected
        np.testing.assert_array_equal(y, x.astype(expected))


def test_to_float64_leaves_other_values():
    assert to_float64(np.float32(1.5)).dtype == np.float64
    assert to_float64((np.ones(2, np.float32), 3))[0].dtype == np.float64
    ints = np.arange(3)
    assert to_float64(ints) is ints
    assert to_float64("SAME") == "SAME"


def test_unknown_precision():
    with pytest.raises(ValueError, match="unknown precision 'bfloat16'"):
        LoadedModel(MLP, precision="bfloat16")


def build(config_dict=None, config_path=""):
    model = mslite.Model()
    model.build_from_file(MLP, mslite.ModelType.MINDIR,
                          config_path=config_path, config_dict=config_dict)
    return model


def test_api_config_dict_and_cast_back():
    x = golden_inputs("mlp")[0]
    wide = build({"refinfer": {"precision": "float64"}}).predict([x])[0]
    assert wide.dtype == mslite.DataType.FLOAT64
    np.testing.assert_allclose(wide.get_data_to_numpy(), mlp_in_float64(x),
                               rtol=1e-13)
    back = build({"refinfer": {"precision": "float64",
                               "cast_outputs": "true"}}).predict([x])[0]
    assert back.dtype == mslite.DataType.FLOAT32
    assert back.get_data_to_numpy().tobytes() == \
        wide.get_data_to_numpy().astype(np.float32).tobytes()


def test_api_config_file(tmp_path):
    config = tmp_path / "config.ini"
    config.write_text("[refinfer]\nprecision=float64\n")
    output = build(config_path=str(config)).predict(golden_inputs("mlp"))[0]
    assert output.dtype == mslite.DataType.FLOAT64


@pytest.mark.parametrize("section, message", [
    ({"precision": "bfloat16"}, "precision='bfloat16'"),
    ({"cast_outputs": "maybe"}, "cast_outputs='maybe'"),
    ({"precison": "float64"}, "unknown key(s) in [refinfer]: precison"),
])
def test_api_bad_settings(section, message):
    with pytest.raises(RuntimeError, match=message.replace("[", r"\[")
                       .replace("(", r"\(").replace(")", r"\)")):
        build({"refinfer": section})


def test_cli_run_float64(capsys):
    code, out, _ = run_cli(capsys, "run", MLP, "--input",
                           golden_file("mlp", "input_0.npy"), "--float64")
    assert code == 0 and "data size is:48 " in out      # 6 float64 values
    code, out, _ = run_cli(capsys, "run", MLP, "--input",
                           golden_file("mlp", "input_0.npy"), "--oracle",
                           "--cast-outputs")
    assert code == 0 and "data size is:24 " in out


def test_cli_golden_float64(tmp_path, capsys):
    out = tmp_path / "g"
    code, _, _ = run_cli(capsys, "golden", MLP, "--input",
                         golden_file("mlp", "input_0.npy"), "--out", out,
                         "--float64")
    assert code == 0
    output = np.load(out / "output_0.npy")
    assert output.dtype == np.float64
    np.testing.assert_allclose(output, mlp_in_float64(golden_inputs("mlp")[0]),
                               rtol=1e-13)


def test_cli_dump_float64(tmp_path, capsys):
    out = tmp_path / "d"
    code, _, _ = run_cli(capsys, "dump", MLP, "--out", out, "--float64")
    assert code == 0
    manifest = read_json(out / "manifest.json")
    assert manifest["precision"] == "float64"
    assert {t["dtype"] for t in manifest["tensors"]} == {"float64"}
    assert manifest["inputs"][0]["dtype"] == "float32"     # as given
