"""``refinfer benchmark --modelFile=MODEL [Lite's flags]``: MindSpore Lite's
``benchmark`` tool, flag for flag, with its defaults and the lines it
prints, so that scripts written for it run by changing the command name
(docs/cli.md). Each flag also has a Pythonic spelling (``--loop-count``).

Two differences from Lite: with a calibration file refinfer checks the
accuracy *and* runs the timing loops (Lite only checks), and
``--enableFp16`` is accepted but computes in float32 (a note says so).
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from ..api import Context, ModelParallelRunner
from ..tools.benchmark import (Latency, TimeProfile, check_accuracy,
                               input_lines, lite_number, timed_loops)
from ..tools.progress import progress_bar
from .options import (UsageError, add_input_shapes, add_json_arg,
                      add_progress_arg, build_model, emit_json, model_inputs,
                      random_note)

CPU_BIND_MODES = ("NO_BIND", "HIGHER_CPU", "MID_CPU")
CALIBRATION_TYPES = ("FLOAT", "INT32", "INT8", "UINT8")
DEC_MODES = ("AES-GCM", "AES-CBC", "SM4-CBC")


def add(sub) -> None:
    bench = sub.add_parser(
        "benchmark", help="MindSpore Lite's benchmark: time a model, check it "
        "against calibration outputs, profile it per op")
    flag = bench.add_argument
    flag("--modelFile", "--model-file", dest="model", required=True,
         metavar="MODEL", help=".mindir file")
    flag("--modelType", "--model-type", dest="model_type", default="MindIR",
         help="MindIR (default); MindIR_Lite (.ms) needs MindSpore Lite")
    flag("--inDataFile", "--in-data-file", dest="in_data_file", default="",
         metavar="FILES", help="raw .bin (or .npy, ARCHIVE.npz:KEY) inputs, "
         "comma or space "
         "separated (default: random data in Lite's ranges, seeded)")
    add_input_shapes(bench)
    flag("--seed", type=int, default=0, help="seed of the random inputs "
         "(default 0)")
    flag("--benchmarkDataFile", "--benchmark-data-file", dest="calibration",
         default="", metavar="FILE", help="Lite calibration text of the "
         "expected outputs: check the accuracy (refinfer golden writes one)")
    flag("--benchmarkDataType", "--benchmark-data-type", dest="calib_type",
         default="FLOAT", type=str.upper, choices=CALIBRATION_TYPES,
         help="accepted for Lite's scripts: outputs are compared in their "
         "own dtype")
    flag("--accuracyThreshold", "--accuracy-threshold", dest="threshold",
         type=float, default=0.5, help="largest mean bias, in percent "
         "(default 0.5)")
    flag("--cosineDistanceThreshold", "--cosine-distance-threshold",
         dest="cosine_threshold", type=float, default=-1.1,
         help="smallest mean cosine similarity (default -1.1: not checked)")
    flag("--loopCount", "--loop-count", dest="loop_count", type=int,
         default=10, help="timed predicts (default 10)")
    flag("--warmUpLoopCount", "--warm-up-loop-count", dest="warmup",
         type=int, default=3, help="untimed predicts first (default 3)")
    flag("--numThreads", "--num-threads", dest="threads", type=int,
         default=2, help="threads per predict (default 2)")
    flag("--cpuBindMode", "--cpu-bind-mode", dest="bind_mode", type=int,
         default=1, choices=range(3), help="Lite's 0 no binding, 1 big cores "
         "first (default), 2 middle cores: accepted and printed; refinfer "
         "binds threads only to a core list (context.cpu)")
    flag("--enableFp16", "--enable-fp16", dest="fp16", type=_boolean,
         nargs="?", const=True, default=False, help="accepted; refinfer "
         "computes in float32")
    flag("--timeProfiling", "--time-profiling", dest="time_profiling",
         type=_boolean, nargs="?", const=True, default=False,
         help="time every kernel (kernel callbacks): a table per op and one "
         "per op type")
    flag("--enableParallelPredict", "--enable-parallel-predict",
         dest="parallel", type=_boolean, nargs="?", const=True, default=False,
         help="predict through ModelParallelRunner")
    flag("--workersNum", "--workers-num", dest="workers", type=int, default=2,
         help="ModelParallelRunner's workers (default 2)")
    flag("--parallelNum", "--parallel-num", dest="clients", type=int,
         default=2, help="client threads calling predict (default 2)")
    flag("--parallelTaskNum", "--parallel-task-num", dest="tasks", type=int,
         default=2, help="predicts per client thread (default 2)")
    flag("--decryptKey", "--dec-key", dest="dec_key", default="",
         metavar="HEX", help="key of an encrypted model, in hex")
    flag("--dec-mode", "--decryptMode", dest="dec_mode", default="AES-GCM",
         choices=DEC_MODES, help="cipher of an encrypted model (default "
         "AES-GCM)")
    flag("--cryptoLibPath", "--crypto-lib-path", dest="crypto_lib",
         default="", help="accepted for Lite's scripts: refinfer decrypts "
         "with the cryptography package")
    flag("--device", default="CPU", type=str.upper, help="CPU (default)")
    flag("--backend", choices=("numba", "reference"), default="numba",
         help="numba: compiled kernels (default); reference: NumPy")
    add_json_arg(bench)
    add_progress_arg(bench)
    bench.set_defaults(command=command, name="benchmark")


def _boolean(text: str) -> bool:
    """Lite's boolean flags: ``--timeProfiling=true`` (or a bare flag)."""
    value = text.strip().lower()
    if value not in ("true", "false", "1", "0"):
        raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")
    return value in ("true", "1")


