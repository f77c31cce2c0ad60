"""Our own MindIR protobuf schema, built at import time.

The field tables follow MindSpore 2.7.1's ``mind_ir.proto``
(docs/mindir-format.md §2). Building the descriptor at run time keeps us free
of generated code and of protoc/protobuf version pairing. Enum-typed fields
are declared ``int32``: the wire encoding is the same, and values we do not
know stay visible instead of vanishing into unknown fields. Fields an
interpreter never reads (preprocessor, parallel layouts, map parameters,
quantisation parameters, scalar graph holders) are left out; the parser
skips them.
"""
from google.protobuf import descriptor_pb2, descriptor_pool

try:
    from google.protobuf.message_factory import GetMessageClass
except ImportError:  # protobuf < 4.22
    from google.protobuf import message_factory as _mf

    def GetMessageClass(descriptor):
        return _mf.MessageFactory().GetPrototype(descriptor)

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "bool": _F.TYPE_BOOL,
    "int32": _F.TYPE_INT32, "int64": _F.TYPE_INT64, "uint64": _F.TYPE_UINT64,
    "float": _F.TYPE_FLOAT, "double": _F.TYPE_DOUBLE,
}

# message -> [(number, name, type, repeated)]
_MESSAGES = {
    "ModelProto": [
        (1, "ir_version", "string", False),
        (2, "producer_name", "string", False),
        (3, "producer_version", "string", False),
        (4, "domain", "string", False),
        (5, "model_version", "string", False),
        (6, "doc_string", "string", False),
        (7, "graph", "GraphProto", False),
        (8, "functions", "GraphProto", True),
        (10, "little_endian", "bool", False),
        (12, "primitives", "PrimitiveProto", True),
        (13, "mind_ir_version", "int64", False),
        (14, "user_info", "UserInfoEntry", True),
    ],
    "UserInfoEntry": [
        (1, "key", "string", False),
        (2, "value", "string", False),
    ],
    "GraphProto": [
        (1, "node", "NodeProto", True),
        (2, "name", "string", False),
        (3, "parameter", "TensorProto", True),
        (4, "doc_string", "string", False),
        (5, "input", "ValueInfoProto", True),
        (6, "output", "ValueInfoProto", True),
        (7, "bprop_hash", "string", False),
        (8, "attribute", "AttributeProto", True),
    ],
    "NodeProto": [
        (1, "input", "string", True),
        (2, "output", "string", True),
        (3, "name", "string", False),
        (4, "op_type", "string", False),
        (5, "attribute", "AttributeProto", True),
        (6, "doc_string", "string", False),
        (7, "domain", "string", False),
        (8, "node_attr", "AttributeProto", True),
        (9, "primal_attr", "AttributeProto", True),
    ],
    # A NodeProto as the reader reads it: the fields it uses, attributes
    # left as their bytes (parsed only where needed, found again by their
    # bytes: nodes repeat a few shapes), about half the time per node.
    "NodeHeader": [
        (1, "input", "string", True),
        (3, "name", "string", False),
        (4, "op_type", "string", False),
        (5, "attribute", "bytes", True),
        (7, "domain", "string", False),
    ],
    # Consecutive GraphProto.node fields, as they lie in the file: many
    # nodes parsed in one call
    "NodeRun": [
        (1, "node", "NodeHeader", True),
    ],
    "AttributeProto": [
        (1, "name", "string", False),
        (2, "f", "float", False),
        (3, "i", "int64", False),
        (4, "d", "double", False),
        (5, "s", "bytes", False),
        (6, "t", "TensorProto", False),
        (7, "g", "GraphProto", False),
        (8, "floats", "float", True),
        (9, "doubles", "double", True),
        (10, "ints", "int64", True),
        (11, "strings", "bytes", True),
        (12, "tensors", "TensorProto", True),
        (13, "graphs", "GraphProto", True),
        (14, "doc_string", "string", False),
        (15, "ref_attr_name", "string", False),
        (16, "type", "int32", False),
        (17, "values", "AttributeProto", True),
        (18, "seq_info", "SeqInfoProto", False),
        (19, "functor", "FunctorProto", False),
    ],
    "SeqInfoProto": [
        (1, "is_dyn_len", "bool", False),
        (2, "tuple_elem_item", "AttributeProto", False),
    ],
    "FunctorProto": [
        (1, "type", "int32", False),
        (2, "name", "string", False),
        (3, "values", "AttributeProto", True),
    ],
    "ValueInfoProto": [
        (1, "name", "string", False),
        (2, "tensor", "TensorProto", True),
        (3, "doc_string", "string", False),
        (4, "denotation", "string", False),
        (5, "attr_info", "AttributeProto", False),
    ],
    "TensorProto": [
        (1, "dims", "int64", True),
        (2, "data_type", "int32", False),
        (3, "float_data", "float", True),
        (4, "int32_data", "int32", True),
        (5, "string_data", "bytes", True),
        (6, "int64_data", "int64", True),
        (7, "name", "string", False),
        (8, "doc_string", "string", False),
        (9, "raw_data", "bytes", False),
        (10, "double_data", "double", True),
        (11, "uint64_data", "uint64", True),
        (12, "external_data", "ExternalDataProto", False),
        (13, "ref_key", "string", False),
        (14, "min_dims", "int64", True),
        (15, "max_dims", "int64", True),
        (16, "compression_type", "int32", False),
    ],
    "ExternalDataProto": [
        (1, "location", "string", False),
        (2, "offset", "int64", False),
        (3, "length", "int64", False),
        (4, "checksum", "string", False),
    ],
    "PrimitiveProto": [
        (1, "name", "string", False),
        (2, "op_type", "string", False),
        (3, "attribute", "AttributeProto", True),
        (4, "instance_name", "string", False),
        (5, "prim_type", "int32", False),
    ],
}

