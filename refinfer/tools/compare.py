"""``refinfer compare``: compare tensors, with per-tensor metrics and verdicts.

EXPECTED and ACTUAL are each a ``.npy`` file, an archive's array
(``ARCHIVE.npz:KEY``), a Lite calibration ``.txt``, or a directory (see
:mod:`.tensorio`). Tensors are matched by name, then by
file stem. A single tensor against a single tensor whose name differs is
paired by position, and the report says so, when one of them is a lone
``.npy`` file (its name is only a file name); two tensors that both carry
names (manifest, calibration text) are only paired by name.

A tensor passes iff the shapes are equal and every element satisfies
``|actual - expected| <= atol + rtol * |expected|`` (NaN only against NaN,
Inf only against the same Inf). Tensors found on one side only are listed
but do not change the verdict.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

import numpy as np

from ..errors import UsageError
from . import metrics
from .progress import progress_bar
from .tensorio import TensorRef, read_tensors, write_json

DEFAULT_ATOL = 1e-5
DEFAULT_RTOL = 1e-4

# Name in reports -> metric function (actual, expected) -> number.
METRICS = {
    "max_abs_err": metrics.max_abs_err,
    "max_rel_err": metrics.max_rel_err,
    "mean_abs_err": metrics.mean_abs_err,
    "rmse": metrics.rmse,
    "cosine": metrics.cosine_similarity,
    "within_1e-3": metrics.within_1e3,
    "within_5e-3": metrics.within_5e3,
    "mean_bias": metrics.mean_bias,
}


def compare_arrays(actual, expected, atol: float = DEFAULT_ATOL,
                   rtol: float = DEFAULT_RTOL) -> dict:
    """Verdict and metrics for one pair: ``passed``, ``mismatches``, NaN and
    Inf counts of each side and every metric of :data:`METRICS` (``None``
    for all but the counts when the shapes differ)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    for side, array in (("actual", actual), ("expected", expected)):
        if array.dtype.kind not in "biuf":
            raise ValueError(f"cannot compare a {array.dtype} tensor "
                             f"({side})")
    result = {"nan_expected": metrics.nan_count(expected),
              "nan_actual": metrics.nan_count(actual),
              "inf_expected": metrics.inf_count(expected),
              "inf_actual": metrics.inf_count(actual)}
    if actual.shape != expected.shape:
        return {"passed": False, "mismatches": None,
                **{k: None for k in METRICS}, **result}
    mismatches = metrics.mismatch_count(actual, expected, atol, rtol)
    finite = metrics.finite_pairs(actual, expected)    # once, not per metric
    values = {k: fn(*finite) for k, fn in METRICS.items() if k != "mean_bias"}
    values["mean_bias"] = metrics.mean_bias(actual, expected)
    return {"passed": mismatches == 0, "mismatches": mismatches, **values,
            **result}


@dataclass
class TensorResult:
    """One compared pair."""
    name: str
    actual_name: str
    expected_shape: tuple
    actual_shape: tuple
    expected_dtype: str
    actual_dtype: str
    atol: float
    rtol: float
    values: dict

    @property
    def passed(self) -> bool:
        return self.values["passed"]

    def to_dict(self) -> dict:
        return {"name": self.name, "actual_name": self.actual_name,
                "expected_shape": list(self.expected_shape),
                "actual_shape": list(self.actual_shape),
                "expected_dtype": self.expected_dtype,
                "actual_dtype": self.actual_dtype,
                "atol": self.atol, "rtol": self.rtol, **self.values}


@dataclass
class Report:
    """Every compared pair of one ``compare`` run, and the unmatched names."""
    expected: str
    actual: str
    atol: float
    rtol: float
    results: list[TensorResult] = field(default_factory=list)
    only_expected: list[str] = field(default_factory=list)
    only_actual: list[str] = field(default_factory=list)
    by_position: bool = False   # two lone tensors paired whatever their names

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def to_dict(self) -> dict:
        return {"expected": self.expected, "actual": self.actual,
                "atol": self.atol, "rtol": self.rtol, "passed": self.passed,
                "paired_by": "position" if self.by_position else "name",
                "tensors": [r.to_dict() for r in self.results],
                "only_in_expected": self.only_expected,
                "only_in_actual": self.only_actual}


