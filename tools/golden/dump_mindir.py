"""Readable listing of .mindir files, plus a summary of the primitives they use (dev tool).

    /work/msenv/bin/python tools/golden/dump_mindir.py MODEL.mindir [--dec-key HEX --dec-mode M]
    /work/msenv/bin/python tools/golden/dump_mindir.py golden/*/ --dump-dir /work/scratch/dumps

A path may be a model file or a golden case directory (its meta.json names the model file
and, for encrypted cases, the key). With ``--dump-dir`` each case is written to
``<dir>/<case>.txt`` and a cross-case ``SUMMARY.txt`` is added; otherwise the listings go
to stdout.

Listing conventions: ``%`` abbreviates "<current graph name>:"; constants used as node
inputs are shown inline as ``name=KIND:value``; ``-> ...`` is the node's exported abstract.
"""
import argparse
import collections
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mindir_proto import cipher_mode, mind_ir_pb2, read_model

AttrType = mind_ir_pb2.AttributeProto.AttributeType
DataType = mind_ir_pb2.TensorProto.DataType
PrimType = mind_ir_pb2.PrimitiveProto.PrimType

NUMPY_DTYPES = {
    DataType.FLOAT: np.float32, DataType.UINT8: np.uint8, DataType.INT8: np.int8,
    DataType.UINT16: np.uint16, DataType.INT16: np.int16, DataType.INT32: np.int32,
    DataType.INT64: np.int64, DataType.BOOL: np.bool_, DataType.FLOAT16: np.float16,
    DataType.DOUBLE: np.float64, DataType.FLOAT64: np.float64, DataType.UINT32: np.uint32,
    DataType.UINT64: np.uint64, DataType.COMPLEX64: np.complex64,
    DataType.COMPLEX128: np.complex128,
}
INT_TYPES = {AttrType.Value(n) for n in ("UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64",
                                         "UINT32", "UINT64")}
FLOAT_TYPES = {AttrType.FLOAT, AttrType.FLOAT16, AttrType.BFLOAT16}
MAX_INLINE_ELEMENTS = 16
MAX_DISTINCT_VALUES = 12


# --------------------------------------------------------------------------
# Value formatting
# --------------------------------------------------------------------------
def dtype_name(data_type):
    return DataType.Name(data_type) if data_type in DataType.values() else f"DataType({data_type})"


def fmt_dims(dims):
    return "[" + ",".join(str(d) for d in dims) + "]"


def fmt_array(array):
    if array.size <= MAX_INLINE_ELEMENTS:
        return np.array2string(array.reshape(-1) if array.ndim > 1 else array, separator=",",
                               threshold=MAX_INLINE_ELEMENTS, max_line_width=10_000)
    return "{min=%.4g max=%.4g mean=%.4g}" % (array.min(), array.max(), array.mean())


def fmt_tensor(tensor, with_values=True):
    """A TensorProto: tensor (raw_data present), external tensor, or dtype-only 'type' value."""
    head = f"{dtype_name(tensor.data_type)}{fmt_dims(tensor.dims)}"
    if tensor.HasField("raw_data"):
        dtype = NUMPY_DTYPES.get(tensor.data_type)
        if not with_values or dtype is None:
            return f"Tensor<{head}, {len(tensor.raw_data)} bytes>"
        array = np.frombuffer(tensor.raw_data, dtype=dtype).reshape(tuple(tensor.dims))
        return f"Tensor<{head}>={fmt_array(array)}"
    if tensor.HasField("external_data"):
        ext = tensor.external_data
        return f"Tensor<{head}, external {ext.location}@{ext.offset}+{ext.length}>"
    dims = fmt_dims(tensor.dims) if tensor.dims else ""
    return f"dtype<{dtype_name(tensor.data_type)}{dims}>"


def scalar_payload(attr):
    """The scalar carried by an AttributeProto (sequence elements use the repeated fields)."""
    if attr.type in INT_TYPES:
        return attr.ints[0] if attr.ints else attr.i
    if attr.type == AttrType.BOOL:
        return bool(attr.ints[0] if attr.ints else attr.i)
    if attr.type in FLOAT_TYPES:
        return float(attr.floats[0] if attr.floats else attr.f)
    if attr.type == AttrType.DOUBLE:
        return attr.doubles[0] if attr.doubles else attr.d
    if attr.type == AttrType.STRING:
        return (attr.strings[0] if attr.strings else attr.s).decode("utf-8", "replace")
    raise ValueError(attr.type)


