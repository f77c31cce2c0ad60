"""``Converter``: MindIR in, a validated self-contained MindIR out (written
atomically); ``input_shape`` / ``weight_fp16`` / ``infer`` on the CPU; Lite's checks."""
import os
import shutil

import numpy as np
import pytest

import refinfer as mslite
from refinfer import Converter, DataType, FmkType, Format, ModelType

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "golden")
MLP = os.path.join(GOLDEN, "mlp", "model.mindir")
MLP_SPLIT = os.path.join(GOLDEN, "mlp_split", "model_graph.mindir")
DYN = os.path.join(GOLDEN, "dyn_mlp", "model.mindir")
RTOL, ATOL = 1e-5, 1e-6


def golden(case, name):
    return np.load(os.path.join(GOLDEN, case, name))


def built(path) -> mslite.Model:
    model = mslite.Model()
    model.build_from_file(str(path), ModelType.MINDIR)
    return model


def convert(tmp_path, model_file, output="out", **options) -> str:
    converter = Converter()
    for name, value in options.items():
        setattr(converter, name, value)
    converter.convert(FmkType.MINDIR, model_file, str(tmp_path / output))
    return str(tmp_path / "out.mindir")


def test_split_weights_are_embedded_and_the_model_runs_alone(tmp_path, capsys):
    out = convert(tmp_path, MLP_SPLIT, infer=True)
    assert capsys.readouterr().out == "CONVERT RESULT SUCCESS:0\n"
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.move(out, alone / "model.mindir")        # no _variables/ beside it
    assert os.listdir(tmp_path) == ["alone"]        # no partial file left
    y = built(alone / "model.mindir").predict([golden("mlp_split", "input_0.npy")])
    np.testing.assert_allclose(y[0].get_data_to_numpy(),
                               golden("mlp_split", "output_0.npy"), RTOL, ATOL)


def test_an_output_name_ending_in_mindir_is_kept(tmp_path):
    convert(tmp_path, MLP, output="out.mindir")
    assert os.listdir(tmp_path) == ["out.mindir"]


def test_weight_fp16_rounds_the_float32_weights(tmp_path):
    original = built(MLP)._loaded.parameters()
    rounded = built(convert(tmp_path, MLP, weight_fp16=True))._loaded.parameters()
    assert sorted(rounded) == sorted(original)
    for name, array in original.items():
        assert rounded[name].dtype == np.float32
        np.testing.assert_array_equal(rounded[name],
                                      array.astype(np.float16).astype(np.float32))
        assert not np.array_equal(rounded[name], array)


def test_input_shape_fixes_a_dynamic_dim(tmp_path):
    assert built(DYN).get_inputs()[0].shape == [-1, 4]
    model = built(convert(tmp_path, DYN, input_shape={"x": [2, 4]}, infer=True))
    assert model.get_inputs()[0].shape == [2, 4]
    y = model.predict([golden("dyn_mlp", "input_0.npy")])
    np.testing.assert_allclose(y[0].get_data_to_numpy(),
                               golden("dyn_mlp", "output_0.npy"), 1e-4, 1e-5)


@pytest.mark.parametrize("model_file, options, message", [
    (MLP, {"input_shape": {"y": [2, 4]}},
     "input_shape names 'y'; the model's inputs are 'x'"),
    (MLP, {"input_shape": {"x": [3, 4]}},
     "input_shape 'x': dim 0 is 2 in the model, 3 given; only dynamic dims (-1) "
     "can be set"),
    (DYN, {"input_shape": {"x": [2, 4, 1]}},
     "input_shape 'x': [2, 4, 1] has 3 dims, the model input is [-1, 4]"),
    (DYN, {"input_shape": {"x": [0, 4]}}, "input_shape 'x': [0, 4] has a dim below 1"),
    (DYN, {"infer": True}, "infer needs fixed input shapes; x of "),
    (MLP, {"save_type": ModelType.MINDIR_LITE}, "save_type ModelType.MINDIR_LITE: "
     "refinfer writes MindIR files"),
    (MLP, {"optimize": "ascend_oriented:910b"}, "optimize 'ascend_oriented', device "
     "'': refinfer writes models for the CPU"),
    (MLP, {"device": "Ascend"}, "optimize 'general', device 'Ascend'"),
    (MLP, {"input_format": Format.NHWC}, "input_format: refinfer does not change a "
     "model's input layout"),
])
def test_refused_conversions_write_nothing(tmp_path, model_file, options, message):
    (tmp_path / "out.mindir").write_bytes(b"previous")
    with pytest.raises(RuntimeError) as caught:
        convert(tmp_path, model_file, **options)
    assert str(caught.value).startswith("Converter model failed! error is " + message)
    assert os.listdir(tmp_path) == ["out.mindir"]
    assert (tmp_path / "out.mindir").read_bytes() == b"previous"