def parse_tolerance(text: str) -> tuple[str, float, float]:
    """``NAME:ATOL,RTOL`` (NAME may itself contain ``:``; it may be a glob)."""
    name, _, values = text.rpartition(":")
    try:
        atol, rtol = (float(v) for v in values.split(","))
    except ValueError:
        atol = rtol = -1.0
    if not name or not (atol >= 0 and rtol >= 0):
        raise UsageError(f"--tol {text!r}: expected NAME:ATOL,RTOL with "
                         "non-negative numbers, e.g. output_0:1e-4,1e-3")
    return name, atol, rtol


def match_tensors(expected: list[TensorRef], actual: list[TensorRef]):
    """Pairs matched by name, then by file stem; two lone tensors pair up
    whatever their names unless both carry names of their own. Returns
    ``(pairs, only_expected, only_actual)``, pairs in EXPECTED's order."""
    if len(expected) == 1 and len(actual) == 1 and \
            not (expected[0].named and actual[0].named):
        return [(expected[0], actual[0])], [], []
    pairs, left_e, left_a = [], list(expected), list(actual)
    for key in (lambda t: t.name, lambda t: t.stem):
        index = {}
        for ref in left_a:
            if key(ref) is not None:
                index.setdefault(key(ref), ref)
        unmatched = []
        for ref in left_e:
            partner = index.pop(key(ref), None) if key(ref) else None
            if partner is None:
                unmatched.append(ref)
            else:
                pairs.append((ref, partner))
        used = {id(a) for _, a in pairs}
        left_e, left_a = unmatched, [a for a in left_a if id(a) not in used]
    order = {id(ref): k for k, ref in enumerate(expected)}
    pairs.sort(key=lambda pair: order[id(pair[0])])
    return pairs, [e.name for e in left_e], [a.name for a in left_a]


def compare_paths(expected: str, actual: str, atol: float = DEFAULT_ATOL,
                  rtol: float = DEFAULT_RTOL,
                  tolerances: list[str] | None = None,
                  progress: bool | None = None) -> Report:
    """Compare every matched tensor of ``expected`` and ``actual``;
    ``tolerances`` are ``NAME:ATOL,RTOL`` overrides. ``progress``: a bar
    on stderr (None: when stderr is a terminal)."""
    pairs, only_e, only_a = match_tensors(read_tensors(expected),
                                          read_tensors(actual))
    if not pairs:
        raise ValueError(f"no tensors in common: {expected} has "
                         f"{_names(only_e)}, {actual} has {_names(only_a)}")
    rules = [parse_tolerance(t) for t in tolerances or []]
    chosen = [_tolerance(e, a, rules, atol, rtol) for e, a in pairs]
    _check_rules_used(rules, pairs)
    by_position = not any(_same_name(e, a) for e, a in pairs)
    report = Report(expected, actual, atol, rtol, [], only_e, only_a,
                    by_position)
    with progress_bar(len(pairs), "compare", progress, "tensor") as bar:
        for (e, a), (t_atol, t_rtol) in zip(pairs, chosen):
            report.results.append(_compare_pair(e, a, t_atol, t_rtol))
            bar.update(1)
    return report


def _compare_pair(e: TensorRef, a: TensorRef, atol, rtol) -> TensorResult:
    exp, act = e.load(), a.load()
    try:
        values = compare_arrays(act, exp, atol, rtol)
    except ValueError as exc:
        raise ValueError(f"{e.name}: {exc}") from exc
    return TensorResult(e.name, a.name, exp.shape, act.shape, exp.dtype.name,
                        act.dtype.name, atol, rtol, values)


def _same_name(e: TensorRef, a: TensorRef) -> bool:
    """Whether the pair matches by name or by file stem."""
    return e.name == a.name or (e.stem is not None and e.stem == a.stem)


def _tensor_names(e: TensorRef, a: TensorRef) -> list[str]:
    return [n for n in (e.name, a.name, e.stem, a.stem) if n]


