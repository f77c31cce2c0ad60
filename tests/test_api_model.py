"""``mslite.Model``: build_from_file arguments and config, get_inputs /
get_outputs / get_model_info, resize and predict with Lite's exact checks
(lite-api.md §6, §12).

Most tests use small models derived in ``tmp_path`` from golden/mlp (only
ops that are registered today: ReLU, Add), so they do not wait for other
kernels; the golden/mlp tests skip, naming the missing ops, until MatMul and
BiasAdd are registered.
"""
from __future__ import annotations

import os
import re
from types import SimpleNamespace

import numpy as np
import pytest

import refinfer as mslite
from refinfer import DataType, Format, ModelType, Tensor, TensorMeta, gpu, registry
from refinfer.api.model import _output_tensors
from refinfer.format.names import op_name
from refinfer.format.schema import ModelProto

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP_DIR = os.path.join(ROOT, "golden", "mlp")
MLP = os.path.join(MLP_DIR, "model.mindir")
MLP_SPLIT = os.path.join(ROOT, "golden", "mlp_split", "model_graph.mindir")
RTOL, ATOL = 1e-4, 1e-5
X = np.array([[-1.0, 2.0, -3.0, 4.0], [5.0, -6.0, 7.0, -0.5]], np.float32)


# -- model files ----------------------------------------------------------------
def read_proto(path) -> ModelProto:
    proto = ModelProto()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    return proto


def missing_ops(path) -> list[str]:
    """Primitives of ``path`` that no registered op implements."""
    return sorted({op_name(p.op_type) for p in read_proto(path).primitives
                   if not registry.has_op(op_name(p.op_type))})


def require_ops(path):
    missing = missing_ops(path)
    if missing:
        pytest.skip(f"ops not registered yet: {', '.join(missing)} "
                    f"(needed by {os.path.relpath(path, ROOT)})")


def make_model(path, dims=(2, 4), add=False, user_info=None) -> str:
    """golden/mlp reduced to ``y = ReLU(x)`` (or ``y = ReLU(x) + z`` with a
    second input ``z`` when ``add``), input dims ``dims``."""
    proto = read_proto(MLP)
    graph = proto.graph
    x = graph.input[0]
    prefix = x.name.rsplit(":", 1)[0]
    relu = next(n for n in graph.node if n.op_type.startswith("REF::ReLU"))
    relu = type(relu)(input=[x.name], output=relu.output, name=relu.name,
                      op_type=relu.op_type, domain=relu.domain,
                      attribute=relu.attribute)
    relu.attribute[0].tensors[0].dims[:] = dims
    nodes, last = [relu], relu
    prims = [p for p in proto.primitives if p.op_type == "ReLU"]
    del x.tensor[0].dims[:]
    x.tensor[0].dims.extend(dims)
    if add:
        z = graph.input.add()
        z.CopyFrom(x)
        z.name = f"{prefix}:z"
        prim = type(prims[0])(name="Add:99", op_type="Add",
                              instance_name="add", prim_type=2)
        prims.append(prim)
        last = type(relu)(input=[relu.name, z.name], name=f"{prefix}:sum:99",
                          output=[f"{prefix}:sum:99"], op_type="REF::Add:99",
                          domain="Default/Add-op0")
        shape = last.attribute.add()
        shape.CopyFrom(relu.attribute[0])
        nodes.append(last)
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.parameter[:]
    graph.output[0].name = last.name
    del graph.output[0].tensor[0].dims[:]
    graph.output[0].tensor[0].dims.extend(dims)
    del proto.primitives[:]
    proto.primitives.extend(prims)
    for key, value in (user_info or {}).items():
        proto.user_info.add(key=key, value=value)
    path = str(path)
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())
    return path


def build(path, context=None, **kwargs) -> mslite.Model:
    model = mslite.Model()
    model.build_from_file(str(path), ModelType.MINDIR, context, **kwargs)
    return model


@pytest.fixture
def relu_path(tmp_path):
    return make_model(tmp_path / "relu.mindir")


@pytest.fixture
def relu(relu_path):
    return build(relu_path)


@pytest.fixture
def dynamic(tmp_path):
    return build(make_model(tmp_path / "dyn.mindir", dims=(-1, 4)))