def fmt_value(attr, with_values=True):
    """An AttributeProto value as ``KIND:value`` (nested for tuples/lists/dicts)."""
    kind = AttrType.Name(attr.type) if attr.HasField("type") else "LEGACY"
    if attr.type in FLOAT_TYPES:  # shortest text that round-trips the float32 value
        return f"{kind}:{str(np.float32(scalar_payload(attr)))}"
    if attr.type in INT_TYPES or attr.type in (AttrType.BOOL, AttrType.DOUBLE, AttrType.STRING):
        return f"{kind}:{scalar_payload(attr)!r}"
    if attr.type == AttrType.TENSORS:
        return ",".join(fmt_tensor(t, with_values) for t in attr.tensors) or "TENSORS:<empty>"
    if attr.type in (AttrType.TUPLE, AttrType.LIST):
        inner = ", ".join(fmt_value(v, with_values) for v in attr.values)
        dyn = " dyn_len" if attr.HasField("seq_info") and attr.seq_info.is_dyn_len else ""
        return f"{kind}({inner}){dyn}"
    if attr.type == AttrType.DICT:
        inner = ", ".join(f"{v.name}: {fmt_value(v.values[0], with_values)}" for v in attr.values)
        return f"DICT{{{inner}}}"
    if attr.type == AttrType.SCALAR:
        return "SCALAR<" + ",".join(dtype_name(t.data_type) for t in attr.tensors) + ">"
    if attr.type == AttrType.UNIONFUNCCLOSURE:
        return f"{kind}(" + ", ".join(fmt_value(v, with_values) for v in attr.values) + ")"
    if attr.s:
        return f"{kind}:{attr.s.decode('utf-8', 'replace')}"
    if attr.HasField("ref_attr_name"):
        return f"LEGACY[{attr.ref_attr_name}]"
    return kind


def fmt_abstract(attr):
    """An inferred abstract (node 'shape' attribute, graph in/out attr_info): types only."""
    if attr.type == AttrType.TENSORS:
        return ",".join(f"{dtype_name(t.data_type)}{fmt_dims(t.dims)}" for t in attr.tensors)
    if attr.type in (AttrType.TUPLE, AttrType.LIST):
        inner = ", ".join(fmt_abstract(v) for v in attr.values)
        dyn = " dyn_len" if attr.HasField("seq_info") and attr.seq_info.is_dyn_len else ""
        return f"{AttrType.Name(attr.type)}({inner}){dyn}"
    return fmt_value(attr, with_values=False)


def fmt_abstract_kind(attr):
    """Like fmt_abstract but with ranks instead of dims, to group nodes of one op."""
    if attr.type == AttrType.TENSORS:
        return ",".join(f"{dtype_name(t.data_type)}(rank {len(t.dims)})" for t in attr.tensors)
    if attr.type in (AttrType.TUPLE, AttrType.LIST):
        runs = []  # run-length encode: TUPLE(FLOAT(rank 4)*52, FLOAT(rank 1)*210)
        for item in (fmt_abstract_kind(v) for v in attr.values):
            if runs and runs[-1][0] == item:
                runs[-1][1] += 1
            else:
                runs.append([item, 1])
        inner = ", ".join(item if n == 1 else f"{item}*{n}" for item, n in runs)
        return f"{AttrType.Name(attr.type)}({inner})"
    return AttrType.Name(attr.type)


def fmt_value_info(info):
    if info.tensor:
        return ", ".join(f"{dtype_name(t.data_type)}{fmt_dims(t.dims)}" for t in info.tensor)
    parts = [info.denotation] if info.denotation else []
    if info.HasField("attr_info"):
        parts.append(fmt_abstract(info.attr_info))
    return " ".join(parts) or "?"


