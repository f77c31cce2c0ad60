"""Lite's ``Converter`` on the CPU: validate a MindIR and write it again.

``convert(FmkType.MINDIR, model_file, output_file)`` reads the model, applies the
options that mean something for a MindIR run on the CPU (``input_shape``,
``weight_fp16``: refinfer/format/writer.py), builds the result (every op supported, the
plan compiles; with ``infer``, one run on zeros) and only then writes
``<output_file>.mindir``, atomically. Weights in ``_variables/`` files are embedded.

``optimize`` ``"none"`` and ``"general"`` write the same file: refinfer fuses at build
time, and a MindIR has no form for fused kernels. Everything else (other frameworks,
``.ms`` output, Ascend/GPU targets, quantization configs, input layout changes) is
refused at ``convert`` with a message naming the option. Property checks and messages
are Lite's.
"""
from __future__ import annotations

import os
from enum import Enum

from .. import warmup
from ..errors import MindIRError, NodeError
from ..format import writer
from ..format.reader import read_mindir
from ..runtime import LoadedModel
from ._checkparam import check_config_info, check_input_shape, check_isinstance
from .config import parse_config_file
from .enums import DataType, Format, ModelType

NOT_SUPPORTED = "This function is not supported in the current version!"
OPTIMIZE_OPTIONS = ("none", "general", "gpu_oriented", "ascend_oriented")
QUANT_DATA_TYPES = (DataType.FLOAT32, DataType.INT8, DataType.UINT8, DataType.UNKNOWN)
SUFFIX = ".mindir"


class FmkType(Enum):
    TF = 0
    CAFFE = 1
    ONNX = 2
    MINDIR = 3
    TFLITE = 4
    PYTORCH = 5


