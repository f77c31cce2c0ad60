"""MindSpore Lite's ``benchmark`` tool on refinfer: the timing loops, the
per-kernel time profile and the accuracy check against a calibration file,
each printing what Lite prints (tools/benchmark/benchmark_base.cc and
benchmark_unified_api.cc in MindSpore).

The command line is ``refinfer benchmark`` (refinfer/cli/benchmark.py);
the pieces here work on any ``refinfer.Model``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from . import metrics
from .tensorio import read_calibration

PRINTED_VALUES = 5          # Lite's kNumPrintMin: values shown per output
PRINTED_INPUT_VALUES = 20   # Lite's kPrintDataNum: values shown per input
COLUMN_PAD = 4              # Lite's kColumnLen
RULE = "-" * 73
BANNER = "=" * 55


def lite_number(value: float) -> str:
    """A float as C++'s ``std::cout`` prints it (``%g``, 6 digits)."""
    return f"{value:g}"


@dataclass
class Latency:
    """Wall-clock times of predict calls, in milliseconds."""
    times_ms: list[float] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.times_ms.append(1000.0 * seconds)

    def summary(self) -> dict:
        t = self.times_ms
        return {"loop_count": len(t), "min": min(t), "max": max(t),
                "avg": sum(t) / len(t)}

    def lite_line(self, model_name: str, threads: int) -> str:
        s = self.summary()
        return (f"Model = {model_name}, NumThreads = {threads}, MinRunTime = "
                f"{s['min']:f} ms, MaxRuntime = {s['max']:f} ms, AvgRunTime = "
                f"{s['avg']:f} ms")


def timed_loops(predict, count: int, latency: Latency | None = None,
                progress=None) -> Latency:
    """Call ``predict()`` ``count`` times, timing each call;
    ``progress.update(1)`` after each when given (a tqdm bar)."""
    latency = latency or Latency()
    for _ in range(count):
        start = time.perf_counter()
        predict()
        latency.add(time.perf_counter() - start)
        if progress is not None:
            progress.update(1)
    return latency


class TimeProfile:
    """Lite's ``--timeProfiling``: kernel callbacks (``Model.predict``'s
    ``before``/``after``) that add up each kernel's time, by kernel name and
    by op type, over all the predicts they see."""

    def __init__(self):
        self.by_name: dict[str, list] = {}     # name -> [calls, total ms]
        self.by_type: dict[str, list] = {}
        self._start = 0.0

    def before(self, inputs, outputs, param) -> bool:
        self._start = time.perf_counter()
        return True

    def after(self, inputs, outputs, param) -> bool:
        elapsed_ms = 1000.0 * (time.perf_counter() - self._start)
        for table, key in ((self.by_name, param.node_name),
                           (self.by_type, param.node_type)):
            entry = table.setdefault(key, [0, 0.0])
            entry[0] += 1
            entry[1] += elapsed_ms
        return True

    def rows(self, by_type: bool, loop_count: int) -> list[dict]:
        """One row per kernel (or op type), in Lite's order (by name):
        average ms per predict, share of all kernel time, calls, total ms."""
        table = self.by_type if by_type else self.by_name
        total = sum(ms for _, ms in table.values()) or 1.0
        return [{"name": key, "avg_ms": ms / loop_count, "percent": ms / total,
                 "called_times": calls, "total_ms": ms}
                for key, (calls, ms) in sorted(table.items())]

    def lite_table(self, by_type: bool, loop_count: int) -> str:
        """Lite's ``PrintResult``: a rule, a title row, one row each;
        columns tab-separated, padded to the widest cell plus 4."""
        title = ["opType" if by_type else "opName", "avg(ms)", "percent",
                 "calledTimes", "opTotalTime"]
        rows = [[r["name"], f"{r['avg_ms']:f}", f"{r['percent']:f}",
                 str(r["called_times"]), f"{r['total_ms']:f}"]
                for r in self.rows(by_type, loop_count)]
        widths = [max([len(title[k])] + [len(r[k]) + COLUMN_PAD for r in rows])
                  for k in range(len(title))]
        lines = [RULE] + ["".join(cell.ljust(w) + "\t"
                                  for cell, w in zip(row, widths))
                          for row in [title, *rows]]
        return "\n".join(lines)


