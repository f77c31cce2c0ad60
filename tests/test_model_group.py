"""``ModelGroup`` / ``ModelGroupFlag``: SHARE_WEIGHT shares, in one process, one
copy of what the models' weights have in common (by content); Lite's checks."""
import os

import numpy as np
import pytest

import refinfer as mslite
from refinfer import ModelGroup, ModelGroupFlag, ModelType, sharing
from refinfer.ops._kernels import packed
from refinfer.stored import StoredWeight

from golden_cases import golden_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP = os.path.join(ROOT, "golden", "mlp", "model.mindir")
MLP_SPLIT = os.path.join(ROOT, "golden", "mlp_split", "model_graph.mindir")
MLP_OTHER = os.path.join(ROOT, "golden", "mlp_update", "model.mindir")
X = np.load(os.path.join(ROOT, "golden", "mlp", "input_0.npy"))
EXPECTED = np.load(os.path.join(ROOT, "golden", "mlp", "output_0.npy"))
RTOL, ATOL = 1e-5, 1e-6


def build_grouped(*paths, flags=ModelGroupFlag.SHARE_WEIGHT):
    models = [mslite.Model() for _ in paths]
    ModelGroup(flags).add_model(models)
    for model, path in zip(models, paths):
        model.build_from_file(path, ModelType.MINDIR)
    return models


def weights(model) -> dict:
    return model._loaded.parameters()


def shared_names(a, b) -> list[str]:
    """The weights both models hold in the same memory: the same array, or
    the same weight stored in its products' layout (refinfer/stored.py)."""
    mine, theirs = (m._loaded.parameters(unpack=False) for m in (a, b))
    return sorted(name for name, array in mine.items()
                  if name in theirs and array is theirs[name])


def test_one_file_built_twice_holds_one_copy_and_predicts_the_same():
    first, second = build_grouped(MLP, MLP)
    assert shared_names(first, second) == sorted(weights(first))
    assert len(weights(first)) == 4
    for model in (first, second):
        np.testing.assert_allclose(model.predict([X])[0].get_data_to_numpy(),
                                   EXPECTED, RTOL, ATOL)


def test_weights_stored_packed_are_shared_too(monkeypatch):
    """A transformer's product weights are stored packed for our own
    product (refinfer/stored.py; forced here, as on AMD and AVX2 CPUs): the
    second model runs on the first one's packed weights."""
    monkeypatch.setattr(packed, "serves", lambda dtype: dtype == np.float32)
    case = golden_case("bert_tiny")
    first, second = build_grouped(case.model_path, case.model_path)
    assert shared_names(first, second) == sorted(weights(first))
    stored = first._loaded.parameters(unpack=False).values()
    assert sum(isinstance(value, StoredWeight) for value in stored) >= 4
    for model in (first, second):
        np.testing.assert_allclose(
            model.predict(case.inputs())[0].get_data_to_numpy(),
            case.outputs()[0], **case.tolerance)


def test_sharing_is_by_content_not_by_file_or_name():
    embedded, split, other = build_grouped(MLP, MLP_SPLIT, MLP_OTHER)
    assert shared_names(embedded, split) == sorted(weights(embedded))
    assert sorted(weights(other)) == sorted(weights(embedded))     # same names...
    assert shared_names(embedded, other) == []                     # ...other values


def test_without_a_group_each_model_has_its_own_copy():
    first, second = mslite.Model(), mslite.Model()
    for model in (first, second):
        model.build_from_file(MLP, ModelType.MINDIR)
    assert shared_names(first, second) == []


def test_share_weight_workspace_shares_weights_too():
    first, second = build_grouped(MLP, MLP,
                                  flags=ModelGroupFlag.SHARE_WEIGHT_WORKSPACE)
    assert shared_names(first, second) == sorted(weights(first))


def test_updating_one_model_leaves_the_other_alone():
    first, second = build_grouped(MLP, MLP)
    name = sorted(weights(first))[0]
    new = np.zeros_like(weights(first)[name])
    tensor = mslite.Tensor(new)
    tensor.name = name
    first.update_weights([[tensor]])
    assert np.array_equal(weights(first)[name], new)
    assert not np.array_equal(weights(second)[name], new)
    np.testing.assert_allclose(second.predict([X])[0].get_data_to_numpy(),
                               EXPECTED, RTOL, ATOL)


