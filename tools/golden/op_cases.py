"""Generate per-op golden cases: one tiny MindIR per table entry, under ``golden/ops/``.

Run with the MindSpore dev venv (never imported by refinfer itself):

    /work/msenv/bin/python tools/golden/op_cases.py [PATTERN ...] [--family F] [--list]

PATTERN selects cases by fnmatch on their names (``exp_*``); none = every case. The cases
live in ``tools/golden/op_families/<family>.py``, each module a list ``CASES`` of
:class:`OpCase`; a case is one table entry::

    OpCase("exp_f16", "Exp", "ops.exp(x)", [t((2, 3), "float16")])

``expr`` is the body of a generated ``construct(self, x, y, ...)`` (one argument per input
spec, named x, y, z, w, v, u): MindSpore compiles ``construct`` from source, so the table
holds source text rather than lambdas. Python scalars written in ``expr`` are exported as
constants, 0-d tensor operands are inputs of shape ``()``. A case whose graph needs weights
or state gives ``cell`` (a zero-argument factory returning an ``nn.Cell``) instead of
``expr``; its parameters get seeded values (``make_golden.randomize_parameters``).

Exporting, running the exported file and writing the case directory reuse
``make_golden.make_case``, so a per-op case is a model case (``model.mindir``, ``meta.json``)
whose inputs and outputs are packed into one ``arrays.npz`` (members ``input_<i>``,
``output_<i>``; meta.json names each one's key, see case_files.py), and
tests/test_golden.py runs it. meta.json also records ``op`` (the primitives the case is
for: the export must contain each of them, or generation fails), ``family`` and
``primitives`` (every primitive in the file, for the coverage table).
"""
import argparse
import dataclasses
import fnmatch
import importlib
import json
import pkgutil
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Callable, Optional, Sequence, Union

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_golden  # sets up MindSpore logging before importing it
import dump_mindir
import mindir_proto
import op_families

import mindspore as ms

ARG_NAMES = ("x", "y", "z", "w", "v", "u")
NET_SOURCE = '''\
import numpy as np
import mindspore as ms
from mindspore import Tensor, mint, nn, ops
from mindspore.ops import operations as P


class Net(nn.Cell):
    def construct(self, {args}):
        return {expr}
'''


# --------------------------------------------------------------------------
# Input specs: callables rng -> array
# --------------------------------------------------------------------------
def t(shape, dtype="float32", low=-3.0, high=3.0):
    """A random input of ``shape`` and ``dtype``: floats uniform in [low, high), integers
    uniform in [low, high] (clipped to the dtype's range), bools with p = 0.5."""
    dtype = np.dtype(dtype)

    def make(rng):
        if dtype == np.bool_:
            return rng.random(shape) < 0.5
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            lo, hi = max(int(low), int(info.min)), min(int(high), int(info.max))
            return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
        return rng.uniform(low, high, shape).astype(dtype)
    return make


def fixed(values, dtype="float32"):
    """An input with the given values (edge cases: NaN, inf, ties, -0.0)."""
    array = np.array(values, dtype=dtype)
    return lambda rng: array.copy()


# --------------------------------------------------------------------------
# The case table
# --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class OpCase:
    """One per-op golden case.

    name: the case directory (``golden/ops/<name>``), unique over all families.
    op: the primitive name(s) this case covers; each must appear in the export.
    expr: ``construct``'s return expression over x, y, ... (or None with ``cell``).
    inputs: one spec per ``construct`` argument (``t``, ``fixed`` or any rng -> array).
    tolerance: meta.json tolerance (default: by output dtype, see make_golden.tolerance).
    reference: NumPy outputs from the inputs, used when MindSpore cannot run the case
        on CPU (and then checked against MindSpore's outputs when it can).
    cell: factory of an ``nn.Cell`` to export instead of ``expr``.
    dynamic: export with every input dim unknown, so shape arithmetic (Shape,
        TupleGetItem, ScalarMul, ...) stays in the graph instead of being folded.
    """
    name: str
    op: Union[str, Sequence[str]]
    expr: Optional[str]
    inputs: Sequence[Callable]
    description: str = ""
    tolerance: Optional[dict] = None
    reference: Optional[Callable] = None
    cell: Optional[Callable] = None
    dynamic: bool = False

    @property
    def ops(self):
        return (self.op,) if isinstance(self.op, str) else tuple(self.op)

    @property
    def seed(self):
        """Stable per name, so adding a case never changes another one's inputs."""
        return zlib.crc32(self.name.encode()) % 2 ** 31


