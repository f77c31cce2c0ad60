"""Bad model files: every one must fail with a clear error that names the
file and the problem, through the runtime (``LoadedModel`` raises
``MindIRError``) and through the Lite API (``Model.build_from_file`` raises
``RuntimeError("build_from_file failed! Error is ...")``). No crash, no hang,
never a model.

Files are built in ``tmp_path`` from copies of the golden models, modified
with our own protobuf schema.
"""
from __future__ import annotations

import os
import random
import re
import shutil

import pytest

import refinfer as mslite
from refinfer.errors import (EncryptedModelError, MindIRError,
                             UnsupportedOpsError)
from refinfer.format.schema import ModelProto
from refinfer.runtime import LoadedModel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "golden")
MLP = os.path.join(GOLDEN, "mlp", "model.mindir")
MLP_SPLIT = os.path.join(GOLDEN, "mlp_split")
ENCRYPTED = os.path.join(GOLDEN, "encrypted", "model.mindir")
BUILD_FAILED = "build_from_file failed! Error is "


# -- helpers -------------------------------------------------------------------
def _load_runtime(path):
    LoadedModel(path)


def _load_lite(path):
    mslite.Model().build_from_file(path, mslite.ModelType.MINDIR)


def expect_error(loader: str, path, *patterns: str) -> str:
    """Load ``path`` with ``loader`` ("runtime" or "lite"); assert it fails
    with the loader's error type, naming ``path`` and matching every regex in
    ``patterns`` (case-insensitive). Returns the message."""
    path = str(path)
    if loader == "runtime":
        with pytest.raises(MindIRError) as info:
            _load_runtime(path)
        assert info.value.path == path
    else:
        with pytest.raises(RuntimeError) as info:
            _load_lite(path)
    message = str(info.value)
    if loader == "lite":
        assert message.startswith(BUILD_FAILED), message
    assert path in message, f"error does not name the file: {message}"
    for pattern in patterns:
        assert re.search(pattern, message, re.IGNORECASE), \
            f"{pattern!r} not in error: {message}"
    return message


LOADERS = pytest.mark.parametrize("loader", ["runtime", "lite"])


def read_proto(path) -> ModelProto:
    proto = ModelProto()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    return proto


def write(path, data) -> str:
    if not isinstance(data, bytes):
        data = data.SerializeToString()
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def mlp_bytes() -> bytes:
    with open(MLP, "rb") as f:
        return f.read()


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


# -- missing / not a MindIR file --------------------------------------------------
def test_missing_file_runtime(tmp_path):
    path = str(tmp_path / "absent.mindir")
    with pytest.raises(MindIRError) as info:
        LoadedModel(path)
    assert path in str(info.value)
    assert re.search(r"no such file|does not exist|not found",
                     str(info.value), re.IGNORECASE)


def test_missing_file_lite(tmp_path):
    with pytest.raises(RuntimeError) as info:
        _load_lite(str(tmp_path / "absent.mindir"))
    assert str(info.value) == "build_from_file failed, model_path does not exist!"


@LOADERS
def test_directory_instead_of_file(loader, tmp_path):
    expect_error(loader, tmp_path, "directory")


NOT_MINDIR = {
    "text": b"hello world\nthis is a text file, not a model\n",
    "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(64)),
    "random": random.Random(1234).randbytes(4096),
    "empty": b"",
    "one_byte": b"\x0a",
    "json": b'{"ir_version": "0.1.1", "graph": {}}',
}


@LOADERS
@pytest.mark.parametrize("kind", sorted(NOT_MINDIR))
def test_not_a_mindir_file(loader, kind, tmp_path):
    path = write(tmp_path / f"{kind}.mindir", NOT_MINDIR[kind])
    expect_error(loader, path, r"not a MindIR file|truncated|corrupt")


def test_protobuf_without_graph(tmp_path):
    proto = read_proto(MLP)
    proto.ClearField("graph")
    expect_error("runtime", write(tmp_path / "m.mindir", proto),
                 r"no .*graph|not a MindIR")


def test_protobuf_without_ir_version(tmp_path):
    proto = read_proto(MLP)
    proto.ClearField("ir_version")
    expect_error("runtime", write(tmp_path / "m.mindir", proto),
                 r"ir_version|not a MindIR")


