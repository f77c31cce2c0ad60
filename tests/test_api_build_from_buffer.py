"""``Model.build_from_buffer``: the reader reads the model's bytes, and split
weights from ``weight_bytes`` (or next to ``[model_file] mindir_path``), with
Lite's argument checks."""
import os

import numpy as np
import pytest

import refinfer as mslite

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP = os.path.join(ROOT, "golden", "mlp")
SPLIT = os.path.join(ROOT, "golden", "mlp_split")
SPLIT_GRAPH = os.path.join(SPLIT, "model_graph.mindir")
RTOL, ATOL = 1e-5, 1e-6


def read(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def predict(model, case_dir) -> np.ndarray:
    x = np.load(os.path.join(case_dir, "input_0.npy"))
    return model.predict([x])[0].get_data_to_numpy()


def expected(case_dir) -> np.ndarray:
    return np.load(os.path.join(case_dir, "output_0.npy"))


def test_embedded_weights_from_bytes_match_golden():
    model = mslite.Model()
    model.build_from_buffer(read(os.path.join(MLP, "model.mindir")), None,
                            mslite.ModelType.MINDIR)
    np.testing.assert_allclose(predict(model, MLP), expected(MLP), RTOL, ATOL)
    assert str(model) == "model_path: model_bytes."


def test_split_weights_from_weight_bytes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)         # no model_variables/ to find by accident
    model = mslite.Model()
    model.build_from_buffer(read(SPLIT_GRAPH),
                            read(os.path.join(SPLIT, "model_variables", "data_0")))
    np.testing.assert_allclose(predict(model, SPLIT), expected(SPLIT), RTOL, ATOL)


def test_split_weights_next_to_mindir_path():
    model = mslite.Model()
    model.build_from_buffer(read(SPLIT_GRAPH), config_dict={
        "model_file": {"mindir_path": SPLIT_GRAPH}})
    np.testing.assert_allclose(predict(model, SPLIT), expected(SPLIT), RTOL, ATOL)
    assert model.model_path_ == SPLIT_GRAPH


def test_split_weights_missing_name_the_file_looked_for(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match=r"build_from_buffer failed! Error is "
                       r"model_bytes: parameter '.*fc1.weight': weight file "
                       r"'.*model_variables/data_0' does not exist"):
        mslite.Model().build_from_buffer(read(SPLIT_GRAPH))


def test_short_weight_bytes_are_a_clear_error():
    with pytest.raises(RuntimeError, match="weight file 'weight_bytes' is shorter "
                       "than its 64-byte header"):
        mslite.Model().build_from_buffer(read(SPLIT_GRAPH), b"\x01" * 40)


def test_truncated_model_bytes_are_a_clear_error():
    with pytest.raises(RuntimeError, match=r"build_from_buffer failed! Error is "
                       r"model_bytes: not a MindIR file, or the file is truncated"):
        mslite.Model().build_from_buffer(read(SPLIT_GRAPH)[:100])


@pytest.mark.parametrize("kwargs, error, message", [
    ({"model_bytes": "model.mindir"}, TypeError,
     "model_bytes must be bytes, but got <class 'str'>."),
    ({"weight_bytes": bytearray(b"x")}, TypeError,
     "weight_bytes must be bytes, but got <class 'bytearray'>."),
    ({"model_type": 0}, TypeError,
     "model_type must be ModelType, but got <class 'int'>."),
    ({"context": "cpu"}, TypeError,
     "context must be Context, but got <class 'str'>."),
    ({"config_path": None}, TypeError,
     "config_path must be str, but got <class 'NoneType'>."),
    ({"model_bytes": b""}, RuntimeError,
     "build_from_buffer failed! Error is model_bytes is empty"),
    ({"config_path": "/no/such/config.ini"}, RuntimeError,
     "build_from_buffer failed, config_path does not exist!"),
    ({"model_type": mslite.ModelType.MINDIR_LITE}, RuntimeError,
     "build_from_buffer failed! Error is only ModelType.MINDIR files are "
     "supported"),
    ({"config_dict": {"cpu_context": {"shareable_weight_pid_list": "1"}}},
     RuntimeError, "build_from_buffer failed! Error is weight sharing between "
     "processes needs build_from_file"),
])
def test_lite_argument_checks(kwargs, error, message):
    arguments = {"model_bytes": read(os.path.join(MLP, "model.mindir")), **kwargs}
    with pytest.raises(error) as caught:
        mslite.Model().build_from_buffer(**arguments)
    assert str(caught.value).startswith(message)