def command(args) -> int:
    _check_usage(args)
    say = _printer(args.json == "-")
    name = os.path.basename(args.model)
    for line in _settings_lines(args):
        say(line)
    if args.fp16:
        print("refinfer benchmark: note: --enableFp16 asks Lite to prefer "
              "float16 kernels; refinfer computes in float32", file=sys.stderr)
    start = time.perf_counter()
    model = _parallel_runner(args) if args.parallel else build_model(
        args.model, args, dec_key=_key(args.dec_key), dec_mode=args.dec_mode)
    arrays, source = model_inputs(model, _in_files(args.in_data_file),
                                  args.seed, args.input_shapes)
    prepare_ms = 1000 * (time.perf_counter() - start)
    say("start unified benchmark run")
    say(f"PrepareTime = {lite_number(prepare_ms)} ms")
    say(random_note(source), end="")
    report = {"model": args.model, "device": "CPU", "threads": args.threads,
              "backend": args.backend, "inputs": source,
              "prepare_ms": prepare_ms}
    if args.parallel:
        report["latency_ms"] = _parallel(args, model, arrays, say).summary()
        return _finish(args, name, report, None, say)
    accuracy = None
    if args.calibration:
        accuracy = _mark_accuracy(args, model, arrays, say)
        report["accuracy"] = accuracy.to_dict()
    # Profiled predicts run the unfused plan (every kernel seen): warm up
    # the plan the timed loops run, so its kernels compile before them.
    say("Running warm up loops...")
    timed_loops(_predictor(model, arrays, args.time_profiling), args.warmup)
    say("Running benchmark loops...")
    profile = TimeProfile() if args.time_profiling else None
    with progress_bar(args.loop_count, "benchmark loops", args.progress,
                      unit="predict") as bar:
        latency = timed_loops(_predictor(model, arrays, profile),
                              args.loop_count, progress=bar)
    if profile:
        for by_type in (False, True):
            say(profile.lite_table(by_type, args.loop_count))
        report["profile"] = {
            "by_name": profile.rows(False, args.loop_count),
            "by_type": profile.rows(True, args.loop_count)}
    say(latency.lite_line(name, args.threads))
    report["latency_ms"] = latency.summary()
    return _finish(args, name, report, accuracy, say)


def _mark_accuracy(args, model, arrays, say):
    """Lite's MarkAccuracy: the inputs, one predict, its outputs against
    the calibration file."""
    say("MarkAccuracy")
    for line in input_lines(arrays):
        say(line)
    outputs = model.predict(arrays)
    accuracy = check_accuracy({o.name: o.get_data_to_numpy() for o in outputs},
                              args.calibration, args.threshold,
                              args.cosine_threshold)
    for line in accuracy.lite_lines():
        say(line)
    return accuracy


def _predictor(model, arrays, profile):
    """One predict; with kernel callbacks when ``profile`` is a
    TimeProfile (or True: a profile nobody reads, for the warm-up)."""
    if not profile:
        return lambda: model.predict(arrays)
    profile = TimeProfile() if profile is True else profile
    return lambda: model.predict(arrays, None, profile.before, profile.after)