# --------------------------------------------------------------------------
# Model-wide symbol tables
# --------------------------------------------------------------------------
class Symbols:
    """Everything a node input or op_type can name, across all graphs of a model."""

    def __init__(self, model):
        self.graphs = [model.graph, *model.functions]
        self.graph_names = {g.name for g in self.graphs}
        self.prims = {p.name: p for p in model.primitives}
        self.constants = {}
        self.nodes = {}
        for graph in self.graphs:
            for node in graph.node:
                if node.op_type == "Constant":
                    self.constants[node.name] = node.attribute[0]
                else:
                    self.nodes[node.name] = node

    def callee(self, op_type):
        """(kind, target) for a node's op_type."""
        if not op_type.startswith("REF::"):
            return "legacy", op_type
        ref = op_type[len("REF::"):]
        if ref in self.prims:
            return "prim", self.prims[ref]
        if ref in self.graph_names:
            return "graph", ref
        if ref in self.nodes:
            return "closure", ref
        return "unknown", ref


def short(name, graph_name):
    prefix = graph_name + ":"
    return "%" + name[len(prefix):] if name.startswith(prefix) else name


def fmt_input(name, symbols, graph_name):
    if name in symbols.constants:
        return f"{name}={fmt_value(symbols.constants[name])}"
    if name in symbols.graph_names:
        return f"@graph:{name}"
    return short(name, graph_name)


# --------------------------------------------------------------------------
# Listing
# --------------------------------------------------------------------------
def fmt_op(node, symbols):
    kind, target = symbols.callee(node.op_type)
    if kind == "prim":
        return f"{target.op_type} [{target.name}, {PrimType.Name(target.prim_type)}]"
    if kind == "graph":
        return f"CALL graph {target}"
    if kind == "closure":
        return f"CALL closure value of {target}"
    return f"{kind.upper()} {target}"


def dump_node(node, symbols, graph_name):
    if node.op_type == "Constant":
        return [f"  const {node.name} = {fmt_value(node.attribute[0])}"]
    args = ", ".join(fmt_input(i, symbols, graph_name) for i in node.input)
    abstract = [fmt_abstract(a) for a in node.attribute if a.name == "shape"]
    lines = [f"  {short(node.name, graph_name)} = {fmt_op(node, symbols)}({args})"
             + (f" -> {abstract[0]}" if abstract else "")]
    extras = [f"scope={node.domain!r}"] if node.HasField("domain") else []
    extras += [f"{a.name}={fmt_value(a)}" for a in node.attribute if a.name != "shape"]
    extras += [f"node_attr.{a.name}={fmt_value(a)}" for a in node.node_attr]
    extras += [f"primal_attr.{a.name}={fmt_value(a)}" for a in node.primal_attr]
    if list(node.output) != [node.name]:
        extras.append(f"output={list(node.output)}")
    if extras:
        lines.append("      # " + "; ".join(extras))
    return lines


def dump_parameter(tensor, graph_name):
    ref = f" ref_key={tensor.ref_key!r}" if tensor.HasField("ref_key") else ""
    comp = (f" compression={mind_ir_pb2.TensorProto.CompressionType.Name(tensor.compression_type)}"
            if tensor.HasField("compression_type") else "")
    return f"  param {short(tensor.name, graph_name)}: {fmt_tensor(tensor)}{ref}{comp}"


def dump_graph(graph, symbols, role):
    lines = [f"GRAPH ({role}) {graph.name!r}  [% = {graph.name}:]"]
    lines += [f"  attr {a.name} = {fmt_value(a)}" for a in graph.attribute]
    lines += [f"  input {short(i.name, graph.name)}: {fmt_value_info(i)}" for i in graph.input]
    lines += [dump_parameter(p, graph.name) for p in graph.parameter]
    lines += [f"  map_parameter {m.name}" for m in graph.map_parameter]
    for node in graph.node:
        lines += dump_node(node, symbols, graph.name)
    lines += [f"  output {fmt_input(o.name, symbols, graph.name)}: {fmt_value_info(o)}"
              for o in graph.output]
    return lines


def dump_primitive(prim):
    head = (f"  {prim.name}: op_type={prim.op_type} prim_type={PrimType.Name(prim.prim_type)}"
            f" instance_name={prim.instance_name!r}")
    return [head] + [f"      {a.name} = {fmt_value(a)}" for a in prim.attribute]