# -- truncated files ---------------------------------------------------------------
@LOADERS
@pytest.mark.parametrize("cut", ["10%", "50%", "90%", "len-1"])
def test_truncated_file(loader, cut, tmp_path):
    blob = mlp_bytes()
    size = len(blob) - 1 if cut == "len-1" else len(blob) * int(cut[:-1]) // 100
    path = write(tmp_path / "cut.mindir", blob[:size])
    expect_error(loader, path, r"truncated|corrupt|not a MindIR")


def test_truncated_file_sweep(tmp_path):
    """Cut points all over the file: always a MindIRError naming the file,
    never another exception, never a model."""
    blob = mlp_bytes()
    cuts = sorted(set(range(0, len(blob), 61)) | {len(blob) - 1, len(blob) - 3})
    path = str(tmp_path / "cut.mindir")
    for size in cuts:
        write(path, blob[:size])
        with pytest.raises(MindIRError) as info:
            LoadedModel(path)
        assert path in str(info.value), (size, str(info.value))


def test_truncated_at_field_boundary_dropping_mind_ir_version(tmp_path):
    """The last field of a 2.x export is mind_ir_version (2 bytes, ``68 03``).
    Cutting exactly before it leaves a valid protobuf, but one whose
    PRIMITIVE_FUNCTION primitives need mind_ir_version >= 2: the file is
    truncated and must be refused by the reader, not run as a model (and
    not reported as merely having unsupported ops)."""
    blob = mlp_bytes()
    assert blob[-2:] == b"\x68\x03", "golden/mlp no longer ends in mind_ir_version"
    path = write(tmp_path / "cut.mindir", blob[:-2])
    with pytest.raises(MindIRError) as info:
        LoadedModel(path)
    assert not isinstance(info.value, UnsupportedOpsError), str(info.value)
    assert path in str(info.value)
    assert re.search(r"mind_ir_version|truncated", str(info.value), re.I)


# -- split weights: external data ----------------------------------------------------
def split_copy(tmp_path, mutate=None) -> str:
    """A copy of golden/mlp_split in tmp_path/model, with ``mutate(proto)``
    applied to its graph file; returns the graph file's path. A valid data
    file also sits *outside* the model folder (tmp_path/evil/data_0), so an
    escape is refused because it escapes, not because the file is missing."""
    model_dir = tmp_path / "model"
    shutil.copytree(MLP_SPLIT, model_dir)
    evil = tmp_path / "evil"
    evil.mkdir()
    shutil.copy(model_dir / "model_variables" / "data_0", evil / "data_0")
    graph = model_dir / "model_graph.mindir"
    if mutate is not None:
        proto = read_proto(graph)
        mutate(proto)
        write(graph, proto)
    return str(graph)


def data_file(graph_path) -> str:
    return os.path.join(os.path.dirname(graph_path), "model_variables", "data_0")


def set_external(index=0, **fields):
    def mutate(proto):
        ext = proto.graph.parameter[index].external_data
        for name, value in fields.items():
            setattr(ext, name, value)
    return mutate


def test_split_copy_is_readable(tmp_path):
    """Sanity for the tests below: the unmodified copy reads fine."""
    from refinfer.format.reader import read_mindir
    mindir = read_mindir(split_copy(tmp_path))
    weights = mindir.main.parameters
    assert len(weights) == 4
    assert sorted(w.shape for w in weights.values()) == [(3,), (3, 8), (8,), (8, 4)]


ESCAPES = {
    "dotdot": lambda tmp: "../evil/data_0",
    "dotdot_nested": lambda tmp: "model_variables/../../evil/data_0",
    "absolute": lambda tmp: str(tmp / "evil" / "data_0"),
    "absolute_etc": lambda tmp: "/etc/passwd",
}


@LOADERS
@pytest.mark.parametrize("kind", sorted(ESCAPES))
def test_external_location_escaping_model_folder(loader, kind, tmp_path):
    location = ESCAPES[kind](tmp_path)
    graph = split_copy(tmp_path, set_external(location=location))
    message = expect_error(loader, graph, r"leaves|outside|escape",
                           re.escape(location))
    assert "fc1.weight" in message


@LOADERS
def test_external_location_symlinked_file_pointing_outside(loader, tmp_path):
    graph = split_copy(tmp_path, set_external(location="model_variables/link"))
    os.symlink(tmp_path / "evil" / "data_0",
               os.path.join(os.path.dirname(graph), "model_variables", "link"))
    expect_error(loader, graph, r"leaves|outside|escape", "model_variables/link")


