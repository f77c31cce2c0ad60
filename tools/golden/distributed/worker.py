"""One rank of the distributed golden generation (started by make_distributed.py via msrun).

    worker.py OUT_ROOT CASE [CASE ...]

Every rank runs the same cases in the same order: it exports its sliced network as
``OUT_ROOT/<case>/model_rank<r>.mindir`` and writes its outputs to ``rank<r>/output_<i>.npy`` --
MindSpore's own (``GraphCell`` on the exported file, a real collective between the ranks) where
MindSpore has CPU kernels for the case, the case's NumPy reference otherwise. Rank 0 also writes
the inputs, the unsliced network's file and outputs, and ``meta.json``.
"""
import inspect
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("GLOG_v", "3")  # keep MindSpore's C++ logging quiet

import mindspore as ms
from mindspore import nn
from mindspore.communication import create_group, get_group_size, get_rank, init

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # make_golden, one up
import cases
import make_golden  # shared helpers: write_arrays, flatten, to_json
import sliced_nets as nets

RANK_FILE = "model_rank{rank}.mindir"
MS_SOURCE = "mindspore.nn.GraphCell(mindspore.load(file)) on each rank (a real collective)"
NUMPY_SOURCE = "NumPy reference (cases.py): MindSpore has no CPU kernel for this case"


def seeded(case):
    weights = case.make_weights(np.random.default_rng([case.seed, 0]))
    rng = np.random.default_rng([case.seed, 1])
    inputs = [rng.standard_normal(shape).astype(np.float32) for shape in case.inputs]
    return weights, inputs


def run_file(path, inputs):
    cell = nn.GraphCell(ms.load(str(path)))
    return make_golden.flatten(cell(*[ms.Tensor(a) for a in inputs]))


def export(net, inputs, path_without_suffix):
    ms.export(net, *[ms.Tensor(a) for a in inputs], file_name=str(path_without_suffix),
              file_format="MINDIR")


def make_rank(case, case_dir, rank):
    weights, inputs = seeded(case)
    for name, members in (case.groups or {}).items():
        if rank in members:
            create_group(name, members)
    net = case.sliced(nets, rank, case.ranks, weights)
    rank_file = case_dir / RANK_FILE.format(rank=rank)
    export(net, inputs, rank_file.with_suffix(""))
    reference = case.reference and case.reference(weights, inputs, case.ranks)[rank]
    outputs = run_file(rank_file, inputs) if case.mindspore_runs else reference
    checks = {}
    if case.mindspore_runs and reference:
        checks["matches_numpy_reference"] = all(
            np.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(outputs, reference))
        assert checks["matches_numpy_reference"], f"{case.name} rank {rank}: NumPy reference"
    (case_dir / f"rank{rank}").mkdir(exist_ok=True)
    make_golden.write_arrays(case_dir / f"rank{rank}", "output", outputs)
    if rank == 0:
        write_case(case, case_dir, net, weights, inputs, len(outputs), checks)


def write_case(case, case_dir, net, weights, inputs, rank_output_count, checks):
    """Rank 0: inputs, the unsliced model and its outputs, meta.json."""
    make_golden.write_arrays(case_dir, "input", inputs, raw=True)
    meta = {
        "case": case.name,
        "description": case.description,
        "mindspore_version": ms.__version__,
        "numpy_version": np.__version__,
        "generator": "tools/golden/distributed/make_distributed.py",
        "seed": case.seed,
        "rng": "weights np.random.default_rng([seed, 0]), inputs np.random.default_rng([seed, 1])",
        "ranks": case.ranks,
        "rank_model": RANK_FILE,
        "inputs": [{"name": name, "shape": list(a.shape), "dtype": str(a.dtype),
                    "file": f"input_{i}.npy", "raw_file": f"input_{i}.bin"}
                   for i, (name, a) in enumerate(zip(net_inputs(net), inputs))],
        "rank_outputs": [[f"rank{r}/output_{i}.npy" for i in range(rank_output_count)]
                         for r in range(case.ranks)],
        "rank_output_source": MS_SOURCE if case.mindspore_runs else NUMPY_SOURCE,
        "tolerance": dict(make_golden.FLOAT_TOL),
        **checks,
    }
    if case.unsliced is not None:
        unsliced = case.unsliced(nets, weights)
        export(unsliced, inputs, case_dir / "model")
        outputs = run_file(case_dir / "model.mindir", inputs)
        make_golden.write_arrays(case_dir, "output", outputs)
        meta["unsliced_model"] = "model.mindir"
        meta["outputs"] = [{"shape": list(o.shape), "dtype": str(o.dtype),
                            "file": f"output_{i}.npy"} for i, o in enumerate(outputs)]
        meta["output_source"] = "mindspore.nn.GraphCell(mindspore.load(unsliced_model))"
    if case.config:
        meta["config"] = case.config
    if case.groups:
        meta["groups"] = case.groups
    (case_dir / "meta.json").write_text(make_golden.to_json(meta) + "\n")


def net_inputs(net):
    return list(inspect.signature(net.construct).parameters)


def main():
    out_root, names = Path(sys.argv[1]), sys.argv[2:]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")
    init()
    rank, size = get_rank(), get_group_size()
    for name in names:
        case = cases.CASES_BY_NAME[name]
        assert case.ranks == size, f"{name} needs {case.ranks} ranks, msrun started {size}"
        make_rank(case, out_root / name, rank)
        print(f"rank {rank}: {name} done", flush=True)


if __name__ == "__main__":
    main()
