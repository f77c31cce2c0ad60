"""The reader locates embedded weights by walking the protobuf wire format
(refinfer/format/wire.py) and never lets protobuf copy them: the slim
message equals the full one without the weight bytes, the spans point at
exactly those bytes, and weights given by another source replace the file's
(checked against the declared dtype and shape)."""
import os

import numpy as np
import pytest

from refinfer.errors import MindIRError
from refinfer.format import reader, schema, wire
from refinfer.format.reader import read_mindir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = [os.path.join(ROOT, "golden", case, "model.mindir")
          for case in ("mlp", "lenet5", "ctrl_while_if", "mobilenetv2")]


def full_parse(path):
    proto = schema.ModelProto()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    return proto


def _node_count(graph_spans, data) -> int:
    """Nodes in the graph's runs, each run parsed."""
    return sum(len(schema.NodeRun.FromString(data[start:end]).node)
               for start, end in graph_spans.node_runs())


@pytest.mark.parametrize("path", MODELS, ids=lambda p: os.path.basename(os.path.dirname(p)))
def test_slim_message_is_the_full_one_without_weight_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    slim, spans = wire.slim_model(data)
    full, stripped = full_parse(path), schema.ModelProto()
    stripped.ParseFromString(bytes(slim))
    graphs = [full.graph, *full.functions]
    assert len(spans) == len(graphs) and len(slim) <= len(data)
    assert _node_count(spans[0], data) == len(full.graph.node) > 0
    for graph, graph_spans in zip(graphs, spans):
        assert len(graph_spans.parameters) == len(graph.parameter)
        for tensor, (offset, length) in zip(graph.parameter,
                                            graph_spans.parameters):
            assert data[offset:offset + length] == tensor.raw_data
            tensor.ClearField("raw_data")
        nodes = [node for start, end in graph_spans.node_runs()
                 for node in schema.GraphProto.FromString(data[start:end]).node]
        assert nodes == list(graph.node)
        del graph.node[:]
    assert stripped == full


def test_a_graph_given_twice_is_merged_as_protobuf_merges_it():
    # protobuf concatenates the repeated fields of a message field that
    # appears twice; the spans of the main graph must follow suit
    with open(MODELS[0], "rb") as f:
        data = f.read()
    full = full_parse(MODELS[0])
    twice = schema.ModelProto(graph=full.graph).SerializeToString()
    data += twice
    _, spans = wire.slim_model(data)
    assert len(spans) == 1 + len(full.functions)
    count = len(full.graph.node)
    assert _node_count(spans[0], data) == 2 * count
    assert len(spans[0].parameters) == 2 * len(full.graph.parameter)


def test_nodes_are_parsed_in_runs_of_a_bounded_size(monkeypatch):
    whole = read_mindir(MODELS[1]).main.nodes
    monkeypatch.setattr(wire, "NODES_PER_RUN", 3)
    with open(MODELS[1], "rb") as f:
        data = f.read()
    _, spans = wire.slim_model(data)
    sizes = [len(schema.NodeRun.FromString(data[start:end]).node)
             for start, end in spans[0].node_runs()]
    assert max(sizes) == 3 and sum(sizes) == len(full_parse(MODELS[1]).graph.node)
    assert read_mindir(MODELS[1]).main.nodes == whole


def test_a_node_that_does_not_parse_is_named_by_its_place(monkeypatch):
    monkeypatch.setattr(wire, "NODES_PER_RUN", 3)
    with open(MODELS[1], "rb") as f:
        data = bytearray(f.read())
    _, spans = wire.slim_model(data)
    start, end = list(spans[0].node_runs())[1]
    body, _ = list(wire.node_bodies(data, start, end))[1]
    data[body] = 0x07           # field 0, wire type 7: no protobuf key
    with pytest.raises(MindIRError, match=r"graph '.*' node 4: not a valid NodeProto "
                       r"\(.*\); the file is truncated or corrupt"):
        read_mindir(MODELS[1], data=bytes(data))