# AttributeProto.AttributeType codes we act on.
FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64 = 1, 2, 3, 4, 5, 6, 7
STRING, BOOL, FLOAT16, DOUBLE, UINT32, UINT64 = 8, 9, 10, 11, 12, 13
BFLOAT16, TENSOR, GRAPH, TENSORS, TUPLE, LIST, DICT = 16, 17, 18, 19, 20, 21, 22
UMONAD, IOMONAD, NONE = 23, 24, 25
FUNCGRAPHCLOSURE, PRIMITIVECLOSURE, PARTIALCLOSURE, UNIONFUNCCLOSURE = 27, 26, 28, 29
TYPE_NULL, SCALAR = 36, 39
INT_TYPES = {UINT8, INT8, UINT16, INT16, INT32, INT64, UINT32, UINT64}
FLOAT_TYPES = {FLOAT, FLOAT16, BFLOAT16}

ATTRIBUTE_TYPE_NAMES = {
    0: "UNDEFINED", 1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16",
    5: "INT16", 6: "INT32", 7: "INT64", 8: "STRING", 9: "BOOL",
    10: "FLOAT16", 11: "DOUBLE", 12: "UINT32", 13: "UINT64",
    14: "COMPLEX64", 15: "COMPLEX128", 16: "BFLOAT16", 17: "TENSOR",
    18: "GRAPH", 19: "TENSORS", 20: "TUPLE", 21: "LIST", 22: "DICT",
    23: "UMONAD", 24: "IOMONAD", 25: "NONE", 26: "PRIMITIVECLOSURE",
    27: "FUNCGRAPHCLOSURE", 28: "PARTIALCLOSURE", 29: "UNIONFUNCCLOSURE",
    30: "CSR_TENSOR", 31: "COO_TENSOR", 32: "ROW_TENSOR", 33: "CLASS_TYPE",
    34: "NAME_SPACE", 35: "SYMBOL", 36: "TYPE_NULL", 37: "MAP_TENSOR",
    38: "FUNCTOR", 39: "SCALAR", 40: "SCALAR_GRAPH_HOLDER",
}

PRIMITIVE, PRIMITIVE_FUNCTION = 1, 2
# Highest Version enum value we understand (IR_VERSION_WITH_SCALAR_GRAPH_HOLDER).
MAX_MIND_IR_VERSION = 3


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    fdp = descriptor_pb2.FileDescriptorProto(
        name="refinfer/mind_ir.proto", package="mind_ir", syntax="proto2")
    for message, fields in _MESSAGES.items():
        msg = fdp.message_type.add(name=message)
        for number, name, type_, repeated in fields:
            field = msg.field.add(name=name, number=number)
            field.label = _F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL
            if type_ in _SCALARS:
                field.type = _SCALARS[type_]
            else:
                field.type = _F.TYPE_MESSAGE
                field.type_name = f".mind_ir.{type_}"
    return fdp


_pool = descriptor_pool.DescriptorPool()
_pool.Add(_file_descriptor())

ModelProto = GetMessageClass(_pool.FindMessageTypeByName("mind_ir.ModelProto"))
GraphProto = GetMessageClass(_pool.FindMessageTypeByName("mind_ir.GraphProto"))
NodeProto = GetMessageClass(_pool.FindMessageTypeByName("mind_ir.NodeProto"))
NodeHeader = GetMessageClass(_pool.FindMessageTypeByName("mind_ir.NodeHeader"))
NodeRun = GetMessageClass(_pool.FindMessageTypeByName("mind_ir.NodeRun"))
AttributeProto = GetMessageClass(
    _pool.FindMessageTypeByName("mind_ir.AttributeProto"))
