"""tools/bench_layers.py: refinfer's side times every kernel step of the
fused plan and gives the steps their kernels back; layers pair with ONNX
Runtime's profile by activation and weight size; the report ranks the gaps
and sums them by kind. Its speed numbers come from running the tool."""
import importlib.util
import os
import sys

import pytest

from golden_cases import assert_close, golden_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_tool():
    """tools/bench_layers.py as a module (tools/ is no package; it imports
    tools/bench.py by name, as when it runs)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_layers", os.path.join(ROOT, "tools", "bench_layers.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_layers"] = module    # (its dataclass looks it up)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(os.path.join(ROOT, "tools"))
    return module


tool = _load_tool()
Layer = tool.Layer


def test_refinfer_side_times_every_kernel_step_and_restores_them():
    case = golden_case("lenet5")
    x = case.inputs()[0]
    layers = tool.refinfer_layers(case.model_path, x, 1, 2)(2)
    convs = [layer for layer in layers if len(layer.weight) == 4]
    assert [layer.weight[1:] for layer in convs] == [(1, 5, 5), (6, 5, 5)]
    assert convs[0].activation == x.shape and convs[0].kind == "kxk conv"
    assert convs[0].output[:2] == (1, 6) and layers[-1].output == (1, 10)
    assert all(layer.ms > 0 for layer in layers)
    assert any(layer.kind == "product" for layer in layers)


@pytest.mark.parametrize("enabled", [True, False])
def test_a_packed_weight_counts_by_its_shape(monkeypatch, enabled):
    """resnet18_narrow's convolutions with a residual hold a packed weight
    where the packed product is enabled: the layers keep their weight
    shapes, and so their kinds, either way."""
    from refinfer.ops._kernels import packed
    monkeypatch.setattr(packed, "enabled", lambda: enabled)
    case = golden_case("resnet18_narrow")
    layers = tool.refinfer_layers(case.model_path, case.inputs()[0], 1, 1)(1)
    residual = [layer for layer in layers if layer.op.endswith("+Add+ReLU")]
    assert len(residual) == 8
    assert all(layer.kind == "kxk conv" and len(layer.weight) == 4
               for layer in residual)


def test_timed_steps_give_the_kernels_back():
    case = golden_case("lenet5")
    from refinfer.runtime import LoadedModel
    loaded = LoadedModel(case.model_path, "numba")
    plan = loaded.program.plans[loaded.program.main]
    kernels = [step.fn for step in plan.steps]
    timed = tool._TimedSteps(plan)
    assert all(step.fn is not kernel for step, kernel in zip(plan.steps, kernels))
    x = case.inputs()[0]
    assert_close(loaded.run([x])[0], case.outputs()[0], 1e-4, 1e-5, "timed")
    assert all(seconds > 0 for seconds in timed.seconds)
    timed.restore()
    assert [step.fn for step in plan.steps] == kernels


def test_layers_pair_by_family_and_sizes():
    conv = Layer("Conv2D+ReLU", (1, 16, 8, 8), (32, 16, 1, 1), 2.0, (1, 32, 8, 8))
    dense = Layer("MatMul+BiasAdd", (1, 64), (64, 10), 1.0, (1, 10))
    pool = Layer("ReduceMean", (1, 32, 8, 8), (), 0.3, (1, 32))
    mine = [conv, pool, dense, Layer("Softmax", (1, 10), (), 0.1, (1, 10))]
    peers = [Layer("ReorderOutput", (1, 32, 8, 8), (), 0.05, (1, 32, 8, 8)),
             Layer("Conv", (1, 16, 8, 8), (32, 16, 1, 1), 1.0, (1, 32, 8, 8)),
             Layer("ReduceMean", (1, 32, 8, 8), (), 0.2, (1, 32, 1, 1)),
             Layer("Gemm", (1, 64), (10,), 0.5, (1, 12))]   # another size
    pairs = tool.match(mine, peers)
    names = [(m and m.op, p and p.op) for m, p in pairs]
    assert names == [("Conv2D+ReLU", "Conv"), ("ReduceMean", "ReduceMean"),
                     ("MatMul+BiasAdd", "Gemm"), ("Softmax", None),
                     (None, "ReorderOutput")]


def test_products_pair_by_their_result_size():
    """A Gemm's weight is not in ONNX Runtime's profile: the result tells
    the up projection from the others."""
    mine = [Layer("MatMul", (128, 768), (768, 3072), 2.0, (128, 3072)),
            Layer("MatMul", (128, 768), (768, 768), 1.0, (128, 768))]
    peers = [Layer("Reshape", (1, 128, 768), (2,), 0.1, (128, 768)),
             Layer("Gemm", (128, 768), (768,), 0.5, (128, 768)),
             Layer("Gemm", (128, 768), (3072,), 1.5, (128, 3072))]
    assert tool.match(mine, peers) == [(mine[0], peers[2]), (mine[1], peers[1]),
                                       (None, peers[0])]


def test_a_fused_block_pairs_with_the_convolutions_it_fuses():
    """Three fused convolutions against ONNX Runtime's three in a row from
    the same activation to the same result, summed; a lone convolution
    after them still pairs with its own."""
    block = "Conv2D+ReLU6+Conv2D+ReLU6+Conv2D+Add"
    mine = [Layer(block, (1, 16, 8, 8), (16, 96), 3.0, (1, 16, 8, 8)),
            Layer("Conv2D+ReLU6", (1, 16, 8, 8), (64, 16, 1, 1), 1.0,
                  (1, 64, 8, 8))]
    peers = [Layer("Conv", (1, 16, 8, 8), (96, 16, 1, 1), 0.5, (1, 96, 8, 8)),
             Layer("Conv", (1, 96, 8, 8), (96, 1, 3, 3), 0.25, (1, 96, 8, 8)),
             Layer("Conv", (1, 96, 8, 8), (16, 96, 1, 1), 0.75, (1, 16, 8, 8)),
             Layer("Conv", (1, 16, 8, 8), (64, 16, 1, 1), 0.5, (1, 64, 8, 8))]
    pairs = tool.match(mine, peers)
    assert [(m.op, p.op, p.ms) for m, p in pairs] == [
        (block, "Conv+Conv+Conv", 1.5), ("Conv2D+ReLU6", "Conv", 0.5)]
    assert pairs[0][0].kind == "fused convolutions"


def test_median_layers_keep_the_result_shape():
    rounds = [[Layer("Conv", (1, 3, 8, 8), (4, 3, 3, 3), ms, (1, 4, 6, 6))]
              for ms in (1.0, 3.0, 2.0)]
    assert tool.median_layers(rounds) == [
        Layer("Conv", (1, 3, 8, 8), (4, 3, 3, 3), 2.0, (1, 4, 6, 6))]


def test_profile_events_become_layers_per_predict():
    def event(name, dur, shapes, out, op="Conv"):
        return {"cat": "Node", "name": f"{name}_kernel_time", "dur": dur,
                "args": {"op_name": op, "input_type_shape": [
                    {"float": list(s)} for s in shapes],
                    "output_type_shape": [{"float": list(out)}]}}
    conv = [(1, 3, 8, 8), (4, 3, 3, 3), (4,)]
    events = [event("conv1", 300, conv, (1, 4, 6, 6)),
              {"cat": "Session", "name": "model_run", "dur": 9999},
              event("conv1", 500, conv, (1, 4, 6, 6)),
              event("relu", 40, [(1, 4, 6, 6)], (1, 4, 6, 6), op="Relu")]
    layers = tool._profile_layers(events, runs=2)
    assert layers == [Layer("Conv", (1, 3, 8, 8), (4, 3, 3, 3), 0.4, (1, 4, 6, 6)),
                      Layer("Relu", (1, 4, 6, 6), (), 0.02, (1, 4, 6, 6))]


def test_report_ranks_the_gaps_and_sums_by_kind():
    pairs = [(Layer("Conv2D+ReLU", (1, 8, 4, 4), (8, 1, 3, 3), 3.0),
              Layer("Conv", (1, 8, 4, 4), (8, 1, 3, 3), 1.0)),
             (Layer("Conv2D", (1, 8, 4, 4), (16, 8, 1, 1), 2.0),
              Layer("Conv", (1, 8, 4, 4), (16, 8, 1, 1), 1.5)),
             (Layer("Softmax", (1, 16), (), 0.5), None)]
    text = tool.report(pairs, top=1, header="header line")
    lines = text.splitlines()
    assert lines[0] == "header line"
    rows = [line for line in lines if line.startswith("| Conv2D")]
    assert rows == ["| Conv2D+ReLU | [1, 8, 4, 4] | [8, 1, 3, 3] | 3.000 | "
                    "1.000 | 3.00 |"]
    assert "| depthwise conv | 1 | 3.00 | 1.00 | 3.00 |" in lines
    assert "| 1x1 conv | 1 | 2.00 | 1.50 | 1.33 |" in lines
    assert "| refinfer only | 1 | 0.50 | 0.00 | - |" in lines


def test_missing_models_are_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tool, "BENCH_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as exit_:
        tool.main(["--model", "resnet50"])
    assert exit_.value.code == 2
    assert "resnet50_b1.mindir and .onnx are missing" in capsys.readouterr().err