def test_flag_values_are_lite_s():
    assert [(f.name, f.value) for f in ModelGroupFlag] == [
        ("SHARE_WEIGHT", 1), ("SHARE_WORKSPACE", 2), ("SHARE_WEIGHT_WORKSPACE", 3)]
    assert ModelGroup().flags == ModelGroupFlag.SHARE_WORKSPACE     # Lite's default


def test_unknown_flag_lists_the_flags():
    with pytest.raises(RuntimeError, match="Parameter flags should be "
                       "ModelGroupFlag.SHARE_WORKSPACE or ModelGroupFlag.SHARE_WEIGHT"):
        ModelGroup(1)


@pytest.mark.parametrize("models, error, message", [
    ("model.mindir", TypeError, "models must be list/tuple, but got <class 'str'>"),
    ([], RuntimeError, "models cannot be empty"),
    ([MLP, mslite.Model()], TypeError, "models element must be all str or Model, "
     "but got <class 'refinfer.api.model.Model'> at index 1."),
    ([1], TypeError, "models element must be all str or Model, but got "
     "<class 'int'> at index 0."),
    (["/no/such.mindir"], RuntimeError, "ModelGroup's add model failed. Error is no "
     "model file '/no/such.mindir'"),
])
def test_add_model_checks(models, error, message):
    with pytest.raises(error) as caught:
        ModelGroup(ModelGroupFlag.SHARE_WORKSPACE).add_model(models)
    assert str(caught.value) == message


def test_models_must_be_added_before_they_build():
    model = mslite.Model()
    model.build_from_file(MLP, ModelType.MINDIR)
    with pytest.raises(RuntimeError, match=r"ModelGroup's add model failed\. Error is "
                       r"the model at index 1 is built already: add models before "
                       r"build_from_file"):
        ModelGroup(ModelGroupFlag.SHARE_WEIGHT).add_model([mslite.Model(), model])


def test_a_model_joins_one_group():
    model = mslite.Model()
    ModelGroup(ModelGroupFlag.SHARE_WEIGHT).add_model([model])
    with pytest.raises(RuntimeError, match="index 0 is in another ModelGroup already"):
        ModelGroup(ModelGroupFlag.SHARE_WEIGHT).add_model((model,))


def test_weight_sharing_needs_a_weight_flag():
    with pytest.raises(RuntimeError, match="Error is Model objects share weights: make "
                       "the group with ModelGroupFlag.SHARE_WEIGHT"):
        ModelGroup(ModelGroupFlag.SHARE_WORKSPACE).add_model([mslite.Model()])


def test_workspace_group_checks_context_then_model_type():
    group = ModelGroup()
    group.add_model([MLP, MLP_SPLIT])
    assert group.model_paths == [MLP, MLP_SPLIT]
    with pytest.raises(TypeError, match="context must be Context, but got <class 'int'>"):
        group.cal_max_size_of_workspace(0, 0)
    with pytest.raises(TypeError, match="model_type must be ModelType"):
        group.cal_max_size_of_workspace(0, mslite.Context())
    assert group.cal_max_size_of_workspace(ModelType.MINDIR, mslite.Context()) is None
    with pytest.raises(RuntimeError, match="ModelGroup's cal max size of workspace "
                       "failed. Error is add model paths"):
        ModelGroup().cal_max_size_of_workspace(ModelType.MINDIR, mslite.Context())


def test_constants_the_plan_derived_are_shared_too():
    path = os.path.join(ROOT, "golden", "resnet18_narrow", "model.mindir")
    first, second = build_grouped(path, path)
    own = {id(a) for a in weights(first).values()}

    def derived(model):     # arrays the fast plan made from the weights
        constants = sharing._plan_constants(model._loaded.program)
        return {place: array for place, array in constants
                if array.nbytes >= sharing.MIN_DERIVED_BYTES and id(array) not in own
                and array.base is None}
    mine, theirs = derived(first), derived(second)
    assert len(mine) >= 5 and sorted(mine) == sorted(theirs)
    assert all(mine[place] is theirs[place] for place in mine)
    # and those inside the objects fused kernels take (packed weights)
    mine, theirs = (dict(sharing._plan_constants(m._loaded.program)) for m in (first, second))
    inside = [place for place in mine if sharing.INSIDE in place
              and mine[place].nbytes >= sharing.MIN_DERIVED_BYTES]
    assert inside and all(mine[place] is theirs[place] for place in inside)
