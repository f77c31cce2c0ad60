"""Read weights by name from MindSpore checkpoints (``.ckpt``) and ``.safetensors`` files.

``load_checkpoint(path)`` returns ``{parameter name: read-only ndarray}``; ``Model.load_weights``
applies such a dict (or a path) to a built model.

The ``.ckpt`` format (MindSpore ``mindspore/train/serialization.py`` and ``checkpoint.proto``):
the file is a run of serialized ``Checkpoint`` messages, one per tensor or tensor slice, which
protobuf reads as one message whose ``value`` list is their concatenation::

    message Checkpoint {
      message Value { required string tag = 1;
                      oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }
      repeated Value value = 1; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }

Quirks handled: a tensor over 512 MiB is written as consecutive values with the same tag, each
holding a slice along axis 0 but the *full* dims; ``dims == [0]`` means a 0-d tensor; a file saved
with ``crc_check=True`` ends with ``b"crc_num"`` plus a 10-byte big-endian CRC-32 of the rest;
``tensor_type == "str"`` holds a UTF-32 string (skipped: not a weight). Map parameters
(``maptensor``, embedding tables of parameter servers), int4 tensors, bfloat16 ones without
the ``ml_dtypes`` package, and encrypted checkpoints are refused with a clear error.

``.safetensors`` files (MindSpore writes them with ``save_checkpoint(..., format="safetensors")``)
are read with the ``safetensors`` package, an optional extra:
``pip install "refinfer[safetensors]"``.
"""
from __future__ import annotations

import binascii
import os

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, text_format
from google.protobuf.message import DecodeError

from .dtypes import BFLOAT16, BFLOAT16_HINT
from .format.schema import GetMessageClass

CRC_MARK = b"crc_num"
CRC_TRAILER = len(CRC_MARK) + 10

# MindSpore's tensor_type names (serialization._tensor_to_np_type).
CKPT_DTYPES = {
    "Bool": np.bool_, "Int8": np.int8, "Int16": np.int16, "Int32": np.int32,
    "Int64": np.int64, "UInt8": np.uint8, "UInt16": np.uint16, "UInt32": np.uint32,
    "UInt64": np.uint64, "Float16": np.float16, "Float32": np.float32, "Float64": np.float64,
}
if BFLOAT16 is not None:
    CKPT_DTYPES["BFloat16"] = BFLOAT16

_SCHEMA = """
name: "refinfer/checkpoint.proto" package: "ckpt" syntax: "proto2"
message_type { name: "Checkpoint"
  field { name: "value" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".ckpt.Value" } }
message_type { name: "Value"
  field { name: "tag" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "tensor" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".ckpt.TensorProto" }
  field { name: "maptensor" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".ckpt.MapTensorProto" } }
message_type { name: "TensorProto"
  field { name: "dims" number: 1 label: LABEL_REPEATED type: TYPE_INT64 }
  field { name: "tensor_type" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "tensor_content" number: 3 label: LABEL_OPTIONAL type: TYPE_BYTES } }
message_type { name: "MapTensorProto"
  field { name: "tensor" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".ckpt.TensorProto" } }
"""
_pool = descriptor_pool.DescriptorPool()
_pool.Add(text_format.Parse(_SCHEMA, descriptor_pb2.FileDescriptorProto()))
Checkpoint = GetMessageClass(_pool.FindMessageTypeByName("ckpt.Checkpoint"))


class CheckpointError(ValueError):
    """A weights file that cannot be read: names the file and what is wrong."""

    def __init__(self, path, message: str):
        super().__init__(f"{path}: {message}")
        self.path = str(path)


