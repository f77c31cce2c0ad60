"""Lite's GPU precision modes on the device plan: ``preferred_fp16`` is
float16 storage with float32 arithmetic (refinfer/cuda/storage.py), equal
to the CPU reference's float16 precision and a measurable rounding away
from float32; ``enforce_fp32`` is the float32 plan as before."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer import executor, gpu, registry
from refinfer.cuda import device, load_kernels, plan as device_plan, storage
from refinfer.format.reader import ValueInfo
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Graph, Model, Node, Ref, RefKind
from refinfer.runtime import LoadedModel

from golden_cases import golden_case    # tests/, on the path by conftest.py

F32 = np.dtype(np.float32)
# A dense net and a small CNN (Conv2D, BatchNorm, pools, a tuple result).
MODELS = ["mlp", "conv1d_net"]


def build(name: str, mode: str | None, target: str = "gpu") -> mslite.Model:
    context = mslite.Context()
    context.target = [target]
    if mode is not None:
        context.gpu.precision_mode = mode
    model = mslite.Model()
    model.build_from_file(golden_case(name).model_path, mslite.ModelType.MINDIR,
                          context, config_dict={"refinfer": {"backend": "reference"}})
    return model


def predict(model: mslite.Model, name: str) -> list[np.ndarray]:
    outputs = model.predict(golden_case(name).inputs())
    return [o.get_data_to_numpy() for o in outputs]


def test_store_rounds_float32_device_arrays_in_place():
    x = np.array([1.0001, 3.14159, 65504, 65519, 65520, -7e4, 1e-8, np.nan], F32)
    on_device = device.to_device(x)
    wide = device.to_device(x.astype(np.float64))
    host = np.array([1.0001], F32)
    stored = storage.store((on_device, [wide, host]))
    assert stored[0] is on_device and stored[1][0] is wide
    np.testing.assert_array_equal(
        device.to_host(on_device),
        [1.0, 3.140625, 65504, 65504, np.inf, -np.inf, 0.0, np.nan])
    np.testing.assert_array_equal(device.to_host(wide), x.astype(np.float64))
    np.testing.assert_array_equal(stored[1][1], [1.0])
    assert storage.storage("float16") is storage.store
    assert storage.storage("float32") is None and storage.storage("float64") is None


@pytest.mark.parametrize("name", MODELS)
def test_preferred_fp16_is_the_cpu_float16_precision(name):
    """Through the Lite API: the context's mode reaches the plan; the run
    equals the CPU reference in float16 storage, differs from float32 by
    the rounding and stays near MindSpore's float32 outputs; the host
    crossings are the float32 plan's."""
    fp16, fp32 = build(name, "preferred_fp16"), build(name, "enforce_fp32")
    assert (fp16._loaded.backend, fp16._loaded.precision) == ("cuda", "float16")
    assert fp16._loaded.program.precision == "float16"
    half, single = predict(fp16, name), predict(fp32, name)
    oracle = LoadedModel(golden_case(name).model_path, precision="float16")
    expected = oracle.run(golden_case(name).inputs())
    for got, want, plain, golden in zip(half, expected, single,
                                        golden_case(name).outputs()):
        assert got.dtype == F32
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert np.max(np.abs(got - plain)) > 1e-5
        np.testing.assert_allclose(got, golden, rtol=1e-2, atol=1e-2)
    assert fp16.host_transfers() == fp32.host_transfers()
    assert device_plan.describe(fp16._loaded.program) == \
        device_plan.describe(fp32._loaded.program)


def test_enforce_fp32_is_the_float32_plan_as_before():
    """enforce_fp32 (Lite's default) compiles the plan float32 and
    predicts bit for bit what a context left at its default does."""
    fp32, default = build("mlp", "enforce_fp32"), build("mlp", None)
    assert fp32._loaded.precision == default._loaded.precision == "float32"
    assert all(a.tobytes() == b.tobytes() for a, b in
               zip(predict(fp32, "mlp"), predict(default, "mlp")))
    case = golden_case("mlp")
    np.testing.assert_allclose(predict(fp32, "mlp")[0], case.outputs()[0],
                               **case.tolerance)


def test_the_gpu_mode_is_dropped_where_the_target_falls_back_to_the_cpu(monkeypatch):
    monkeypatch.setattr(gpu, "available", lambda: False)
    context = mslite.Context()
    context.target = ["gpu", "cpu"]
    context.gpu.precision_mode = "preferred_fp16"
    model = mslite.Model()
    model.build_from_file(golden_case("mlp").model_path, mslite.ModelType.MINDIR,
                          context)
    assert (model._loaded.backend, model._loaded.precision) == ("numba", "float32")


def test_float64_asked_for_wins_over_preferred_fp16():
    context = mslite.Context()
    context.target = ["gpu"]
    context.gpu.precision_mode = "preferred_fp16"
    model = mslite.Model()
    model.build_from_file(golden_case("mlp").model_path, mslite.ModelType.MINDIR,
                          context, config_dict={"refinfer": {"precision": "float64"}})
    assert (model._loaded.backend, model._loaded.precision) == ("reference",
                                                                "float64")


def scale_model() -> Model:
    """One graph: y = Mul(x, 1000), the factor a float32 tensor constant."""
    x = ValueInfo("g:x", Abstract("tensor", (3,), F32))
    node = Node("g:y", "Default/Mul-op0", registry.get_op("Mul"),
                [Arg(Ref(RefKind.INPUT, 0)),
                 Arg(Ref(RefKind.CONST, np.array(1000.0, F32)))],
                None, Abstract("tensor", (3,), F32))
    graph = Graph("g", [x], [node], Ref(RefKind.NODE, "g:y"), x)
    return Model("scale.mindir", {"g": graph}, graph, {})


def test_a_device_result_beyond_65504_is_inf():
    """Mul runs on the device; its result is rounded there: one copy in,
    one out, no kernel declined."""
    load_kernels()
    program = gpu.compile_model(scale_model(), precision="float16")
    x = np.array([100.0, -100.0, 1.0001], F32)
    with gpu.running(program) as transfers:
        y = executor.run(program, [x])
    np.testing.assert_array_equal(y, [np.inf, -np.inf, 1000.0])
    assert (transfers.to_device, transfers.to_host, transfers.declined) == (1, 1, 0)
