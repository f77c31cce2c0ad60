"""``refinfer run MODEL [--input FILE ...] [--input-shapes SHAPES]
[--output-dir DIR] [--seed N] [--loop-count N] [--threads N]
[--backend numba|reference] [--target cpu|gpu] [--json [FILE]]
[--distributed [--ranks N]] [--float64 [--cast-outputs]]``: run a model and
print its outputs in Lite's quick-start format, with their shape and dtype;
on the GPU target also the last predict's host crossings."""
from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

from .. import __version__, distributed
from ..tools.metrics import stats
from ..tools.tensorio import json_safe
from .options import (UsageError, add_input_shapes, add_json_arg,
                      add_precision_args, add_run_settings, build_model,
                      emit_json, model_inputs, precision, random_note)

PRINTED_VALUES = 50


def add(sub) -> None:
    run = sub.add_parser("run", help="run a model and print its outputs")
    run.add_argument("--version", action="version",
                     version=f"refinfer {__version__}")
    run.add_argument("model", help=".mindir file")
    run.add_argument("--input", nargs="+", metavar="FILE",
                     help="one file per input: .npy, ARCHIVE.npz:KEY (one "
                     "array of an .npz, as golden/ops/<case>/arrays.npz holds "
                     "them), or raw .bin like Lite's benchmark (default: "
                     "seeded random data)")
    add_input_shapes(run)
    run.add_argument("--output-dir", metavar="DIR",
                     help="also write each output as output_<i>.npy and .bin")
    run.add_argument("--seed", type=int, default=0,
                     help="seed of the random inputs (default 0)")
    run.add_argument("--loop-count", "--loopCount", dest="loop_count", type=int,
                     metavar="N", help="predict N times and print the latency "
                     "(min, max, avg)")
    add_run_settings(run)
    add_json_arg(run)
    run.add_argument("--distributed", action="store_true",
                     help="a sliced model: MODEL names each rank's file with "
                     "{rank}; run under mpirun -n N (or give --ranks); "
                     "prints every rank's outputs, rank by rank")
    run.add_argument("--ranks", type=int, metavar="N",
                     help="with --distributed outside mpirun: run N ranks as "
                     "threads of this process")
    add_precision_args(run)
    run.set_defaults(command=command, name="run")


def command(args) -> int:
    if args.loop_count is not None and args.loop_count < 1:
        raise UsageError(f"--loop-count {args.loop_count}: expected 1 or more")
    if args.ranks is not None and not args.distributed:
        raise UsageError("--ranks N goes with --distributed")
    if not args.distributed:
        result = _run(args)
        print(random_note(result["inputs"]), end="", file=sys.stderr)
        _print(result, args.json)
        return 0
    if not distributed.launched_by_mpi() and (args.ranks or 0) < 1:
        raise UsageError("--distributed outside mpirun: say how many ranks to "
                         "run as threads (--ranks N), or launch with mpirun -n N")
    # Every rank runs its own file on the same inputs (docs/distributed.md);
    # ranks gather text: each sends its printed text and report as JSON.
    gathered = distributed.each_rank(args.ranks, lambda: _rank_json(args))
    if gathered is None:    # an MPI rank but 0
        return 0
    ranks = [json.loads(text) for text in gathered]
    print(random_note(ranks[0]["report"]["inputs"]), end="", file=sys.stderr)
    if args.json:
        emit_json(args.json, [r["report"] for r in ranks])
    if args.json != "-":
        for rank, r in enumerate(ranks):
            print(f"rank {rank}:\n{r['text']}", end="")
    return 0


def _rank_json(args) -> str:
    """One rank's run: its text and its JSON report, as JSON text."""
    result = _run(args)
    return json.dumps(json_safe({"text": _text(result), "report": _json(result)}))


def _print(result: dict, json_target: str | None) -> None:
    if json_target:
        emit_json(json_target, _json(result))
    if json_target != "-":
        print(_text(result), end="")


def _run(args) -> dict:
    """Run the model (``--loop-count`` times); its outputs and timings."""
    oracle = {"precision": precision(args),
              "cast_outputs": str(args.cast_outputs).lower()}
    model = build_model(args.model, args, {"refinfer": oracle})
    arrays, source = model_inputs(model, args.input, args.seed,
                                  args.input_shapes)
    times = []
    for _ in range(args.loop_count or 1):
        start = time.perf_counter()
        outputs = model.predict(arrays)
        times.append(time.perf_counter() - start)
    if args.output_dir:
        directory = os.path.join(args.output_dir, "rank{rank}") \
            if args.distributed else args.output_dir
        _save_outputs(distributed.expand_rank(directory),
                      [o.get_data_to_numpy() for o in outputs])
    return {"model": args.model, "backend": args.backend,
            "threads": args.threads, "inputs": source,
            "outputs": [(o.name, o.data_size, o.element_num,
                         o.get_data_to_numpy()) for o in outputs],
            "latency_ms": _latency(times) if args.loop_count else None,
            "host_transfers": model.host_transfers()}


def _latency(seconds: list[float]) -> dict:
    ms = [1000 * s for s in seconds]
    return {"loop_count": len(ms), "min": min(ms), "max": max(ms),
            "avg": sum(ms) / len(ms)}


def _text(result: dict) -> str:
    text = "".join(_output_text(*output) for output in result["outputs"])
    moved = result.get("host_transfers")
    if moved is not None:
        text += (f"host crossings of the last predict: {moved['copies']} "
                 f"({moved['to_device']} to the device, "
                 f"{moved['to_device_bytes']} bytes; {moved['to_host']} to the "
                 f"host, {moved['to_host_bytes']} bytes); cuda kernels "
                 f"declined: {moved['declined']} ({moved['declined_copies']} "
                 f"of the copies)\n")
    latency = result["latency_ms"]
    if latency:
        text += (f"latency over {latency['loop_count']} predict(s): min "
                 f"{latency['min']:.3f} ms, max {latency['max']:.3f} ms, avg "
                 f"{latency['avg']:.3f} ms ({result['backend']} backend, "
                 f"threads {result['threads'] or 'all'})\n")
    return text


def _json(result: dict) -> dict:
    outputs = [{"name": name, "shape": list(data.shape),
                "dtype": data.dtype.name, "data_size": data_size,
                "element_num": element_num, **stats(data),
                "first_values": data.reshape(-1)[:PRINTED_VALUES].tolist()}
               for name, data_size, element_num, data in result["outputs"]]
    return {**result, "outputs": outputs}


def _output_text(name, data_size, element_num, data: np.ndarray) -> str:
    """MindSpore Lite's quick-start format, with the shape and dtype."""
    values = data.reshape(-1)[:PRINTED_VALUES]
    return (f"tensor's name is:{name} data size is:{data_size} tensor elements "
            f"num is:{element_num} shape is:{list(data.shape)} dtype is:"
            f"{data.dtype.name}\noutput data is: "
            f"{' '.join(str(v) for v in values)} \n")


def _save_outputs(directory: str, arrays: list[np.ndarray]) -> None:
    os.makedirs(directory, exist_ok=True)
    for k, array in enumerate(arrays):
        np.save(os.path.join(directory, f"output_{k}.npy"), array)
        array.tofile(os.path.join(directory, f"output_{k}.bin"))