def dump_model(model, label):
    symbols = Symbols(model)
    lines = [f"MODEL {label}",
             f"  ir_version={model.ir_version!r} producer={model.producer_name!r} "
             f"model_version={model.model_version!r} mind_ir_version={model.mind_ir_version} "
             f"little_endian={model.little_endian} functions={len(model.functions)} "
             f"primitives={len(model.primitives)}"]
    lines += [f"  user_info {e.key} = {e.value!r}" for e in model.user_info]
    if model.HasField("preprocessor") or model.HasField("parallel"):
        lines.append("  (has preprocessor/parallel sections)")
    for role, graph in [("main", model.graph)] + [("function", g) for g in model.functions]:
        lines += [""] + dump_graph(graph, symbols, role)
    lines += ["", "PRIMITIVES"]
    for prim in model.primitives:
        lines += dump_primitive(prim)
    return lines


# --------------------------------------------------------------------------
# Usage summary
# --------------------------------------------------------------------------
def input_kind(name, symbols, graph):
    """How a node input is produced: constants by value, everything else by kind."""
    if name in symbols.constants:
        return fmt_value(symbols.constants[name])
    if name in symbols.graph_names:
        return "<graph>"
    if name in symbols.nodes:
        return "<node>"
    if any(p.name == name for p in graph.parameter) or any(
            p.name == name for g in symbols.graphs for p in g.parameter):
        return "<weight>"
    if any(i.name == name for i in graph.input):
        return "<graph input>"
    return "<free variable>"


class OpUsage:
    def __init__(self, op_type, prim_type):
        self.op_type, self.prim_type = op_type, prim_type
        self.count = 0
        self.arities = set()
        self.positions = collections.defaultdict(set)  # input position -> kinds/values seen
        self.attrs = collections.defaultdict(set)  # attribute name -> values seen
        self.outputs = set()  # exported abstracts, dims replaced by rank

    def add_node(self, node, symbols, graph):
        self.count += 1
        self.arities.add(len(node.input))
        for pos, name in enumerate(node.input):
            self.positions[pos].add(input_kind(name, symbols, graph))
        self.outputs.update(fmt_abstract_kind(a) for a in node.attribute if a.name == "shape")

    def add_prim(self, prim):
        for attr in prim.attribute:
            self.attrs[attr.name].add(fmt_value(attr))


def collect_usage(model):
    symbols = Symbols(model)
    ops, other = {}, collections.Counter()
    for graph in symbols.graphs:
        for node in graph.node:
            if node.op_type == "Constant":
                other["Constant " + fmt_value(node.attribute[0]).split(":")[0].split("<")[0]
                      .split("(")[0]] += 1
                continue
            kind, target = symbols.callee(node.op_type)
            if kind != "prim":
                other[f"{kind} call ({len(node.input)} inputs)"] += 1
                continue
            key = (target.op_type, PrimType.Name(target.prim_type))
            if key not in ops:
                ops[key] = OpUsage(*key)
            ops[key].add_node(node, symbols, graph)
            ops[key].add_prim(target)
    return ops, other


def fmt_set(values):
    values = sorted(values)
    shown = values[:MAX_DISTINCT_VALUES]
    more = f" ... (+{len(values) - len(shown)} more)" if len(values) > len(shown) else ""
    return "{" + " | ".join(shown) + more + "}"


def group_positions(positions):
    """[(first, last, kinds)] with runs of positions that saw the same kinds merged."""
    groups = []
    for pos, kinds in sorted(positions.items()):
        if groups and groups[-1][2] == kinds and groups[-1][1] == pos - 1:
            groups[-1] = (groups[-1][0], pos, kinds)
        else:
            groups.append((pos, pos, kinds))
    return groups


