"""Read a .mindir file into plain Python structures.

This layer knows bytes and protobuf, nothing about op semantics: it checks
the container (encryption magic, protobuf validity, version, byte order),
decodes constants, attributes and abstracts, and loads weights, embedded or
from split ``_variables/data_N`` files (read-only mmap, confined to the model
folder, bounds-checked).

Memory: the file is mapped, not read. Embedded weights are located by
walking the protobuf wire format (``wire.py``), so protobuf parses a slim
copy of the message without them; each weight is then copied out of the
mapping on its own and its pages are released, so reading a model peaks
at about one copy of its weights (a plain protobuf parse holds the file and
a copy of every weight at once). Weights from another source (a master's
shared memory, ``weights=``) are not read at all.
"""
from __future__ import annotations

import mmap
import os
import sys
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Iterator, Mapping

import numpy as np
from google.protobuf.message import DecodeError

from ..errors import EncryptedModelError, MindIRError
from ..stored import StoredWeight
from . import crypto, names, schema, wire
from .values import (Abstract, UnsupportedValue, decode_abstract, decode_value,
                     decode_value_info, is_monad_info, tensor_dtype,
                     tensor_from_raw, all_texts, are_texts, text, texts)

DATA_HEADER_SIZE = 64


@dataclass
class Undecodable:
    """A primitive attribute whose encoding we do not know; an error only
    if an op actually needs it."""
    reason: str


@dataclass
class Primitive:
    name: str                 # unique id, e.g. "MatMul:4"
    op_type: str              # the real op, e.g. "MatMul"
    attrs: dict[str, Any]
    is_function: bool         # PRIMITIVE_FUNCTION: settings are node inputs
    instance_name: str = ""

    @property
    def op_name(self) -> str:
        """The op's registry name (``op_type`` without export prefixes)."""
        return names.op_name(self.op_type)


@dataclass(slots=True)
class RawNode:
    name: str
    op_type: str              # "REF::<prim>", "REF::<graph>", "REF::<node>"
    inputs: tuple[str, ...]
    scope: str                # fullname_with_scope, e.g. Default/fc1-Dense/..
    abstract: Abstract | None
    # The primitive, graph or node it applies; None for the MindIR 1.x node
    # encoding. Parsed once: the graph builder asks for it several times.
    target: str | None = field(init=False)

    def __post_init__(self):
        self.target = names.applied_target(self.op_type)


@dataclass
class ValueInfo:
    name: str
    abstract: Abstract
    is_monad: bool = False

    @property
    def short_name(self) -> str:
        """The user's name: the text after the first ':'."""
        return self.name.split(":", 1)[-1]


@dataclass
class RawGraph:
    name: str
    inputs: list[ValueInfo]
    nodes: list[RawNode]
    constants: dict[str, Any]
    parameters: dict[str, np.ndarray]
    output: ValueInfo


@dataclass
class MindIRFile:
    path: str
    graphs: list[RawGraph]            # the main graph first
    primitives: dict[str, Primitive]
    mind_ir_version: int
    model_version: str
    user_info: dict[str, str] = field(default_factory=dict)

    @property
    def main(self) -> RawGraph:
        return self.graphs[0]

    def primitive_of(self, node: RawNode) -> Primitive | None:
        """The primitive ``node`` applies, if it applies one."""
        target = node.target
        return None if target is None else self.primitives.get(target)