def _rule_applies(rule_name: str, names: list[str], glob: bool) -> bool:
    if glob:
        return any(fnmatch.fnmatchcase(n, rule_name) for n in names)
    return rule_name in names


def _tolerance(e, a, rules, atol, rtol) -> tuple[float, float]:
    return tolerance_for(_tensor_names(e, a), rules, atol, rtol)


def tolerance_for(names: list[str], rules, atol: float,
                  rtol: float) -> tuple[float, float]:
    """The tolerance of a tensor known by ``names``: an exact-name rule
    (from :func:`parse_tolerance`), else a glob rule, else the global one."""
    for glob in (False, True):
        for rule_name, r_atol, r_rtol in rules:
            if _rule_applies(rule_name, names, glob):
                return r_atol, r_rtol
    return atol, rtol


def _check_rules_used(rules, pairs) -> None:
    for rule_name, _, _ in rules:
        if not any(_rule_applies(rule_name, _tensor_names(e, a), glob)
                   for e, a in pairs for glob in (False, True)):
            raise UsageError(f"--tol {rule_name!r} matches no compared tensor")


def _names(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"[{shown}{more}]"


def write_report(path: str, report: Report) -> None:
    write_json(path, report.to_dict())


# -- the table ----------------------------------------------------------------

COLUMNS = [  # header, key, format
    ("max_abs", "max_abs_err", "g"), ("max_rel", "max_rel_err", "g"),
    ("mean_abs", "mean_abs_err", "g"), ("rmse", "rmse", "g"),
    ("cosine", "cosine", "cos"), ("<=1e-3", "within_1e-3", "pct"),
    ("<=5e-3", "within_5e-3", "pct"), ("lite_bias", "mean_bias", "pct"),
]


def format_report(report: Report) -> str:
    """An aligned text table, one row per tensor, and a summary."""
    header = ["tensor", "shape", *(c[0] for c in COLUMNS), "nan e/a",
              "inf e/a", "mismatch", "result"]
    rows = [header] + [_row(r) for r in report.results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths)))
             for row in rows]
    return "\n".join(lines + _summary(report))


def _row(result: TensorResult) -> list[str]:
    v = result.values
    shape = _shape(result.expected_shape)
    if result.expected_shape != result.actual_shape:
        shape += f" vs {_shape(result.actual_shape)}"
    name = result.name
    if result.actual_name != result.name:
        name += f" = {result.actual_name}"
    mismatches = "-" if v["mismatches"] is None else str(v["mismatches"])
    verdict = "ok" if result.passed else "FAIL"
    return [name, shape, *(_cell(v[key], fmt) for _, key, fmt in COLUMNS),
            f"{v['nan_expected']}/{v['nan_actual']}",
            f"{v['inf_expected']}/{v['inf_actual']}", mismatches, verdict]


def _summary(report: Report) -> list[str]:
    failed = sum(not r.passed for r in report.results)
    own = sum((r.atol, r.rtol) != (report.atol, report.rtol)
              for r in report.results)
    note = f"; {own} with a --tol tolerance" if own else ""
    lines = [f"{len(report.results)} tensor(s) compared (atol {report.atol:g},"
             f" rtol {report.rtol:g}{note}): {len(report.results) - failed} "
             f"passed, {failed} failed"]
    if report.by_position:
        only = report.results[0]
        lines.append(f"paired by position: EXPECTED's only tensor "
                     f"{only.name!r} with ACTUAL's only tensor "
                     f"{only.actual_name!r} (their names differ)")
    if report.only_expected:
        lines.append(f"only in EXPECTED (not compared): "
                     f"{_names(report.only_expected)}")
    if report.only_actual:
        lines.append(f"only in ACTUAL (not compared): "
                     f"{_names(report.only_actual)}")
    return lines


def _shape(shape) -> str:
    return "x".join(map(str, shape)) if shape else "scalar"


def _cell(value, fmt: str) -> str:
    if value is None:
        return "-"
    if fmt == "pct":
        return f"{value * 100:.2f}%"
    if fmt == "cos":
        return f"{value:.6f}"
    return f"{value:.3g}"
