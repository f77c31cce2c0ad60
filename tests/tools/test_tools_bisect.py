"""``refinfer bisect``: an error injected at node k is found at node k."""
import numpy as np
import pytest

from refinfer.cli import main as cli_main
from refinfer.plan import KernelStep
from refinfer.runtime import LoadedModel
from refinfer import registry
from refinfer.tools import bisect as tools_bisect
from refinfer.tools import rounding
from refinfer.tools.common import file_sha256, graph_sha256
from refinfer.watch import node_runs

from helpers_tools import (golden_file, golden_input_files, golden_inputs,
                           golden_model, perturbed_model, read_json, run_cli)

LENET = golden_file("lenet5", "model.mindir")
BIAS_ADD = "Default/conv1-Conv2d/BiasAdd-op0"     # node 1 of LeNet-5
DELTA = 0.05                                      # added to conv1.bias[2]
CHANNEL_ELEMENTS = 28 * 28                        # conv1 output channel 2


@pytest.fixture(scope="module")
def perturbed(tmp_path_factory):
    """A LeNet-5 file with conv1.bias[2] += DELTA, a dump of the original
    model and one of the perturbed model (both from the CLI)."""
    folder = tmp_path_factory.mktemp("perturbed")
    model = perturbed_model(folder, "lenet5", "conv1.bias", 2, DELTA)
    inputs = golden_input_files("lenet5")
    for name, path in (("clean", LENET), ("bad", model)):
        assert cli_main(["dump", path, "--input", *inputs, "--out",
                         str(folder / name)]) == 0
    return folder, model


def test_bisect_names_the_perturbed_node(perturbed, capsys):
    folder, model = perturbed
    code, out, _ = run_cli(capsys, "bisect", model, "--input",
                           *golden_input_files("lenet5"), "--against",
                           folder / "clean", "--json", folder / "b.json")
    assert code == 1
    assert f"first divergence: #1 {BIAS_ADD} (BiasAdd)" in out
    report = read_json(folder / "b.json")
    first = report["first_divergence"]
    assert (first["index"], first["name"], first["op"]) == \
        (1, BIAS_ADD, "BiasAdd")
    output = first["tensors"][0]
    assert output["max_abs_err"] == pytest.approx(DELTA, rel=1e-5)
    assert output["mismatches"] == CHANNEL_ELEMENTS
    conv, bias = first["inputs"]
    assert conv["name"] == "Default/conv1-Conv2d/Conv2D-op0"
    assert conv["passed"] is True and conv["tensors"][0]["max_abs_err"] == 0
    assert (bias["source"], bias["name"], bias["shape"]) == \
        ("weight", "conv1.bias", [6])
    assert [c.get("name") for c in report["chain"]] == \
        ["Default/conv1-Conv2d/Conv2D-op0", "x"]
    assert report["chain"][-1]["source"] == "model input"
    # Everything downstream fails too, but none is a new divergence.
    assert len(report["divergences"]) == 1
    assert report["failed"] == 16 and report["compared"] == 17


def test_compare_fails_the_same_node_with_the_right_metrics(perturbed,
                                                            capsys):
    folder, _ = perturbed
    code, out, _ = run_cli(capsys, "compare", folder / "clean",
                           folder / "bad", "--json", folder / "c.json")
    assert code == 1
    tensors = read_json(folder / "c.json")["tensors"]
    conv, bias = tensors[1], tensors[2]        # after input_0, in run order
    assert conv["name"] == "Default/conv1-Conv2d/Conv2D-op0"
    assert conv["passed"] and conv["max_abs_err"] == 0.0
    assert bias["name"] == BIAS_ADD and not bias["passed"]
    assert bias["max_abs_err"] == pytest.approx(DELTA, rel=1e-5)
    assert bias["mismatches"] == CHANNEL_ELEMENTS
    assert bias["within_1e-3"] == pytest.approx(5 / 6, abs=0.01)
    row = next(line for line in out.splitlines() if line.startswith(BIAS_ADD))
    assert row.endswith("FAIL") and " 784 " in row


@pytest.fixture
def swapped_kernel():
    """LeNet-5 whose node 12 (fc2 MatMul) kernel scales its result by 1.01:
    a wrong kernel."""
    model = LoadedModel(LENET)
    step = model.program.plans[model.program.main].steps[12]
    assert isinstance(step, KernelStep) and step.node.op.name == "MatMul"
    original = step.fn
    step.fn = lambda *args: original(*args) * np.float32(1.01)
    return model, step


