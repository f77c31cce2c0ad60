"""float16 storage with float32 arithmetic (refinfer/precision.py, the
precision ``float16``): on the CPU it runs on the reference, the oracle
of the GPU's ``preferred_fp16`` (tests/cuda/test_cuda_float16.py)."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer import executor, registry
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind
from refinfer.plan import compile_model
from refinfer.precision import to_float16
from refinfer.runtime import LoadedModel

from golden_cases import golden_case

F32 = np.dtype(np.float32)
MLP = golden_case("mlp")


def is_float16_valued(array: np.ndarray) -> bool:
    return array.dtype == F32 and np.array_equal(
        array, array.astype(np.float16).astype(F32), equal_nan=True)


def test_to_float16_rounds_float32_tensors_to_float16_values():
    x = np.array([1.0001, 3.14159, 65504, 65519, 65520, -7e4, 1e-8, np.nan], F32)
    rounded = to_float16(x)
    assert rounded.dtype == F32
    np.testing.assert_array_equal(
        rounded, [1.0, 3.140625, 65504, 65504, np.inf, -np.inf, 0.0, np.nan])
    pair = to_float16((x[:2], [x[2:4]]))
    np.testing.assert_array_equal(pair[1][0], [65504, 65504])


@pytest.mark.parametrize("value", [
    np.array([1.0001, 7e4]), np.arange(3), np.array([1.0001], np.float16),
    np.float32(1e-12), F32, "SAME", 1.0001])
def test_to_float16_leaves_everything_else(value):
    """float64, integers, float16 arrays, NumPy scalars (op attributes: an
    epsilon of 1e-12 would become 0), dtypes and Python values."""
    assert to_float16(value) is value


def mlp_in_float16_storage(x: np.ndarray) -> np.ndarray:
    """MatMul -> BiasAdd -> ReLU -> MatMul -> BiasAdd by hand in float32,
    the weights, the input and every node's result rounded to float16."""
    w = {k: to_float16(v) for k, v in LoadedModel(MLP.model_path).parameters().items()}
    h = to_float16(to_float16(x) @ w["fc1.weight"].T)
    h = np.maximum(to_float16(h + w["fc1.bias"]), 0)
    y = to_float16(h @ w["fc2.weight"].T)
    return to_float16(y + w["fc2.bias"])


def test_mlp_stores_every_value_in_float16():
    x = MLP.inputs()[0]
    stored = LoadedModel(MLP.model_path, precision="float16").run([x])[0]
    plain = LoadedModel(MLP.model_path).run([x])[0]
    assert is_float16_valued(stored)
    np.testing.assert_allclose(stored, mlp_in_float16_storage(x), rtol=1e-6, atol=0)
    assert np.max(np.abs(stored - plain)) > 1e-5     # the rounding happened
    np.testing.assert_allclose(stored, MLP.outputs()[0], rtol=1e-2, atol=1e-2)


def scale_model(factor: float) -> Model:
    """One graph: y = Mul(x, factor), factor a float32 tensor constant."""
    x = ValueInfo("g:x", Abstract("tensor", (3,), F32))
    node = Node("g:y", "Default/Mul-op0", registry.get_op("Mul"),
                [Arg(Ref(RefKind.INPUT, 0)),
                 Arg(Ref(RefKind.CONST, np.array(factor, F32)))])
    graph = Graph("g", [x], [node], Ref(RefKind.NODE, "g:y"), x)
    return Model("scale.mindir", {"g": graph}, graph, {})


def test_a_result_beyond_65504_is_inf_and_the_input_is_rounded_at_entry():
    x = np.array([100.0, -100.0, 1.0001], F32)
    y = executor.run(compile_model(scale_model(1000.0), precision="float16"), [x])
    np.testing.assert_array_equal(y, [np.inf, -np.inf, 1000.0])
    plain = executor.run(compile_model(scale_model(1000.0)), [x])
    np.testing.assert_allclose(plain, [1e5, -1e5, 1000.1], rtol=1e-6)


def test_a_constant_is_rounded_once_at_compile_time():
    program = compile_model(scale_model(1.0001), precision="float16")
    [(_, factor)] = [(p, v) for p, v in program.constants()
                     if isinstance(v, np.ndarray)]
    assert factor.dtype == F32 and factor == 1.0


def build(config_dict=None, cpu_mode=None) -> mslite.Model:
    context = mslite.Context()
    if cpu_mode is not None:
        context.cpu.precision_mode = cpu_mode
    model = mslite.Model()
    model.build_from_file(MLP.model_path, mslite.ModelType.MINDIR, context,
                          config_dict=config_dict)
    return model


def predict(model: mslite.Model) -> np.ndarray:
    inputs = model.get_inputs()
    inputs[0].set_data_from_numpy(MLP.inputs()[0])
    return model.predict(inputs)[0].get_data_to_numpy()


def test_the_config_runs_float16_storage_on_the_reference():
    model = build({"refinfer": {"precision": "float16"}})
    assert (model._loaded.backend, model._loaded.precision) == ("reference",
                                                                "float16")
    output = predict(model)
    assert is_float16_valued(output)
    np.testing.assert_allclose(output, mlp_in_float16_storage(MLP.inputs()[0]),
                               rtol=1e-6, atol=0)


def test_the_cpu_preferred_fp16_stays_float32_as_lite_on_x86():
    model = build({"refinfer": {"backend": "reference"}}, cpu_mode="preferred_fp16")
    assert model._loaded.precision == "float32"
    plain = build({"refinfer": {"backend": "reference"}})
    assert predict(model).tobytes() == predict(plain).tobytes()