@pytest.fixture
def two_inputs(tmp_path):
    return build(make_model(tmp_path / "add.mindir", add=True))


@pytest.fixture(params=[MLP, MLP_SPLIT], ids=["mlp", "mlp_split"])
def mlp(request):
    require_ops(request.param)
    return build(request.param)


def golden_io():
    return (np.load(os.path.join(MLP_DIR, "input_0.npy")),
            np.load(os.path.join(MLP_DIR, "output_0.npy")))


def relu_of(x):
    return np.maximum(x, 0)


# -- build_from_file: arguments -----------------------------------------------------
@pytest.mark.parametrize("args,message", [
    ((1, ModelType.MINDIR), "model_path must be str, but got <class 'int'>."),
    ((MLP, 0), "model_type must be ModelType, but got <class 'int'>."),
    ((MLP, ModelType.MINDIR, "cpu"), "context must be Context, but got <class 'str'>."),
    ((MLP, ModelType.MINDIR, None, None), "config_path must be str, but got "
                                          "<class 'NoneType'>."),
])
def test_build_argument_types(args, message):
    with pytest.raises(TypeError) as info:
        mslite.Model().build_from_file(*args)
    assert str(info.value) == message


def test_build_type_checks_come_before_existence(tmp_path):
    missing = str(tmp_path / "missing.mindir")
    with pytest.raises(TypeError, match="^config_path must be str"):
        mslite.Model().build_from_file(missing, ModelType.MINDIR, None, 1)


def test_build_missing_model(tmp_path):
    model = mslite.Model()
    with pytest.raises(RuntimeError) as info:
        model.build_from_file(str(tmp_path / "missing.mindir"), ModelType.MINDIR)
    assert str(info.value) == "build_from_file failed, model_path does not exist!"
    assert str(model) == "model_path: ."


def test_build_missing_config(relu_path, tmp_path):
    with pytest.raises(RuntimeError) as info:
        build(relu_path, config_path=str(tmp_path / "missing.cfg"))
    assert str(info.value) == "build_from_file failed, config_path does not exist!"


def test_str_shows_path_even_when_build_fails(tmp_path):
    path = tmp_path / "garbage.mindir"
    path.write_bytes(b"not a model")
    model = mslite.Model()
    assert str(model) == "model_path: ."
    with pytest.raises(RuntimeError, match="^build_from_file failed! Error is "):
        model.build_from_file(str(path), ModelType.MINDIR)
    assert str(model) == f"model_path: {path}."


def test_build_default_context_and_explicit_context(relu_path):
    context = mslite.Context()
    context.cpu.thread_num = 2
    for model in (build(relu_path), build(relu_path, context)):
        assert [t.name for t in model.get_inputs()] == ["x"]


@pytest.mark.parametrize("target", [["gpu"], ["ascend"], ["Ascend", "cpu"],
                                    ["GPU"]])
def test_build_non_cpu_target(relu_path, target, monkeypatch):
    """Ascend is refused; a GPU target where no GPU answers (faked: the
    cuda tier may have chosen numba's simulator in this process) too."""
    monkeypatch.setattr(gpu, "available", lambda: False)
    context = mslite.Context()
    context.target = target
    with pytest.raises(RuntimeError) as info:
        build(relu_path, context)
    message = str(info.value)
    assert message.startswith("build_from_file failed! Error is ")
    assert target[0].lower() in message.lower()


def test_build_cpu_first_target_is_fine(relu_path):
    context = mslite.Context()
    context.target = ["cpu", "gpu"]
    assert build(relu_path, context).get_inputs()[0].shape == [2, 4]


def test_build_mindir_lite_type(relu_path):
    with pytest.raises(RuntimeError, match="^build_from_file failed! Error is "):
        mslite.Model().build_from_file(relu_path, ModelType.MINDIR_LITE)


def test_build_with_dec_key_argument_checks(relu_path):
    model = mslite.Model()
    with pytest.raises(TypeError) as info:
        model.build_from_file(relu_path, ModelType.MINDIR, dec_key="0123")
    assert str(info.value) == "dec_key must be bytes, but got <class 'str'>."
    with pytest.raises(ValueError) as info:
        model.build_from_file(relu_path, ModelType.MINDIR, dec_key=b"k" * 16,
                              dec_mode="")
    assert str(info.value) == "dec_mode must not be empty string!"
    with pytest.raises(TypeError) as info:
        model.build_from_file(relu_path, ModelType.MINDIR, dec_key=b"k" * 16,
                              dec_num_parallel="2")
    assert str(info.value) == ("dec_num_parallel must be int, but got "
                               "<class 'str'>.")