@pytest.mark.parametrize("against", ["float64", "reference"])
def test_in_process_reference_names_a_swapped_kernel(swapped_kernel,
                                                     against):
    model, step = swapped_kernel
    result = tools_bisect.bisect(model, golden_inputs("lenet5"), against)
    first = result.divergences[0]
    assert (first["index"], first["node"]) == (12, step.node.name)
    assert all(i.get("passed") is not False for i in first["inputs"])
    own = first["own_error"][0]          # the kernel itself is wrong
    assert own["passed"] is False
    assert own["max_rel_err"] == pytest.approx(0.01, rel=1e-3)
    assert result.exit_code == 1


def test_float32_run_is_within_tolerance_of_the_oracle():
    result = tools_bisect.bisect(golden_model("resnet18_narrow"),
                                 golden_inputs("resnet18_narrow"), "float64")
    assert result.passed and not result.divergences
    compared = [t for t in result.tensors if t["passed"] is not None]
    assert result.runs == len({t["node"] for t in compared}) == 90
    errors = [t["max_abs_err"] for t in compared]
    assert 0 < max(errors) < 1e-5      # float32 rounding, nothing more


def corrupted(case: str, op: str, scale: float) -> tuple[LoadedModel, KernelStep]:
    """A fresh model of ``case`` whose last ``op`` node's float32 kernel
    scales its result by ``scale``: a kernel wrong by far less than the
    rounding a deep float32 model carries."""
    model = LoadedModel(golden_file(case, "model.mindir"))
    steps = model.program.plans[model.program.main].steps
    step = [s for s in steps if isinstance(s, KernelStep)
            and s.node.op.name == op][-1]
    original = step.fn
    step.fn = lambda *args: original(*args) * np.float32(scale)
    return model, step


@pytest.mark.slow
def test_a_healthy_mobilenet_is_float32_rounding(tmp_path, capsys):
    """Issue 16, friction 5: against float64 at atol 1e-5 a healthy
    MobileNetV2 failed 135 of 413 tensors (plain float32 rounding, carried
    along 50 layers). Each op's own error, in ulps of its tensor's
    magnitude, is within its known error; the carried error is reported."""
    model = golden_file("mobilenetv2", "model.mindir")
    code, out, _ = run_cli(capsys, "bisect", model, "--input",
                           *golden_input_files("mobilenetv2"), "--against",
                           "float64", "--json", tmp_path / "b.json")
    assert code == 0
    assert "413 tensor(s) compared, 0 failed" in out
    assert "healthy float32 rounding: every op is within its known float32 " \
        "error" in out
    report = read_json(tmp_path / "b.json")
    assert report["mode"] == "float32 rounding" and report["passed"] is True
    judged = [t for t in report["tensors"] if t.get("ulps") is not None]
    assert len(judged) == 413
    assert max(t["ulps"] / t["known_ulps"] for t in judged) < 0.25
    drift = max(t["drift_ulps"] for t in judged if t["drift_ulps"] is not None)
    assert 300 < drift < rounding.DRIFT_NOTE_ULPS   # what atol 1e-5 failed on
    convs = [t for t in judged if t["op"] == "Conv2D"]
    assert {t["known_ulps"] for t in convs} == {rounding.SUM_ULPS}


@pytest.mark.slow
def test_a_corrupted_op_in_mobilenet_is_caught():
    """A Conv2D wrong by 2e-5 of its result (~170 ulps: less than the ~800
    ulps of rounding the healthy model carries) is the first divergence."""
    model, step = corrupted("mobilenetv2", "Conv2D", 1 + 2e-5)
    result = tools_bisect.bisect(model, golden_inputs("mobilenetv2"),
                                 "float64")
    assert result.rounding and result.exit_code == 1
    first = result.divergences[0]
    assert first["node"] == step.node.name
    output = first["tensors"][0]
    assert output["passed"] is False
    assert 100 < output["ulps"] < 250 and output["known_ulps"] == 64
    text = tools_bisect.format_bisection(result)
    assert "its own error is over the op's known float32 error" in text
    assert "healthy" not in text


def test_rounding_tolerance_scales_with_magnitude_and_op():
    eps = float(np.finfo(np.float32).eps)
    add, conv = registry.get_op("Add"), registry.get_op("Conv2D")
    small = np.full(3, 0.5, np.float32)
    big = np.full(3, 5e3, np.float32)
    assert rounding.own_tolerance(add, small, small.astype(np.float64), []) \
        == pytest.approx(rounding.ELEMENTWISE_ULPS * eps * 0.5)
    assert rounding.own_tolerance(add, big, big.astype(np.float64), []) \
        == pytest.approx(rounding.ELEMENTWISE_ULPS * eps * 5e3)
    assert rounding.own_tolerance(conv, big, big.astype(np.float64), []) \
        == pytest.approx(rounding.SUM_ULPS * eps * 5e3)
    # An exact zero result (a sum that cancels): the inputs' magnitude.
    zeros = np.zeros(3, np.float32)
    assert rounding.own_tolerance(add, zeros, zeros.astype(np.float64),
                                  [small, -small]) == \
        pytest.approx(rounding.ELEMENTWISE_ULPS * eps * 0.5)
    ints = np.arange(3, dtype=np.int32)
    assert rounding.own_tolerance(add, ints, ints, []) == 0.0