def test_weights_are_aligned_read_only_copies():
    model = read_mindir(MODELS[1])
    full = {t.name: t.raw_data for t in full_parse(MODELS[1]).graph.parameter}
    for name, array in model.main.parameters.items():
        assert array.flags.aligned and array.flags.c_contiguous
        assert not array.flags.writeable and array.base is None
        assert array.tobytes() == full[name]


@pytest.mark.parametrize("data, message", [
    (b"\xff" * 11, "varint"),                    # a key that never ends
    (b"\x3a\x05abc", "runs past the end"),       # graph field longer than the file
    (b"\x3a\x03\x1a\x10abc", "runs past the end"),   # a parameter longer than its graph
    (b"\x0b", "wire type 3"),                    # groups are not MindIR
    (b"\x00\x01", "field number 0"),
])
def test_malformed_wire_data_is_a_clear_error(tmp_path, data, message):
    path = tmp_path / "bad.mindir"
    path.write_bytes(data)
    with pytest.raises(MindIRError, match=message) as info:
        read_mindir(str(path))
    assert str(path) in str(info.value)


def test_weights_from_another_source_replace_the_files():
    own = read_mindir(MODELS[0]).main.parameters
    given = {name.split(":", 1)[-1]: np.full_like(a, 0.5) for name, a in own.items()}
    model = read_mindir(MODELS[0], weights=given)
    for name, array in model.main.parameters.items():
        short = name.split(":", 1)[-1]
        assert np.shares_memory(array, given[short]) and not array.flags.writeable
    assert all(a.flags.writeable for a in given.values())     # the caller's flags are kept


def test_weights_from_another_source_must_have_the_declared_type():
    name, array = next(iter(read_mindir(MODELS[0]).main.parameters.items()))
    wrong = {name: np.zeros(array.shape + (1,), array.dtype)}
    with pytest.raises(MindIRError, match=f"{name}.*float32"):
        read_mindir(MODELS[0], weights=wrong)


def test_varints_of_every_length_read_back():
    """The one- and two-byte shortcuts of ``_read_varint`` (issue 17's
    builder scale) agree with the general loop: every value of up to two
    bytes, the edges of each longer length, the largest uint64."""
    values = [*range(1 << 14), *(v for k in range(14, 64, 7)
                                 for v in ((1 << k) - 1, 1 << k)), (1 << 64) - 1]
    for value in values:
        data = memoryview(wire._varint(value))
        assert wire._read_varint(data, 0, len(data)) == (value, len(data))
    # an overlong zero, as protobuf accepts it
    assert wire._read_varint(memoryview(b"\x80\x00"), 0, 2) == (0, 2)


@pytest.mark.parametrize("data", [b"\x80", b"\x80\x80", b"\xff" * 11])
def test_truncated_or_overlong_varints_are_refused(data):
    with pytest.raises(wire.WireError, match="truncated or overlong varint"):
        wire._read_varint(memoryview(data), 0, len(data))


def test_node_spans_are_found_whichever_way_the_key_is_written():
    # a node whose key takes two bytes (0x8A 0x00: field 1, length-delimited,
    # written longer than needed), a node after it, then the graph's name
    body = bytes([0x8A, 0x00, 2, 0x41, 0x42, 0x0A, 1, 0x43, 0x12, 1, 0x44])
    spans = wire.GraphSpans()
    slim = wire._slim_graph(memoryview(body), 0, len(body), spans)
    assert list(spans.node_runs()) == [(0, 5), (5, 8)] and bytes(slim) == b"\x12\x01D"
    # a key in six bytes: more than protobuf reads (five), refused by name
    body = bytes([0x8A, 0x80, 0x80, 0x80, 0x80, 0x00, 2, 0x1A, 0])
    spans = wire.GraphSpans()
    wire._slim_graph(memoryview(body), 0, len(body), spans)
    with pytest.raises(ValueError, match=r"^graph 'g' node 0: its field key is not "
                       r"one protobuf reads; the file is corrupt$"):
        list(reader._nodes(body, spans, "graph", "'g'"))
    with pytest.raises(wire.WireError, match=r"^field 1 at byte 0 runs past the "
                       r"end of its message \(byte 3\)$"):
        wire._slim_graph(memoryview(bytes([0x0A, 5, 1])), 0, 3, wire.GraphSpans())