def test_build_encrypted_without_key():
    path = os.path.join(ROOT, "golden", "encrypted", "model.mindir")
    with pytest.raises(RuntimeError) as info:
        mslite.Model().build_from_file(path, ModelType.MINDIR)
    assert str(info.value).startswith("build_from_file failed! Error is ")
    assert "encrypted" in str(info.value) and "AES-GCM" in str(info.value)


# -- build_from_file: config -------------------------------------------------------
CONFIG = """\
# comment line, ignored
orphan=before any section
[execution_plan]
op1=data_type:float16
op1=data_type:float32
  op2 = "data_type:float32"  
ab
[empty_section]
[gpu_context]
input_shape=x:[2,4]
not a key value line
[execution_plan]
op3=data_type:float16
op1=third
[model_file]
mindir_path=/a=b/model_graph.mindir
"""


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "model.cfg"
    path.write_text(CONFIG)
    return str(path)


def test_config_file_parsing(relu_path, config_file):
    model = build(relu_path, config_path=config_file)
    assert model.config == {
        "execution_plan": {"op1": "data_type:float16",
                           "op2": '"data_type:float32"'},
        "gpu_context": {"input_shape": "x:[2,4]"},
        "model_file": {"mindir_path": "/a=b/model_graph.mindir"},
    }


def test_config_dict_overrides_file(relu_path, config_file):
    model = build(relu_path, config_path=config_file, config_dict={
        "execution_plan": {"op1": "data_type:float32", "op9": "data_type:float16"},
        "new_section": {"k": "v"}})
    assert model.config["execution_plan"] == {
        "op1": "data_type:float32", "op2": '"data_type:float32"',
        "op9": "data_type:float16"}
    assert model.config["new_section"] == {"k": "v"}
    assert model.config["gpu_context"] == {"input_shape": "x:[2,4]"}


def test_config_dict_alone(relu_path):
    model = build(relu_path, config_dict={"ms_cache": {"serialize_path": "/tmp/x"}})
    assert model.config == {"ms_cache": {"serialize_path": "/tmp/x"}}


@pytest.mark.parametrize("falsy", ["", 0, None, {}])
def test_config_dict_falsy_ignored(relu_path, falsy):
    assert build(relu_path, config_dict=falsy).config == {}


@pytest.mark.parametrize("value,message", [
    (["execution_plan"], "config_dict must be dict, but got <class 'list'>."),
    ({1: {}}, "config_dict_key must be str, but got <class 'int'>."),
    ({"s": "k=v"}, "config_dict_value must be dict, but got <class 'str'>."),
    ({"s": {2: "v"}}, "config_dict_value_key must be str, but got <class 'int'>."),
    ({"s": {"k": 2}}, "config_dict_value_value must be str, but got "
                      "<class 'int'>."),
])
def test_config_dict_type_errors(relu_path, value, message):
    with pytest.raises(TypeError) as info:
        build(relu_path, config_dict=value)
    assert str(info.value) == message


# -- get_inputs / get_outputs ---------------------------------------------------------
def test_get_inputs(relu):
    inputs = relu.get_inputs()
    assert isinstance(inputs, list) and len(inputs) == 1
    tensor = inputs[0]
    assert isinstance(tensor, Tensor)
    assert tensor.name == "x"
    assert tensor.shape == [2, 4]
    assert tensor.dtype == DataType.FLOAT32
    assert tensor.format == Format.NCHW
    assert tensor.element_num == 8 and tensor.data_size == 32


def test_get_inputs_fresh_wrappers_share_data(relu):
    first, second = relu.get_inputs()[0], relu.get_inputs()[0]
    assert first is not second
    first.set_data_from_numpy(X)
    np.testing.assert_array_equal(second.get_data_to_numpy(), X)


def test_get_inputs_two_inputs_in_order(two_inputs):
    assert [t.name for t in two_inputs.get_inputs()] == ["x", "z"]


