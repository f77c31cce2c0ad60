"""A MindIR file as an editable tree of protobuf fields, and back to bytes.

Decoding walks the wire format with refinfer's own reader helpers
(refinfer/format/wire.py) and types each field by refinfer's schema
(refinfer/format/schema.py): a length-delimited field whose schema type is a
message becomes a nested ``Message``, every other field keeps its raw wire
value. Encoding writes the fields back in order, so an unmutated tree gives
the original bytes (up to overlong varints). Mutations edit ``Field.value``
freely: any int, any bytes (also invalid UTF-8 in a string field), which
protobuf's own Python API would refuse to hold.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Iterator

from google.protobuf.descriptor import FieldDescriptor

from refinfer.format import schema, wire

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
_KINDS = {
    FieldDescriptor.TYPE_STRING: "string", FieldDescriptor.TYPE_BYTES: "bytes",
    FieldDescriptor.TYPE_BOOL: "bool", FieldDescriptor.TYPE_INT32: "int",
    FieldDescriptor.TYPE_INT64: "int", FieldDescriptor.TYPE_UINT64: "int",
    FieldDescriptor.TYPE_FLOAT: "float", FieldDescriptor.TYPE_DOUBLE: "double",
    FieldDescriptor.TYPE_MESSAGE: "message",
}
MODEL = schema.ModelProto.DESCRIPTOR


@dataclass
class Message:
    """One protobuf message: its schema type and its fields in file order."""
    descriptor: object          # google.protobuf Descriptor
    fields: list["Field"] = field(default_factory=list)

    @property
    def type_name(self) -> str:
        return self.descriptor.name


@dataclass
class Field:
    number: int
    wire_type: int
    value: object               # int (varint/fixed bits), bytes or Message
    name: str = "?"             # the schema's field name ("?" if unknown)
    kind: str = "unknown"       # string/bytes/bool/int/float/double/message

    @property
    def is_message(self) -> bool:
        return isinstance(self.value, Message)


def decode(buf: bytes, descriptor=MODEL) -> Message:
    """The message in ``buf``; raises wire.WireError if it is malformed."""
    view = memoryview(buf).cast("B")
    return _decode(view, 0, len(view), descriptor)


def _decode(view, start: int, end: int, descriptor) -> Message:
    message = Message(descriptor)
    for number, wire_type, _, value, stop in wire._fields(view, start, end):
        spec = descriptor.fields_by_number.get(number)
        name = spec.name if spec else "?"
        kind = _KINDS.get(spec.type, "unknown") if spec else "unknown"
        if wire_type == VARINT:
            value = wire._read_varint(view, value, end)[0]
        elif wire_type == FIXED64:
            value = int.from_bytes(view[value:stop], "little")
        elif wire_type == FIXED32:
            value = int.from_bytes(view[value:stop], "little")
        elif kind == "message":
            value = _decode(view, value, stop, spec.message_type)
        else:
            value = bytes(view[value:stop])
        message.fields.append(Field(number, wire_type, value, name, kind))
    return message


def encode(message: Message) -> bytes:
    """The bytes of ``message`` (a negative varint takes ten bytes, as an
    int64 does on the wire)."""
    out = bytearray()
    for f in message.fields:
        out += wire._varint(f.number << 3 | f.wire_type)
        if f.wire_type == VARINT:
            out += wire._varint(f.value & (1 << 64) - 1)
        elif f.wire_type == FIXED64:
            out += (f.value & (1 << 64) - 1).to_bytes(8, "little")
        elif f.wire_type == FIXED32:
            out += (f.value & (1 << 32) - 1).to_bytes(4, "little")
        else:
            body = encode(f.value) if f.is_message else f.value
            out += wire._varint(len(body))
            out += body
    return bytes(out)


def walk(message: Message) -> Iterator[tuple[Message, int, Field]]:
    """Every field of the tree, depth first: (its message, index, field)."""
    for k, f in enumerate(message.fields):
        yield message, k, f
        if f.is_message:
            yield from walk(f.value)


def float_bits(value: float, wire_type: int) -> int:
    """The wire bits of ``value`` as a float (FIXED32) or double (FIXED64)."""
    fmt = "<f" if wire_type == FIXED32 else "<d"
    return int.from_bytes(struct.pack(fmt, value), "little")
