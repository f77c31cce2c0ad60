"""``LiteInfer``: a clear error without MindSpore (the dev venv has none); with a
stand-in ``mindspore`` module, the cell is exported, read as bytes and built."""
import os
import shutil
import sys
import types

import numpy as np
import pytest

import refinfer as mslite
from refinfer import LiteInfer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "golden")
RTOL, ATOL = 1e-5, 1e-6


def test_without_mindspore_the_error_says_what_to_do(monkeypatch):
    monkeypatch.setitem(sys.modules, "mindspore", None)     # import fails
    with pytest.raises(ImportError) as caught:
        LiteInfer(object())
    message = str(caught.value)
    assert message.startswith("For 'LiteInfer', import mindspore fail. ")
    assert "pip install mindspore" in message
    assert "Model().build_from_file('net.mindir', ModelType.MINDIR)" in message


@pytest.fixture
def fake_mindspore(monkeypatch):
    """A ``mindspore`` whose ``export`` writes a golden case's files for a cell
    whose ``case`` names it."""
    ms = types.ModuleType("mindspore")

    class Cell:
        def __init__(self, case):
            self.case = case

    class TrainModel:
        def __init__(self, network):
            self.predict_network = network

    def export(net, *inputs, file_name, file_format):
        assert file_format == "MINDIR" and len(inputs) == 1
        if net.case == "mlp_split":
            shutil.copy(os.path.join(GOLDEN, "mlp_split", "model_graph.mindir"),
                        file_name + "_graph.mindir")
            shutil.copytree(os.path.join(GOLDEN, "mlp_split", "model_variables"),
                            file_name + "_variables")
        elif net.case == "broken":
            raise KeyError("unsupported construct")
        else:
            shutil.copy(os.path.join(GOLDEN, net.case, "model.mindir"),
                        file_name + ".mindir")

    ms.nn = types.SimpleNamespace(Cell=Cell)
    ms.train = types.SimpleNamespace(Model=TrainModel)
    ms.export = export
    monkeypatch.setitem(sys.modules, "mindspore", ms)
    return ms


@pytest.mark.parametrize("case", ["mlp", "mlp_split"])
def test_a_cell_is_exported_and_built(fake_mindspore, case):
    x = np.load(os.path.join(GOLDEN, case, "input_0.npy"))
    model = LiteInfer(fake_mindspore.nn.Cell(case), x)
    assert [t.shape for t in model.get_inputs()] == [[2, 4]]
    y = model.predict([x])[0].get_data_to_numpy()
    np.testing.assert_allclose(y, np.load(os.path.join(GOLDEN, case, "output_0.npy")),
                               RTOL, ATOL)


def test_a_train_model_uses_its_predict_network(fake_mindspore):
    x = np.load(os.path.join(GOLDEN, "mlp", "input_0.npy"))
    model = LiteInfer(fake_mindspore.train.Model(fake_mindspore.nn.Cell("mlp")), x,
                      config={"refinfer": {"backend": "reference"}})
    assert model.config["refinfer"] == {"backend": "reference"}


def test_export_failures_name_the_cell(fake_mindspore):
    with pytest.raises(RuntimeError, match=r"^LiteInfer failed! Error is "
                       r"mindspore.export of Cell: KeyError: 'unsupported construct'"):
        LiteInfer(fake_mindspore.nn.Cell("broken"), np.zeros(1))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"model_or_net": 1}, ValueError, "For LiteInfer, input model_or_net should be "
     "ms.train.Model or ms.nn.Cell, but got <class 'int'>."),
    ({"context": "cpu"}, TypeError, "context must be Context, but got <class 'str'>."),
    ({"model_group_id": "1"}, TypeError,
     "model_group_id must be int, but got <class 'str'>."),
    ({"config": []}, TypeError, "config must be dict, but got <class 'list'>."),
    ({"config": {1: {}}}, TypeError, "config_key must be str, but got <class 'int'>."),
    ({"config": {"configPath": 1}}, TypeError,
     "config_value must be str, but got <class 'int'>."),
    ({"config": {"s": {"k": 1}}}, TypeError,
     "config_value_value must be str, but got <class 'int'>."),
])
def test_argument_checks(fake_mindspore, kwargs, error, message):
    net = kwargs.pop("model_or_net", fake_mindspore.nn.Cell("mlp"))
    with pytest.raises(error) as caught:
        LiteInfer(net, np.zeros((2, 4), np.float32), **kwargs)
    assert str(caught.value) == message


def test_exported_from_the_package():
    assert mslite.LiteInfer is LiteInfer
