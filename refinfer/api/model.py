"""Lite's ``Model``: build from a MindIR file, then predict."""
from __future__ import annotations

import json
import os

import numpy as np

from ..errors import MindIRError
from ..runtime import IOSpec, LoadedModel
from ._checkparam import (check_isinstance, check_list_of_element,
                          check_section_dict)
from .config import merge, parse_config_file
from .context import Context
from .enums import DataType, Format, ModelType, data_type_of, numpy_type
from .tensor import Tensor, TensorMeta, _TensorImpl

SERVED_TARGETS = ("cpu",)


class Model:
    """A model built from a ``.mindir`` file, run by the reference
    interpreter on the CPU."""

    def __init__(self):
        self.model_path_ = ""
        self._loaded: LoadedModel | None = None
        self._inputs: list[_TensorImpl] = []
        self._output_shapes: list | None = None   # known after resize/predict
        self.config: dict[str, dict[str, str]] = {}

    def __str__(self):
        return f"model_path: {self.model_path_}."

    # -- building ------------------------------------------------------------
    def build_from_file(self, model_path, model_type, context=None,
                        config_path="", config_dict=None, dec_key=None,
                        dec_mode="AES-GCM", dec_num_parallel=0):
        check_isinstance("model_path", model_path, str)
        check_isinstance("model_type", model_type, ModelType)
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("config_path", config_path, str)
        if not os.path.exists(model_path):
            raise RuntimeError("build_from_file failed, model_path does not "
                               "exist!")
        self.model_path_ = model_path
        config = self._config(config_path, config_dict)
        if dec_key:
            _check_decryption(dec_key, dec_mode, dec_num_parallel)
        _check_served(context, model_type)
        try:
            self._loaded = LoadedModel(model_path, dec_key=dec_key or None,
                                       dec_mode=dec_mode)
        except (MindIRError, OSError) as exc:
            raise RuntimeError(f"build_from_file failed! Error is {exc}") \
                from exc
        self.config = config
        self._inputs = [_input_impl(spec) for spec in self._loaded.inputs]
        self._output_shapes = [spec.shape for spec in self._loaded.outputs]

    @staticmethod
    def _config(config_path: str, config_dict) -> dict:
        config = {}
        if config_path:
            if not os.path.exists(config_path):
                raise RuntimeError("build_from_file failed, config_path does "
                                   "not exist!")
            try:
                config = parse_config_file(config_path)
            except (OSError, ValueError, UnicodeDecodeError) as exc:
                raise RuntimeError(f"load configuration failed! Error is "
                                   f"{exc}") from exc
        if config_dict:
            check_section_dict("config_dict", config_dict)
        return merge(config, config_dict or None)

    # -- inputs and outputs --------------------------------------------------
    def get_inputs(self) -> list[Tensor]:
        """Fresh wrappers around the model's input tensors."""
        return [Tensor(impl) for impl in self._require_built()._inputs]

    def get_outputs(self) -> tuple[TensorMeta, ...]:
        """Output metadata (Lite 2.7 returns TensorMeta, not data). After a
        resize, shapes are re-inferred; for models with control flow they
        are -1 until the next predict."""
        specs = self._require_built()._loaded.outputs
        if self._output_shapes is None:
            self._output_shapes = self._loaded.infer_output_shapes(
                [impl.shape for impl in self._inputs])
        shapes = self._output_shapes or [(-1,) * len(s.shape) for s in specs]
        return tuple(_meta(IOSpec(s.name, tuple(shape), s.dtype))
                     for s, shape in zip(specs, shapes))

    def get_model_info(self, key):
        check_isinstance("key", key, str)
        if key == "user_info":
            info = self._loaded.model.user_info if self._loaded else {}
            return "{" + ", ".join(f'"{k}": "{v}"' for k, v in info.items()) + "}"
        if key == "current_pid":
            return str(os.getpid())
        return ""

    # -- running -------------------------------------------------------------
    def resize(self, inputs, dims):
        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"inputs must be list or tuple of Lite Tensor, but "
                            f"got {type(inputs)}.")
        if not isinstance(dims, (list, tuple)):
            raise TypeError(f"dims must be list or tuple of shape, but got "
                            f"{type(dims)}.")
        _check_resize_elements(inputs, dims)
        self._require_built()
        if len(inputs) != len(self._inputs) or any(
                d <= 0 or d > 2**31 - 1 for shape in dims for d in shape):
            raise RuntimeError(f"resize failed! Error is the model has "
                               f"{len(self._inputs)} input(s) and every dim "
                               f"must be in [1, INT_MAX], got {list(dims)}")
        for tensor, shape in zip(inputs, dims):
            tensor._tensor.shape = list(shape)
            tensor._tensor.data = None
        for impl, shape in zip(self._inputs, dims):
            if impl.shape != list(shape):
                impl.shape, impl.data, impl.frozen = list(shape), None, False
        self._output_shapes = None

    def predict(self, inputs, outputs=None) -> list[Tensor]:
        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"inputs must be list or tuple, but got "
                            f"{type(inputs)}.")
        self._require_built()
        if len(inputs) != len(self._inputs):
            raise RuntimeError(f"model input len:{len(self._inputs)} not equal "
                               f"input len:{len(inputs)}!")
        tensors = [self._as_input_tensor(i, value)
                   for i, value in enumerate(inputs)]
        check_list_of_element("outputs", outputs, Tensor, enable_none=True)
        arrays = [self._input_array(i, t) for i, t in enumerate(tensors)]
        shapes = [impl.shape for impl in self._inputs]
        try:
            results = self._loaded.run(arrays, shapes=shapes)
        except (ValueError, TypeError) as exc:
            raise RuntimeError(f"predict failed! Error is {exc}") from exc
        self._output_shapes = [np.shape(r) for r in results]
        return _output_tensors(self._loaded.outputs, results, outputs)

    def _as_input_tensor(self, index: int, value) -> Tensor:
        """Tensors are used as given; arrays fill the model's own input
        tensor, as in Lite."""
        if isinstance(value, Tensor):
            return value
        if isinstance(value, np.ndarray):
            tensor = Tensor(self._inputs[index])
            tensor.set_data_from_numpy(value)
            return tensor
        raise TypeError("inputs element must be Tensor, of numpy.")

    def _input_array(self, index: int, tensor: Tensor) -> np.ndarray:
        expected = self._inputs[index]
        problem = None
        if tensor.dtype != expected.dtype:
            problem = f"has dtype {tensor.dtype}, the model expects " \
                      f"{expected.dtype}"
        elif tensor.shape != expected.shape:
            problem = f"has shape {tensor.shape}, the model input is " \
                      f"{expected.shape} (call resize first)"
        elif tensor._tensor.data is None:
            problem = "has no data"
        if problem:
            raise RuntimeError(f"predict failed! Error is input {index} "
                               f"({expected.name!r}) {problem}")
        return tensor.get_data_to_numpy()

    def _require_built(self) -> "Model":
        if self._loaded is None:
            raise RuntimeError("model is not built: call build_from_file first")
        return self