@dataclass
class TensorCheck:
    """One output against its calibration tensor."""
    name: str
    mean_bias: float                # a fraction, as metrics.mean_bias
    cosine: float
    first_values: list

    def lite_lines(self) -> list[str]:
        values = "".join(f"{lite_number(v)} " for v in self.first_values)
        bias = ("0" if self.mean_bias <= 1e-7
                else lite_number(100 * self.mean_bias))
        return [f"Data of node {self.name} : {values}",
                f"Mean bias of node/tensor {self.name} : {bias}%"]


@dataclass
class Accuracy:
    """Lite's accuracy verdict: the mean over tensors of their mean bias,
    in percent, must not exceed ``threshold`` (``--accuracyThreshold``);
    with a cosine threshold >= -1, the mean cosine similarity must not be
    below it."""
    tensors: list[TensorCheck]
    threshold: float
    cosine_threshold: float

    @property
    def mean_bias_percent(self) -> float:
        biases = [t.mean_bias for t in self.tensors]
        return 100 * float(np.float32(sum(biases)) / np.float32(len(biases)))

    @property
    def mean_cosine(self) -> float:
        return sum(t.cosine for t in self.tensors) / len(self.tensors)

    @property
    def uses_cosine(self) -> bool:
        return self.cosine_threshold >= -1

    @property
    def passed(self) -> bool:
        if not self.mean_bias_percent <= self.threshold:    # NaN/inf fail
            return False
        return not self.uses_cosine or self.mean_cosine >= self.cosine_threshold

    def lite_lines(self) -> list[str]:
        lines = ["================ Comparing Output data ================"]
        for tensor in self.tensors:
            lines += tensor.lite_lines()
        lines += [f"Mean bias of all nodes/tensors: "
                  f"{lite_number(self.mean_bias_percent)}%", BANNER, ""]
        if self.uses_cosine:
            lines += [f"Cosine distance of all nodes/tensors: "
                      f"{self.mean_cosine:.15g}", BANNER, ""]
        return lines

    def failure(self) -> str:
        """Lite's message for a failed check ("" when it passed)."""
        if not self.mean_bias_percent <= self.threshold:
            return (f"Mean bias of all nodes/tensors is too big: "
                    f"{lite_number(self.mean_bias_percent)}% (threshold "
                    f"{lite_number(self.threshold)}%)")
        if self.uses_cosine and self.mean_cosine < self.cosine_threshold:
            return (f"cosine distance of all nodes/tensors is too small: "
                    f"{self.mean_cosine:.15g} (threshold "
                    f"{lite_number(self.cosine_threshold)})")
        return ""

    def to_dict(self) -> dict:
        return {"passed": self.passed,
                "mean_bias_percent": self.mean_bias_percent,
                "accuracy_threshold": self.threshold,
                "mean_cosine": self.mean_cosine if self.uses_cosine else None,
                "cosine_threshold": self.cosine_threshold,
                "tensors": [{"name": t.name, "mean_bias_percent":
                             100 * t.mean_bias, "cosine": t.cosine}
                            for t in self.tensors]}


def check_accuracy(outputs: dict[str, np.ndarray], calibration: str,
                   threshold: float, cosine_threshold: float) -> Accuracy:
    """``outputs`` (name -> array) against the Lite calibration file
    ``calibration``: every tensor of the file must be an output of that
    name and shape (ValueError naming it otherwise)."""
    checks = []
    for ref in read_calibration(calibration):
        if ref.name not in outputs:
            raise ValueError(
                f"{calibration}: tensor {ref.name!r} is not an output of the "
                f"model (its outputs: {', '.join(map(repr, outputs))})")
        actual, expected = outputs[ref.name], ref.load()
        if tuple(actual.shape) != tuple(expected.shape):
            raise ValueError(
                f"{calibration}: tensor {ref.name!r} has shape "
                f"{list(expected.shape)}, the model's output has "
                f"{list(actual.shape)}")
        cosine = (metrics.cosine_similarity(actual, expected) if actual.size
                  else 1.0)
        checks.append(TensorCheck(
            ref.name, metrics.mean_bias(actual, expected),
            cosine if not math.isnan(cosine) else -1.0,
            actual.reshape(-1)[:PRINTED_VALUES].astype(np.float64).tolist()))
    return Accuracy(checks, threshold, cosine_threshold)


def input_lines(arrays: list[np.ndarray]) -> list[str]:
    """Lite's ``PrintInputData``: ``InData i: `` and the first values."""
    return [f"InData {k}: " + "".join(
        f"{lite_number(v) if a.dtype.kind == 'f' else v} "
        for v in a.reshape(-1)[:PRINTED_INPUT_VALUES].tolist())
        for k, a in enumerate(arrays)]