def read_mindir(path: str, dec_key: bytes | None = None,
                dec_mode: str = "AES-GCM",
                weights: Mapping[str, np.ndarray] | None = None,
                data=None, weight_data=None) -> MindIRFile:
    """Parse and check ``path``; weights are loaded (mmapped when split).
    Encrypted files need ``dec_key`` and ``dec_mode``. ``weights`` (by
    parameter name, full or after the ``graph:`` prefix) replaces the file's
    own weights, which are then not read; each must have the declared dtype
    and shape.

    ``data``: the model's bytes, read instead of the file (``Model.
    build_from_buffer``); ``path`` then names the model in errors and its
    folder is where split weights are looked for. ``weight_data``: the
    bytes of the model's external data file (``weight_bytes``), used for
    every external location instead of the files."""
    path = os.fspath(path)
    decryptor = _Decryptor(path, dec_key, dec_mode)
    blob = decryptor.plain(path, _map_file(path) if data is None else data)
    proto, spans = _parse(path, blob)
    files = _WeightFiles(path, decryptor, blob, weights or {}, weight_data)
    try:
        graphs = [_read_graph(g, k, files, graph_spans) for k, (g, graph_spans)
                  in enumerate(zip([proto.graph, *proto.functions], spans))]
        primitives = dict(_read_primitive(p, k)
                          for k, p in enumerate(proto.primitives))
        return MindIRFile(
            path=path, graphs=graphs, primitives=primitives,
            mind_ir_version=proto.mind_ir_version,
            model_version=text(proto.model_version, "model_version"),
            user_info={text(e.key, "user_info", k, "key"):
                       text(e.value, "user_info", k, "value")
                       for k, e in enumerate(proto.user_info)})
    except (ValueError, UnsupportedValue) as exc:
        raise MindIRError(path, str(exc)) from exc


def _map_file(path: str):
    """The file's bytes, mapped read-only (an empty file: ``b""``)."""
    if not os.path.exists(path):
        raise MindIRError(path, "no such file")
    if os.path.isdir(path):
        raise MindIRError(path, "is a directory, not a MindIR file")
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


class _Decryptor:
    """Turns encrypted file contents into plaintext, or refuses them."""

    def __init__(self, model_path: str, key: bytes | None, mode: str):
        self.model_path, self.key, self.mode = model_path, key, mode

    def plain(self, path: str, blob):
        mode = crypto.encryption_mode(blob)
        if mode is None:
            return blob
        if not self.key:
            raise EncryptedModelError(
                path, f"the model is encrypted ({mode}); build it with "
                "dec_key (and dec_mode) to decrypt it")
        try:
            return crypto.decrypt(bytes(blob), self.key, self.mode)
        except crypto.DecryptionError as exc:
            raise EncryptedModelError(path, f"the model is encrypted "
                                      f"({mode}) and cannot be decrypted: "
                                      f"{exc}") from exc


def _parse(path: str, blob) -> tuple[Any, list]:
    """The ModelProto without its embedded weights, and where they lie."""
    proto = schema.ModelProto()
    try:
        slim, spans = wire.slim_model(blob)
        proto.ParseFromString(bytes(slim))
    except (wire.WireError, DecodeError) as exc:
        raise MindIRError(path, "not a MindIR file, or the file is truncated "
                          f"or corrupt (protobuf: {exc})") from exc
    if not proto.ir_version or not proto.HasField("graph"):
        raise MindIRError(path, "not a MindIR file (no ir_version or no "
                          "graph), or the file is truncated")
    if not proto.HasField("mind_ir_version") and any(
            p.prim_type == schema.PRIMITIVE_FUNCTION for p in proto.primitives):
        # PRIMITIVE_FUNCTION needs version >= 2, and MindSpore writes the
        # version after the graphs and primitives: the end is missing.
        raise MindIRError(path, "mind_ir_version is missing although the "
                          "file uses PRIMITIVE_FUNCTION ops: the file is "
                          "truncated or corrupt")
    if proto.mind_ir_version > schema.MAX_MIND_IR_VERSION:
        raise MindIRError(
            path, f"mind_ir_version {proto.mind_ir_version} is newer than "
            f"this refinfer understands (<= {schema.MAX_MIND_IR_VERSION}); "
            f"the file was written by MindSpore {proto.model_version}")
    host_little = sys.byteorder == "little"
    if proto.HasField("little_endian") and proto.little_endian != host_little:
        raise MindIRError(path, "the model was written on a machine of the "
                          "other byte order")
    return proto, spans


