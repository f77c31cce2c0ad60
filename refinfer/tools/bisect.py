"""``refinfer bisect``: the first node where a run departs from a reference.

The candidate (the model as refinfer runs it) runs once. An after-hook
compares each node's output, the moment it is produced, with the
reference's, and keeps only the metrics, so memory stays what a plain run
needs. The reference is one of

- a dump directory (``refinfer dump``, or per-node tensors of another
  runtime): tensors are matched by their scope-based name, then their
  node-name based name, then the file-safe name (file stem);
- ``float64`` (the float64 oracle) or a backend name (``reference``, or a
  fast backend when installed), run in lockstep ("shadow execution"): each
  node's reference output is computed by the reference kernel from the
  *reference* values of its inputs, so error accumulates along the
  reference chain as in an independent run, while only live values are
  held. Values entering a sub-graph (graph calls, loop bodies) are the
  candidate's: inside control flow the comparison restarts from them.

Verdicts are ``refinfer compare``'s; against ``float64`` with no tolerance
given, each node is judged by its own error within its op's known float32
error instead (the float32 rounding check, :mod:`.rounding`). A
*divergence* is a node run whose output fails while every compared input
passed: the node where the error appears, or where the input error is
amplified past the tolerance. For an
in-process reference the node's *own error* (the reference kernel on the
candidate's inputs) tells a wrong kernel (own error fails too) from an
amplified one (own error passes).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .. import registry
from ..graph import RefKind
from ..plan import KernelStep, Program, compile_model
from ..runtime import LoadedModel
from . import rounding
from .common import graph_sha256
from .compare import DEFAULT_ATOL, DEFAULT_RTOL, compare_arrays, \
    parse_tolerance, tolerance_for
from ..watch import NodeRun, NodeTensor, node_runs, tensor_leaves
from .progress import node_count, progress_bar, with_progress
from .tensorio import MANIFEST, read_json, read_tensors, safe_stem, write_json

FORMAT = "refinfer-bisect"
ROUNDING_RULE = ("float32 rounding: each op's own error within its known "
                 "error, in ulps of the tensor's magnitude")
ORACLE_NAMES = ("float64", "oracle")
MAX_DIVERGENCES = 20
CHAIN_LIMIT = 12
SHOWN_METRICS = ("max_abs_err", "max_rel_err", "mean_abs_err", "cosine",
                 "mismatches", "ulps", "known_ulps", "drift_ulps")


def backends() -> list[str]:
    """Backends with at least one kernel, ``reference`` always."""
    return sorted({"reference"} | {b for op in registry.list_ops()
                                   for b in op.kernels})


# -- references -------------------------------------------------------------

class DumpReference:
    """Expected tensors read, one at a time, from files."""
    own_error = oracle = False

    def __init__(self, path: str, model: LoadedModel):
        check_dump_of(path, model)
        self.label = path
        self.index: dict = {}
        for ref in read_tensors(path):
            for key in (ref.name, ref.stem):
                if key:
                    self.index.setdefault(key, ref)

    def outputs(self, run: NodeRun) -> list:
        return [self._lookup(t) for t in run.tensors()]

    def _lookup(self, tensor: NodeTensor):
        for key in (tensor.name, tensor.node_name, safe_stem(tensor.name)):
            ref = self.index.get(key)
            if ref is not None:
                return ref.load()
        return None


def check_dump_of(path: str, model: LoadedModel) -> None:
    """Refuse a dump (or golden) directory whose manifest records another
    model's graph: nothing of it would match, or names would match by
    chance. A copy of the model with other weights has the same graph (the
    usual bisect: a bad file against a dump of the good one)."""
    manifest = os.path.join(path, MANIFEST)
    if not os.path.isfile(manifest):
        return                          # tensors of another runtime: no record
    recorded = read_json(manifest)
    digest = recorded.get("graph_sha256") if isinstance(recorded, dict) else None
    ours = graph_sha256(model)
    if digest is None or digest == ours:
        return
    raise ValueError(
        f"--against {path}: a dump of {recorded.get('model', 'another model')}, "
        f"whose graph is not the graph of {model.path} (graph sha256 "
        f"{digest[:12]} vs {ours[:12]}): dump this model (refinfer dump "
        f"{model.path} --out DIR) or bisect the dumped one")


class ShadowReference:
    """The candidate's model compiled again, op by op, with another
    backend's kernels and/or another precision; its steps run node by node
    in lockstep with the candidate."""
    own_error = True

    def __init__(self, model: LoadedModel, backend: str, precision: str,
                 label: str):
        self.label = label
        self.oracle = precision == "float64"
        program = compile_model(model.model, backend, precision=precision,
                                fuse=False)
        self.steps = {id(step.node): step for plan in program.plans.values()
                      for step in plan.steps if isinstance(step, KernelStep)}
        self.deaths = _deaths(program)
        self.values: dict[str, object] = {}

    def outputs(self, run: NodeRun) -> list:
        value = self._run(run, shadow=True)
        self.values[run.node.name] = value
        for name in self.deaths.get(id(run.node), ()):
            self.values.pop(name, None)
        return tensor_leaves(value)

    def own_outputs(self, run: NodeRun) -> list:
        """The reference kernel applied to the candidate's own inputs."""
        return tensor_leaves(self._run(run, shadow=False))

    def _run(self, run: NodeRun, shadow: bool):
        """The step of ``run.node`` on slots holding the reference's values
        (``shadow``) where it has them, else the candidate's: graph inputs,
        call results, and every value for the own error."""
        node, step = run.node, self.steps[id(run.node)]
        slots = {}
        for pos, slot, _ in step.dynamic:
            ref = node.args[pos].ref
            held = shadow and ref.kind in (RefKind.NODE, RefKind.FREE) \
                and ref.key in self.values
            slots[slot] = self.values[ref.key] if held else run.args[pos]
        return step.run(slots)


