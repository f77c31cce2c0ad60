"""Finding the weights and nodes in a MindIR file without copying them.

Parsing a whole MindIR with protobuf copies every embedded weight out of
the file into a new ``bytes`` object: the file and the copies are in memory
together, twice the weights at the peak; and it holds a tree of every node
of every graph at once, about 1.7 KB per node. This module walks the
protobuf wire format of the file instead (only the few levels that lead to
weights and nodes: ``ModelProto.graph`` / ``functions`` -> ``GraphProto``
``.parameter`` -> ``TensorProto.raw_data``, and ``GraphProto.node``),
records where each parameter's ``raw_data`` and each node lie in the file
and writes a *slim* copy of the message without them, which protobuf then
parses quickly. The weights are then read straight from the file (mapped),
one at a time, or not at all when another source provides them (shared
memory); the nodes are parsed a run of them at a time.

Wire format: a message is a sequence of fields, each a varint key
(field number << 3 | wire type) and a value: a varint (type 0), 8 bytes
(1), a varint length and that many bytes (2), or 4 bytes (5). Groups
(3, 4) are not used by MindIR and are refused.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Iterator

MODEL_GRAPH, MODEL_FUNCTIONS = 7, 8     # ModelProto fields (GraphProto)
GRAPH_NODE = 1                          # GraphProto.node (NodeProto)
GRAPH_PARAMETER = 3                     # GraphProto.parameter (TensorProto)
TENSOR_RAW_DATA = 9                     # TensorProto.raw_data (bytes)
LENGTH_DELIMITED = 2
NODE_KEY = GRAPH_NODE << 3 | LENGTH_DELIMITED    # a GraphProto.node's key byte
MAX_VARINT_BYTES = 10


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message."""


Span = tuple[int, int]      # (offset in the file, length) of one raw_data


# Nodes parsed by one protobuf call (refinfer/format/reader.py): one call
# per node was a fifth of the read of a long graph; a run's tree alone is
# in memory at a time, not every node's.
NODES_PER_RUN = 1024


@dataclass
class GraphSpans:
    """Where one graph's pieces lie in the file: the ``raw_data`` of each
    parameter (None for one without, e.g. external data) and its nodes, as
    runs of at most ``NODES_PER_RUN`` consecutive ``GraphProto.node``
    fields (keys included: the bytes of a ``NodeRun`` message), in file
    order."""
    parameters: list[Span | None] = field(default_factory=list)
    run_starts: array = field(default_factory=lambda: array("q"))
    run_ends: array = field(default_factory=lambda: array("q"))

    def node_runs(self) -> Iterator[tuple[int, int]]:
        """(start, end) of each run of nodes."""
        return zip(self.run_starts, self.run_ends)


def slim_model(buf) -> tuple[bytearray, list[GraphSpans]]:
    """The ModelProto in ``buf`` without its graphs' nodes and the
    ``raw_data`` of their parameters, and where those lie in ``buf``: the
    main graph's (all its occurrences, merged as protobuf merges them), then
    each function's, in file order."""
    view = memoryview(buf).cast("B")
    out, main, functions = bytearray(), GraphSpans(), []
    for number, wire_type, start, value, end in _fields(view, 0, len(view)):
        if wire_type == LENGTH_DELIMITED and number in (MODEL_GRAPH, MODEL_FUNCTIONS):
            spans = main if number == MODEL_GRAPH else GraphSpans()
            if number == MODEL_FUNCTIONS:
                functions.append(spans)
            _write_field(out, number, _slim_graph(view, value, end, spans))
        else:
            out += view[start:end]
    return out, [main, *functions]