def _read_primitive(p, index: int) -> tuple[str, Primitive]:
    """``(unique id, primitive)`` of primitive ``index`` of the file."""
    name = text(p.name, "primitive", index, "name")
    where = ("primitive", repr(name))
    attrs = {}
    for k, a in enumerate(p.attribute):
        attr_name = text(a.name, *where, "attribute", k, "name")
        try:
            attrs[attr_name] = decode_value(a)
        except (UnsupportedValue, ValueError) as exc:
            attrs[attr_name] = Undecodable(str(exc))
    return name, Primitive(name, text(p.op_type, *where, "op_type"), attrs,
                           p.prim_type == schema.PRIMITIVE_FUNCTION,
                           text(p.instance_name, *where, "instance_name"))


def _read_graph(g, index: int, weights: "_WeightFiles",
                spans: wire.GraphSpans) -> RawGraph:
    name = text(g.name, "graph", index, "name")
    where = ("graph", repr(name))
    nodes, constants = [], {}
    # protobuf makes a new str per access: share one per distinct text (a
    # node's name and the inputs naming it, a primitive's op_type), which
    # keeps a third of a long graph's strings
    interned = {}
    shared = interned.setdefault
    # the nodes of a graph record a few distinct shapes: each decoded once,
    # found again by its attribute's bytes
    shapes: dict[bytes, Abstract | None] = {}
    for k, n in enumerate(_nodes(weights.blob, spans, *where)):
        # (each read of a protobuf string field makes a new str: the
        # inputs are read once, not once per use; a slice of the repeated
        # field takes half the time of a tuple made from it)
        node_name, op_type, inputs, scope, attributes = \
            n.name, n.op_type, n.input[:], n.domain, n.attribute[:]
        if type(op_type) is not str or op_type == "Constant":
            if not are_texts(node_name, op_type, scope, *inputs):
                _refuse_node(n, *where, "node", k)
            constants[node_name] = _constant(_attributes_named(
                attributes, "value", *where, "node", k), node_name)
            continue
        # (MindSpore gives a node one attribute, its shape: found at once)
        abstract = shapes.get(attributes[0], _UNSEEN) \
            if len(attributes) == 1 else _UNSEEN
        if abstract is _UNSEEN:
            abstract = _shape(attributes, shapes, *where, "node", k)
        nodes.append(RawNode(shared(node_name, node_name),
                             shared(op_type, op_type),
                             tuple(map(shared, inputs, inputs)), scope,
                             abstract))
    # Every other node's name and inputs are among ``interned``: checked at
    # once (a field that is not valid UTF-8 comes back as bytes) with the
    # scopes, the node named where one fails
    if not all_texts(interned) or not all_texts(n.scope for n in nodes):
        _refuse_nodes(weights.blob, spans, *where)
    if len(g.output) != 1:
        raise ValueError(f"graph {name!r} has {len(g.output)} outputs; "
                         "MindIR 2.x graphs have exactly one")
    return RawGraph(
        name=name,
        inputs=[_value_info(i, *where, "input", k) for k, i in enumerate(g.input)],
        nodes=nodes, constants=constants,
        parameters=dict(weights.load(t, span, *where, "parameter", k)
                        for k, (t, span)
                        in enumerate(zip(g.parameter, spans.parameters))),
        output=_value_info(g.output[0], *where, "output", 0))


_UNSEEN = object()      # (an attribute whose shape is not known yet)


def _shape(encoded, known: dict[bytes, Abstract | None], *where) -> Abstract | None:
    """The abstract of a node's ``shape`` attribute (``encoded``: its
    attributes' bytes), if it has one; ``known``: what each attribute's
    bytes gave before (None: no shape)."""
    for attribute in encoded:
        if attribute not in known:
            attr = _attribute(attribute, *where)
            known[attribute] = decode_abstract(attr) if attr.name == "shape" else None
        if known[attribute] is not None:
            return known[attribute]
    return None


def _attributes_named(encoded, name: str, *where) -> list:
    """A node's decoded attributes called ``name``."""
    return [a for a in (_attribute(b, *where) for b in encoded) if a.name == name]