def test_get_outputs(relu):
    outputs = relu.get_outputs()
    assert isinstance(outputs, tuple) and len(outputs) == 1
    meta = outputs[0]
    assert isinstance(meta, TensorMeta)
    assert meta.shape == [2, 4]
    assert meta.dtype == DataType.FLOAT32
    assert meta.element_num == 8 and meta.data_size == 32
    assert isinstance(meta.name, str) and meta.name


def test_unbuilt_model_predict_and_resize_raise_runtime_error():
    model = mslite.Model()
    with pytest.raises(RuntimeError):
        model.predict([X])
    with pytest.raises(RuntimeError):
        model.resize([Tensor()], [[1]])


def test_mlp_get_inputs_and_outputs(mlp):
    (tensor,) = mlp.get_inputs()
    assert (tensor.name, tensor.shape, tensor.dtype) == ("x", [2, 4],
                                                         DataType.FLOAT32)
    (meta,) = mlp.get_outputs()
    assert isinstance(meta, TensorMeta)
    assert (meta.shape, meta.dtype, meta.data_size) == ([2, 3],
                                                        DataType.FLOAT32, 24)


# -- get_model_info -------------------------------------------------------------------
def test_get_model_info_current_pid(relu):
    assert relu.get_model_info("current_pid") == str(os.getpid())


@pytest.mark.parametrize("key", ["no_such_key", "", "input_shape",
                                 "dynamic_dims", "USER_INFO"])
def test_get_model_info_empty(relu, key):
    assert relu.get_model_info(key) == ""


@pytest.mark.parametrize("key", [1, None, b"user_info"])
def test_get_model_info_key_type(relu, key):
    with pytest.raises(TypeError) as info:
        relu.get_model_info(key)
    assert str(info.value) == f"key must be str, but got {type(key)}."


def test_get_model_info_user_info(tmp_path, relu):
    assert relu.get_model_info("user_info") == "{}"
    one = build(make_model(tmp_path / "u1.mindir", user_info={"k": "v 1"}))
    assert one.get_model_info("user_info") == '{"k": "v 1"}'
    two = build(make_model(tmp_path / "u2.mindir",
                           user_info={"a": "1", "b": "2"}))
    assert two.get_model_info("user_info") in ('{"a": "1", "b": "2"}',
                                               '{"b": "2", "a": "1"}')


# -- predict: arguments ---------------------------------------------------------------
@pytest.mark.parametrize("inputs", [X, Tensor(X), "x", None])
def test_predict_inputs_not_sequence(relu, inputs):
    with pytest.raises(TypeError) as info:
        relu.predict(inputs)
    assert str(info.value) == f"inputs must be list or tuple, but got {type(inputs)}."


@pytest.mark.parametrize("count", [0, 2, 3])
def test_predict_wrong_input_count(relu, count):
    with pytest.raises(RuntimeError) as info:
        relu.predict([X] * count)
    assert str(info.value) == f"model input len:1 not equal input len:{count}!"


def test_predict_wrong_input_count_two_input_model(two_inputs):
    with pytest.raises(RuntimeError) as info:
        two_inputs.predict([X])
    assert str(info.value) == "model input len:2 not equal input len:1!"


@pytest.mark.parametrize("element", [X.tolist(), 1.0, "x", None])
def test_predict_element_wrong_type(relu, element):
    with pytest.raises(TypeError) as info:
        relu.predict([element])
    assert str(info.value) == "inputs element must be Tensor, of numpy."


def test_predict_ndarray_wrong_dtype(relu):
    with pytest.raises(RuntimeError) as info:
        relu.predict([X.astype(np.float64)])
    assert str(info.value) == ("data type not equal! Numpy type: <class "
                               "'numpy.float64'>, Tensor type: DataType.FLOAT32"
                               f" (input 'x' of {relu.model_path_}: expected "
                               "shape [2, 4] float32)")


def test_predict_ndarray_wrong_size(relu):
    with pytest.raises(RuntimeError) as info:
        relu.predict([np.zeros((3, 4), np.float32)])
    assert str(info.value) == ("data size not equal! Numpy size: 48, Tensor size: "
                               f"32 (input 'x' of {relu.model_path_}: expected "
                               "shape [2, 4] float32)")