def _deaths(program: Program) -> dict[int, list[str]]:
    """Node id -> names of the values freed after it: the candidate's plan
    as hooks run it (op by op) frees the same."""
    deaths = {}
    for plan in program.plans.values():
        name_of = {slot: name for name, slot in plan.names.items()}
        for step in plan.steps:
            if isinstance(step, KernelStep) and step.frees:
                deaths[id(step.node)] = [name_of[s] for s in step.frees
                                         if s in name_of]
    return deaths


def open_reference(against: str, model: LoadedModel):
    """The reference ``against`` names: a path, ``float64`` or a backend."""
    if os.path.exists(against):
        return DumpReference(against, model)
    if against in ORACLE_NAMES:
        return ShadowReference(model, "reference", "float64",
                               "float64 oracle")
    if against in backends():
        return ShadowReference(model, against, "float32",
                               f"backend {against!r}")
    raise ValueError(f"--against {against!r}: no such file or directory, "
                     f"and not a reference (float64, or a backend: "
                     f"{', '.join(backends())})")


# -- the bisection ------------------------------------------------------------

@dataclass
class Bisection:
    """What a bisect run found; ``tensors`` holds every compared tensor's
    metrics (no data), in execution order. ``rounding``: the float32
    rounding check (:mod:`.rounding`) instead of ``atol``/``rtol``."""
    model: str
    against: str
    atol: float
    rtol: float
    rounding: bool = False
    tensors: list[dict] = field(default_factory=list)
    divergences: list[dict] = field(default_factory=list)
    chain: list[dict] = field(default_factory=list)
    runs: int = 0

    @property
    def compared(self) -> list[dict]:
        return [t for t in self.tensors if t["passed"] is not None]

    @property
    def failed(self) -> list[dict]:
        return [t for t in self.tensors if t["passed"] is False]

    @property
    def passed(self) -> bool:
        """Something was compared and nothing failed."""
        return bool(self.compared) and not self.failed

    @property
    def exit_code(self) -> int:
        """0: passed; 1: a tensor failed; 3, the CLI's model-or-data error:
        nothing was compared (no reference tensor matched a node), which
        proves nothing."""
        if self.failed:
            return 1
        return 0 if self.compared else 3

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": 1, "model": self.model,
                "against": self.against, "atol": self.atol,
                "rtol": self.rtol,
                "mode": "float32 rounding" if self.rounding else "tolerance",
                "passed": self.passed,
                "node_runs": self.runs, "compared": len(self.compared),
                "failed": len(self.failed),
                "first_divergence": (self.divergences or [None])[0],
                "divergences": self.divergences, "chain": self.chain,
                "tensors": self.tensors}


