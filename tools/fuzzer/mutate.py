"""Mutations of golden MindIR files, and the case a seed makes of them.

A case is a golden model (a ``Source``) and a short list of mutation steps,
each a mutator's name and its own seed, so any subset of the steps replays
exactly (what ``minimise`` does). Structure-aware mutators edit the field
tree (``protowire``): ints to extremes, strings to invalid UTF-8 / empty /
huge, fields and nested messages dropped or duplicated, shapes, dtypes,
external-data paths and bounds, graphs that call themselves. Byte mutators
edit the encoded file: truncation, bit flips, overwritten, inserted and
deleted bytes. Encrypted files get byte mutations only.
"""
from __future__ import annotations

import json
import os
import random
import struct
from dataclasses import dataclass, field

from . import protowire as pw

# Values a field is set to: edges of every integer width, and sizes that
# cannot be allocated.
EXTREME_INTS = (0, -1, 1, 2, -2**31, 2**31 - 1, 2**31, 2**32, 2**40, 2**62,
                2**63 - 1, -2**63, 255, 65536)
SPECIAL_FLOATS = (float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 3e38, 1e-45)
SPECIAL_DOUBLES = SPECIAL_FLOATS + (1e308, 5e-324)
BAD_STRINGS = (b"", b"\xff\xfe", b"ab\x80cd", b"\xc3", b"\xed\xa0\x80",
               b"a\x00b", b"A" * 100_000, b"REF::", b"::", b"\xe2\x82")
BAD_DIMS = (0, -1, -2, 2**40, 2**31, 2**63 - 1, 1 << 20)
DTYPE_CODES = tuple(range(0, 20)) + (22, 25, 35, 99, 2**31 - 1)
ATTRIBUTE_TYPES = tuple(range(0, 41)) + (99,)
HOSTILE_LOCATIONS = (b"../../etc/passwd", b"/etc/passwd", b"model_variables/../../x",
                     b"", b".", b"model_variables", b"model_variables/missing",
                     b"/dev/zero", b"model_variables/data_0\x00x",
                     b"model_graph.mindir", b"model.mindir")
BAD_OFFSETS = (-1, 0, 63, 64, 2**31, 2**63 - 1, -2**63, 10**6)
INTERESTING_BYTES = (0x00, 0xFF, 0x7F, 0x80, 0x01)
RAW_FLOAT_FORMATS = {1: "<f", 10: "<e", 11: "<d"}    # TensorProto.data_type


@dataclass
class Source:
    """A golden model to mutate: its file, any files it refers to (split
    weights, by path relative to its folder) and its decryption key."""
    path: str
    companions: dict[str, bytes] = field(default_factory=dict)
    dec_key: str | None = None      # hex
    dec_mode: str = "AES-GCM"

    @property
    def encrypted(self) -> bool:
        return self.dec_key is not None

    @property
    def name(self) -> str:
        return os.path.basename(self.path)

    def data(self) -> bytes:
        with open(self.path, "rb") as f:
            return f.read()


def load_source(path: str) -> Source:
    """The Source of a golden model file (meta.json next to it gives
    the key of an encrypted model and the folder of split weights)."""
    folder = os.path.dirname(path)
    meta_path = os.path.join(folder, "meta.json")
    meta = {}
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    companions = {}
    variables = meta.get("variables_dir")
    if variables:
        root = os.path.join(folder, variables)
        for name in sorted(os.listdir(root)):
            with open(os.path.join(root, name), "rb") as f:
                companions[f"{variables}/{name}"] = f.read()
    return Source(path, companions, meta.get("enc_key"),
                  meta.get("enc_mode", "AES-GCM"))


@dataclass
class Case:
    """One fuzz case: ``steps`` applied to ``source`` (``kind``: "struct"
    or "bytes"), run on ``backend``."""
    index: int
    source: Source
    kind: str
    steps: list[tuple[str, int]]      # (mutator, seed)
    backend: str
    input_seed: int

    def with_steps(self, steps) -> "Case":
        return Case(self.index, self.source, self.kind, list(steps),
                    self.backend, self.input_seed)


def make_case(index: int, seed: int, sources: list[list[Source]],
              backends: tuple[str, ...]) -> Case:
    """Case ``index`` of the campaign ``seed``: a group of models chosen
    uniformly, then a model, then one to three mutation steps."""
    rng = random.Random(f"{seed}:{index}")
    group = rng.choice([g for g in sources if g])
    source = rng.choice(group)
    kind = "bytes" if source.encrypted or rng.random() < 0.3 else "struct"
    names = list(BYTE_MUTATORS if kind == "bytes" else STRUCT_MUTATORS)
    weights = [1.0 if kind == "bytes" else STRUCT_WEIGHTS.get(n, 1.0)
               for n in names]
    count = rng.choice((1, 1, 1, 2, 3))
    steps = [(name, rng.getrandbits(32))
             for name in rng.choices(names, weights, k=count)]
    return Case(index, source, kind, steps, backends[index % len(backends)],
                rng.getrandbits(32))


