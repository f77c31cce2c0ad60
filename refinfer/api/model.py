"""Lite's ``Model``: build from a MindIR file, then predict."""
from __future__ import annotations

import dataclasses
import functools
import os

import numpy as np

from .. import distributed, gpu, sharing
from ..errors import CallBudgetExceeded, CallDepthError, MindIRError
from ..precision import cast_outputs
from ..runtime import IOSpec, LoadedModel, shape_fits
from ..watch import keep_hooks
from ._checkparam import (check_isinstance, check_list_of_element,
                          check_section_dict)
from .backend import (backend_setting, call_limits_setting, effective_backend,
                      process_tuning_setting, target_backend, target_precision,
                      thread_settings)
from .config import merge, parse_config_file
from .context import Context
from .debug import kernel_hooks, refinfer_settings
from .enums import DataType, Format, ModelType, data_type_of, numpy_type
from .tensor import Tensor, TensorMeta, _TensorImpl
from .weights import (check_weights, checkpoint_updates, named_updates,
                      variable_weight_names)

SERVED_TARGETS = ("cpu", "gpu")


def _failure_ends_distributed_job(method):
    """Run ``method`` in the model's distributed session, if any (where the
    communication kernels find their communicator). In a distributed run an
    error ends the job (MPI) or the other ranks' waits (threads): peers never
    hang in a collective for a rank that failed (docs/distributed.md)."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with distributed.failing_aborts(), distributed.activated(self._session):
            return method(self, *args, **kwargs)
    return run


class Model:
    """A model built from a ``.mindir`` file, run on the CPU by the fast
    (numba) backend, or by the NumPy reference (config ``[refinfer]
    backend=reference``)."""

    def __init__(self):
        self.model_path_ = ""
        self._loaded: LoadedModel | None = None
        self._inputs: list[_TensorImpl] = []
        self._output_shapes: list | None = None   # known after resize/predict
        self.config: dict[str, dict[str, str]] = {}
        self._cast_outputs = False      # [refinfer] cast_outputs
        self._shared: sharing.Published | None = None   # weight-sharing master
        self._variable_weights: list[str] | None = None  # variable_weights_file
        self._session: distributed.Session | None = None  # sliced models only
        self._weight_pool: sharing.WeightPool | None = None  # ModelGroup SHARE_WEIGHT

    def __str__(self):
        return f"model_path: {self.model_path_}."

    # -- building ------------------------------------------------------------
    @_failure_ends_distributed_job
    def build_from_file(self, model_path, model_type, context=None,
                        config_path="", config_dict=None, dec_key=None,
                        dec_mode="AES-GCM", dec_num_parallel=0):
        check_isinstance("model_path", model_path, str)
        path_pattern = model_path
        try:
            model_path = distributed.rank_file(model_path)
        except distributed.DistributedError as exc:
            raise RuntimeError(f"build_from_file failed! Error is {exc}") \
                from exc
        check_isinstance("model_type", model_type, ModelType)
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("config_path", config_path, str)
        if not os.path.exists(model_path):
            raise RuntimeError("build_from_file failed, model_path does not "
                               "exist!")
        self.model_path_ = model_path
        config = self._config(config_path, config_dict, "build_from_file")
        if dec_key:
            _check_decryption(dec_key, dec_mode, dec_num_parallel)
        self._build(_Source(model_path, path_pattern, "build_from_file"),
                    context, model_type, config, config_path,
                    dec_key=dec_key or None, dec_mode=dec_mode)

    @_failure_ends_distributed_job
    def build_from_buffer(self, model_bytes, weight_bytes=None, model_type=None,
                          context=None, config_path="", config_dict=None):
        """Build from the bytes of a ``.mindir`` (Lite 2.9+). ``weight_bytes``:
        the bytes of its external data file (``<name>_variables/data_0``),
        when its weights are split; without them split weights are looked
        for next to config ``[model_file] mindir_path``, as in Lite."""
        check_isinstance("model_bytes", model_bytes, bytes)
        check_isinstance("weight_bytes", weight_bytes, bytes, enable_none=True)
        model_type = ModelType.MINDIR if model_type is None else model_type
        check_isinstance("model_type", model_type, ModelType)
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("config_path", config_path, str)
        if not model_bytes:
            raise RuntimeError("build_from_buffer failed! Error is model_bytes "
                               "is empty")
        config = self._config(config_path, config_dict, "build_from_buffer")
        if sharing.requested(config):
            raise RuntimeError(
                "build_from_buffer failed! Error is weight sharing between "
                "processes needs build_from_file: the model file identifies "
                "the shared weights")
        # names the model in messages; its folder holds split weights
        label = config.get("model_file", {}).get("mindir_path") or "model_bytes"
        self.model_path_ = label
        self._build(_Source(label, "", "build_from_buffer", model_bytes,
                            weight_bytes), context, model_type, config,
                    config_path)

    def _build(self, source: "_Source", context: Context,
               model_type: ModelType, config: dict, config_path: str,
               dec_key=None, dec_mode="AES-GCM") -> None:
        """Read, check and compile the model ``source`` names."""
        failed = f"{source.method} failed! Error is"
        _check_served(context, model_type, source.method)
        try:
            backend, rest = backend_setting(config)     # api/backend.py
            tuning, rest = process_tuning_setting(rest)
            depth, calls, rest = call_limits_setting(rest)
            precision, self._cast_outputs = refinfer_settings(rest)
            backend = target_backend(context, backend)
            precision = target_precision(context, backend, precision)
            backend = effective_backend(backend, precision)
            threads = thread_settings(context, backend)
            device_id = gpu.rank_device(context.gpu.explicit_device_id,
                                        distributed.local_rank()) \
                if backend == gpu.CUDA else context.gpu.device_id
        except (ValueError, gpu.NoGPU) as exc:
            raise RuntimeError(f"{failed} {exc}") from exc
        try:
            # a weight-sharing worker reads no weights of its own
            attached = sharing.attach_for(source.path, config)
            loaded = LoadedModel(source.path, backend,
                                 dec_key=dec_key, dec_mode=dec_mode,
                                 precision=precision, threads=threads,
                                 weights=attached and attached.weights,
                                 process_tuning=tuning, max_call_depth=depth,
                                 max_graph_calls=calls,
                                 data=source.data, weight_data=source.weight_data,
                                 device_id=device_id)
            variable = variable_weight_names(config, config_path,
                                             loaded.parameters())
            shared = sharing.setup(loaded, config, attached)
            if self._weight_pool is not None:
                self._weight_pool.adopt(loaded)
        except (MindIRError, OSError, ValueError, sharing.SharingError) as exc:
            raise RuntimeError(f"{failed} {exc}") from exc
        try:    # a sliced model: its communicator and checks (docs/distributed.md)
            self._session = distributed.model_session(
                loaded.model, config, source.pattern)
        except distributed.DistributedError as exc:
            raise RuntimeError(f"{failed} {exc}") from exc
        if self._session is not None and context.cpu.thread_num == 0:
            loaded.threads = distributed.rank_threads(
                self._session, context.cpu.thread_affinity_core_list)
        self._loaded, self._variable_weights, self._shared = \
            loaded, variable, shared
        self.config = config
        self._inputs = [_input_impl(spec, source.path)
                        for spec in self._loaded.inputs]
        self._output_shapes = [spec.shape for spec in self._loaded.outputs]

    @staticmethod
    def _config(config_path: str, config_dict, method: str) -> dict:
        config = {}
        if config_path:
            if not os.path.exists(config_path):
                raise RuntimeError(f"{method} failed, config_path does "
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
        if key == "shareable_weight_mem_handle":
            return str(self._shared.handle) if self._shared else ""
        return ""

    # -- weights (docs/weight-sharing.md) ------------------------------------
    def update_weights(self, weights):
        """Replace weights while the model stays built. ``weights``: a list of
        lists of ``Tensor``, matched to the model's weights by ``Tensor.name``
        (see refinfer/api/weights.py for ``variable_weights_file``). All or
        nothing; a concurrent ``predict`` sees all-old or all-new weights."""
        check_weights(weights)
        self._require_built()
        try:
            self._loaded.replace_parameters(
                named_updates(weights, self._variable_weights))
        except ValueError as exc:
            raise RuntimeError(f"update weight failed! Error is {exc}") from exc

    def load_weights(self, weights, strict=False):
        """[refinfer] Apply weights by name from a ``.ckpt`` or ``.safetensors``
        file or a ``{name: array}`` dict, all or nothing. Entries that are no
        weight of the model are ignored (an error when ``strict``). Returns
        ``(weights not given, entries not used)``, like MindSpore's
        ``load_param_into_net``."""
        self._require_built()
        try:
            updates, missing, unused = checkpoint_updates(
                weights, self._loaded.parameters(), strict)
            self._loaded.replace_parameters(updates)
        except ValueError as exc:
            raise RuntimeError(f"load weights failed! Error is {exc}") from exc
        return missing, unused

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
        problem = self._resize_problem(dims)
        if problem:
            raise RuntimeError(f"resize failed! Error is {problem}")
        for tensor, shape in zip(inputs, dims):
            tensor._tensor.shape = list(shape)
            tensor._tensor.data = None
        for impl, shape in zip(self._inputs, dims):
            if impl.shape != list(shape):
                impl.shape, impl.data, impl.frozen = list(shape), None, False
        self._output_shapes = None

    def _resize_problem(self, dims) -> str | None:
        """What is wrong with resizing the inputs to ``dims``, if anything."""
        if len(dims) != len(self._inputs):
            return (f"the model {self.model_path_} has {len(self._inputs)} "
                    f"input(s), got {len(dims)} shape(s)")
        for k, (impl, shape) in enumerate(zip(self._inputs, dims)):
            if any(d <= 0 or d > 2**31 - 1 for d in shape):
                return (f"input {k} ({impl.name!r}) of {self.model_path_}: "
                        f"every dim must be in [1, INT_MAX], got {list(shape)}")
        return None

    def predict(self, inputs, outputs=None, before=None,
                after=None) -> list[Tensor]:
        """Run the model. ``before``/``after``: Lite's kernel callbacks
        ``callback(inputs, outputs, param)`` (refinfer/api/debug.py)."""
        return self._predict(inputs, outputs, kernel_hooks(before, after))

    def run_debug(self, inputs, keep) -> dict[str, np.ndarray]:
        """Run the model and return copies of the outputs of the nodes
        ``keep`` selects (a glob or ``re:`` pattern over scope name, node
        name or op, or a list of exact names), by name; see
        refinfer/watch.py. Every other value is freed as usual."""
        kept: dict[str, np.ndarray] = {}
        self._predict(inputs, None, keep_hooks(keep, kept))
        return kept

    def host_transfers(self) -> dict[str, int] | None:
        """[refinfer] The last predict's host crossings on the GPU target
        (``context.target = ["gpu"]``): arrays copied to the device and to
        the host with their bytes, cuda kernels that declined; None on the
        CPU or before a predict (docs/architecture.md, "The cuda backend")."""
        transfers = self._require_built()._loaded.last_transfers
        return None if transfers is None else transfers.as_dict()

    @_failure_ends_distributed_job
    def _predict(self, inputs, outputs, hooks) -> list[Tensor]:
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
        shapes = [t.shape for t in tensors]    # the current shapes, or dynamic dims filled
        try:
            results = self._loaded.run(arrays, hooks, shapes=shapes)
        except (ValueError, TypeError, CallDepthError, CallBudgetExceeded) as exc:
            raise RuntimeError(f"predict failed! Error is {exc}") from exc
        if self._cast_outputs:
            results = cast_outputs(results, [s.dtype for s in
                                             self._loaded.outputs])
        self._output_shapes = [np.shape(r) for r in results]
        return _output_tensors(self.model_path_, self._loaded.outputs, results,
                               outputs)

    def _as_input_tensor(self, index: int, value) -> Tensor:
        """Tensors are used as given; arrays fill the model's own input
        tensor, as in Lite. Lite checks the dtype and the byte size only
        (``Tensor.set_data_from_numpy``, whose words stay); an array of the
        right byte size must also have the input's shape: data of another
        shape is an error, never reinterpreted. A 1-D array is a raw buffer
        (``np.fromfile``, as Lite scripts read inputs): it has no shape to
        check and is taken in the input's shape, as in Lite."""
        if isinstance(value, Tensor):
            return value
        if isinstance(value, np.ndarray):
            tensor = Tensor(self._inputs[index])
            if value.nbytes == tensor.data_size and value.ndim != 1:
                as_given = _TensorImpl(dtype=data_type_of(value.dtype),
                                       shape=value.shape, data=value)
                check_input(index, self._inputs[index], Tensor(as_given))
            tensor.set_data_from_numpy(value)
            return tensor
        raise TypeError("inputs element must be Tensor, of numpy.")

    def _input_array(self, index: int, tensor: Tensor) -> np.ndarray:
        check_input(index, self._inputs[index], tensor)
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