@LOADERS
def test_external_location_symlinked_folder_pointing_outside(loader, tmp_path):
    graph = split_copy(tmp_path, set_external(location="evildir/data_0"))
    os.symlink(tmp_path / "evil", os.path.join(os.path.dirname(graph), "evildir"))
    expect_error(loader, graph, r"leaves|outside|escape", "evildir/data_0")


def test_external_location_symlink_inside_folder_is_fine(tmp_path):
    """A symlink that stays inside the model folder is not an escape."""
    from refinfer.format.reader import read_mindir
    graph = split_copy(tmp_path, set_external(location="model_variables/alias"))
    os.symlink("data_0", os.path.join(os.path.dirname(graph), "model_variables",
                                      "alias"))
    assert len(read_mindir(graph).main.parameters) == 4


BAD_RANGES = {
    "offset_past_end": dict(offset=10_000),
    "range_past_end": dict(offset=400),        # 400 + 128 > 448 bytes
    "offset_in_header": dict(offset=0),
    "negative_offset": dict(offset=-8),
    "negative_length": dict(length=-1),
}


@LOADERS
@pytest.mark.parametrize("kind", sorted(BAD_RANGES))
def test_external_bytes_outside_data_file(loader, kind, tmp_path):
    graph = split_copy(tmp_path, set_external(**BAD_RANGES[kind]))
    expect_error(loader, graph, "fc1.weight", r"outside|past|beyond|range",
                 "data_0")


@LOADERS
@pytest.mark.parametrize("length", [64, 192, 0])
def test_external_length_mismatch(loader, length, tmp_path):
    """fc1.weight is float32[8, 4] = 128 bytes."""
    graph = split_copy(tmp_path, set_external(length=length))
    expect_error(loader, graph, "fc1.weight", "128", str(length))


@LOADERS
@pytest.mark.parametrize("size", [0, 32, 63])
def test_data_file_shorter_than_header(loader, size, tmp_path):
    graph = split_copy(tmp_path)
    with open(data_file(graph), "r+b") as f:
        f.truncate(size)
    expect_error(loader, graph, "data_0", r"64-byte header|header")


@LOADERS
def test_data_file_header_only(loader, tmp_path):
    graph = split_copy(tmp_path)
    with open(data_file(graph), "r+b") as f:
        f.truncate(64)
    expect_error(loader, graph, "data_0", r"outside|past|beyond|range")


@LOADERS
def test_missing_data_file(loader, tmp_path):
    graph = split_copy(tmp_path)
    os.remove(data_file(graph))
    expect_error(loader, graph, "data_0", r"does not exist|missing|no such")


@LOADERS
def test_missing_variables_folder(loader, tmp_path):
    graph = split_copy(tmp_path)
    shutil.rmtree(os.path.dirname(data_file(graph)))
    expect_error(loader, graph, "data_0", r"does not exist|missing|no such")


@LOADERS
def test_data_file_wrong_endianness(loader, tmp_path):
    graph = split_copy(tmp_path)
    with open(data_file(graph), "r+b") as f:
        f.write(b"\x00")                 # byte 0: 1 = little endian
    expect_error(loader, graph, "data_0", r"byte order|endian")


@LOADERS
def test_model_wrong_endianness_flag(loader, tmp_path):
    proto = read_proto(MLP)
    proto.little_endian = False
    expect_error(loader, write(tmp_path / "m.mindir", proto),
                 r"byte order|endian")


# -- encryption, version, ops ------------------------------------------------------
@LOADERS
def test_encrypted_without_key(loader):
    message = expect_error(loader, ENCRYPTED, "encrypted", "AES-GCM")
    assert "dec_key" in message


def test_encrypted_error_type():
    with pytest.raises(EncryptedModelError):
        LoadedModel(ENCRYPTED)


@pytest.mark.parametrize("magic,mode", [(b"\xd8\x5e\x3a\x7f", "AES-GCM"),
                                        (b"\xd9\x5e\x3a\x7f", "AES-CBC"),
                                        (b"\xda\x5e\x3a\x7f", "SM4-CBC")])
def test_encryption_magic_names_the_mode(magic, mode, tmp_path):
    path = write(tmp_path / "enc.mindir", magic + bytes(60))
    expect_error("runtime", path, "encrypted", mode)