def mutated_bytes(case: Case) -> tuple[bytes, list[str]]:
    """The case's model file and what each step did."""
    data = case.source.data()
    if case.kind == "bytes":
        buf, notes = bytearray(data), []
        for name, seed in case.steps:
            notes.append(f"{name}: " + BYTE_MUTATORS[name](buf, random.Random(seed)))
        return bytes(buf), notes
    tree, notes = pw.decode(data), []
    for name, seed in case.steps:
        note = STRUCT_MUTATORS[name](tree, random.Random(seed))
        notes.append(f"{name}: {note or 'no site'}")
    return pw.encode(tree), notes


# -- sites ---------------------------------------------------------------------

def _sites(tree: pw.Message, keep) -> list[tuple[pw.Message, int, pw.Field]]:
    return [site for site in pw.walk(tree) if keep(site[0], site[2])]


def _pick(rng, tree, keep):
    sites = _sites(tree, keep)
    return rng.choice(sites) if sites else None


def _where(message: pw.Message, f: pw.Field) -> str:
    return f"{message.type_name}.{f.name}"


def _messages(tree: pw.Message, type_name: str) -> list[pw.Message]:
    found = [tree] if tree.type_name == type_name else []
    return found + [f.value for _, _, f in pw.walk(tree)
                    if f.is_message and f.value.type_name == type_name]


def _get(message: pw.Message, name: str) -> list[pw.Field]:
    return [f for f in message.fields if f.name == name]


def _set_scalar(message: pw.Message, name: str, number: int, wire_type: int,
                value, kind: str) -> None:
    """Set field ``name`` (every occurrence), adding it when absent."""
    fields = _get(message, name)
    if not fields:
        fields = [pw.Field(number, wire_type, value, name, kind)]
        message.fields.append(fields[0])
    for f in fields:
        f.wire_type, f.value = wire_type, value


# -- structure-aware mutators: (tree, rng) -> what was done, or None -------------

def int_extreme(tree, rng):
    site = _pick(rng, tree, lambda m, f: f.wire_type == pw.VARINT)
    if site:
        message, _, f = site
        f.value = rng.choice(EXTREME_INTS + (f.value + 1, f.value - 1))
        return f"{_where(message, f)} = {f.value}"