class Converter:
    """Lite's converter, for MindIR to MindIR (see the module docstring)."""

    def __init__(self):
        self._config_info: dict[str, dict[str, str]] = {}
        self._weight_fp16 = False
        self._input_shape: dict[str, list[int]] = {}
        self._input_format = Format.NCHW
        self._input_format_set = False
        self._input_data_type = self._output_data_type = DataType.FLOAT32
        self._save_type = ModelType.MINDIR
        self._infer = False
        self._optimize = "general"
        self._device = ""
        self._device_id = self._rank_id = 0

    def __str__(self):
        return (f"config_info: {self.get_config_info()},\n"
                f"weight_fp16: {self.weight_fp16},\n"
                f"input_shape: {self.input_shape},\n"
                f"input_format: {self.input_format},\n"
                f"input_data_type: {self.input_data_type},\n"
                f"output_data_type: {self.output_data_type},\n"
                f"save_type: {self.save_type},\n"
                f"infer: {self.infer},\n"
                f"optimize: {self.optimize},\n"
                f"device: {self.device}.")

    # -- options ---------------------------------------------------------------
    @property
    def weight_fp16(self):
        return self._weight_fp16

    @weight_fp16.setter
    def weight_fp16(self, value):
        check_isinstance("weight_fp16", value, bool)
        self._weight_fp16 = value

    @property
    def input_shape(self):
        return {name: list(shape) for name, shape in self._input_shape.items()}

    @input_shape.setter
    def input_shape(self, value):
        check_input_shape("input_shape", value)
        self._input_shape = {name: list(shape) for name, shape in value.items()}

    @property
    def input_format(self):
        return self._input_format

    @input_format.setter
    def input_format(self, value):
        check_isinstance("input_format", value, Format)
        if value not in (Format.NCHW, Format.NHWC):
            raise ValueError("input_format must be in [Format.NCHW, Format.NHWC].")
        self._input_format, self._input_format_set = value, True

    @property
    def input_data_type(self):
        return self._input_data_type

    @input_data_type.setter
    def input_data_type(self, value):
        self._input_data_type = _quant_data_type("input_data_type", value)

    @property
    def output_data_type(self):
        return self._output_data_type

    @output_data_type.setter
    def output_data_type(self, value):
        self._output_data_type = _quant_data_type("output_data_type", value)

    @property
    def save_type(self):
        return self._save_type

    @save_type.setter
    def save_type(self, value):
        check_isinstance("save_type", value, ModelType)
        self._save_type = value

    @property
    def infer(self):
        return self._infer

    @infer.setter
    def infer(self, value):
        check_isinstance("infer", value, bool)
        self._infer = value

    @property
    def optimize(self):
        return self._optimize

    @optimize.setter
    def optimize(self, value):
        check_isinstance("optimize", value, str)
        if value.startswith("ascend_oriented"):
            chip = value.split(":")
            if len(chip) > 2:
                raise ValueError("chip_name must be single")
            if chip[-1] not in ("ascend_oriented", "910b"):
                raise ValueError(f"chip_name must be in [default, 910b], but got "
                                 f"{chip[-1]}.")
            value = "ascend_oriented"
        elif value not in OPTIMIZE_OPTIONS:
            raise ValueError("optimize must be 'none', 'general', 'ascend_oriented'.")
        self._optimize = value

    @property
    def device(self):
        return self._device

    @device.setter
    def device(self, value):
        check_isinstance("device", value, str)
        if value not in ("Ascend",):
            raise ValueError(f"device must be in [Ascend], but got {value}.")
        self._device = value

    @property
    def device_id(self):
        return self._device_id

    @device_id.setter
    def device_id(self, value):
        check_isinstance("device_id", value, int)
        self._device_id = value

    @property
    def rank_id(self):
        return self._rank_id

    @rank_id.setter
    def rank_id(self, value):
        check_isinstance("rank_id", value, int)
        self._rank_id = value

    # Lite's converter leaves encryption out of its Python API (same messages)
    @property
    def encrypt_key(self):
        raise TypeError("encrypt_key is write-only.")

    @encrypt_key.setter
    def encrypt_key(self, value):
        raise RuntimeError(NOT_SUPPORTED)

    @property
    def decrypt_key(self):
        raise TypeError("decrypt_key is write-only.")

    @decrypt_key.setter
    def decrypt_key(self, value):
        raise RuntimeError(NOT_SUPPORTED)

    @property
    def decrypt_mode(self):
        raise RuntimeError(NOT_SUPPORTED)

    @decrypt_mode.setter
    def decrypt_mode(self, value):
        raise RuntimeError(NOT_SUPPORTED)

    @property
    def enable_encryption(self):
        raise RuntimeError(NOT_SUPPORTED)

    @enable_encryption.setter
    def enable_encryption(self, value):
        raise RuntimeError(NOT_SUPPORTED)

    def set_config_info(self, section="", config_info=None):
        check_isinstance("section", section, str)
        check_config_info("config_info", config_info, enable_none=True)
        if section != "" and config_info is not None:
            self._config_info.setdefault(section, {}).update(config_info)

    def get_config_info(self):
        return {section: dict(info) for section, info in self._config_info.items()}

    # -- converting ----------------------------------------------------------------
    def convert(self, fmk_type, model_file, output_file, weight_file="", config_file=""):
        """Write ``model_file`` (a MindIR) to ``output_file`` + ``.mindir`` (unless it
        ends so), after validating the result."""
        check_isinstance("fmk_type", fmk_type, FmkType)
        check_isinstance("model_file", model_file, str)
        check_isinstance("output_file", output_file, str)
        check_isinstance("weight_file", weight_file, str)
        check_isinstance("config_file", config_file, str)
        for name, path in (("model_file", model_file), ("weight_file", weight_file),
                           ("config_file", config_file)):
            if (path != "" or name == "model_file") and not os.path.exists(path):
                raise RuntimeError(f"Perform convert method failed, {name} does not "
                                   "exist!")
        target = output_file if output_file.endswith(SUFFIX) else output_file + SUFFIX
        try:
            refused = self._refused(fmk_type, config_file)
            if refused:
                raise ValueError(refused)
            data = self._converted(model_file)
            writer.write_atomically(target, data)
        except (MindIRError, NodeError, OSError, ValueError) as exc:
            raise RuntimeError(f"Converter model failed! error is {exc}") from exc
        print("CONVERT RESULT SUCCESS:0")

    def _refused(self, fmk_type: FmkType, config_file: str) -> str | None:
        """Why these settings ask for something refinfer does not do, if they do."""
        if fmk_type is not FmkType.MINDIR:
            return (f"fmk_type {fmk_type}: refinfer converts MindIR models only "
                    "(FmkType.MINDIR); other frameworks need MindSpore Lite's converter")
        if self._save_type is not ModelType.MINDIR:
            return ("save_type ModelType.MINDIR_LITE: refinfer writes MindIR files "
                    "(.ms files are device-side Lite's)")
        if self._optimize in ("gpu_oriented", "ascend_oriented") or self._device:
            return (f"optimize {self._optimize!r}, device {self._device!r}: refinfer "
                    "writes models for the CPU (optimize 'none' or 'general')")
        if self._input_format_set:
            return ("input_format: refinfer does not change a model's input layout; "
                    "leave it unset")
        sections = sorted({*self._config_info,
                           *(parse_config_file(config_file) if config_file else {})})
        if sections:
            return (f"config section(s) {', '.join(sections)}: refinfer's converter "
                    "applies no quantization, plugin or other converter config")
        return None

    def _converted(self, model_file: str) -> bytes:
        """The output file's bytes, built and (``infer``) run once before they are
        written."""
        file = read_mindir(model_file)
        with open(model_file, "rb") as f:
            data = writer.rewrite(f.read(), file, self._input_shape, self._weight_fp16)
        loaded = LoadedModel(model_file, "reference", process_tuning=False, data=data)
        if self._infer:
            _infer_once(model_file, loaded)
        return data


def _quant_data_type(name: str, value) -> DataType:
    check_isinstance(name, value, DataType)
    if value not in QUANT_DATA_TYPES:
        raise ValueError(f"{name} must be in [DataType.FLOAT32, DataType.INT8, "
                         "DataType.UINT8, DataType.UNKNOWN].")
    return value


def _infer_once(model_file: str, loaded: LoadedModel) -> None:
    """Lite's ``infer``: run the converted model once (on zeros)."""
    shapes = [spec.shape for spec in loaded.inputs]
    dynamic = [spec.name for spec in loaded.inputs if any(d < 0 for d in spec.shape)]
    if dynamic:
        raise ValueError(f"infer needs fixed input shapes; {', '.join(dynamic)} of "
                         f"{model_file} are dynamic: set input_shape")
    zeros = warmup.zeros_of(shapes, [spec.dtype for spec in loaded.inputs])
    if zeros is None:
        raise ValueError(f"infer: the inputs of {model_file} are too big to run on zeros")
    loaded.run(zeros)