@pytest.mark.parametrize("version", [4, 99])
@LOADERS
def test_mind_ir_version_too_new(loader, version, tmp_path):
    proto = read_proto(MLP)
    proto.mind_ir_version = version
    expect_error(loader, write(tmp_path / "new.mindir", proto),
                 "mind_ir_version", str(version), r"newer|not supported|unsupported")


def unknown_ops_copy(tmp_path) -> str:
    proto = read_proto(MLP)
    renamed = {"MatMul": "FancyOp1", "BiasAdd": "FancyOp2"}
    for prim in proto.primitives:
        prim.op_type = renamed.get(prim.op_type, prim.op_type)
    assert sorted(p.op_type for p in proto.primitives
                  if p.op_type.startswith("Fancy")) == ["FancyOp1", "FancyOp2"]
    return write(tmp_path / "fancy.mindir", proto)


@LOADERS
def test_unknown_ops_are_all_listed_in_one_error(loader, tmp_path):
    path = unknown_ops_copy(tmp_path)
    message = expect_error(loader, path, "FancyOp1", "FancyOp2",
                           r"unsupported|unknown")
    # where they are used, so the user can find them
    assert "Default/fc1-Dense" in message


def test_unknown_ops_error_type(tmp_path):
    with pytest.raises(UnsupportedOpsError) as info:
        LoadedModel(unknown_ops_copy(tmp_path))
    assert {"FancyOp1", "FancyOp2"} <= set(info.value.missing)
    assert len(info.value.missing["FancyOp1"]) == 2   # both Dense layers


# -- hostile files -----------------------------------------------------------------
def _deep_attribute(depth: int) -> bytes:
    """AttributeProto bytes nested ``depth`` levels through ``values`` (17),
    built in O(depth)."""
    headers, length = [], 0
    for _ in range(depth):
        header = _varint(17 << 3 | 2) + _varint(length)
        headers.append(header)
        length += len(header)
    return b"".join(reversed(headers))


@LOADERS
@pytest.mark.parametrize("depth", [150, 20_000])
def test_deeply_nested_attribute(loader, depth, tmp_path):
    """A Constant whose value attribute nests thousands of levels deep,
    appended to a valid model (a second ``graph`` field merges into the
    first): a clear error, no RecursionError, no crash."""
    node = (_field(3, b"Deep") + _field(4, b"Constant")
            + _field(5, _field(1, b"value") + _deep_attribute(depth)))
    blob = mlp_bytes() + _field(7, _field(1, node))
    path = write(tmp_path / "deep.mindir", blob)
    expect_error(loader, path, r"corrupt|depth|nest|recursion|too deep")


def _with_constant(dims, raw: bytes, name="HugeConst") -> ModelProto:
    proto = read_proto(MLP)
    node = proto.graph.node.add(name=name, op_type="Constant")
    node.output.append(name)
    attr = node.attribute.add(name="value", type=17)      # TENSOR
    attr.t.dims.extend(dims)
    attr.t.data_type = 1                                  # float32
    attr.t.raw_data = raw
    return proto


HUGE_DIMS = {
    "2^31x2^31": ([2**31, 2**31], b"\0" * 4),
    "10^12": ([10**12], b"\0" * 4),
    "2^62": ([2**62], b""),
    "wraps_to_0": ([2**32, 2**32], b""),            # int64 product wraps to 0
    "wraps_to_16B": ([2**62 + 1, 4], b"\0" * 16),   # wraps to 4 elements
    "negative": ([-1, 4], b"\0" * 16),
}


@LOADERS
@pytest.mark.parametrize("kind", sorted(HUGE_DIMS))
def test_huge_declared_dims_in_constant(loader, kind, tmp_path):
    dims, raw = HUGE_DIMS[kind]
    path = write(tmp_path / "huge.mindir", _with_constant(dims, raw))
    expect_error(loader, path, "HugeConst")


@pytest.mark.parametrize("kind", sorted(HUGE_DIMS))
def test_huge_declared_dims_in_parameter(kind, tmp_path):
    dims, raw = HUGE_DIMS[kind]
    proto = read_proto(MLP)
    weight = proto.graph.parameter[0]
    del weight.dims[:]
    weight.dims.extend(dims)
    weight.raw_data = raw
    expect_error("runtime", write(tmp_path / "huge.mindir", proto), "fc1.weight")