def test_config_sections_are_refused(tmp_path):
    converter = Converter()
    converter.set_config_info("common_quant_param", {"quant_type": "WEIGHT_QUANT"})
    assert converter.get_config_info() == {
        "common_quant_param": {"quant_type": "WEIGHT_QUANT"}}
    with pytest.raises(RuntimeError, match=r"config section\(s\) common_quant_param: "
                       "refinfer's converter applies no quantization"):
        converter.convert(FmkType.MINDIR, MLP, str(tmp_path / "out"))
    config = tmp_path / "c.cfg"
    config.write_text("[registry]\nplugin_path=x.so\n")
    with pytest.raises(RuntimeError, match=r"config section\(s\) registry:"):
        Converter().convert(FmkType.MINDIR, MLP, str(tmp_path / "out"),
                            config_file=str(config))


def test_other_frameworks_are_refused(tmp_path):
    with pytest.raises(RuntimeError, match="fmk_type FmkType.ONNX: refinfer converts "
                       "MindIR models only"):
        Converter().convert(FmkType.ONNX, MLP, str(tmp_path / "out"))


def test_a_file_that_is_no_mindir_names_itself(tmp_path):
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x08\x01garbage")
    with pytest.raises(RuntimeError, match=r"Converter model failed! error is "
                       r".*bad\.mindir: not a MindIR file"):
        Converter().convert(FmkType.MINDIR, str(bad), str(tmp_path / "out"))
    assert os.listdir(tmp_path) == ["bad.mindir"]


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    (tmp_path / "out.mindir").write_bytes(b"previous")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(RuntimeError, match="No space left on device"):
        convert(tmp_path, MLP)
    assert os.listdir(tmp_path) == ["out.mindir"]
    assert (tmp_path / "out.mindir").read_bytes() == b"previous"


@pytest.mark.parametrize("args, error, message", [
    ((0, MLP, "o"), TypeError, "fmk_type must be FmkType, but got <class 'int'>."),
    ((FmkType.MINDIR, 1, "o"), TypeError,
     "model_file must be str, but got <class 'int'>."),
    ((FmkType.MINDIR, MLP, None), TypeError,
     "output_file must be str, but got <class 'NoneType'>."),
    ((FmkType.MINDIR, MLP, "o", 1), TypeError,
     "weight_file must be str, but got <class 'int'>."),
    ((FmkType.MINDIR, MLP, "o", "", 1), TypeError,
     "config_file must be str, but got <class 'int'>."),
    ((FmkType.MINDIR, "/no/m.mindir", "o"), RuntimeError,
     "Perform convert method failed, model_file does not exist!"),
    ((FmkType.MINDIR, MLP, "o", "/no/w"), RuntimeError,
     "Perform convert method failed, weight_file does not exist!"),
    ((FmkType.MINDIR, MLP, "o", "", "/no/c.cfg"), RuntimeError,
     "Perform convert method failed, config_file does not exist!"),
])
def test_convert_argument_checks(args, error, message):
    with pytest.raises(error) as caught:
        Converter().convert(*args)
    assert str(caught.value) == message


@pytest.mark.parametrize("name, value, error, message", [
    ("weight_fp16", 1, TypeError, "weight_fp16 must be bool, but got <class 'int'>."),
    ("infer", "yes", TypeError, "infer must be bool, but got <class 'str'>."),
    ("input_shape", [1], TypeError, "input_shape must be dict, but got <class 'list'>."),
    ("input_shape", {1: [1]}, TypeError,
     "input_shape key must be str, but got <class 'int'>."),
    ("input_shape", {"x": (1,)}, TypeError,
     "input_shape value must be list, but got <class 'tuple'> at key x."),
    ("input_shape", {"x": [1.0]}, TypeError,
     "input_shape value's element must be int, but got <class 'float'> at index 0."),
    ("input_format", Format.NC, ValueError,
     "input_format must be in [Format.NCHW, Format.NHWC]."),
    ("input_data_type", DataType.INT32, ValueError, "input_data_type must be in "
     "[DataType.FLOAT32, DataType.INT8, DataType.UINT8, DataType.UNKNOWN]."),
    ("output_data_type", 43, TypeError,
     "output_data_type must be DataType, but got <class 'int'>."),
    ("save_type", "MINDIR", TypeError,
     "save_type must be ModelType, but got <class 'str'>."),
    ("optimize", "fast", ValueError,
     "optimize must be 'none', 'general', 'ascend_oriented'."),
    ("optimize", "ascend_oriented:310", ValueError,
     "chip_name must be in [default, 910b], but got 310."),
    ("device", "GPU", ValueError, "device must be in [Ascend], but got GPU."),
    ("device_id", "0", TypeError, "device_id must be int, but got <class 'str'>."),
    ("encrypt_key", "k", RuntimeError,
     "This function is not supported in the current version!"),
])
def test_property_checks(name, value, error, message):
    with pytest.raises(error) as caught:
        setattr(Converter(), name, value)
    assert str(caught.value) == message


def test_write_only_keys_and_str():
    converter = Converter()
    with pytest.raises(TypeError, match="decrypt_key is write-only."):
        converter.decrypt_key
    converter.weight_fp16, converter.optimize = True, "none"
    converter.input_shape = {"x": [1, 4]}
    assert str(converter).splitlines()[1:3] == ["weight_fp16: True,",
                                               "input_shape: {'x': [1, 4]},"]
    assert str(converter).endswith("optimize: none,\ndevice: .")