def _attribute(encoded: bytes, *where):
    """One attribute of the node ``where`` names, decoded from its bytes."""
    try:
        return schema.AttributeProto.FromString(encoded)
    except DecodeError as exc:
        raise ValueError(f"{' '.join(map(str, where))}: not a valid NodeProto (an "
                         f"attribute: {exc}); the file is truncated or corrupt") from exc


def _nodes(blob, spans: wire.GraphSpans, *where) -> Iterator:
    """The graph's nodes as NodeHeaders, parsed a run of them at a time
    from where they lie in the file (the slim message has none)."""
    first = 0
    for start, end in spans.node_runs():
        try:
            run = schema.NodeRun.FromString(blob[start:end]).node
        except DecodeError as exc:
            raise _bad_node(blob, start, end, first, *where) from exc
        yield from run
        first += len(run)


def _bad_node(blob, start: int, end: int, first: int, *where) -> ValueError:
    """The error naming the first node of the run in ``blob[start:end]``
    (node ``first`` of its graph on) that is no NodeProto."""
    for k, (body, stop) in enumerate(wire.node_bodies(blob, start, end), first):
        try:
            schema.NodeHeader.FromString(blob[body:stop])
        except DecodeError as exc:
            return ValueError(f"{' '.join(where)} node {k}: not a valid "
                              f"NodeProto ({exc}); the file is truncated or "
                              f"corrupt")
    return ValueError(f"{' '.join(where)} node {first}: its field key is not "
                      f"one protobuf reads; the file is corrupt")


def _refuse_nodes(blob, spans: wire.GraphSpans, *where) -> None:
    """Raise the error naming the first node with a string field that is
    no text."""
    for k, n in enumerate(_nodes(blob, spans, *where)):
        if not are_texts(n.name, n.op_type, n.domain, *n.input):
            _refuse_node(n, *where, "node", k)


def _refuse_node(n, *where) -> None:
    """Raise the error naming the node's string field that is no text."""
    text(n.name, *where, "name")
    text(n.op_type, *where, "op_type")
    text(n.domain, *where, "domain")
    texts(n.input, *where, "input")


def _value_info(info, *where) -> ValueInfo:
    """A graph input or output (``where`` names it for errors)."""
    return ValueInfo(text(info.name, *where, "name"), decode_value_info(info),
                     is_monad_info(info))


def _checked_source(t, given):
    """``given`` (an array, or a weight stored in its products' layout:
    refinfer/stored.py) in place of parameter ``t``, if it has the declared
    type."""
    shape, dtype = tuple(t.dims), tensor_dtype(t)
    if given.shape != shape or given.dtype != dtype:
        raise ValueError(f"parameter {t.name!r} is {dtype.name}{list(shape)} in the "
                         f"file, the weights given for it are "
                         f"{given.dtype.name}{list(given.shape)}")
    if isinstance(given, StoredWeight):
        return given
    view = given.view()             # read-only, as the file's weights are
    view.flags.writeable = False
    return view


def _constant(value_attrs: list, name: str):
    if not value_attrs:
        raise ValueError(f"Constant {name!r} has no value")
    try:
        return decode_value(value_attrs[0])
    except (UnsupportedValue, ValueError) as exc:
        raise ValueError(f"Constant {name!r}: {exc}") from exc


