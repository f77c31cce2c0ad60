"""Decode MindIR AttributeProto / TensorProto values into Python and NumPy.

Constants (``Constant`` nodes), primitive attributes and inferred abstracts
all use AttributeProto (docs/mindir-format.md §3.6, §3.7). A tensor constant
keeps its ``raw_data``; a dtype value is a TensorProto *without* raw_data.
Python scalars stay Python scalars: type promotion differs between
``Muls(x, 2)`` and ``Add(x, Tensor(2))``.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from itertools import repeat
from typing import Iterable

import numpy as np

from .. import dtypes
from . import schema as s


class Monad:
    """The UMonad / IOMonad token of MindSpore's side-effect ordering."""
    __slots__ = ()

    def __repr__(self):
        return "Monad"


MONAD = Monad()


@dataclass(frozen=True)
class Abstract:
    """Compile-time type of a value: shape and dtype of a tensor, scalar
    dtype, or the element abstracts of a tuple. Metadata only."""
    kind: str                       # "tensor", "scalar", "tuple", "other"
    shape: tuple[int, ...] = ()
    dtype: np.dtype | None = None
    elements: tuple["Abstract", ...] = ()

    def flatten(self) -> list["Abstract"]:
        if self.kind == "tuple":
            return [leaf for e in self.elements for leaf in e.flatten()]
        return [self]


class UnsupportedValue(ValueError):
    pass


def text(value, *where) -> str:
    """A protobuf string field's value, checked. protobuf (upb) hands back
    ``bytes`` for a string field that is not valid UTF-8; ``where`` (joined
    with spaces, built only on failure) names the field for the error."""
    if isinstance(value, str):
        return value
    raise ValueError(f"{' '.join(map(str, where))}: not valid UTF-8 "
                     f"({bytes(value[:40])!r})")


def are_texts(*values) -> bool:
    """Whether every value is a ``str`` (a quick check for hot loops; name
    the failing field with ``text``)."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def all_texts(values: Iterable) -> bool:
    """Whether every value is a ``str`` (many at once: no tuple of them)."""
    return all(map(isinstance, values, repeat(str)))


def texts(values, *where) -> list[str]:
    """A repeated string field's values, checked (see ``text``)."""
    return [text(v, *where, k) for k, v in enumerate(values)]


def tensor_dtype(t) -> np.dtype:
    return dtypes.numpy_of_mindir(t.data_type)


def tensor_from_raw(t, raw) -> np.ndarray:
    """A read-only array viewing ``raw`` (bytes or mmap slice), checked
    against the TensorProto's dims and dtype."""
    try:
        dtype = tensor_dtype(t)
    except ValueError as exc:
        raise ValueError(f"tensor {t.name!r}: {exc}") from None
    shape = tuple(t.dims)
    if any(d < 0 for d in shape):
        raise ValueError(f"tensor {t.name!r} has unknown dims {list(shape)}")
    expected = math.prod(shape) * dtype.itemsize  # Python ints: no overflow
    if len(raw) != expected:
        raise ValueError(f"tensor {t.name!r}: {dtype.name}{list(shape)} needs "
                         f"{expected} bytes, the file holds {len(raw)}")
    return np.frombuffer(raw, dtype=dtype).reshape(shape)


def _scalar(attr, singular: str, repeated: str):
    values = getattr(attr, repeated)
    return values[0] if len(values) else getattr(attr, singular)


def decode_value(attr):
    """A Constant's or attribute's value as a Python/NumPy value."""
    kind = attr.type
    if kind == s.TENSORS or kind == s.TENSOR:
        tensor = attr.tensors[0] if len(attr.tensors) else attr.t
        if tensor.HasField("raw_data"):
            return tensor_from_raw(tensor, tensor.raw_data)
        return tensor_dtype(tensor)  # a dtype object, e.g. mstype.float32
    if kind == s.BOOL:
        return bool(_scalar(attr, "i", "ints"))
    if kind in s.INT_TYPES:
        return int(_scalar(attr, "i", "ints"))
    if kind in s.FLOAT_TYPES:
        return float(_scalar(attr, "f", "floats"))
    if kind == s.DOUBLE:
        return float(_scalar(attr, "d", "doubles"))
    if kind == s.STRING:
        return _string(_scalar(attr, "s", "strings"))
    if kind in (s.NONE, s.TYPE_NULL):
        return None
    if kind in (s.UMONAD, s.IOMONAD):
        return MONAD
    if kind == s.TUPLE:
        return tuple(decode_value(v) for v in attr.values)
    if kind == s.LIST:
        return [decode_value(v) for v in attr.values]
    if kind == s.DICT:
        return dict(_dict_item(k, v) for k, v in enumerate(attr.values))
    if kind == 0 and attr.ref_attr_name:
        raise UnsupportedValue("MindIR 1.x value encoding "
                               f"({attr.ref_attr_name!r}) is not supported")
    name = s.ATTRIBUTE_TYPE_NAMES.get(kind, f"code {kind}")
    raise UnsupportedValue(f"unsupported value kind {name}")


def _string(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnsupportedValue(f"string value is not valid UTF-8 "
                               f"({raw[:40]!r})") from None


def _dict_item(index: int, item) -> tuple[str, object]:
    """Element ``index`` of a DICT value: its name is the key, its one
    value the value."""
    key = text(item.name, "DICT element", index, "key")
    if not len(item.values):
        raise UnsupportedValue(f"DICT element {index} ({key!r}) has no value")
    return key, decode_value(item.values[0])


def _tensor_abstract(tensor) -> Abstract:
    return _shared_tensor_abstract(tensor.data_type, tuple(tensor.dims))


@functools.lru_cache(maxsize=4096)
def _shared_tensor_abstract(data_type: int, dims: tuple) -> Abstract:
    """One Abstract per (dtype, shape): most nodes of a model share a few
    (Abstract is frozen), which saves a large graph's build an object per
    node and the time to make it."""
    try:
        dtype = dtypes.numpy_of_mindir(data_type)
    except ValueError:
        dtype = None
    return Abstract("tensor", dims, dtype)


def decode_abstract(attr) -> Abstract:
    """An inferred abstract (CNode ``shape`` attribute, ValueInfo attr_info)."""
    kind = attr.type
    if kind in (s.TENSORS, s.TENSOR) and len(attr.tensors):
        return _tensor_abstract(attr.tensors[0])
    if kind == s.SCALAR and len(attr.tensors):
        return Abstract("scalar", (), _tensor_abstract(attr.tensors[0]).dtype)
    if kind in (s.TUPLE, s.LIST):
        return Abstract("tuple",
                        elements=tuple(decode_abstract(v) for v in attr.values))
    return Abstract("other")


def decode_value_info(info) -> Abstract:
    """A graph input's or output's abstract from its ValueInfoProto."""
    if len(info.tensor):
        return _tensor_abstract(info.tensor[0])
    if info.HasField("attr_info"):
        return decode_abstract(info.attr_info)
    return Abstract("other")


def is_monad_info(info) -> bool:
    return (info.denotation in ("UMonadType", "IOMonadType")
            or info.attr_info.type in (s.UMONAD, s.IOMONAD))
