"""Layer by layer: refinfer's fast plan against ONNX Runtime's profiler.

    .venv/bin/python tools/bench_layers.py [--model mobilenetv2] [--batch 1]
        [--threads 1] [--runs 50] [--rounds 3] [--top 25] [--markdown FILE]

Where a model's time goes, and where it goes beyond ONNX Runtime's (issue 15:
"close the gap at the source, measured per op"). refinfer runs its fused
plan as predict does, each kernel step timed; ONNX Runtime runs the same
model's ONNX export (``golden_big/bench/<model>/``, see tools/bench.py) with
its own profiler on. Both run in this process at the same thread count, in
turns (``--rounds`` of ``--runs`` predicts each), so a noisy machine slows
both alike; ONNX Runtime's threads do not spin between its runs here.

A layer is matched to its peer of the same family (a convolution, a product,
else the same op) by the sizes of its activation and its result (engines
may reshape them), in the order both run them, then by the activation's
size alone. A step of n fused convolutions (an inverted residual block) is
matched to the n convolutions ONNX Runtime runs in a row from the same
activation to the same result, summed. The table lists the matched layers
with the largest gap first, then a summary by kind (1x1, kxk and depthwise
convolutions, fused convolutions, products, the rest).
Times are per predict, medians over the rounds; the steps' sum is below the
predict's time by the executor's per-node cost.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from bench import BENCH_DIR, machine, versions
from refinfer.ops._kernels.conv import WinogradFilter
from refinfer.ops._kernels.packed import PackedChannels, PackedWeight


@dataclass
class Layer:
    op: str
    activation: tuple       # the shape of the first tensor it reads
    weight: tuple           # its weight's shape, () without one
    ms: float               # per predict
    output: tuple = ()      # its (first) result's shape

    @property
    def family(self) -> str:
        """What the engines agree on: a convolution, a product, or else
        the (first) op's name."""
        op = self.op.split("+")[0]
        if "Conv" in op:
            return "conv"
        return "product" if "MatMul" in op or "Gemm" in op else op

    @property
    def sizes(self) -> tuple[int, int]:
        """The sizes of its activation and result (engines may reshape
        them: [1, 128, 768] for [128, 768])."""
        return (int(np.prod(self.activation, dtype=np.int64)),
                int(np.prod(self.output, dtype=np.int64)))

    @property
    def convolutions(self) -> int:
        """How many convolutions the layer fuses."""
        return sum("Conv" in op for op in self.op.split("+"))

    @property
    def kind(self) -> str:
        if self.convolutions > 1:
            return "fused convolutions"
        if self.family == "conv" and len(self.weight) == 4:
            if self.weight[1] == 1 and self.activation[1] != 1:
                return "depthwise conv"
            return "1x1 conv" if self.weight[2:] == (1, 1) else "kxk conv"
        return self.family if self.family in ("conv", "product") else "other"


# -- refinfer ---------------------------------------------------------------------
class _TimedSteps:
    """The main plan's kernel steps, each wrapped to add its time to
    ``seconds`` and to note the shape of its first tensor argument."""

    def __init__(self, plan):
        self.steps = [s for s in plan.steps if hasattr(s, "fn")]
        self.kernels = [step.fn for step in self.steps]
        self.seconds = [0.0] * len(self.steps)
        self.activations: list[tuple] = [()] * len(self.steps)
        self.outputs: list[tuple] = [()] * len(self.steps)
        for k, step in enumerate(self.steps):
            step.fn = self._timed(step.fn, k)

    def restore(self) -> None:
        """Give the steps back their own kernels."""
        for step, kernel in zip(self.steps, self.kernels):
            step.fn = kernel

    def _timed(self, fn, k):
        def run(*args):
            start = time.perf_counter()
            result = fn(*args)
            self.seconds[k] += time.perf_counter() - start
            if not self.activations[k]:
                self.activations[k] = next((a.shape for a in args
                                            if isinstance(a, np.ndarray)), ())
                self.outputs[k] = np.shape(result[0] if isinstance(
                    result, tuple) else result)
            return result
        return run

    def layers(self, runs: int) -> list[Layer]:
        return [Layer(step.node.op_name, self.activations[k],
                      _weight_shape(step), 1e3 * self.seconds[k] / runs,
                      self.outputs[k])
                for k, step in enumerate(self.steps)]