def test_huge_dims_byte_count_is_not_wrapped(tmp_path):
    """float32[2^32, 2^32] needs 2^66 bytes. The reported requirement must
    not be an int64-wrapped product ("needs 0 bytes")."""
    path = write(tmp_path / "huge.mindir",
                 _with_constant([2**32, 2**32], b"\0" * 4))
    with pytest.raises(MindIRError) as info:
        LoadedModel(path)
    message = str(info.value)
    assert "HugeConst" in message
    assert not re.search(r"needs 0 bytes", message), message


def test_unknown_tensor_data_type_in_parameter(tmp_path):
    proto = read_proto(MLP)
    proto.graph.parameter[0].data_type = 99
    expect_error("runtime", write(tmp_path / "dt.mindir", proto), r"data type", "99")


@pytest.mark.parametrize("data_type,raw", [(1, b"\0" * 5), (99, b"")],
                         ids=["bad_raw_size", "unknown_dtype"])
@LOADERS
def test_malformed_tensor_in_primitive_attribute(loader, data_type, raw, tmp_path):
    """A primitive attribute holding a malformed tensor: the load either
    succeeds (the attribute is not needed) or fails with the loader's error
    type naming the file -- never a bare ValueError."""
    proto = read_proto(MLP)
    attr = proto.primitives[0].attribute.add(name="bad", type=17)
    attr.t.dims.append(3)
    attr.t.data_type = data_type
    if raw:
        attr.t.raw_data = raw
    path = write(tmp_path / "attr.mindir", proto)
    error_type = MindIRError if loader == "runtime" else RuntimeError
    try:
        (_load_runtime if loader == "runtime" else _load_lite)(path)
    except error_type as exc:
        assert path in str(exc), str(exc)
        if loader == "lite":
            assert str(exc).startswith(BUILD_FAILED)


@LOADERS
def test_graph_with_two_outputs(loader, tmp_path):
    proto = read_proto(MLP)
    proto.graph.output.add(name="extra")
    expect_error(loader, write(tmp_path / "two.mindir", proto), r"outputs")


# -- invalid UTF-8 in string fields (issue 17, root cause 1) -------------------
MARK = "@@NOT-UTF8@@"


def _invalid_utf8(proto) -> bytes:
    """``proto`` serialised, with every ``MARK`` it holds replaced by as
    many bytes that are not UTF-8 (protobuf refuses to set them)."""
    blob = proto.SerializeToString()
    assert MARK.encode() in blob
    return blob.replace(MARK.encode(), b"\xff\xfe" + MARK.encode()[2:])


def _set_mark(message, field: str):
    if isinstance(getattr(message, field), str):
        setattr(message, field, MARK)
    else:
        getattr(message, field)[0] = MARK


def _dict_attribute(proto):
    attr = proto.primitives[0].attribute.add(name="table", type=22)    # DICT
    item = attr.values.add(name=MARK)
    item.values.add(type=7, i=1)                                       # INT64


# field -> (mutation marking it, what the error must name)
UTF8_FIELDS = {
    "node_op_type": (lambda p: _set_mark(p.graph.node[4], "op_type"),
                     r"node 4 op_type"),
    "node_name": (lambda p: _set_mark(p.graph.node[4], "name"), r"node 4 name"),
    "node_input": (lambda p: _set_mark(p.graph.node[4], "input"),
                   r"node 4 input 0"),
    "node_scope": (lambda p: _set_mark(p.graph.node[4], "domain"),
                   r"node 4 domain"),
    "constant_name": (lambda p: _set_mark(p.graph.node[0], "name"),
                      r"node 0 name"),
    "graph_name": (lambda p: _set_mark(p.graph, "name"), r"graph 0 name"),
    "graph_input": (lambda p: _set_mark(p.graph.input[0], "name"),
                    r"input 0 name"),
    "graph_output": (lambda p: _set_mark(p.graph.output[0], "name"),
                     r"output 0 name"),
    "parameter_name": (lambda p: _set_mark(p.graph.parameter[1], "name"),
                       r"parameter 1 name"),
    "primitive_name": (lambda p: _set_mark(p.primitives[6], "name"),
                       r"primitive 6 name"),
    "primitive_op_type": (lambda p: _set_mark(p.primitives[6], "op_type"),
                          r"primitive 'MatMul:4' op_type"),
    "primitive_instance_name": (
        lambda p: _set_mark(p.primitives[6], "instance_name"),
        r"primitive 'MatMul:4' instance_name"),
    "attribute_name": (lambda p: _set_mark(p.primitives[0].attribute[0], "name"),
                       r"primitive 'Depend:19' attribute 0 name"),
    "dict_key": (_dict_attribute, r"DICT element 0 key"),
    "user_info": (lambda p: p.user_info.add(key="k", value=MARK),
                  r"user_info 0 value"),
    "model_version": (lambda p: setattr(p, "model_version", MARK),
                      r"model_version"),
}