class _Bisector:
    """The after-hook's sink: compares, keeps metrics, spots divergences."""

    def __init__(self, model: LoadedModel, reference, result: Bisection,
                 rules: list):
        self.reference, self.result, self.rules = reference, result, rules
        self.latest: dict[str, dict] = {}       # node name -> last record
        graphs = model.model.graphs.values()    # what hooks run: op by op
        self.nodes = {n.name: n for g in graphs for n in g.nodes}
        self.graph_of = {id(n): g for g in graphs for n in g.nodes}
        self.main = model.model.main
        self.weights = {id(value): name.rpartition(":")[2]
                        for g in model.file.graphs
                        for name, value in g.parameters.items()}

    def check(self, run: NodeRun) -> None:
        self.result.runs += 1
        expected = self.reference.outputs(run)
        if self.result.rounding:        # judged by the op's own error
            own = self.reference.own_outputs(run)
            tensors = [self._rounding_compare(t, e, o, run.args)
                       for t, e, o in zip(run.tensors(), expected, own)]
        else:
            tensors = [self._compare(t, e) for t, e in zip(run.tensors(),
                                                           expected)]
        self.result.tensors.extend(tensors)
        verdicts = [t["passed"] for t in tensors if t["passed"] is not None]
        record = {"index": run.index, "name": tensors[0]["name"] if tensors
                  else run.node.scope or run.node.name,
                  "node": run.node.name, "op": run.node.op_name,
                  "passed": all(verdicts) if verdicts else None,
                  "tensors": tensors}
        self.latest[run.node.name] = record
        if record["passed"] is False and \
                len(self.result.divergences) < MAX_DIVERGENCES:
            self._divergence(run, record)

    def _compare(self, tensor: NodeTensor, expected, tolerance=None) -> dict:
        """``tensor`` against ``expected`` with ``tolerance`` (atol, rtol),
        by default the one ``--tol`` or ``--atol``/``--rtol`` give it."""
        entry = {"name": tensor.name, "node": tensor.node.name,
                 "op": tensor.node.op_name, "index": tensor.index,
                 "element": tensor.element}
        if tensor.array is None or expected is None:
            return {**entry, "passed": None}
        names = [tensor.name, tensor.node_name]
        atol, rtol = tolerance or tolerance_for(
            names, self.rules, self.result.atol, self.result.rtol)
        try:
            values = compare_arrays(tensor.array, expected, atol, rtol)
        except ValueError:                       # not numbers: not compared
            return {**entry, "passed": None}
        return {**entry, "shape": list(tensor.array.shape),
                "dtype": tensor.array.dtype.name, "atol": atol, "rtol": rtol,
                **values}

    def _rounding_compare(self, tensor: NodeTensor, expected, own,
                          inputs) -> dict:
        """``tensor`` against ``own`` (the float64 kernel on the same
        inputs) within the op's known float32 error; how far it drifted
        from the oracle's own chain (``expected``) is recorded, not judged."""
        if tensor.array is None or own is None:
            return self._compare(tensor, None)
        op = tensor.node.op
        atol = rounding.own_tolerance(op, tensor.array, own, inputs)
        entry = self._compare(tensor, own, (atol, 0.0))
        if entry["passed"] is None or expected is None:
            return entry
        unit = atol / rounding.known_ulps(op)
        error = entry["max_abs_err"]
        finite = error is not None and np.isfinite(error)
        entry["ulps"] = error / unit if unit and finite else None
        entry["known_ulps"] = rounding.known_ulps(op)
        entry["drift_ulps"] = rounding.drift_ulps(tensor.array, expected)
        return entry

    def _divergence(self, run: NodeRun, record: dict) -> None:
        inputs = self._inputs(run.node)
        if any(i.get("passed") is False for i in inputs):
            return                      # propagated, not a new divergence
        found = {**_summary(record), "inputs": inputs}
        if self.result.rounding:        # the record is the own error
            found["own_error"] = [_metrics(t) for t in record["tensors"]]
        elif self.reference.own_error:
            own = self.reference.own_outputs(run)
            found["own_error"] = [
                _metrics(self._compare(t, e))
                for t, e in zip(run.tensors(), own)]
        if not self.result.divergences:
            self.result.chain = self._chain(run.node)
        self.result.divergences.append(found)

    def _inputs(self, node) -> list[dict]:
        """Where each argument came from, with its metrics when compared."""
        described = []
        for pos, arg in enumerate(node.args):
            ref = arg.ref
            if ref.kind in (RefKind.NODE, RefKind.FREE):
                record = self.latest.get(ref.key)
                described.append({"position": pos, **(
                    _summary(record) if record else
                    {"node": ref.key, "passed": None,
                     "source": "not compared (a graph call's result)"})})
            elif ref.kind is RefKind.INPUT:
                graph = self.graph_of[id(node)]
                where = "model input" if graph is self.main else \
                    f"input of graph {graph.name}"
                described.append({"position": pos, "source": where,
                                  "name": graph.inputs[ref.key].short_name})
            elif id(ref.key) in self.weights:
                described.append({"position": pos, "source": "weight",
                                  "name": self.weights[id(ref.key)],
                                  "shape": list(ref.key.shape)})
        return described

    def _chain(self, node) -> list[dict]:
        """Upstream from ``node``: at each step the input with the largest
        error, back to the graph's inputs (or CHAIN_LIMIT steps)."""
        chain = []
        while len(chain) < CHAIN_LIMIT:
            inputs = [self.latest[a.ref.key] for a in node.args
                      if a.ref.kind in (RefKind.NODE, RefKind.FREE)
                      and a.ref.key in self.latest]
            if not inputs:
                chain += [i for i in self._inputs(node) if "source" in i
                          and i["source"] != "weight"]
                break
            worst = max(inputs, key=_error_of)
            chain.append(_summary(worst))
            node = self.nodes[worst["node"]]
        return chain