def test_predict_ndarray_of_right_size_but_wrong_shape(relu):
    """Issue 16, friction 1: (4, 2) data for a (2, 4) input has the right
    byte size, which is all Lite checks; it is an error naming the input,
    the model, the expected and the actual shape, and nothing runs."""
    with pytest.raises(RuntimeError) as info:
        relu.predict([X.reshape(4, 2)])
    assert str(info.value) == (f"predict failed! Error is input 'x' of "
                               f"{relu.model_path_} (index 0) has shape [4, 2], "
                               "the model input is [2, 4] (-1: any size; "
                               "Model.resize changes it)")
    with pytest.raises(RuntimeError, match=r"has shape \[1, 2, 4\], the model input"):
        relu.predict([X.reshape(1, 2, 4)])


def test_predict_ndarray_of_right_size_but_wrong_dtype(relu):
    with pytest.raises(RuntimeError) as info:
        relu.predict([X.view(np.int32)])
    assert str(info.value) == (f"predict failed! Error is input 'x' of "
                               f"{relu.model_path_} (index 0) has dtype "
                               "DataType.INT32, the model expects DataType.FLOAT32")


def test_set_data_from_numpy_keeps_lite_byte_size_check(relu):
    """Only predict checks an array's shape: the tensor takes any array of
    its byte size and views it in its own shape, as in Lite."""
    (tensor,) = relu.get_inputs()
    tensor.set_data_from_numpy(X.reshape(4, 2))
    assert tensor.shape == [2, 4]
    (out,) = relu.predict([tensor])
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X))


def test_predict_tensor_of_wrong_dtype(relu):
    with pytest.raises(RuntimeError):
        relu.predict([Tensor(X.astype(np.float64))])


@pytest.mark.parametrize("outputs,message", [
    ((Tensor(),), "outputs must be list, but got <class 'tuple'>."),
    (Tensor(), f"outputs must be list, but got {Tensor}."),
    ([np.zeros((2, 4), np.float32)], "outputs element must be Tensor, but got "
                                     "<class 'numpy.ndarray'> at index 0."),
])
def test_predict_outputs_argument(relu, outputs, message):
    with pytest.raises(TypeError) as info:
        relu.predict([X], outputs)
    assert str(info.value) == message


def test_predict_outputs_wrong_count(relu):
    with pytest.raises(RuntimeError):
        relu.predict([X], [Tensor(), Tensor()])


# -- predict: results -------------------------------------------------------------------
def test_predict_with_input_tensors(relu):
    inputs = relu.get_inputs()
    inputs[0].set_data_from_numpy(X)
    outputs = relu.predict(inputs)
    assert isinstance(outputs, list) and len(outputs) == 1
    out = outputs[0]
    assert isinstance(out, Tensor)
    assert out.shape == [2, 4] and out.dtype == DataType.FLOAT32
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X))


@pytest.mark.parametrize("container", [list, tuple])
def test_predict_with_numpy(relu, container):
    (out,) = relu.predict(container([X]))
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X))


def test_predict_flat_numpy_same_bytes(relu):
    """A 1-D array is a raw buffer (np.fromfile): no shape to check."""
    (out,) = relu.predict([X.reshape(-1)])
    assert out.shape == [2, 4]
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X))


def test_predict_with_own_tensor(relu):
    (out,) = relu.predict([Tensor(X)])
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X))


def test_predict_with_outputs(relu):
    outputs = [Tensor()]
    result = relu.predict([X], outputs)
    assert result[0] is outputs[0]
    assert outputs[0].shape == [2, 4]
    assert outputs[0].dtype == DataType.FLOAT32
    np.testing.assert_array_equal(outputs[0].get_data_to_numpy(), relu_of(X))


def test_predict_with_numpy_sets_model_input_tensors(relu):
    """Lite's Model.predict copies an ndarray into the model's own input
    tensor (``model_input_tensors[i].set_data_from_numpy(in_tensor)``), so
    get_inputs() afterwards shows that data."""
    x = X * 3
    relu.predict([x])
    np.testing.assert_array_equal(relu.get_inputs()[0].get_data_to_numpy(), x)


def test_predict_does_not_modify_inputs(relu):
    x = X.copy()
    relu.predict([x])
    np.testing.assert_array_equal(x, X)