@pytest.mark.parametrize("field", sorted(UTF8_FIELDS))
def test_invalid_utf8_in_string_field(field, tmp_path):
    """protobuf hands back ``bytes`` for such a field; the reader refuses
    it naming the file and the field, never a raw TypeError later."""
    mutate, where = UTF8_FIELDS[field]
    proto = read_proto(MLP)
    mutate(proto)
    path = write(tmp_path / "utf8.mindir", _invalid_utf8(proto))
    if field == "dict_key":         # an attribute no op reads: loads
        from refinfer.format.reader import read_mindir
        table = read_mindir(path).primitives["Depend:19"].attrs["table"]
        assert re.search(where + r": not valid UTF-8", table.reason)
        return
    for loader in ("runtime", "lite"):
        expect_error(loader, path, where + r": not valid UTF-8")


def test_invalid_utf8_in_external_data_location(tmp_path):
    graph = split_copy(tmp_path, set_external(location=MARK))
    proto = read_proto(graph)
    write(graph, _invalid_utf8(proto))
    for loader in ("runtime", "lite"):
        expect_error(loader, graph, r"parameter '[^']*fc1.weight' "
                     r"external_data location: not valid UTF-8")


def test_invalid_utf8_in_string_constant(tmp_path):
    proto = read_proto(MLP)
    node = proto.graph.node.add(name="Text", op_type="Constant")
    node.attribute.add(name="value", type=8, s=b"ok\xff")        # STRING
    expect_error("runtime", write(tmp_path / "s.mindir", proto),
                 r"Constant 'Text': string value is not valid UTF-8")


# -- DICT values (issue 17, root cause 5) ---------------------------------------
def test_dict_element_without_value(tmp_path):
    """A DICT constant whose element has no value: the decoder names the
    constant and the element instead of an IndexError."""
    proto = read_proto(MLP)
    node = proto.graph.node.add(name="Table", op_type="Constant")
    attr = node.attribute.add(name="value", type=22)             # DICT
    attr.values.add(name="a").values.add(type=7, i=1)
    attr.values.add(name="b")
    expect_error("runtime", write(tmp_path / "dict.mindir", proto),
                 r"Constant 'Table': DICT element 1 \('b'\) has no value")


def test_dict_constant_decodes():
    from refinfer.format.schema import ModelProto as Proto
    from refinfer.format.values import decode_value
    attr = Proto().graph.node.add().attribute.add(type=22)
    attr.values.add(name="a").values.add(type=7, i=1)
    attr.values.add(name="b").values.add(type=8, s=b"x")
    assert decode_value(attr) == {"a": 1, "b": "x"}


# -- outputs that are no tensor (issue 17, root cause 4) -------------------------
def _none_constant(graph, name: str) -> str:
    node = graph.node.add(name=name, op_type="Constant")
    node.attribute.add(name="value", type=25)                      # NONE
    return name


@LOADERS
def test_output_that_is_none(loader, tmp_path):
    proto = read_proto(MLP)
    proto.graph.output[0].name = _none_constant(proto.graph, "NoneConst")
    expect_error(loader, write(tmp_path / "none.mindir", proto),
                 r"output 'NoneConst' is None, not a tensor")


@LOADERS
def test_output_that_is_a_graph(loader, tmp_path):
    proto = read_proto(os.path.join(GOLDEN, "ctrl_if", "model.mindir"))
    branch = proto.functions[0].name
    proto.graph.output[0].name = branch
    expect_error(loader, write(tmp_path / "closure.mindir", proto),
                 re.escape(f"is the graph {branch!r} (a function), not a tensor"))


