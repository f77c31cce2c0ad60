"""``refinfer run MODEL [--input FILE ...] [--output-dir DIR] [--seed N]
[--distributed [--ranks N]] [--float64 [--cast-outputs]]``: run a model
and print its outputs in Lite's quick-start format."""
from __future__ import annotations

import os

import numpy as np

from .. import distributed
from ..api import Model, ModelType
from ..api.enums import numpy_type
from ..inputs import make_inputs
from ..runtime import IOSpec
from .options import add_precision_args, precision

PRINTED_VALUES = 50


def add(sub) -> None:
    run = sub.add_parser("run", help="run a model and print its outputs")
    run.add_argument("model", help=".mindir file")
    run.add_argument("--input", nargs="+", metavar="FILE",
                     help="one file per input: .npy, or raw .bin like Lite's "
                     "benchmark (default: seeded random data)")
    run.add_argument("--output-dir", metavar="DIR",
                     help="also write each output as output_<i>.npy and .bin")
    run.add_argument("--seed", type=int, default=0,
                     help="seed of the random inputs (default 0)")
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
    if not args.distributed:
        print(_run_text(args), end="")
        return 0
    # Every rank runs its own file on the same inputs (docs/distributed.md).
    texts = distributed.each_rank(args.ranks, lambda: _run_text(args))
    for rank, text in enumerate(texts or ()):    # None on MPI ranks but 0
        print(f"rank {rank}:\n{text}", end="")
    return 0


def _build(path: str, config: dict | None = None) -> Model:
    """``path`` may name a rank's file with ``{rank}``."""
    if not os.path.exists(distributed.rank_file(path)):
        raise FileNotFoundError(f"{path}: no such model file")
    model = Model()
    model.build_from_file(path, ModelType.MINDIR, config_dict=config)
    return model


def _run_text(args) -> str:
    """Run the model; its outputs in Lite's quick-start format."""
    oracle = {"precision": precision(args),
              "cast_outputs": str(args.cast_outputs).lower()}
    model = _build(args.model, {"refinfer": oracle})
    specs = [IOSpec(t.name, tuple(t.shape), np.dtype(numpy_type(t.dtype)))
             for t in model.get_inputs()]
    arrays = make_inputs(specs, args.input, args.seed)
    if any(d < 0 for spec in specs for d in spec.shape):
        # Dynamic-shape model: take the shapes of the given .npy inputs.
        model.resize(model.get_inputs(), [list(a.shape) for a in arrays])
    outputs = model.predict(arrays)
    if args.output_dir:
        directory = os.path.join(args.output_dir, "rank{rank}") \
            if args.distributed else args.output_dir
        _save_outputs(distributed.expand_rank(directory),
                      [o.get_data_to_numpy() for o in outputs])
    return "".join(_output_text(o.name, o.data_size, o.element_num,
                                o.get_data_to_numpy()) for o in outputs)


def _output_text(name, data_size, element_num, data: np.ndarray) -> str:
    """MindSpore Lite's quick-start format."""
    values = data.reshape(-1)[:PRINTED_VALUES]
    return (f"tensor's name is:{name} data size is:{data_size} tensor elements "
            f"num is:{element_num}\noutput data is: "
            f"{' '.join(str(v) for v in values)} \n")


def _save_outputs(directory: str, arrays: list[np.ndarray]) -> None:
    os.makedirs(directory, exist_ok=True)
    for k, array in enumerate(arrays):
        np.save(os.path.join(directory, f"output_{k}.npy"), array)
        array.tofile(os.path.join(directory, f"output_{k}.bin"))
