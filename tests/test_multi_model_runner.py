"""``MultiModelRunner`` / ``ModelExecutor``: a MindSpore MindIR is one model, so
one executor that runs it as ``Model.predict``; Lite's checks and messages."""
import os

import numpy as np
import pytest

import refinfer as mslite
from refinfer import ModelExecutor, ModelType, MultiModelRunner
from refinfer.format.schema import ModelProto

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP_DIR = os.path.join(ROOT, "golden", "mlp")
MLP = os.path.join(MLP_DIR, "model.mindir")
X = np.load(os.path.join(MLP_DIR, "input_0.npy"))
EXPECTED = np.load(os.path.join(MLP_DIR, "output_0.npy"))
RTOL, ATOL = 1e-5, 1e-6


def built_runner() -> MultiModelRunner:
    runner = MultiModelRunner()
    runner.build_from_file(MLP, ModelType.MINDIR)
    return runner


def test_one_executor_runs_the_model():
    runner = built_runner()
    executors = runner.get_model_executor()
    assert len(executors) == 1 and runner.get_runner_exec() == executors
    executor = executors[0]
    inputs = executor.get_inputs()
    assert [(t.name, t.shape, t.dtype) for t in inputs] == [
        ("x", [2, 4], mslite.DataType.FLOAT32)]
    metas = executor.get_outputs()
    assert [(m.shape, m.dtype) for m in metas] == [(list(EXPECTED.shape),
                                                    mslite.DataType.FLOAT32)]
    inputs[0].set_data_from_numpy(X)
    for given in (inputs, [X], (X,)):
        out = executor.predict(given)
        np.testing.assert_allclose(out[0].get_data_to_numpy(), EXPECTED, RTOL, ATOL)


def test_predict_into_given_outputs():
    executor = built_runner().get_model_executor()[0]
    target = mslite.Tensor()
    out = executor.predict([X], [target])
    assert out[0] is target
    np.testing.assert_allclose(target.get_data_to_numpy(), EXPECTED, RTOL, ATOL)


@pytest.mark.parametrize("inputs, outputs, error, message", [
    (X, None, TypeError,
     "inputs must be list or tuple, but got <class 'numpy.ndarray'>."),
    ([1.0], None, TypeError, "inputs element must be Tensor, or numpy."),
    ([X], (), TypeError, "outputs must be list, but got <class 'tuple'>."),
    ([X], [1], TypeError, "outputs element must be Tensor, but got <class 'int'> at "
     "index 0."),
])
def test_predict_checks(inputs, outputs, error, message):
    executor = built_runner().get_model_executor()[0]
    with pytest.raises(error) as caught:
        executor.predict(inputs, outputs)
    assert str(caught.value) == message


def test_an_empty_executor_has_nothing_to_run():
    executor = ModelExecutor()
    assert executor.get_inputs() == [] and executor.get_outputs() == []
    with pytest.raises(RuntimeError, match="^predict failed!$"):
        executor.predict([X])


@pytest.mark.parametrize("args, error, message", [
    ((1, ModelType.MINDIR), TypeError, "model_path must be str, but got <class 'int'>."),
    ((MLP, 0), TypeError, "model_type must be ModelType, but got <class 'int'>."),
    ((MLP, ModelType.MINDIR, "cpu"), TypeError,
     "context must be Context, but got <class 'str'>."),
    ((MLP, ModelType.MINDIR, None, None), TypeError,
     "config_path must be str, but got <class 'NoneType'>."),
    (("/no/model.mindir", ModelType.MINDIR), RuntimeError,
     "build_from_file failed, model_path does not exist!"),
    ((MLP, ModelType.MINDIR_LITE), RuntimeError,
     "build_from_file failed, model_type only support MINDIR!"),
    ((MLP, ModelType.MINDIR, None, "/no/config.ini"), RuntimeError,
     "build_from_file failed, config_path does not exist!"),
])
def test_build_checks(args, error, message):
    runner = MultiModelRunner()
    with pytest.raises(error) as caught:
        runner.build_from_file(*args)
    assert str(caught.value) == message
    assert runner.get_model_executor() == []


def test_a_file_that_is_no_model_names_itself(tmp_path):
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x08\x01garbage")
    with pytest.raises(RuntimeError, match=r"build_from_file failed! Error is "
                       r".*bad\.mindir"):
        MultiModelRunner().build_from_file(str(bad), ModelType.MINDIR)


def test_ascend_om_sub_models_are_named_as_unsupported(tmp_path):
    proto = ModelProto()
    with open(MLP, "rb") as f:
        proto.ParseFromString(f.read())
    for primitive in proto.primitives:
        if "ReLU" in primitive.op_type:
            primitive.op_type = "CustomAscend"
    om = tmp_path / "om.mindir"
    om.write_bytes(proto.SerializeToString())
    with pytest.raises(RuntimeError, match=r"build_from_file failed! Error is "
                       r".*om\.mindir: 1 unsupported op\(s\):\n  CustomAscend"):
        MultiModelRunner().build_from_file(str(om), ModelType.MINDIR)