def test_output_that_is_none_at_run_time(tmp_path):
    """The loop's exit branch returns None: only a run can tell. predict
    fails naming the file and the output, not with a TypeError from the
    output conversion."""
    import numpy as np
    proto = read_proto(os.path.join(GOLDEN, "ctrl_while", "model.mindir"))
    exit_branch = proto.functions[0]
    exit_branch.output[0].name = _none_constant(exit_branch, "NoneConst")
    path = write(tmp_path / "late.mindir", proto)
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR)
    with pytest.raises(RuntimeError) as info:
        model.predict([np.ones((2, 4), np.float32), np.array(3, np.int32)])
    message = str(info.value)
    assert message.startswith("predict failed! Error is "), message
    assert path in message
    assert re.search(r"output 0 \('[^']+'\) is None, not a tensor", message)


# -- messages that show values (issue 17, root cause 6) --------------------------
def test_bad_attribute_shows_no_whole_array(tmp_path):
    """MaxPool's strides as an int64[1000] tensor: the error names the
    file and the node and shows the tensor's dtype, shape and first
    values, not its thousand values."""
    import numpy as np
    proto = read_proto(os.path.join(GOLDEN, "lenet5", "model.mindir"))
    pool = next(p for p in proto.primitives if p.op_type == "MaxPool")
    strides = next(a for a in pool.attribute if a.name == "strides")
    strides.Clear()
    strides.name, strides.type = "strides", 17                   # TENSOR
    strides.t.dims.append(1000)
    strides.t.data_type = 7                                      # int64
    strides.t.raw_data = np.arange(1000, dtype=np.int64).tobytes()
    message = expect_error("runtime", write(tmp_path / "pool.mindir", proto),
                           r"node '[^']+' \(op MaxPool",
                           re.escape("int64[1000] [0, 1, 2, 3, ...]"))
    assert "999" not in message and len(message) < 1000, message


@pytest.mark.parametrize("convert,size,expected", [
    ("pair", 1000, r"^expected 1, 2 or 4 values, got int64\[1000\] "
                            r"\[0, 1, 2, 3, \.\.\.\]$"),
    ("pads4", 12, r"^expected 1, 2 or 4 padding values, got "
                           r"int64\[12\] \[0, 1, 2, 3, \.\.\.\]$"),
    ("pad_mode", 100, r"^unknown pad_mode int64\[100\] \[0, 1, 2, 3"),
    ("scalar", 0, r"^expected a value, got an empty tensor int64\[0\]$"),
    ("dtype", 5000, r"^not a dtype: int64\[5000\] \[0, 1, 2, 3, \.\.\.\]$"),
])
def test_argument_conversion_errors_show_no_whole_array(convert, size, expected):
    """An op argument's converter given an int64[size] tensor."""
    import numpy as np
    from refinfer import args
    with pytest.raises((ValueError, TypeError), match=expected):
        getattr(args, convert)(np.arange(size))


@pytest.mark.parametrize("value", [
    "float32[2, 3]", "object", "'zz'", "(1, 'a')", "str[1]"])
def test_every_converter_refuses_what_it_cannot_take_saying_what_it_expected(
        value):
    """Every registered op's argument converters (a mutated model may give
    a constant of any kind): a value they cannot take is refused with a
    TypeError or ValueError that says what was expected or what came, not
    a raw Python or NumPy message (fuzz seed 61: Conv3DTranspose's
    in_channel through int(), 'only 0-dimensional arrays can be converted
    to Python scalars'; a string among BoundingBoxEncode's means)."""
    import numpy as np
    from refinfer import registry
    given = {"float32[2, 3]": np.ones((2, 3), np.float32), "object": object(),
             "'zz'": "zz", "(1, 'a')": (1, "a"), "str[1]": np.array(["a"])}[value]
    for op in registry.list_ops():
        for name, convert in op.convert.items():
            try:
                convert(given)
            except (TypeError, ValueError) as exc:
                assert re.search(r"expected|got|unknown|not a|must", str(exc)), \
                    (op.name, name, str(exc))


def test_describe_value_is_short():
    import numpy as np
    from refinfer.errors import describe_value
    assert describe_value(np.zeros((2, 4), np.float32)) == "float32[2, 4]"
    assert describe_value((np.arange(3), 5), 2) == "(int64[3] [0, 1, ...], 5)"
    assert describe_value(list(range(20))) == "[0, 1, 2, 3, 4, 5, 6, 7, ...]"
    assert describe_value("x" * 1000) == "'" + "x" * 76 + "..."
    assert describe_value(len) == "builtin_function_or_method"