def test_lenet_against_float64_is_healthy_rounding(capsys):
    code, out, _ = run_cli(capsys, "bisect", LENET, "--input",
                           *golden_input_files("lenet5"), "--against", "float64")
    assert code == 0
    assert "against float64 oracle (float32 rounding: each op's own error " \
        "within its known error, in ulps of the tensor's magnitude)" in out
    assert "healthy float32 rounding" in out
    assert "rounding carried along the graph: " in out
    # A tolerance given: compare's rule against the oracle's own chain.
    code, out, _ = run_cli(capsys, "bisect", LENET, "--input",
                           *golden_input_files("lenet5"), "--against", "float64",
                           "--atol", "1e-9")
    assert code == 1 and "against float64 oracle (atol 1e-09, rtol 0.0001)" in out


def test_shadow_run_holds_only_live_values():
    model = golden_model("resnet18_narrow")
    reference = tools_bisect.ShadowReference(model, "reference", "float64",
                                             "oracle")
    held = []

    def check(run):
        reference.outputs(run)
        held.append(len(reference.values))
    model.run(golden_inputs("resnet18_narrow"), node_runs(check))
    assert len(held) == 90 and max(held) <= 3


def test_bad_reference_is_a_clear_error(capsys):
    code, _, err = run_cli(capsys, "bisect", LENET, "--against", "nonsense")
    assert code == 3        # no such file or directory
    assert "--against 'nonsense'" in err and "float64" in err
    assert "reference" in err


def test_reference_without_matching_names(tmp_path, capsys):
    """Issue 16, friction 4: a bisect that compared nothing proved nothing;
    it exited 0."""
    other = tmp_path / "other"
    other.mkdir()
    np.save(other / "unrelated.npy", np.zeros(3, np.float32))
    code, out, _ = run_cli(capsys, "bisect", LENET, "--against", other,
                           "--json", tmp_path / "b.json")
    assert code == 3 and "0 tensor(s) compared" in out
    assert "nothing compared: no reference tensor matched a node" in out
    report = read_json(tmp_path / "b.json")
    assert (report["compared"], report["passed"]) == (0, False)


def test_a_dump_of_another_model_is_refused(tmp_path, capsys):
    """Issue 16, friction 4: bisecting the MLP against a dump of LeNet-5
    compared nothing, or names that match by chance, and exited 0."""
    assert run_cli(capsys, "dump", LENET, "--out", tmp_path / "lenet")[0] == 0
    manifest = read_json(tmp_path / "lenet" / "manifest.json")
    assert manifest["graph_sha256"] == graph_sha256(golden_model("lenet5"))
    assert len(manifest["model_sha256"]) == 64
    mlp = golden_file("mlp", "model.mindir")
    code, out, err = run_cli(capsys, "bisect", mlp, "--against",
                             tmp_path / "lenet")
    assert (code, out) == (3, "")
    lenet_graph = manifest["graph_sha256"][:12]
    mlp_graph = graph_sha256(golden_model("mlp"))[:12]
    assert err == (f"refinfer bisect: error: --against {tmp_path / 'lenet'}: a "
                   f"dump of {LENET}, whose graph is not the graph of {mlp} "
                   f"(graph sha256 {lenet_graph} vs {mlp_graph}): dump this "
                   f"model (refinfer dump {mlp} --out DIR) or bisect the "
                   "dumped one\n")


def test_a_copy_with_other_weights_has_the_same_graph(perturbed):
    """What bisect is for: a bad file against a dump of the good one."""
    _, model = perturbed
    assert graph_sha256(LoadedModel(model)) == graph_sha256(golden_model("lenet5"))
    assert file_sha256(model) != file_sha256(LENET)


def test_a_fused_fast_model_is_bisected_node_by_node():
    """Hooks run a fast model without its fusions; the shadow plan is the
    model's graphs compiled op by op as well."""
    model = LoadedModel(LENET, "numba")
    steps = model.program.plans[model.program.main].steps
    assert any(step.node.op.family == "fused" for step in steps)
    result = tools_bisect.bisect(model, golden_inputs("lenet5"), "reference")
    assert result.passed and not result.divergences
    assert result.runs == len(model.model.main.nodes)