def per_dtype(name, op, expr, shapes, dtypes, **kwargs):
    """One OpCase per dtype: ``<name>_<dtype>`` with inputs ``t(shape, dtype)``.

    ``shapes``: one shape per input; extra ``low``/``high`` go to ``t``.
    """
    bounds = {k: kwargs.pop(k) for k in ("low", "high") if k in kwargs}
    return [OpCase(f"{name}_{np.dtype(d).name}", op, expr,
                   [t(s, d, **bounds) for s in shapes], **kwargs) for d in dtypes]


def load_cases():
    """Every family module's CASES, as {family: [OpCase]}; names checked unique."""
    families, seen = {}, {}
    for info in pkgutil.iter_modules(op_families.__path__):
        module = importlib.import_module(f"op_families.{info.name}")
        families[info.name] = list(module.CASES)
        for case in module.CASES:
            if case.name in seen:
                raise ValueError(f"case {case.name!r} defined in {seen[case.name]} "
                                 f"and {info.name}")
            seen[case.name] = info.name
    return families


# --------------------------------------------------------------------------
# Building one case
# --------------------------------------------------------------------------
def net_factory(case, source_dir):
    """A factory of the case's Cell; ``expr`` cases become a generated source file
    (MindSpore parses ``construct`` from its file)."""
    if case.cell is not None:
        return case.cell
    if case.expr is None:
        raise ValueError(f"{case.name}: give expr or cell")
    module_name = "opnet_" + case.name
    args = ", ".join(ARG_NAMES[:len(case.inputs)])
    path = Path(source_dir) / f"{module_name}.py"
    path.write_text(NET_SOURCE.format(args=args, expr=case.expr))
    module = importlib.import_module(module_name)
    return module.Net


def output_list(reference):
    """A reference returning an array or a tuple, as a list of arrays (None stays)."""
    if reference is None:
        return None

    def outputs(*arrays):
        result = reference(*arrays)
        items = result if isinstance(result, (tuple, list)) else [result]
        return [np.asarray(item) for item in items]
    return outputs


def primitives_in(model_path):
    model = mindir_proto.read_model(model_path)
    ops, _ = dump_mindir.collect_usage(model)
    return sorted({op_type for op_type, _ in ops})


def make_op_case(case, family, out_root, source_dir):
    extra = {"generator": "tools/golden/op_cases.py", "family": family,
             "op": list(case.ops), **({"dynamic_shape": True} if case.dynamic else {})}
    golden_case = make_golden.Case(
        case.name, case.description or f"{', '.join(case.ops)}: {case.expr}",
        net_factory(case, source_dir), lambda rng: [spec(rng) for spec in case.inputs],
        seed=case.seed, reference=output_list(case.reference), tolerance=case.tolerance,
        dynamic=case.dynamic, raw_inputs=False, packed=True, extra=extra)
    case_dir = make_golden.make_case(golden_case, out_root)
    meta_path = case_dir / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["primitives"] = primitives_in(case_dir / meta["model_file"])
    missing = [op for op in case.ops if op not in meta["primitives"]]
    if missing:
        raise RuntimeError(f"{case.name}: the export has no {missing}; "
                           f"it has {meta['primitives']}")
    meta_path.write_text(make_golden.to_json(meta) + "\n")
    return case_dir


def first_line(exc):
    """The first informative line of an exception (MindSpore's start with rulers)."""
    lines = [line.strip() for line in str(exc).splitlines()]
    return next((line for line in lines if line.strip("-= ")), "")[:300]


def select(families, patterns, family):
    chosen = []
    for fam, cases in families.items():
        if family and fam != family:
            continue
        chosen += [(fam, c) for c in cases
                   if not patterns or any(fnmatch.fnmatch(c.name, p) for p in patterns)]
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", metavar="PATTERN",
                        help="fnmatch patterns on case names (default: every case)")
    parser.add_argument("--family", help="only this family module")
    parser.add_argument("--out", default="golden/ops", help="output root")
    parser.add_argument("--list", action="store_true", help="list the selected cases and stop")
    parser.add_argument("--keep-going", action="store_true",
                        help="report a failing case and go on with the others")
    args = parser.parse_args(argv)

    chosen = select(load_cases(), args.patterns, args.family)
    if not chosen:
        parser.error("no case matches")
    if args.list:
        for fam, case in chosen:
            print(f"{fam:12} {case.name:32} {','.join(case.ops):24} {case.expr or '<cell>'}")
        return 0

    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    failed = []
    with tempfile.TemporaryDirectory(prefix="op_cases_") as source_dir:
        sys.path.insert(0, source_dir)
        for fam, case in chosen:
            try:
                print(make_golden.summarize(make_op_case(case, fam, args.out, source_dir)),
                      flush=True)
            except Exception as exc:  # pylint: disable=broad-except
                if not args.keep_going:
                    raise
                failed.append(case.name)
                print(f"FAILED {case.name}: {type(exc).__name__}: {first_line(exc)}",
                      flush=True)
    if failed:
        print(f"{len(failed)} failed: {' '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