def _slim_graph(view, start: int, end: int, spans: GraphSpans) -> bytearray:
    out, kept, pos = bytearray(), start, start  # view[kept:] not yet copied
    while pos < end:
        if view[pos] == NODE_KEY:       # a run of nodes: most of a graph
            out += view[kept:pos]       # the fields before, in one copy
            pos = kept = _node_run(view, pos, end, spans)
            continue
        number, wire_type, field_start, value, pos = next(_fields(view, pos, end))
        if wire_type != LENGTH_DELIMITED or number not in (GRAPH_NODE,
                                                           GRAPH_PARAMETER):
            continue
        out += view[kept:field_start]
        kept = pos
        if number == GRAPH_NODE:        # (its key in more bytes than needed)
            spans.run_starts.append(field_start)
            spans.run_ends.append(pos)
        else:
            tensor, span = _strip_tensor(view, value, pos)
            spans.parameters.append(span)
            _write_field(out, number, tensor)
    out += view[kept:end]
    return out


def _node_run(view, pos: int, end: int, spans: GraphSpans) -> int:
    """Record in ``spans`` the nodes whose fields follow each other from
    ``pos``, in runs of ``NODES_PER_RUN``; where they end. (One plain loop:
    ``_fields``'s generator, a tuple per field, was most of the walk of a
    graph of many nodes.)"""
    while pos < end and view[pos] == NODE_KEY:
        spans.run_starts.append(pos)
        for _ in range(NODES_PER_RUN):
            if pos >= end or view[pos] != NODE_KEY:
                break
            length, value = _read_varint(view, pos + 1, end)
            if value + length > end:
                raise _past_end(GRAPH_NODE, pos, end)
            pos = value + length
        spans.run_ends.append(pos)
    return pos


def node_bodies(buf, start: int, end: int) -> Iterator[tuple[int, int]]:
    """(start, end) of the message of each node of the run in
    ``buf[start:end]`` (to find the one that does not parse)."""
    view = memoryview(buf).cast("B")
    for _, _, _, value, stop in _fields(view, start, end):
        yield value, stop


def _strip_tensor(view, start: int, end: int) -> tuple[bytearray, Span | None]:
    out, span = bytearray(), None
    for number, wire_type, field_start, value, stop in _fields(view, start, end):
        if wire_type == LENGTH_DELIMITED and number == TENSOR_RAW_DATA:
            span = (value, stop - value)    # the last one wins, as in protobuf
        else:
            out += view[field_start:stop]
    return out, span


def _write_field(out: bytearray, number: int, body) -> None:
    """Append field ``number`` (length-delimited) holding ``body``."""
    out += _varint(number << 3 | LENGTH_DELIMITED)
    out += _varint(len(body))
    out += body


def _fields(view, start: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
    """(field number, wire type, field start, value start, field end) of
    each field of the message in view[start:end]."""
    pos = start
    while pos < end:
        key = view[pos]
        if key < 0x80:      # a one-byte key (fields 1-15): read inline, as
            value = pos + 1     # a call per field is a third of the walk
        else:
            key, value = _read_varint(view, pos, end)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise WireError(f"field number 0 at byte {pos}")
        if wire_type == 0:
            _, stop = _read_varint(view, value, end)
        elif wire_type == 1:
            stop = value + 8
        elif wire_type == LENGTH_DELIMITED:
            length, value = _read_varint(view, value, end)
            stop = value + length
        elif wire_type == 5:
            stop = value + 4
        else:
            raise WireError(f"wire type {wire_type} at byte {pos}")
        if stop > end:
            raise _past_end(number, pos, end)
        yield number, wire_type, pos, value, stop
        pos = stop


def _past_end(number: int, pos: int, end: int) -> WireError:
    return WireError(f"field {number} at byte {pos} runs past the end of its "
                     f"message (byte {end})")


def _read_varint(view, pos: int, end: int) -> tuple[int, int]:
    """The varint at ``pos`` and the position after it."""
    if pos < end and view[pos] < 0x80:      # one byte: most keys and lengths
        return view[pos], pos + 1
    if pos + 1 < end and view[pos + 1] < 0x80:     # two: a node's length
        return view[pos] & 0x7F | view[pos + 1] << 7, pos + 2
    result = shift = 0
    for k in range(pos, min(pos + MAX_VARINT_BYTES, end)):
        byte = view[k]
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, k + 1
        shift += 7
    raise WireError(f"truncated or overlong varint at byte {pos}")


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