def load_checkpoint(path) -> dict[str, np.ndarray]:
    """Weights by parameter name from a ``.ckpt`` or ``.safetensors`` file.

    The format is chosen by the file's suffix, else by its first bytes. Arrays are read-only.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise CheckpointError(path, "no such file")
    with open(path, "rb") as f:
        head = f.read(16)
    if path.endswith(".safetensors") or (not path.endswith(".ckpt") and _looks_safetensors(head)):
        return _read_safetensors(path)
    return read_ckpt(path)


def read_ckpt(path: str) -> dict[str, np.ndarray]:
    """Weights of a MindSpore ``.ckpt`` (protobuf) file."""
    with open(path, "rb") as f:
        blob = f.read()
    proto = Checkpoint()
    try:
        proto.ParseFromString(_strip_crc(path, blob))
    except DecodeError as exc:
        raise CheckpointError(path, "not a MindSpore checkpoint, or the file is truncated, "
                              f"corrupt or encrypted (protobuf: {exc})") from exc
    if blob and not proto.value:
        raise CheckpointError(path, "not a MindSpore checkpoint (no tagged values)")
    return _assemble(path, proto.value)


def _strip_crc(path: str, blob: bytes) -> bytes:
    """The protobuf bytes, after checking and removing a ``crc_num`` trailer."""
    if len(blob) < CRC_TRAILER or blob[-CRC_TRAILER:-10] != CRC_MARK:
        return blob
    body, expected = blob[:-CRC_TRAILER], int.from_bytes(blob[-10:], "big")
    if binascii.crc32(body) != expected:
        raise CheckpointError(path, "the CRC-32 stored at the end of the file does not match "
                              "its contents: the file is damaged")
    return body


def _assemble(path: str, values) -> dict[str, np.ndarray]:
    """Join consecutive slices that share a tag, then decode each tensor."""
    weights: dict[str, np.ndarray] = {}
    index = 0
    while index < len(values):
        tag = values[index].tag
        end = index
        while end < len(values) and values[end].tag == tag:
            end += 1
        group = values[index:end]
        index = end
        if any(v.HasField("maptensor") for v in group):
            raise CheckpointError(path, f"{tag!r} is a map parameter (MapTensor), which "
                                  "refinfer does not load")
        if tag in weights:
            raise CheckpointError(path, f"{tag!r} appears twice, not as consecutive slices")
        array = _tensor(path, tag, [v.tensor for v in group])
        if array is not None:
            weights[tag] = array
    return weights


def _tensor(path: str, tag: str, parts) -> np.ndarray | None:
    """One tensor from its slices; None for a string entry."""
    kind = parts[0].tensor_type
    if kind == "str":
        return None
    if kind not in CKPT_DTYPES:
        hint = f"; {BFLOAT16_HINT}" if kind == "BFloat16" else ""
        raise CheckpointError(path, f"{tag!r} has tensor type {kind!r}, which has no NumPy "
                              f"dtype here (supported: {', '.join(CKPT_DTYPES)}{hint})")
    dims = [int(d) for d in parts[0].dims]
    shape = () if dims == [0] else tuple(dims)
    dtype = np.dtype(CKPT_DTYPES[kind])
    content = b"".join(p.tensor_content for p in parts)
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if any(d < 0 for d in shape) or len(content) != expected:
        raise CheckpointError(path, f"{tag!r}: {kind}{list(shape)} needs {expected} bytes, "
                              f"the file holds {len(content)}")
    return np.frombuffer(content, dtype).reshape(shape)


def _looks_safetensors(head: bytes) -> bool:
    """safetensors: an 8-byte little-endian header length, then a JSON object."""
    return len(head) > 8 and head[8:9] == b"{"


def _read_safetensors(path: str) -> dict[str, np.ndarray]:
    try:
        from safetensors.numpy import load_file
    except ImportError as exc:
        raise CheckpointError(path, "reading .safetensors files needs the safetensors "
                              "package: pip install \"refinfer[safetensors]\"") from exc
    try:
        weights = load_file(path)
    except Exception as exc:  # safetensors raises its own error types
        raise CheckpointError(path, f"not a readable safetensors file ({type(exc).__name__}: "
                              f"{exc})") from exc
    for array in weights.values():
        array.flags.writeable = False
    return weights