def _check_decryption(dec_key, dec_mode, dec_num_parallel):
    check_isinstance("dec_key", dec_key, bytes)
    check_isinstance("dec_mode", dec_mode, str)
    check_isinstance("dec_num_parallel", dec_num_parallel, int)
    if not dec_mode:
        raise ValueError("dec_mode must not be empty string!")


def _check_served(context: Context, model_type: ModelType) -> None:
    preferred = context.target[0].lower()
    if preferred not in SERVED_TARGETS:
        raise RuntimeError(
            f"build_from_file failed! Error is target {preferred!r} is not "
            f"supported by refinfer, which runs on the CPU: set "
            f"context.target = ['cpu']")
    if model_type != ModelType.MINDIR:
        raise RuntimeError("build_from_file failed! Error is only "
                           "ModelType.MINDIR files are supported")


def _check_resize_elements(inputs, dims):
    for i, tensor in enumerate(inputs):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"inputs element must be Tensor, but got "
                            f"{type(tensor)} at index {i}.")
    for i, shape in enumerate(dims):
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"dims element must be list or tuple of int, but "
                            f"got {type(shape)} at index {i}.")
        for j, d in enumerate(shape):
            if not isinstance(d, int):
                raise TypeError(f"dims element's element must be int, but got "
                                f"{type(d)} at {i}th dims element's {j}th "
                                "element.")
    if len(inputs) != len(dims):
        raise ValueError(f"inputs' size does not match dims' size, but got "
                         f"inputs: {len(inputs)} and dims: {len(dims)}.")


def _input_impl(spec: IOSpec) -> _TensorImpl:
    return _TensorImpl(spec.name, _data_type(spec.dtype), list(spec.shape))


def _data_type(dtype) -> DataType:
    try:
        return data_type_of(dtype) if dtype is not None else DataType.UNKNOWN
    except TypeError:
        return DataType.UNKNOWN


def _meta(spec: IOSpec) -> TensorMeta:
    meta = TensorMeta()
    meta.name, meta.dtype = spec.name, _data_type(spec.dtype)
    meta.shape, meta.format = list(spec.shape), Format.NCHW
    meta.element_num = int(np.prod(spec.shape, dtype=np.int64))
    np_type = numpy_type(meta.dtype)
    meta.data_size = meta.element_num * (np.dtype(np_type).itemsize
                                         if np_type else 0)
    return meta


def _output_tensors(specs, results, outputs) -> list[Tensor]:
    if outputs is not None and len(outputs) != len(results):
        raise RuntimeError(f"predict failed! Error is {len(outputs)} output "
                           f"tensors given, the model has {len(results)}")
    tensors = []
    for k, (spec, array) in enumerate(zip(specs, results)):
        array = np.ascontiguousarray(array)
        impl = _TensorImpl(spec.name, data_type_of(array.dtype), array.shape,
                           data=array)
        if outputs is not None:
            outputs[k]._tensor.__dict__.update(impl.__dict__)
            tensors.append(outputs[k])
        else:
            tensors.append(Tensor(impl))
    return tensors