def _weight_shape(step) -> tuple:
    """The shape of the step's first constant tensor (a Winograd filter
    or a packed weight counts by the weight it holds)."""
    dynamic = {pos for pos, _ in step.places}
    for pos, value in enumerate(step.template):
        if pos not in dynamic and isinstance(
                value, (np.ndarray, PackedWeight, PackedChannels,
                        WinogradFilter)) \
                and len(value.shape) >= 2:
            return tuple(value.shape)
    return ()


def refinfer_layers(path: str, x: np.ndarray, threads: int,
                    runs: int) -> tuple:
    """(run, layers): ``run(runs)`` times ``runs`` predicts' steps and
    returns their layers."""
    from refinfer import threads as pool
    from refinfer.runtime import LoadedModel
    loaded = LoadedModel(path, "numba", threads=pool.configure(threads))
    loaded.run([x])

    def run(count: int) -> list[Layer]:
        timed = _TimedSteps(loaded.program.plans[loaded.program.main])
        try:
            for _ in range(count):
                loaded.run([x])
        finally:
            timed.restore()
        return timed.layers(count)
    return run


# -- ONNX Runtime -----------------------------------------------------------------
def ort_layers(path: str, x: np.ndarray, threads: int):
    """Like :func:`refinfer_layers`, from ONNX Runtime's own profile."""
    import onnxruntime as ort

    def run(count: int) -> list[Layer]:
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.enable_profiling = True
        options.profile_file_prefix = os.path.join(tempfile.gettempdir(),
                                                   f"ort_{os.getpid()}")
        session = ort.InferenceSession(path, options,
                                       providers=["CPUExecutionProvider"])
        feed = {session.get_inputs()[0].name: x}
        session.run(None, feed)     # (its first run is in the profile too)
        for _ in range(count):
            session.run(None, feed)
        profile = session.end_profiling()
        with open(profile) as f:
            events = json.load(f)
        os.remove(profile)
        return _profile_layers(events, count + 1)
    return run


def _profile_layers(events: list, runs: int) -> list[Layer]:
    """ONNX Runtime's node events, one Layer per node (in run order)."""
    total, first = defaultdict(float), {}
    for event in events:
        if event.get("cat") != "Node" or not event["name"].endswith("_kernel_time"):
            continue
        total[event["name"]] += event["dur"]
        first.setdefault(event["name"], event)
    layers = []
    for name, event in first.items():
        shapes, outputs = (
            [tuple(next(iter(s.values()))) for s in event["args"].get(key, [])]
            for key in ("input_type_shape", "output_type_shape"))
        layers.append(Layer(event["args"].get("op_name", "?"),
                            shapes[0] if shapes else (),
                            shapes[1] if len(shapes) > 1 else (),
                            total[name] / runs / 1e3,
                            outputs[0] if outputs else ()))
    return layers


# -- report -----------------------------------------------------------------------
# what pairs a layer with its peer, tried in turn on the layers left (ONNX
# Runtime's profile leaves out the weights it packed ahead, a Gemm's)
MATCHES = (lambda layer: (layer.family, layer.sizes),
           lambda layer: (layer.family, layer.sizes[0]))


def match(mine: list[Layer], peers: list[Layer]) -> list[tuple]:
    """(mine, peer) pairs found by :data:`MATCHES`, each in run order
    (after :func:`merge_fused`); layers without a peer are paired with None
    (on either side)."""
    pairs, peers = [], merge_fused(mine, peers)
    for key in MATCHES:
        found, mine, peers = _pairs(mine, peers, key)
        pairs += found
    return pairs + [(layer, None) for layer in mine] \
        + [(None, peer) for peer in peers]