class _WeightFiles:
    """Weight bytes: another source, embedded ``raw_data`` or split external
    data files.

    Embedded weights are copied out of the model file's mapping one by one
    (aligned, read-only arrays), releasing the pages read. External files are
    mapped read-only once each and never closed while arrays view them
    (closing a mapping under a live array would crash).
    """

    def __init__(self, model_path: str, decryptor: _Decryptor, blob,
                 source: Mapping[str, np.ndarray], weight_data=None):
        self.model_dir = os.path.dirname(os.path.abspath(model_path))
        self.decryptor, self.blob, self.source = decryptor, blob, source
        self.weight_data = weight_data      # one data file's bytes, or None
        self.maps: dict[str, mmap.mmap | bytes] = {}

    def load(self, t, span: wire.Span | None, *where) -> tuple[str, np.ndarray]:
        """``(name, weights)`` of parameter ``t`` (``where`` names it for
        errors)."""
        name = text(t.name, *where, "name")
        given = self.source.get(name, self.source.get(name.split(":", 1)[-1]))
        if given is not None:
            return name, _checked_source(t, given)
        if span is not None:
            return name, self._embedded(t, *span)
        if not t.HasField("external_data"):
            raise ValueError(f"parameter {name!r} has neither raw_data nor "
                             "external_data")
        ext = t.external_data
        location = text(ext.location, "parameter", repr(name),
                         "external_data location")
        data = self._map(location, name)
        if ext.offset < DATA_HEADER_SIZE or ext.length < 0 \
                or ext.offset + ext.length > len(data):
            raise ValueError(
                f"parameter {name!r}: bytes [{ext.offset}, "
                f"{ext.offset + ext.length}) lie outside the data file "
                f"{location!r} ({len(data)} bytes, data from byte "
                f"{DATA_HEADER_SIZE})")
        view = memoryview(data)[ext.offset:ext.offset + ext.length]
        return name, tensor_from_raw(t, view)

    def _embedded(self, t, offset: int, length: int) -> np.ndarray:
        array = tensor_from_raw(t, memoryview(self.blob)[offset:offset + length]).copy()
        array.flags.writeable = False
        if isinstance(self.blob, mmap.mmap):    # drop the pages just copied
            start = -(-offset // mmap.PAGESIZE) * mmap.PAGESIZE
            stop = (offset + length) // mmap.PAGESIZE * mmap.PAGESIZE
            if stop > start:
                self.blob.madvise(mmap.MADV_DONTNEED, start, stop - start)
        return array

    def _map(self, location: str, param: str) -> mmap.mmap:
        if location not in self.maps:
            self.maps[location] = (self._open(location, param)
                                   if self.weight_data is None else
                                   self._given(location, param))
        return self.maps[location]

    def _given(self, location: str, param: str):
        """``weight_data`` as the data file at ``location``: it holds one
        data file, so a model whose weights lie in several cannot use it."""
        if self.maps:
            first = next(iter(self.maps))
            raise ValueError(
                f"parameter {param!r}: its weights lie in the data file "
                f"{location!r}, those of earlier parameters in {first!r}; "
                "weight_bytes holds one data file")
        return self._checked_data("weight_bytes", self.weight_data)

    def _open(self, location: str, param: str):
        full = self._confine(location, param)
        if not os.path.isfile(full):
            raise ValueError(f"parameter {param!r}: weight file {full!r} "
                             "does not exist or is not a file")
        with open(full, "rb") as f:
            if os.fstat(f.fileno()).st_size < DATA_HEADER_SIZE:
                raise ValueError(f"weight file {full!r} is shorter than its "
                                 f"{DATA_HEADER_SIZE}-byte header")
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return self._checked_data(full, data)

    def _checked_data(self, name: str, data):
        """The plain bytes of a data file (its path, or ``weight_bytes``),
        after the checks of its header."""
        # Encrypted weight files are decrypted into memory (not shared).
        data = self.decryptor.plain(name, data)
        if len(data) < DATA_HEADER_SIZE:
            raise ValueError(f"weight file {name!r} is shorter than its "
                             f"{DATA_HEADER_SIZE}-byte header")
        if data[0] != (1 if sys.byteorder == "little" else 0):
            raise ValueError(f"weight file {name!r} was written on a machine "
                             "of the other byte order (header byte 0)")
        return data

    def _confine(self, location: str, param: str) -> str:
        """The real path of ``location``, which must stay in the model dir."""
        rel = PurePosixPath(location)
        if not location or rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"parameter {param!r}: external data location "
                             f"{location!r} leaves the model folder")
        root = os.path.realpath(self.model_dir)
        full = os.path.realpath(os.path.join(root, *rel.parts))
        if os.path.commonpath([root, full]) != root:
            raise ValueError(f"parameter {param!r}: external data location "
                             f"{location!r} resolves to {full!r}, outside "
                             f"the model folder {root!r}")
        return full