def test_predict_repeatedly_sees_new_data(relu):
    inputs = relu.get_inputs()
    array = X.copy()
    inputs[0].set_data_from_numpy(array)
    first = relu.predict(inputs)[0].get_data_to_numpy().copy()
    array *= -1                       # zero-copy: the input tensor sees this
    second = relu.predict(inputs)[0].get_data_to_numpy()
    np.testing.assert_array_equal(first, relu_of(X))
    np.testing.assert_array_equal(second, relu_of(-X))


def test_predict_two_inputs_by_position(two_inputs):
    z = np.full((2, 4), 10.0, np.float32)
    (out,) = two_inputs.predict([X, z])
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(X) + z)
    (out,) = two_inputs.predict([z, X])
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(z) + X)


def test_predict_tensor_of_other_shape(relu):
    """A Tensor whose shape differs from the model input: Lite either runs
    it (dynamic shape) or fails with a RuntimeError, never another error."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 6
    try:
        (out,) = relu.predict([Tensor(x)])
    except RuntimeError:
        return
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(x))


# -- golden mlp ----------------------------------------------------------------------
def test_mlp_predict_with_input_tensors(mlp):
    x, expected = golden_io()
    inputs = mlp.get_inputs()
    inputs[0].set_data_from_numpy(x)
    (out,) = mlp.predict(inputs)
    assert out.shape == [2, 3] and out.dtype == DataType.FLOAT32
    np.testing.assert_allclose(out.get_data_to_numpy(), expected,
                               rtol=RTOL, atol=ATOL)


def test_mlp_predict_with_numpy(mlp):
    x, expected = golden_io()
    (out,) = mlp.predict([x])
    np.testing.assert_allclose(out.get_data_to_numpy(), expected,
                               rtol=RTOL, atol=ATOL)


def test_mlp_predict_with_outputs(mlp):
    x, expected = golden_io()
    outputs = [Tensor()]
    result = mlp.predict((x,), outputs)
    assert result[0] is outputs[0]
    assert outputs[0].shape == [2, 3]
    np.testing.assert_allclose(outputs[0].get_data_to_numpy(), expected,
                               rtol=RTOL, atol=ATOL)


def test_mlp_predict_argument_errors(mlp):
    x, _ = golden_io()
    with pytest.raises(RuntimeError, match=r"^model input len:1 not equal input len:2!$"):
        mlp.predict([x, x])
    with pytest.raises(RuntimeError, match=r"^data type not equal!"):
        mlp.predict([x.astype(np.float16)])
    with pytest.raises(RuntimeError, match=r"^data size not equal!"):
        mlp.predict([x[:1]])


# -- resize -----------------------------------------------------------------------------
def test_resize_argument_types(relu):
    inputs = relu.get_inputs()
    cases = [
        ((inputs[0], [[2, 4]]), TypeError, "inputs must be list or tuple of Lite "
         f"Tensor, but got {Tensor}."),
        ((inputs, [2, 4]), TypeError, "dims element must be list or tuple of int, "
         "but got <class 'int'> at index 0."),
        ((inputs, {"x": [2, 4]}), TypeError, "dims must be list or tuple of shape, "
         "but got <class 'dict'>."),
        (([X], [[2, 4]]), TypeError, "inputs element must be Tensor, but got "
         "<class 'numpy.ndarray'> at index 0."),
        ((inputs, [[2, 4.0]]), TypeError, "dims element's element must be int, "
         "but got <class 'float'> at 0th dims element's 1th element."),
        ((inputs, [[2, 4], [2, 4]]), ValueError, "inputs' size does not match "
         "dims' size, but got inputs: 1 and dims: 2."),
    ]
    for args, exc_type, message in cases:
        with pytest.raises(exc_type) as info:
            relu.resize(*args)
        assert str(info.value) == message


def test_resize_checks_inputs_before_dims(relu):
    with pytest.raises(TypeError, match="^inputs must be list or tuple"):
        relu.resize("x", "y")
    with pytest.raises(TypeError, match="^inputs element must be Tensor"):
        relu.resize(["x"], ["y"])      # elements before dims elements


@pytest.mark.parametrize("dims", [[[-1, 4]], [[0, 4]], [[2, -4]], [[2**31, 4]]])
def test_resize_non_positive_or_huge_dims(dynamic, dims):
    with pytest.raises(RuntimeError, match="^resize failed! Error is "):
        dynamic.resize(dynamic.get_inputs(), dims)
    assert dynamic.get_inputs()[0].shape == [-1, 4]


@pytest.mark.parametrize("args", [([], []), ((), ())])
def test_resize_empty(relu, args):
    with pytest.raises(RuntimeError, match="^resize failed! Error is "):
        relu.resize(*args)


def test_resize_wrong_input_count(two_inputs):
    (x, _) = two_inputs.get_inputs()
    with pytest.raises(RuntimeError) as info:
        two_inputs.resize([x], [[3, 4]])
    assert str(info.value) == (f"resize failed! Error is the model "
                               f"{two_inputs.model_path_} has 2 input(s), got 1 "
                               f"shape(s)")


def test_resize_bad_dim_names_the_input(two_inputs):
    with pytest.raises(RuntimeError) as info:
        two_inputs.resize(two_inputs.get_inputs(), [[2, 4], [0, 4]])
    assert str(info.value) == (f"resize failed! Error is input 1 ('z') of "
                               f"{two_inputs.model_path_}: every dim must be in "
                               f"[1, INT_MAX], got [0, 4]")


def test_dynamic_input_needs_resize_before_data(dynamic):
    """Lite's words (``Tensor size: -4``), then what they mean."""
    (tensor,) = dynamic.get_inputs()
    assert tensor.shape == [-1, 4]
    expected = (r"^data size not equal! Numpy size: 32, Tensor size: -16 \(input "
                f"'x' of {re.escape(dynamic.model_path_)} has unknown "
                r"dimensions \[-1, 4\]: call Model.resize first\)$")
    with pytest.raises(RuntimeError, match=expected):
        tensor.set_data_from_numpy(X)
    with pytest.raises(RuntimeError, match=expected):
        dynamic.predict([X])


