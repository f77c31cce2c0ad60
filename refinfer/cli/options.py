"""Options several subcommands share: a model and its inputs (files, random
data, ``--input-shapes``), how it runs (threads, backend), the output
folder, the float64 oracle, tolerances, progress bars, JSON output; and
:class:`UsageError`, the error of a wrong command line."""
from __future__ import annotations

import argparse
import json
import os

import numpy as np

from .. import distributed
from ..api import Context, Model, ModelType
from ..api.backend import BACKENDS, DEFAULT_BACKEND, SECTION
from ..api.enums import numpy_type
from ..errors import UsageError
from ..inputs import make_inputs
from ..runtime import IOSpec
from ..tools.compare import DEFAULT_ATOL, DEFAULT_RTOL
from ..tools.tensorio import json_safe, write_json


def add_model_inputs(parser: argparse.ArgumentParser) -> None:
    """MODEL, ``--input`` and ``--seed``."""
    parser.add_argument("model", help=".mindir file")
    parser.add_argument("--input", nargs="+", metavar="FILE",
                        help="one file per input: .npy, ARCHIVE.npz:KEY (one "
                        "array of an .npz, as golden/ops/<case>/arrays.npz "
                        "holds them) or raw .bin (default: seeded random data)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random inputs (default 0)")


def add_output_dir(parser: argparse.ArgumentParser) -> None:
    """``--out DIR`` and ``--force`` (golden, dump)."""
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output directory (written atomically)")
    parser.add_argument("--force", action="store_true",
                        help="replace DIR if it exists")


def add_precision_args(parser: argparse.ArgumentParser,
                       cast: bool = True) -> None:
    """``--float64``/``--oracle`` (and ``--cast-outputs``)."""
    parser.add_argument("--float64", "--oracle", dest="float64",
                        action="store_true",
                        help="run in float64 (the float64 oracle: float32 "
                        "weights, inputs and casts widened)")
    if cast:
        parser.add_argument("--cast-outputs", action="store_true",
                            help="with --float64: cast the outputs back to "
                            "the model's output dtypes")


def precision(args) -> str:
    return "float64" if args.float64 else "float32"


def add_progress_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", action="store_true", default=None,
                        help="show a progress bar on stderr (default: only "
                        "when stderr is a terminal)")


def add_tolerance_args(parser: argparse.ArgumentParser,
                       oracle_note: str = "") -> None:
    """``--atol``, ``--rtol``, ``--tol``. With ``oracle_note`` (bisect) the
    defaults are None: the command picks them, and the note says how."""
    for flag, default, what in (("--atol", DEFAULT_ATOL, "absolute"),
                                ("--rtol", DEFAULT_RTOL, "relative")):
        parser.add_argument(flag, type=float,
                            default=None if oracle_note else default,
                            help=f"{what} tolerance (default {default:g}"
                            f"{oracle_note})")
    parser.add_argument("--tol", action="append", metavar="NAME:ATOL,RTOL",
                        help="tolerance for one tensor (NAME may be a glob);"
                        " repeatable")


def add_input_shapes(parser: argparse.ArgumentParser) -> None:
    """``--input-shapes`` / Lite's ``--inputShapes`` (run and benchmark)."""
    parser.add_argument("--input-shapes", "--inputShapes", dest="input_shapes",
                        type=parse_input_shapes, metavar="SHAPES",
                        help="shapes of a dynamic-shape model's inputs, as "
                        "Lite writes them: 'x:1,3,224,224;y:1,4' by name, or "
                        "'1,3,224,224:1,4' in input order; .bin inputs and "
                        "random inputs take these shapes")


def parse_input_shapes(text: str) -> list[tuple[str | None, tuple[int, ...]]]:
    """``name:d0,d1;name2:...`` (by name) or ``d0,d1:d0,d1`` (by position:
    Lite benchmark's older form) as ``(name or None, shape)`` pairs."""
    entries = [e.strip() for e in text.split(";") if e.strip()]
    if not entries:
        raise argparse.ArgumentTypeError("no shapes given")
    named = [e.rpartition(":") for e in entries]
    if len(entries) == 1 and not _is_name(named[0][0]):
        named = [("", "", part) for part in entries[0].split(":")]
    shapes = []
    for name, _, dims in named:
        try:
            shape = tuple(int(d) for d in dims.split(","))
        except ValueError:
            shape = ()
        if not shape or any(d < 1 for d in shape) or (name and not _is_name(name)):
            raise argparse.ArgumentTypeError(
                f"{text!r}: expected NAME:D0,D1,...;NAME2:... (or D0,D1:D0,D1 "
                f"in input order) with every dimension >= 1")
        shapes.append((name.strip() or None, shape))
    return shapes


def _is_name(text: str) -> bool:
    """An input's name, not a dimension list (Lite's positional form)."""
    return bool(text.strip()) and not text.replace(",", "").strip().isdigit()