def summarize_case(label, model):
    ops, other = collect_usage(model)
    applications = sum(u.count for u in ops.values())
    lines = [f"=== {label}: {len(model.functions) + 1} graph(s), {applications} "
             f"primitive applications, {len(ops)} distinct primitives"]
    for (op_type, prim_type), usage in sorted(ops.items()):
        arity = ",".join(str(a) for a in sorted(usage.arities))
        lines.append(f"  {op_type} [{prim_type}] x{usage.count}, node inputs: {arity}")
        for first, last, kinds in group_positions(usage.positions):
            where = f"{first}" if first == last else f"{first}..{last}"
            lines.append(f"      in[{where}]: {fmt_set(kinds)}")
        lines.append(f"      out: {fmt_set(usage.outputs)}")
        for name, values in sorted(usage.attrs.items()):
            lines.append(f"      attr {name} = {fmt_set(values)}")
    lines += [f"  (other) {k}: {v}" for k, v in sorted(other.items())]
    return lines, ops


def summarize_all(per_case):
    """One table of every primitive across cases: prim_type, arities and cases using it."""
    merged = collections.defaultdict(lambda: (set(), set()))
    for label, ops in per_case:
        for (op_type, prim_type), usage in ops.items():
            merged[(op_type, prim_type)][0].update(usage.arities)
            merged[(op_type, prim_type)][1].add(label)
    lines = ["=== ALL CASES: op_type [prim_type] node-input counts -- cases"]
    for (op_type, prim_type), (arities, labels) in sorted(merged.items()):
        lines.append(f"  {op_type} [{prim_type}] inputs {sorted(arities)} -- "
                     + ", ".join(sorted(labels)))
    return lines


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------
SUMMARY_LEGEND = [
    "Primitive usage per case (generated by tools/golden/dump_mindir.py).",
    "  <op_type> [<prim_type>] x<applications>, node inputs: <input counts seen>",
    "  in[k]: what was seen at input position k (runs of equal positions merged):",
    "         constants by value as KIND:value (INT64/BOOL/FLOAT(float32)/TUPLE(...)/NONE/UMONAD),",
    "         Tensor<DTYPE[dims]>=values for tensor constants, dtype<...> for type constants;",
    "         <node> = a CNode result, <graph input>, <weight> (graph parameter),",
    "         <graph> = a graph name used as a value, <free variable> = name from another graph.",
    "  out: the node's exported abstract with dims replaced by rank (X*n = n equal items).",
    "  attr: PrimitiveProto attributes with every distinct value seen.",
    "  (other): Constant nodes by kind, and graph / closure calls (op_type REF::<graph|node>).",
    "",
]


def load(path, dec_key=None, dec_mode=None):
    """(label, model) for a model file or a golden case directory."""
    path = Path(path)
    if path.is_dir():
        meta = json.loads((path / "meta.json").read_text())
        key = bytes.fromhex(meta["enc_key"]) if "enc_key" in meta else dec_key
        mode = meta.get("enc_mode", dec_mode)
        return meta["case"], read_model(path / meta["model_file"], key, mode)
    data_mode = cipher_mode(path.read_bytes()[:4])
    return path.stem, read_model(path, dec_key, dec_mode or data_mode)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="model files or golden case directories")
    parser.add_argument("--dec-key", help="hex key for encrypted model files")
    parser.add_argument("--dec-mode", help="AES-GCM | AES-CBC | SM4-CBC (default: from the magic)")
    parser.add_argument("--dump-dir", help="write <case>.txt files and SUMMARY.txt here")
    args = parser.parse_args(argv)
    key = bytes.fromhex(args.dec_key) if args.dec_key else None

    summary, per_case = list(SUMMARY_LEGEND), []
    for path in args.paths:
        label, model = load(path, key, args.dec_mode)
        text = "\n".join(dump_model(model, label)) + "\n"
        case_lines, ops = summarize_case(label, model)
        summary += case_lines + [""]
        per_case.append((label, ops))
        if args.dump_dir:
            Path(args.dump_dir).mkdir(parents=True, exist_ok=True)
            (Path(args.dump_dir) / f"{label}.txt").write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    if args.dump_dir:
        summary += summarize_all(per_case)
        text = "\n".join(summary) + "\n"
        (Path(args.dump_dir) / "SUMMARY.txt").write_text(text, encoding="utf-8")
        print(f"wrote {len(args.paths)} listings and SUMMARY.txt to {args.dump_dir}")


if __name__ == "__main__":
    main()