def _metrics(tensor: dict) -> dict:
    keep = ("name", "shape", "passed") + SHOWN_METRICS
    return {k: tensor[k] for k in keep if k in tensor}


def _summary(record: dict) -> dict:
    """A node record with its tensors' main metrics only."""
    return {"index": record["index"], "name": record["name"],
            "node": record["node"], "op": record["op"],
            "passed": record["passed"],
            "tensors": [_metrics(t) for t in record["tensors"]]}


def _error_of(record: dict) -> float:
    errors = [t.get("max_abs_err") for t in record["tensors"]]
    errors = [e for e in errors if isinstance(e, float) and e == e]
    return max(errors, default=-1.0)


def bisect(model: LoadedModel, inputs: list, against: str,
           atol: float | None = None, rtol: float | None = None,
           tolerances: list[str] | None = None,
           progress: bool | None = None) -> Bisection:
    """Run ``model`` on ``inputs`` comparing every node with ``against``
    (a dump directory, ``float64`` or a backend name). Against ``float64``
    with no tolerance given, the float32 rounding check (:mod:`.rounding`);
    else ``atol``/``rtol`` (None: the defaults of ``refinfer compare``)."""
    model.check_inputs(inputs)
    reference = open_reference(against, model)
    rules = [parse_tolerance(t) for t in tolerances or []]
    checks_rounding = reference.oracle and atol is None and rtol is None \
        and not rules
    result = Bisection(model.path, reference.label,
                       DEFAULT_ATOL if atol is None else atol,
                       DEFAULT_RTOL if rtol is None else rtol, checks_rounding)
    bisector = _Bisector(model, reference, result, rules)
    with progress_bar(node_count(model), "bisect", progress) as bar:
        model.run(inputs, with_progress(node_runs(bisector.check), bar))
    return result


def write_report(path: str, result: Bisection) -> None:
    write_json(path, result.to_dict())


# -- the text report ----------------------------------------------------------