def add_json_arg(parser: argparse.ArgumentParser) -> None:
    """``--json [FILE]``: the results as JSON, on stdout instead of the text
    (no FILE) or also in FILE (written atomically)."""
    parser.add_argument("--json", nargs="?", const="-", metavar="FILE",
                        help="print the results as JSON instead of text, or "
                        "with FILE also write them there")


def emit_json(target: str, data) -> None:
    """Print ``data`` as JSON (``target`` "-") or write it to ``target``."""
    if target == "-":
        print(json.dumps(json_safe(data), indent=1))
    else:
        write_json(target, data)


def add_run_settings(parser: argparse.ArgumentParser) -> None:
    """``--threads`` and ``--backend``: how ``Model`` runs (api/backend.py)."""
    parser.add_argument("--threads", type=int, default=0, metavar="N",
                        help="threads a predict uses (context.cpu.thread_num;"
                        " default 0: every usable core)")
    parser.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                        help="numba: compiled kernels, fused plan (default); "
                        "reference: op-by-op NumPy, the numerical truth")
    add_target_arg(parser, "run the device plan (context.target = ['gpu']) "
                   "and report its host crossings")


def add_target_arg(parser: argparse.ArgumentParser, gpu_does: str) -> None:
    """``--target cpu|gpu``; ``gpu_does``: what the command does on it."""
    parser.add_argument("--target", choices=("cpu", "gpu"), default="cpu",
                        help=f"gpu: {gpu_does} (needs a CUDA GPU, or numba's "
                        f"simulator: NUMBA_ENABLE_CUDASIM=1)")


def build_model(path: str, args, config: dict | None = None,
                dec_key: bytes | None = None, dec_mode: str = "AES-GCM") -> Model:
    """An api.Model of ``path`` (which may name a rank's file with
    ``{rank}``) with ``args.threads`` and ``args.backend``."""
    if not os.path.exists(distributed.rank_file(path)):
        raise FileNotFoundError(f"{path}: no such model file")
    if args.threads < 0:
        raise UsageError(f"--threads {args.threads}: expected 0 (every usable "
                         f"core) or more")
    context = Context()
    context.cpu.thread_num = args.threads
    context.target = [getattr(args, "target", "cpu")]
    config = dict(config or {})
    config[SECTION] = {**config.get(SECTION, {}), "backend": args.backend}
    model = Model()
    model.build_from_file(path, ModelType.MINDIR, context, config_dict=config,
                          dec_key=dec_key, dec_mode=dec_mode)
    return model


def model_inputs(model, files, seed: int,
                 shapes=None) -> tuple[list[np.ndarray], dict]:
    """The arrays to run ``model`` (a Model or ModelParallelRunner) on
    (``files`` or seeded random data, in ``shapes`` when given:
    parse_input_shapes) and where they come from; resizes the model when
    the arrays' shapes differ from its inputs'."""
    specs = [IOSpec(t.name, tuple(t.shape), np.dtype(numpy_type(t.dtype)))
             for t in model.get_inputs()]
    if shapes:
        specs = with_shapes(specs, shapes)
    arrays = make_inputs(specs, files, seed)
    if [list(a.shape) for a in arrays] != [t.shape for t in model.get_inputs()]:
        if not isinstance(model, Model):
            raise UsageError("ModelParallelRunner runs a model at its own input "
                             "shapes: give inputs of those shapes")
        model.resize(model.get_inputs(), [list(a.shape) for a in arrays])
    source = {"files": list(files)} if files else {"random": True, "seed": seed}
    return arrays, source


def random_note(source: dict) -> str:
    """The line saying the inputs are random ("" for files)."""
    if not source.get("random"):
        return ""
    return (f"inputs: random, seed {source['seed']} (Lite benchmark's ranges: "
            f"float U[0.1, 1.0), int {{0, 1}}, int8 [-127, 127], uint8 "
            f"[0, 254]); give input files for real data\n")


def with_shapes(specs: list[IOSpec], shapes) -> list[IOSpec]:
    """``specs`` with the shapes of ``--input-shapes`` (by name or order)."""
    names = [s.name for s in specs]
    if all(name is None for name, _ in shapes):
        if len(shapes) != len(specs):
            raise UsageError(f"--input-shapes gives {len(shapes)} shape(s); the "
                             f"model has {len(specs)} input(s) ({', '.join(names)})")
        given = dict(zip(names, (shape for _, shape in shapes)))
    else:
        given = dict(shapes)
        unknown = [n for n in given if n not in names]
        if None in given or unknown:
            raise UsageError(f"--input-shapes: no input named "
                             f"{(unknown or [None])[0]!r}; the model's inputs "
                             f"are {', '.join(names)} (name every shape or none)")
    result = []
    for spec in specs:
        shape = given.get(spec.name, spec.shape)
        if len(shape) != len(spec.shape):
            raise UsageError(
                f"--input-shapes: input {spec.name!r} has {len(spec.shape)} "
                f"dimension(s) {list(spec.shape)}, got {list(shape)}")
        result.append(IOSpec(spec.name, tuple(shape), spec.dtype))
    return result