def test_user_tensor_keeps_lite_message():
    """A tensor of the user's own belongs to no model: Lite's words only."""
    tensor = Tensor(np.zeros((2, 4), np.float32))
    with pytest.raises(RuntimeError) as info:
        tensor.set_data_from_numpy(np.zeros(3, np.float32))
    assert str(info.value) == "data size not equal! Numpy size: 12, Tensor size: 32"


@pytest.mark.parametrize("dims", [[[3, 4]], ((1, 4),), [[5, 4]]])
def test_resize_dynamic_then_predict(dynamic, dims):
    n = dims[0][0]
    x = np.linspace(-3, 3, n * 4, dtype=np.float32).reshape(n, 4)
    inputs = dynamic.get_inputs()
    assert dynamic.resize(inputs, dims) is None
    assert inputs[0].shape == [n, 4]
    assert dynamic.get_inputs()[0].shape == [n, 4]
    inputs[0].set_data_from_numpy(x)
    (out,) = dynamic.predict(inputs)
    assert out.shape == [n, 4]
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(x))
    (out,) = dynamic.predict([x])
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(x))


def test_resize_dynamic_reinfers_outputs(dynamic):
    dynamic.resize(dynamic.get_inputs(), [[3, 4]])
    (meta,) = dynamic.get_outputs()
    assert meta.shape == [3, 4]
    assert meta.element_num == 12 and meta.data_size == 48


def test_resize_static_model_then_predict(relu):
    """Lite re-infers shapes on resize: a (2, 4) ReLU model resized to
    (3, 4) runs on (3, 4) data. Refusing is allowed, but then resize itself
    must fail (RuntimeError), not leave a model predict cannot run."""
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    inputs = relu.get_inputs()
    try:
        relu.resize(inputs, [[3, 4]])
    except RuntimeError as exc:
        assert str(exc).startswith("resize failed! Error is ")
        return
    inputs[0].set_data_from_numpy(x)
    (out,) = relu.predict(inputs)
    np.testing.assert_array_equal(out.get_data_to_numpy(), relu_of(x))


def test_resize_then_old_sized_numpy_rejected(dynamic):
    dynamic.resize(dynamic.get_inputs(), [[3, 4]])
    with pytest.raises(RuntimeError) as info:
        dynamic.predict([X])
    assert str(info.value) == ("data size not equal! Numpy size: 32, Tensor size: "
                               f"48 (input 'x' of {dynamic.model_path_}: expected "
                               "shape [3, 4] float32)")


