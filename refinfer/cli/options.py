"""Options several subcommands share: a model and its inputs, the output
folder, the float64 oracle, tolerances, progress bars."""
from __future__ import annotations

import argparse

from ..tools.compare import DEFAULT_ATOL, DEFAULT_RTOL


def add_model_inputs(parser: argparse.ArgumentParser) -> None:
    """MODEL, ``--input`` and ``--seed``."""
    parser.add_argument("model", help=".mindir file")
    parser.add_argument("--input", nargs="+", metavar="FILE",
                        help="one file per input: .npy or raw .bin "
                        "(default: seeded random data)")
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