def merge_fused(mine: list[Layer], peers: list[Layer]) -> list[Layer]:
    """``peers`` with each run of consecutive convolutions that one of my
    fused steps covers (as many, from the sizes of its activation to those
    of its result, the first such run after the last one merged) merged
    into one layer, their times summed."""
    peers, start = list(peers), 0
    for layer in mine:
        count = layer.convolutions
        if count < 2:
            continue
        for k in range(start, len(peers) - count + 1):
            run = peers[k:k + count]
            if all(peer.family == "conv" for peer in run) \
                    and run[0].sizes[0] == layer.sizes[0] \
                    and run[-1].sizes[1] == layer.sizes[1]:
                peers[k:k + count] = [Layer(
                    "+".join(peer.op for peer in run), run[0].activation, (),
                    sum(peer.ms for peer in run), run[-1].output)]
                start = k + 1
                break
    return peers


def _pairs(mine: list[Layer], peers: list[Layer], key) -> tuple:
    """(pairs of equal keys in order, my layers left, peers left)."""
    waiting = defaultdict(list)
    for peer in peers:
        waiting[key(peer)].append(peer)
    pairs, alone = [], []
    for layer in mine:
        if waiting[key(layer)]:
            pairs.append((layer, waiting[key(layer)].pop(0)))
        else:
            alone.append(layer)
    return pairs, alone, [peer for left in waiting.values() for peer in left]


def median_layers(rounds: list[list[Layer]]) -> list[Layer]:
    """Each layer with its median time over the rounds (the rounds list
    the same layers in the same order)."""
    return [Layer(first.op, first.activation, first.weight,
                  float(np.median([r[k].ms for r in rounds])), first.output)
            for k, first in enumerate(rounds[0])]


def report(pairs: list[tuple], top: int, header: str) -> str:
    rows = sorted((p for p in pairs if p[0] and p[1]),
                  key=lambda p: p[1].ms - p[0].ms)
    lines = [header, "",
             "| layer | activation | weight | refinfer ms | ORT ms | ratio |",
             "|---|---|---|---|---|---|"]
    for mine, peer in rows[:top]:
        lines.append(f"| {mine.op} | {list(mine.activation)} | "
                     f"{list(mine.weight)} | {mine.ms:.3f} | {peer.ms:.3f} | "
                     f"{mine.ms / peer.ms:.2f} |")
    lines += ["", "| kind | layers | refinfer ms | ORT ms | ratio |",
              "|---|---|---|---|---|"]
    kinds = defaultdict(lambda: [0, 0.0, 0.0])
    for mine, peer in pairs:
        layer = mine or peer
        kind = layer.kind if mine and peer else (
            "refinfer only" if mine else "ORT only")
        entry = kinds[kind]
        entry[0] += 1
        entry[1] += mine.ms if mine else 0.0
        entry[2] += peer.ms if peer else 0.0
    for kind, (count, mine_ms, peer_ms) in sorted(kinds.items()):
        shown = f"{mine_ms / peer_ms:.2f}" if mine_ms and peer_ms else "-"
        lines.append(f"| {kind} | {count} | {mine_ms:.2f} | {peer_ms:.2f} | "
                     f"{shown} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="mobilenetv2")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--markdown", metavar="FILE")
    args = parser.parse_args(argv)
    folder = os.path.join(BENCH_DIR, args.model)
    stem = os.path.join(folder, f"{args.model}_b{args.batch}")
    if not os.path.exists(stem + ".mindir") or not os.path.exists(stem + ".onnx"):
        parser.error(f"{stem}.mindir and .onnx are missing: run tools/bench.py "
                     f"--models {args.model} --batches {args.batch} once to "
                     "export them")
    try:
        import onnxruntime  # noqa: F401  (a peer is what this tool is for)
    except ImportError:
        parser.error("ONNX Runtime is not installed (pip install '.[bench]')")
    x = np.load(os.path.join(folder, f"input_b{args.batch}.npy"))
    engines = (refinfer_layers(stem + ".mindir", x, args.threads, args.runs),
               ort_layers(stem + ".onnx", x, args.threads))
    rounds = ([], [])
    for _ in range(args.rounds):
        for engine, done in zip(engines, rounds):
            done.append(engine(args.runs))
    pairs = match(*(median_layers(done) for done in rounds))
    text = report(pairs, args.top, f"{args.model}, batch {args.batch}, "
                  f"{args.threads} thread(s). Machine: {machine()}; "
                  f"{versions()}.")
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