def test_config_repeated_section_keeps_first_block_only(relu_path, tmp_path):
    """Lite inserts each finished section into a std::map: a section name
    that comes back later is dropped as a whole, unless its first block was
    empty (empty sections are never inserted)."""
    path = tmp_path / "repeat.cfg"
    path.write_text("[a]\nk1=v1\n[empty]\n[b]\nk=v\n[a]\nk2=v2\n[empty]\nk3=v3\n")
    model = build(relu_path, config_path=str(path))
    assert model.config == {"a": {"k1": "v1"}, "b": {"k": "v"},
                            "empty": {"k3": "v3"}}


@pytest.mark.parametrize("lines,fails", [
    (["# c"] * 100_098, False),               # 100 098 lines: fine
    (["# c"] * 100_100, True),                # line 100 100 is refused
    (["[s]"] + [f"k{i}=v" for i in range(99_999)], False),  # 100 000 valid
    (["[s]"] + [f"k{i}=v" for i in range(100_000)], True),  # 100 001 valid
])
def test_config_line_limits(relu_path, tmp_path, lines, fails):
    path = tmp_path / "big.cfg"
    path.write_text("\n".join(lines) + "\n")
    if fails:
        with pytest.raises(RuntimeError, match="^load configuration failed! "
                                               "Error is "):
            build(relu_path, config_path=str(path))
    else:
        build(relu_path, config_path=str(path))


# -- inputs too big to allocate (issue 17, root cause 3) ----------------------------
HUGE_DIMS = {"4TiB": (2**20, 2**20), "past_int64": (2**40, 2**40),
             "4GiB": (2**16, 2**14)}


@pytest.mark.parametrize("dims", sorted(HUGE_DIMS))
@pytest.mark.parametrize("backend", ["numba", "reference"])
def test_build_with_huge_declared_input(dims, backend, tmp_path, capsys):
    """The build's warm-up allocates no zeros past its limit (no raw
    MemoryError, no 'array is too big'): it says which input is too big
    and leaves the kernels to the first predict."""
    path = make_model(tmp_path / "huge.mindir", dims=HUGE_DIMS[dims])
    model = build(path, config_dict={"refinfer": {"backend": backend}})
    assert model._loaded.kernels_compiled == 0
    said = capsys.readouterr().err
    if backend == "numba":
        assert f"{path}: kernels not compiled at build: input 'x' (float32" \
               f"{list(HUGE_DIMS[dims])}) needs " in said, said
    else:
        assert "kernels not compiled" not in said


def test_huge_input_without_data_names_the_tensor(tmp_path):
    (tensor,) = build(make_model(tmp_path / "huge.mindir",
                                 dims=(2**20, 2**20))).get_inputs()
    with pytest.raises(RuntimeError, match=r"^tensor 'x' \(float32\[1048576, "
                       r"1048576\]\): cannot allocate its 4398046511104 bytes$"):
        tensor.get_data_to_numpy()


def test_resize_to_huge_shape_leaves_output_shapes_unknown(dynamic):
    dynamic.resize(dynamic.get_inputs(), [[2**31 - 1, 2**31 - 1]])
    (meta,) = dynamic.get_outputs()
    assert meta.shape == [-1, -1]


def test_warmup_byte_sizes():
    from refinfer.warmup import byte_size
    assert [byte_size(n) for n in (0, 1023, 1536, 2**30, 4 * 2**40)] == \
        ["0 bytes", "1023 bytes", "1.5 KiB", "1 GiB", "4 TiB"]


def test_a_complex_output_is_a_clear_error():
    # FFT ops compute complex tensors, which Lite's DataType cannot hold: a
    # graph that returns one said "Unsupported numpy dtype value complex64"
    spec = SimpleNamespace(name="spectrum")
    with pytest.raises(RuntimeError, match=r"predict failed! Error is output 0 "
                       r"\('spectrum'\) of m.mindir is complex64: Lite's "
                       r"DataType has no complex type"):
        _output_tensors("m.mindir", [spec], [np.zeros(2, np.complex64)], None)
