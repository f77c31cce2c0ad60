"""Write a MindIR again: the converter's output (``mslite.Converter``).

The rewritten file is self-contained: weights that lay in ``_variables/data_N`` files are
embedded. Two changes are possible, both Lite converter options:

- ``input_shapes``: dynamic dims (-1, or a dynamic rank) of graph inputs become fixed;
  a fixed dim cannot change (the nodes' recorded shapes depend on it);
- ``weight_fp16``: float32 weights are rounded to float16 precision. Lite stores them as
  float16 and, with the CPU's default ``enforce_fp32``, widens them back at load: the
  model then computes with exactly these values. The file keeps them as float32, so it
  runs everywhere a MindIR runs; it does not get smaller.

The file is written to a temporary file next to the output and renamed over it, so the
output is never half-written.
"""
from __future__ import annotations

import os

import numpy as np

from . import schema
from ..files import replaced_file
from .reader import MindIRFile

PROTOBUF_LIMIT = 2**31 - 1      # a serialized protobuf message holds at most 2 GiB


def rewrite(source: bytes, file: MindIRFile, input_shapes: dict | None = None,
            weight_fp16: bool = False) -> bytes:
    """``source`` (plain MindIR bytes, already read as ``file``) with its weights
    embedded and the options applied."""
    proto = schema.ModelProto()
    proto.ParseFromString(source)
    for graph_proto, graph in zip([proto.graph, *proto.functions], file.graphs):
        for tensor in graph_proto.parameter:
            array = graph.parameters[tensor.name]
            if weight_fp16 and array.dtype == np.float32:
                array = array.astype(np.float16).astype(np.float32)
            tensor.ClearField("external_data")
            tensor.raw_data = np.ascontiguousarray(array).tobytes()
    if input_shapes:
        _fix_input_shapes(proto.graph, input_shapes)
    size = proto.ByteSize()
    if size > PROTOBUF_LIMIT:
        raise ValueError(f"the rewritten model would be {size} bytes with its weights "
                         f"embedded; a MindIR file holds at most {PROTOBUF_LIMIT}")
    return proto.SerializeToString()


def _fix_input_shapes(graph, input_shapes: dict) -> None:
    inputs = {info.name.split(":", 1)[-1]: info for info in graph.input
              if len(info.tensor)}
    unknown = sorted(set(input_shapes) - set(inputs))
    if unknown:
        raise ValueError(f"input_shape names {', '.join(map(repr, unknown))}; the "
                         f"model's inputs are {', '.join(map(repr, inputs))}")
    for name, shape in input_shapes.items():
        tensor = inputs[name].tensor[0]
        _check_fixable(name, list(tensor.dims), list(shape))
        del tensor.dims[:]
        tensor.dims.extend(shape)


def _check_fixable(name: str, dims: list, shape: list) -> None:
    """Only dynamic dims may be set, each to a positive size."""
    if any(d <= 0 for d in shape):
        raise ValueError(f"input_shape {name!r}: {shape} has a dim below 1")
    if dims == [-2]:                    # dynamic rank: any shape
        return
    if len(dims) != len(shape):
        raise ValueError(f"input_shape {name!r}: {shape} has {len(shape)} dims, the "
                         f"model input is {dims}")
    for k, (d, s) in enumerate(zip(dims, shape)):
        if d != -1 and d != s:
            raise ValueError(f"input_shape {name!r}: dim {k} is {d} in the model, "
                             f"{s} given; only dynamic dims (-1) can be set")


def write_atomically(path: str, data: bytes) -> None:
    """``data`` into ``path`` through a temporary file in the same folder, renamed over
    ``path`` once complete and synced: readers see the old file or the new, never a
    part."""
    with replaced_file(path, binary=True) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