def _check_usage(args) -> None:
    """Flag values argparse cannot check (Lite's own checks, and the ones
    refinfer cannot serve), as usage errors."""
    if args.device == "GPU":
        raise UsageError("--device GPU: GPU target not available yet; "
                         "refinfer runs on the CPU (--device CPU)")
    if args.device != "CPU":
        raise UsageError(f"--device {args.device}: Device type:{args.device} "
                         f"is not supported (refinfer runs on the CPU)")
    if args.model_type.lower() != "mindir":
        raise UsageError(f"--modelType {args.model_type}: refinfer reads "
                         f"MindIR models (.mindir); MindIR_Lite (.ms) files "
                         f"need MindSpore Lite")
    for flag, value, low in (("--loopCount", args.loop_count, 1),
                             ("--warmUpLoopCount", args.warmup, 0),
                             ("--numThreads", args.threads, 1),
                             ("--workersNum", args.workers, 1),
                             ("--parallelNum", args.clients, 1),
                             ("--parallelTaskNum", args.tasks, 1)):
        if value < low:
            raise UsageError(f"{flag} {value}: must be {low} or more")
    if args.parallel and (args.dec_key or args.time_profiling
                          or args.calibration):
        raise UsageError("--enableParallelPredict times ModelParallelRunner "
                         "only: it takes no --decryptKey, --timeProfiling or "
                         "--benchmarkDataFile")
    _key(args.dec_key)


def _key(text: str) -> bytes | None:
    if not text:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise UsageError(f"--decryptKey: expected hexadecimal digits, got "
                         f"{len(text)} character(s) that are not") from None


def _in_files(text: str) -> list[str]:
    """Lite splits ``--inDataFile`` on commas and whitespace."""
    return [f for f in text.replace(",", " ").split() if f]


def _printer(quiet: bool):
    """``print`` to stdout, or nothing when stdout takes the JSON."""
    return (lambda *a, **k: None) if quiet else print


def _settings_lines(args) -> list[str]:
    """The settings Lite prints first (BenchmarkBase::Init)."""
    lines = [f"ModelPath = {args.model}", f"ModelType = {args.model_type}",
             f"InDataPath = {args.in_data_file}", "ConfigFilePath = ",
             "InDataType = bin", f"LoopCount = {args.loop_count}",
             f"DeviceType = {args.device}",
             f"AccuracyThreshold = {lite_number(args.threshold)}",
             f"CosineDistanceThreshold = {lite_number(args.cosine_threshold)}",
             f"WarmUpLoopCount = {args.warmup}",
             f"NumThreads = {args.threads}", "InterOpParallelNum = 1",
             f"Fp16Priority = {int(args.fp16)}",
             f"EnableParallel = {int(args.parallel)}",
             f"calibDataPath = {args.calibration}", "EnableGLTexture = 0",
             f"cpuBindMode = {CPU_BIND_MODES[args.bind_mode]}"]
    if args.calibration:
        lines.append(f"CalibDataType = {args.calib_type}")
    return lines


def _parallel_runner(args) -> ModelParallelRunner:
    """A ModelParallelRunner with ``--workersNum`` workers."""
    if not os.path.exists(args.model):
        raise FileNotFoundError(f"{args.model}: no such model file")
    context = Context()
    context.cpu.thread_num = args.threads
    context.parallel.workers_num = args.workers
    runner = ModelParallelRunner()
    runner.build_from_file(args.model, context, config_dict={
        "refinfer": {"backend": args.backend}})
    return runner


def _parallel(args, runner, arrays, say) -> Latency:
    """``--parallelNum`` client threads each predict ``--parallelTaskNum``
    times through ``runner`` (Lite's lines)."""
    def predict():
        inputs = runner.get_inputs()
        for tensor, array in zip(inputs, arrays):
            tensor.set_data_from_numpy(array)
        runner.predict(inputs)
    for k in range(args.warmup):
        latency = timed_loops(predict, 1)
        say(f"warm up index: {k} | time: "
            f"{lite_number(latency.times_ms[0])} ms")
    latency, errors, lock = Latency(), [], threading.Lock()

    def client(index: int) -> None:
        try:
            for task in range(args.tasks):
                one = timed_loops(predict, 1)
                with lock:
                    latency.times_ms += one.times_ms
                    say(f"parallel index: {index} | task index: {task} | "
                        f"predict time: {lite_number(one.times_ms[0])} ms")
        except (RuntimeError, ValueError) as exc:
            errors.append(exc)
    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(k,))
               for k in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    say("=================================")
    say(f"parallel predict all time: "
        f"{lite_number(1000 * (time.perf_counter() - start))} ms")
    say("=================================")
    say(latency.lite_line(os.path.basename(args.model), args.threads))
    return latency


def _finish(args, name: str, report: dict, accuracy, say) -> int:
    """The JSON report, Lite's last line, the exit status."""
    failure = accuracy.failure() if accuracy else ""
    report["passed"] = not failure
    if args.json:
        emit_json(args.json, report)
    if failure:
        print(failure, file=sys.stderr)
        print(f"Run Benchmark {name} Failed : accuracy", file=sys.stderr)
        return 1
    say(f"Run Benchmark {name} Success.")
    return 0