def format_bisection(result: Bisection) -> str:
    compared = result.compared
    rule = ROUNDING_RULE if result.rounding else \
        f"atol {result.atol:g}, rtol {result.rtol:g}"
    lines = [f"bisect {result.model}", f"  against {result.against} ({rule})",
             f"{result.runs} node run(s), {len(compared)} tensor(s) "
             f"compared, {len(result.failed)} failed"]
    if not compared:
        lines.append("nothing compared: no reference tensor matched a node "
                     "(check the reference's tensor names)")
    if not result.divergences:
        if compared:
            lines += _rounding_verdict(result) if result.rounding else [
                "no divergence: every compared tensor is within tolerance"]
        return "\n".join(lines)
    first = result.divergences[0]
    lines += ["", f"first divergence: #{first['index']} {first['name']} "
              f"({first['op']})"]
    if result.rounding:
        lines.append("  its own error is over the op's known float32 error: "
                     "a wrong result, not rounding")
    lines += _node_lines(first, "  output  ")
    lines += [_input_line(i) for i in first["inputs"]]
    for own in [] if result.rounding else first.get("own_error", []):
        lines.append("  own error (reference kernel on these inputs): "
                     + _metric_text(own))
    if result.chain:
        lines.append("upstream (largest input error first):")
        lines += [_chain_line(c) for c in result.chain]
    others = result.divergences[1:]
    if others:
        lines.append(f"{len(others)} more divergence(s) with inputs within "
                     "tolerance:")
        lines += [f"  #{d['index']} {d['name']} ({d['op']})" for d in others]
    return "\n".join(lines)


def _rounding_verdict(result: Bisection) -> list[str]:
    """The healthy verdict: the largest own error (relative to its op's
    known error) and the largest drift from the oracle."""
    own = [t for t in result.compared if t.get("ulps") is not None]
    drifted = [t for t in result.compared if t.get("drift_ulps") is not None]
    lines = ["healthy float32 rounding: every op is within its known float32 "
             "error"]
    if own:
        worst = max(own, key=lambda t: t["ulps"] / t["known_ulps"])
        lines.append(f"  largest own error: {worst['ulps']:.3g} ulps of the "
                     f"tensor's magnitude (known error {worst['known_ulps']})"
                     f" at {_where(worst)}")
    if drifted:
        far = max(drifted, key=lambda t: t["drift_ulps"])
        lines.append(f"  rounding carried along the graph: {far['drift_ulps']:.3g}"
                     f" ulps from the float64 oracle at {_where(far)}")
        if far["drift_ulps"] > rounding.DRIFT_NOTE_ULPS:
            lines.append("  over 1e-3 of the magnitude: the model amplifies "
                         "rounding (ill-conditioned); no op is wrong")
    return lines


def _where(tensor: dict) -> str:
    return f"#{tensor['index']} {tensor['name']} ({tensor['op']})"


def _chain_line(entry: dict) -> str:
    if "index" not in entry:
        return f"  {entry['source']} {entry.get('name', '')}"
    errors = [t.get("max_abs_err") for t in entry["tensors"]]
    error = max((e for e in errors if isinstance(e, float)), default=None)
    shown = "" if error is None else f"  max_abs {error:.4g}"
    return (f"  #{entry['index']} {entry['name']} ({entry['op']}){shown}  "
            f"{_verdict(entry['passed'])}")


def _node_lines(record: dict, prefix: str) -> list[str]:
    return [f"{prefix}{t['name']}  {_metric_text(t)}"
            for t in record["tensors"]]


def _input_line(entry: dict) -> str:
    head = f"  input {entry['position']}"
    if "tensors" in entry:
        return "\n".join(f"{head}  {t['name']} ({entry['op']})  "
                         f"{_metric_text(t)}" for t in entry["tensors"])
    shape = f" [{'x'.join(map(str, entry['shape']))}]" if "shape" in entry \
        else ""
    name = entry.get("name", entry.get("node", ""))
    return f"{head}  {name}{shape} ({entry['source']})"


def _metric_text(tensor: dict) -> str:
    if tensor.get("passed") is None:
        return "not compared"
    parts = []
    if "shape" in tensor:
        parts.append("x".join(map(str, tensor["shape"])) or "scalar")
    for key in SHOWN_METRICS:
        value = tensor.get(key)
        if isinstance(value, float):
            digits = ".6f" if key == "cosine" else ".4g"
            parts.append(f"{key.replace('_err', '')} {value:{digits}}")
        elif value is not None:
            parts.append(f"{key} {value}")
    return "  ".join(parts + [_verdict(tensor["passed"])])


def _verdict(passed) -> str:
    return {True: "ok", False: "FAIL", None: "not compared"}[passed]