@dataclasses.dataclass
class _Source:
    """What a build reads: ``path`` (a file, or the name of bytes given),
    the rank pattern it came from, the API method (for messages), and the
    bytes of ``build_from_buffer``."""
    path: str
    pattern: str
    method: str
    data: bytes | None = None
    weight_data: bytes | None = None


def _check_served(context: Context, model_type: ModelType, method: str) -> None:
    preferred = context.target[0].lower()
    if preferred not in SERVED_TARGETS:
        raise RuntimeError(
            f"{method} failed! Error is target {preferred!r} is not "
            f"supported by refinfer, which runs on the CPU and on CUDA GPUs: "
            f"set context.target = ['cpu'] or ['gpu']")
    if model_type != ModelType.MINDIR:
        raise RuntimeError(f"{method} failed! Error is only "
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


def check_input(index: int, expected: _TensorImpl, tensor: Tensor) -> None:
    """The one input check of ``Model.predict`` and ``ModelParallelRunner.predict``
    (for a NumPy array: wrapped in a ``Tensor``): the model's dtype, and the shape
    of the model input as it stands (declared, or set by ``resize``), where a
    dynamic dim (-1) takes any size, as Lite's cloud runtime runs a dynamic-shape
    input as given. A fixed dim never changes without
    ``resize``: the runner does not resize a worker to a request's shape."""
    problem = None
    if tensor.dtype != expected.dtype:
        problem = f"has dtype {tensor.dtype}, the model expects {expected.dtype}"
    elif not shape_fits(tensor.shape, expected.shape):
        problem = f"has shape {tensor.shape}, the model input is " \
                  f"{expected.shape} (-1: any size; Model.resize changes it)"
    elif tensor._tensor.data is None:
        problem = "has no data"
    if problem:
        which = expected.owner or f"input {expected.name!r}"
        raise RuntimeError(f"predict failed! Error is {which} (index {index}) "
                           f"{problem}")


def _input_impl(spec: IOSpec, model_path: str = "") -> _TensorImpl:
    """A model's input tensor; its errors name the input and the model."""
    owner = f"input {spec.name!r}" + (f" of {model_path}" if model_path else "")
    return _TensorImpl(spec.name, _data_type(spec.dtype), list(spec.shape),
                       owner=owner)


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


def _output_tensors(path: str, specs, results, outputs) -> list[Tensor]:
    if outputs is not None and len(outputs) != len(results):
        raise RuntimeError(f"predict failed! Error is {len(outputs)} output "
                           f"tensors given, the model {path} has {len(results)}")
    tensors = []
    for k, (spec, array) in enumerate(zip(specs, results)):
        array = np.asarray(array, order="C")  # keeps 0-d outputs 0-d
        if array.dtype.kind == "c":
            raise RuntimeError(
                f"predict failed! Error is output {k} ({spec.name!r}) of "
                f"{path} is {array.dtype}: Lite's DataType has no complex "
                f"type; return its real and imaginary parts (ops.real, "
                f"ops.imag), or read it with refinfer dump")
        impl = _TensorImpl(spec.name, data_type_of(array.dtype), array.shape,
                           data=array)
        if outputs is not None:
            outputs[k]._tensor.__dict__.update(impl.__dict__)
            tensors.append(outputs[k])
        else:
            tensors.append(Tensor(impl))
    return tensors
