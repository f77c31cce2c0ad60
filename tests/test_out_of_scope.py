"""The primitives refinfer leaves out on purpose (refinfer/out_of_scope.py,
issue 14): a model applying one fails to build with an error that names its
category and says why, never just "unsupported"; one case per category."""
import pytest

from refinfer import registry
from refinfer.errors import UnsupportedOpsError
from refinfer.out_of_scope import OUT_OF_SCOPE, out_of_scope
from refinfer.runtime import LoadedModel

from golden_cases import golden_case, rename_primitive


# One primitive of each out-of-scope category, put in place of mlp's ReLU,
# and a word of the reason its error must give.
OUT_OF_SCOPE_CASES = {
    "training-only": ("ApplyAdam", "set_train(False)"),
    "random": ("StandardNormal", "Philox"),
    "summary": ("ScalarSummary", "training logs"),
    "sparse": ("SparseTensorDenseMatmul", "dense tensors only"),
    "quantisation": ("FakeQuantPerLayer", "quantisation-aware training"),
    "compile-time": ("DynamicShape", "no exported MindIR holds it"),
    "pynative-only": ("AsStrided", "graph mode, and so export, refuses"),
}


def test_every_category_is_tested():
    assert set(OUT_OF_SCOPE_CASES) == set(OUT_OF_SCOPE)


@pytest.mark.parametrize("category", OUT_OF_SCOPE_CASES)
def test_out_of_scope_ops_fail_to_build_saying_why(category, tmp_path):
    name, reason = OUT_OF_SCOPE_CASES[category]
    path = tmp_path / "model.mindir"
    rename_primitive(golden_case("mlp").model_path, path, "ReLU", name)
    with pytest.raises(UnsupportedOpsError) as info:
        LoadedModel(str(path))
    message = str(info.value)
    assert f"  {name} (used by 1 node(s), e.g. " in message
    assert f": out of scope ({category}): " in message and reason in message
    assert info.value.out_of_scope == {name: (category, OUT_OF_SCOPE[category].reason)}


def test_unknown_and_out_of_scope_ops_are_listed_together(tmp_path):
    path = tmp_path / "model.mindir"
    rename_primitive(golden_case("mlp").model_path, path, "ReLU", "RandomPoisson")
    rename_primitive(path, path, "MatMul", "FancyMatMul")
    with pytest.raises(UnsupportedOpsError) as info:
        LoadedModel(str(path))
    lines = str(info.value).splitlines()
    assert lines[0].endswith("2 unsupported op(s):")
    fancy = next(line for line in lines if "FancyMatMul" in line)
    assert "out of scope" not in fancy
    assert "out of scope (random)" in next(line for line in lines
                                           if "RandomPoisson" in line)


def test_no_registered_op_is_out_of_scope():
    assert [op.name for op in registry.list_ops() if out_of_scope(op.name)] == []


@pytest.mark.parametrize("name", ["FFTOrtho", "FFTShapeCopy", "IRFFTDouble"])
def test_fft_gradient_helpers_are_training_only(name):
    category, reason = out_of_scope(name)
    assert category == "training-only" and "FFT ops' gradient helpers" in reason
    assert out_of_scope("ApplyRotaryPosEmb") is None    # an Ascend inference op