def float_special(tree, rng):
    """A float or double field, or one element of a small float tensor (the
    scalar constants: epsilons, slopes, bounds), set to NaN, inf, ..."""
    fields = _sites(tree, lambda m, f: f.kind in ("float", "double"))
    tensors = [(t, raw) for t in _messages(tree, "TensorProto")
               for raw in _get(t, "raw_data") if 0 < len(raw.value) <= 64
               and _dtype_code(t) in RAW_FLOAT_FORMATS]
    if not fields and not tensors:
        return None
    pick = rng.randrange(len(fields) + len(tensors))
    if pick < len(fields):
        message, _, f = fields[pick]
        value = rng.choice(SPECIAL_DOUBLES if f.kind == "double" else SPECIAL_FLOATS)
        f.value = pw.float_bits(value, f.wire_type)
        return f"{_where(message, f)} = {value}"
    tensor, raw = tensors[pick - len(fields)]
    fmt = RAW_FLOAT_FORMATS[_dtype_code(tensor)]
    size = struct.calcsize(fmt)
    start = rng.randrange(len(raw.value) // size) * size if len(raw.value) >= size else 0
    value = rng.choice(SPECIAL_FLOATS[:5])
    raw.value = raw.value[:start] + struct.pack(fmt, value) + raw.value[start + size:]
    return f"TensorProto.raw_data: element at byte {start} = {value}"


def _dtype_code(tensor: pw.Message):
    codes = _get(tensor, "data_type")
    return codes[-1].value if codes else None


def string_bad(tree, rng):
    site = _pick(rng, tree, lambda m, f: f.kind == "string")
    if site:
        message, _, f = site
        f.value = rng.choice(BAD_STRINGS + (f.value * 2, f.value[:-1]))
        return f"{_where(message, f)} = {f.value[:20]!r} ({len(f.value)} bytes)"


def bytes_bad(tree, rng):
    site = _pick(rng, tree, lambda m, f: f.kind == "bytes")
    if site:
        message, _, f = site
        size = len(f.value)
        f.value = rng.choice((b"", f.value[:size // 2], f.value[:-1], f.value + b"\0",
                              f.value * 2, bytes(rng.getrandbits(8) for _ in range(7))))
        return f"{_where(message, f)}: {size} -> {len(f.value)} bytes"


def drop_field(tree, rng):
    site = _pick(rng, tree, lambda m, f: True)
    if site:
        message, k, f = site
        del message.fields[k]
        return f"removed {_where(message, f)}"


def drop_message(tree, rng):
    site = _pick(rng, tree, lambda m, f: f.is_message)
    if site:
        message, k, f = site
        del message.fields[k]
        return f"removed {_where(message, f)} ({f.value.type_name})"


def duplicate_field(tree, rng):
    site = _pick(rng, tree, lambda m, f: True)
    if site:
        message, k, f = site
        copy = pw.decode(pw.encode(pw.Message(message.descriptor, [f])),
                         message.descriptor).fields[0]
        message.fields.insert(k + rng.choice((0, 1)), copy)
        return f"duplicated {_where(message, f)}"


def drop_repeated(tree, rng):
    site = _pick(rng, tree, lambda m, f: True)
    if site:
        message, _, f = site
        message.fields = [g for g in message.fields if g.number != f.number]
        return f"removed every {_where(message, f)}"


def wire_confusion(tree, rng):
    """A field re-typed on the wire: a message or string becomes a varint
    and the other way round."""
    site = _pick(rng, tree, lambda m, f: True)
    if site:
        message, k, f = site
        if f.wire_type == pw.LENGTH_DELIMITED:
            message.fields[k] = pw.Field(f.number, pw.VARINT, rng.choice(EXTREME_INTS))
        else:
            message.fields[k] = pw.Field(f.number, pw.LENGTH_DELIMITED, b"\x08\x01")
        return f"{_where(message, f)} re-typed from wire type {f.wire_type}"


def shape(tree, rng):
    tensors = _messages(tree, "TensorProto")
    if not tensors:
        return None
    tensor = rng.choice(tensors)
    dims = _get(tensor, "dims")
    choice = rng.random()
    if dims and choice < 0.6:
        dim = rng.choice(dims)
        dim.value = rng.choice(BAD_DIMS)
        return f"TensorProto.dims: one dim = {dim.value}"
    if dims and choice < 0.8:
        tensor.fields.remove(rng.choice(dims))
        return "TensorProto.dims: one dim removed"
    tensor.fields.insert(0, pw.Field(1, pw.VARINT, rng.choice(BAD_DIMS + (1, 3)),
                                     "dims", "int"))
    return "TensorProto.dims: one dim added"


def dtype(tree, rng):
    choices = [(t, "data_type", 2) for t in _messages(tree, "TensorProto")]
    choices += [(a, "type", 16) for a in _messages(tree, "AttributeProto")]
    if not choices:
        return None
    message, name, number = rng.choice(choices)
    codes = DTYPE_CODES if name == "data_type" else ATTRIBUTE_TYPES
    value = rng.choice(codes)
    _set_scalar(message, name, number, pw.VARINT, value, "int")
    return f"{message.type_name}.{name} = {value}"


def external_data(tree, rng):
    """External data with a hostile location or bounds; a parameter with
    embedded weights is turned into one with external data first."""
    tensors = [t for g in _messages(tree, "GraphProto") for f in _get(g, "parameter")
               for t in (f.value,) if isinstance(t, pw.Message)]
    if not tensors:
        return None
    tensor = rng.choice(tensors)
    ext = next((f.value for f in _get(tensor, "external_data")), None)
    if ext is None:
        tensor.fields = [f for f in tensor.fields if f.name != "raw_data"]
        ext = pw.Message(pw.MODEL.file.message_types_by_name["ExternalDataProto"])
        ext.fields = [pw.Field(1, pw.LENGTH_DELIMITED, b"model_variables/data_0",
                               "location", "string"),
                      pw.Field(2, pw.VARINT, 64, "offset", "int"),
                      pw.Field(3, pw.VARINT, 16, "length", "int")]
        tensor.fields.append(pw.Field(12, pw.LENGTH_DELIMITED, ext,
                                      "external_data", "message"))
    what = rng.choice(("location", "offset", "length"))
    if what == "location":
        value = rng.choice(HOSTILE_LOCATIONS)
        _set_scalar(ext, "location", 1, pw.LENGTH_DELIMITED, value, "string")
    else:
        value = rng.choice(BAD_OFFSETS)
        _set_scalar(ext, what, 2 if what == "offset" else 3, pw.VARINT, value, "int")
    return f"ExternalDataProto.{what} = {value!r}"


def self_call(tree, rng):
    """A node of a graph that applies that same graph (recursion without
    an end); when the model has several graphs, sometimes a call of the
    main graph from a function."""
    graphs = [g for g in _messages(tree, "GraphProto") if _get(g, "node")]
    if not graphs:
        return None
    graph = rng.choice(graphs)
    names = _get(graph, "name")
    target = rng.choice(graphs)
    target_names = _get(target, "name")
    target_name = target_names[0].value if target_names else (
        names[0].value if names else b"")
    nodes = [f.value for f in _get(graph, "node") if isinstance(f.value, pw.Message)]
    node = rng.choice(nodes)
    _set_scalar(node, "op_type", 4, pw.LENGTH_DELIMITED, b"REF::" + target_name,
                "string")
    return f"a node applies graph {target_name[:40]!r}"


def node_input(tree, rng):
    nodes = _messages(tree, "NodeProto")
    nodes = [n for n in nodes if _get(n, "input")]
    if not nodes:
        return None
    node = rng.choice(nodes)
    edge = rng.choice(_get(node, "input"))
    own = _get(node, "output") + _get(node, "name")
    edge.value = rng.choice((b"no_such_value", b"", edge.value + b"x")
                            + tuple(f.value for f in own))
    return f"NodeProto.input = {edge.value[:40]!r}"


def op_type(tree, rng):
    holders = _messages(tree, "NodeProto") + _messages(tree, "PrimitiveProto")
    if not holders:
        return None
    holder = rng.choice(holders)
    others = [f.value for h in holders for f in _get(h, "op_type")]
    value = rng.choice((b"NoSuchOp", b"REF::nothing", b"REF::", b"Constant", b"")
                       + tuple(others[:50]))
    _set_scalar(holder, "op_type", 2 if holder.type_name == "PrimitiveProto" else 4,
                pw.LENGTH_DELIMITED, value, "string")
    return f"{holder.type_name}.op_type = {value[:40]!r}"


def attribute_values(tree, rng):
    """Sequence and dict attributes: an element's values dropped or
    duplicated, or the container's type changed."""
    attrs = [a for a in _messages(tree, "AttributeProto") if _get(a, "values")]
    if not attrs:
        return None
    attr = rng.choice(attrs)
    element = rng.choice(_get(attr, "values")).value
    choice = rng.random()
    if choice < 0.4:
        element.fields = [f for f in element.fields if f.name != "values"]
        return "AttributeProto.values: an element's values removed"
    if choice < 0.7:
        _set_scalar(attr, "type", 16, pw.VARINT, rng.choice((20, 21, 22)), "int")
        return "AttributeProto.type of a sequence changed"
    attr.fields = [f for f in attr.fields if f.name != "values"]
    return "AttributeProto.values all removed"


STRUCT_MUTATORS = {f.__name__: f for f in (
    int_extreme, float_special, string_bad, bytes_bad, drop_field, drop_message,
    duplicate_field, drop_repeated, wire_confusion, shape, dtype, external_data,
    self_call, node_input, op_type, attribute_values)}
# Recursion and loops cost a whole time limit each until they are refused
# early; they are drawn less often so a corpus stays quick.
STRUCT_WEIGHTS = {"self_call": 0.15}


# -- byte mutators: (buffer, rng) -> what was done -------------------------------

def truncate(buf, rng):
    size = len(buf)
    keep = rng.choice((rng.randrange(size + 1), size - rng.randrange(1, 17),
                       rng.randrange(64)))
    del buf[max(keep, 0):]
    return f"{size} -> {len(buf)} bytes"


def bit_flip(buf, rng):
    spots = [rng.randrange(len(buf)) for _ in range(rng.randint(1, 8))] if buf else []
    for spot in spots:
        buf[spot] ^= 1 << rng.randrange(8)
    return f"{len(spots)} bit(s) flipped"


def overwrite(buf, rng):
    if not buf:
        return "empty file"
    start = rng.randrange(len(buf))
    length = rng.randint(1, 16)
    fill = rng.choice(INTERESTING_BYTES + (None,))
    for k in range(start, min(start + length, len(buf))):
        buf[k] = rng.getrandbits(8) if fill is None else fill
    return f"{length} byte(s) overwritten at {start}"


def insert(buf, rng):
    start = rng.randrange(len(buf) + 1)
    data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 16)))
    buf[start:start] = data
    return f"{len(data)} byte(s) inserted at {start}"


def delete(buf, rng):
    if not buf:
        return "empty file"
    start = rng.randrange(len(buf))
    length = rng.randint(1, 64)
    del buf[start:start + length]
    return f"up to {length} byte(s) deleted at {start}"


BYTE_MUTATORS = {f.__name__: f for f in (truncate, bit_flip, overwrite, insert, delete)}
