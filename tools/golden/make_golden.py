"""Generate golden test cases (MindIR model + inputs + MindSpore outputs + meta.json).

Run with the MindSpore dev venv (never imported by refinfer itself):

    /work/msenv/bin/python tools/golden/make_golden.py [CASE ...] [--out golden] [--big]

No CASE = every committed case. ``--big`` adds the large on-demand cases, which are
written under ``--big-out`` (default ``golden_big/``, git-ignored).

Each case directory gets the model file(s), ``input_<i>.npy`` + ``input_<i>.bin`` (raw
C-order bytes, like MindSpore Lite benchmark inputs), ``output_<i>.npy`` (MindSpore's
outputs on the *exported* file, tuples flattened depth-first) and ``meta.json``.
Everything except the model bytes is deterministic (fixed seeds).
"""
import argparse
import contextlib
import dataclasses
import functools
import inspect
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Callable, Optional

import numpy as np

os.environ.setdefault("GLOG_v", "3")  # keep MindSpore's C++ logging quiet

import mindspore as ms  # noqa: E402
from mindspore import nn  # noqa: E402
from mindspore.train import serialization  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mindir_proto  # noqa: E402
import nets  # noqa: E402

FLOAT_TOL = {"rtol": 1e-4, "atol": 1e-5}
EXACT_TOL = {"rtol": 0.0, "atol": 0.0}
ENC_KEY = bytes(range(16))
ENC_MODE = "AES-GCM"
MLP_SEED = 7  # shared by mlp, mlp_split and encrypted: their goldens must be identical


# --------------------------------------------------------------------------
# Seeded weights and inputs
# --------------------------------------------------------------------------
def _fan_in(shape):
    return int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])


def parameter_value(name, shape, rng, conv_gain):
    """A seeded value for one parameter, chosen by its (MindSpore) parameter name."""
    leaf = name.rsplit(".", 1)[-1]
    if leaf == "moving_mean":
        return rng.normal(0.0, 0.1, shape)
    if leaf == "moving_variance":
        return rng.uniform(0.5, 1.5, shape)
    if leaf == "gamma":
        return rng.uniform(0.7, 1.3, shape)
    if leaf == "beta":
        return rng.normal(0.0, 0.1, shape)
    if leaf == "bias":
        return rng.uniform(-0.1, 0.1, shape)
    if len(shape) == 4:  # conv: N(0, gain/fan_in); gain 2 = He-normal (ReLU stacks)
        return rng.normal(0.0, np.sqrt(conv_gain / _fan_in(shape)), shape)
    bound = 1.0 / np.sqrt(_fan_in(shape))  # dense: PyTorch-style uniform, moderate logits
    return rng.uniform(-bound, bound, shape)


def randomize_parameters(net, rng, conv_gain):
    for name, param in net.parameters_and_names():
        value = parameter_value(name, tuple(param.shape), rng, conv_gain)
        param.set_data(ms.Tensor(value.astype(np.float32)))


def normal(*shape):
    return lambda rng: [rng.standard_normal(shape).astype(np.float32)]


def signed_normal(shape, sign):
    """|N(0,1)| * sign: makes ``x.sum() > 0`` true (sign=+1) or false (sign=-1)."""
    return lambda rng: [(sign * np.abs(rng.standard_normal(shape))).astype(np.float32)]


def x_and_count(shape, n):
    return lambda rng: [rng.standard_normal(shape).astype(np.float32), np.array(n, dtype=np.int32)]


def while_reference(x, n):
    """NumPy result of nets.CtrlWhile (used only if MindSpore cannot run a case)."""
    y = x.copy()
    for _ in range(int(n)):
        y = y + np.float32(1)
    return [y]


# --------------------------------------------------------------------------
# Storage variants: each exports the net into a case directory
# --------------------------------------------------------------------------
@dataclasses.dataclass
class Exported:
    model_file: str  # relative to the case directory
    load_kwargs: dict
    extra: dict


def export_embedded(net, tensors, case_dir):
    ms.export(net, *tensors, file_name=str(case_dir / "model"), file_format="MINDIR")
    return Exported("model.mindir", {}, {"weights": "embedded (raw_data)"})


@contextlib.contextmanager
def forced_split_save():
    """Make ``mindspore.export`` take its split-weights path (normally only for >1 GiB).

    ``serialization._save_together`` returns False once the running parameter size (KB)
    exceeds the module global ``TOTAL_SAVE``; it reads the global at call time.
    """
    saved = serialization.TOTAL_SAVE
    serialization.TOTAL_SAVE = -1
    try:
        yield
    finally:
        serialization.TOTAL_SAVE = saved


def export_split(net, tensors, case_dir):
    with forced_split_save():
        ms.export(net, *tensors, file_name=str(case_dir / "model"), file_format="MINDIR")
    assert not (case_dir / "model.mindir").exists()
    table = verify_split(case_dir, "model_graph.mindir", net)
    extra = {"weights": "external_data (split)", "variables_dir": "model_variables",
             "external_data": table}
    return Exported("model_graph.mindir", {}, extra)


def verify_split(case_dir, graph_file, net):
    """Check the split export really uses external_data and matches the net's weights."""
    model = mindir_proto.read_model(case_dir / graph_file)
    params = dict(net.parameters_and_names())
    table, blobs = [], {}
    for tensor in model.graph.parameter:
        assert not tensor.HasField("raw_data"), tensor.name
        assert tensor.HasField("external_data"), tensor.name
        ext = tensor.external_data
        blob = blobs.setdefault(ext.location, (case_dir / ext.location).read_bytes())
        assert blob[0] == 1 and blob[1:64] == bytes(63), "bad 64-byte data file header"
        name = tensor.name.split(":", 1)[1]
        expected = params[name].asnumpy().tobytes()
        assert blob[ext.offset:ext.offset + ext.length] == expected, name
        table.append({"name": name, "location": ext.location,
                      "offset": ext.offset, "length": ext.length})
    return table


ENC_MAGICS = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}


def export_encrypted(net, tensors, case_dir, mode=ENC_MODE):
    ms.export(net, *tensors, file_name=str(case_dir / "model"), file_format="MINDIR",
              enc_key=ENC_KEY, enc_mode=mode)
    head = (case_dir / "model.mindir").read_bytes()[:4]
    magic = int.from_bytes(head, "little")
    assert magic == ENC_MAGICS[mode], hex(magic)
    extra = {"weights": "embedded, whole file encrypted", "enc_key": ENC_KEY.hex(),
             "enc_mode": mode, "magic": hex(magic)}
    return Exported("model.mindir", {"dec_key": ENC_KEY, "dec_mode": mode}, extra)


STORAGE = {"embedded": export_embedded, "split": export_split, "encrypted": export_encrypted,
           "encrypted_cbc": functools.partial(export_encrypted, mode="AES-CBC"),
           "encrypted_sm4": functools.partial(export_encrypted, mode="SM4-CBC")}


# --------------------------------------------------------------------------
# The case table
# --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    description: str
    make_net: Callable[[], nn.Cell]
    make_inputs: Callable[[np.random.Generator], list]
    seed: int
    storage: str = "embedded"
    big: bool = False
    # Conv weight variance = conv_gain / fan_in. 2 (He) keeps MobileNetV2's ReLU6 stack lively;
    # ResNets use 1 because every residual add otherwise roughly doubles the activations.
    conv_gain: float = 2.0
    # NumPy fallback for outputs when MindSpore cannot execute the case.
    reference: Optional[Callable] = None
    extra: dict = dataclasses.field(default_factory=dict)


CASES = [
    Case("lenet5", "LeNet-5: Conv2d(1,6,5,valid,bias)+ReLU+MaxPool2, Conv2d(6,16,5)+ReLU+"
         "MaxPool2, Flatten, Dense 120/84/10", nets.LeNet5, normal(1, 1, 32, 32), seed=1),
    Case("mlp", "Dense(4,8) -> ReLU -> Dense(8,3)", nets.MLP, normal(2, 4), seed=MLP_SEED),
    Case("mlp_split", "the mlp case (same weights and input) saved with split weights: "
         "model_graph.mindir + model_variables/data_0 (external_data)",
         nets.MLP, normal(2, 4), seed=MLP_SEED, storage="split", extra={"same_as": "mlp"}),
    Case("encrypted", "the mlp case (same weights and input) exported with enc_key/AES-GCM",
         nets.MLP, normal(2, 4), seed=MLP_SEED, storage="encrypted", extra={"same_as": "mlp"}),
    Case("encrypted_cbc", "the mlp case exported with enc_key/AES-CBC",
         nets.MLP, normal(2, 4), seed=MLP_SEED, storage="encrypted_cbc",
         extra={"same_as": "mlp"}),
    Case("encrypted_sm4", "the mlp case exported with enc_key/SM4-CBC",
         nets.MLP, normal(2, 4), seed=MLP_SEED, storage="encrypted_sm4",
         extra={"same_as": "mlp"}),
    Case("mobilenetv2", "MobileNetV2 width 1.0, 224x224, 1000 classes, random weights and "
         "BatchNorm statistics, ReduceMean global pool, final Softmax (probabilities)",
         nets.MobileNetV2, normal(1, 3, 224, 224), seed=3),
    Case("resnet18_narrow", "ResNet-18 (BasicBlock [2,2,2,2], 7x7/2 stem, 3x3/2 max-pool "
         "'same', 1x1 conv+BN downsample, ReduceMean keep_dims + Flatten, Dense) base width 16, "
         "10 classes",
         lambda: nets.ResNet18(base_width=16, num_classes=10), normal(1, 3, 64, 64),
         seed=4, conv_gain=1.0),
    Case("resnet18", "ResNet-18 base width 64, 1000 classes, 224x224 (large, not committed)",
         lambda: nets.ResNet18(base_width=64, num_classes=1000), normal(1, 3, 224, 224),
         seed=5, conv_gain=1.0, big=True),
    Case("ctrl_if", "Python if on a tensor value (x.sum() > 0 -> x*2 else x-1) then tanh; "
         "this input takes the true branch (ctrl_if_neg: same model, false branch)",
         nets.CtrlIf, signed_normal((2, 3), +1), seed=6, extra={"branch": "true"}),
    Case("ctrl_if_neg", "ctrl_if model with an input whose sum is negative (false branch: x-1)",
         nets.CtrlIf, signed_normal((2, 3), -1), seed=6, extra={"branch": "false"}),
    Case("ctrl_while", "while i < n: x = x + 1; i = i + 1 (i = Tensor(0, int32)); inputs x (2,4) "
         "float32 and n int32 0-d = 5; the loop is exported as tail calls",
         nets.CtrlWhile, x_and_count((2, 4), 5), seed=8, reference=while_reference),
    Case("ctrl_while_long", "ctrl_while model with n = 10000 iterations (deep tail recursion for "
         "a naive interpreter)", nets.CtrlWhile, x_and_count((2, 4), 10000), seed=8,
         reference=while_reference),
    Case("multi_output", "returns a tuple (relu(Dense(4,3)(x)), sigmoid(x))",
         nets.MultiOutput, normal(2, 4), seed=9),
]
CASES_BY_NAME = {case.name: case for case in CASES}


# --------------------------------------------------------------------------
# Running and writing one case
# --------------------------------------------------------------------------
def flatten(value):
    """Tensor / nested tuple of tensors -> flat list of NumPy arrays, depth-first."""
    if isinstance(value, (tuple, list)):
        return [array for item in value for array in flatten(item)]
    return [value.asnumpy()]


def run_exported(case_dir, exported, tensors):
    graph = ms.load(str(case_dir / exported.model_file), **exported.load_kwargs)
    return flatten(nn.GraphCell(graph)(*tensors))


def compute_outputs(case, case_dir, exported, net, arrays):
    """MindSpore's outputs on the exported file, cross-checked against the live Cell."""
    tensors = [ms.Tensor(a) for a in arrays]
    outputs, info = None, {}
    try:
        outputs = run_exported(case_dir, exported, tensors)
        cell_outputs = flatten(net(*tensors))
        info["bit_identical_to_cell"] = all(
            a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
            for a, b in zip(outputs, cell_outputs))
        info["output_source"] = "mindspore.nn.GraphCell(mindspore.load(model_file))"
    except Exception as exc:  # pylint: disable=broad-except
        if case.reference is None:
            raise
        info["output_source"] = "NumPy reference (MindSpore failed: %s: %s)" % (
            type(exc).__name__, str(exc).strip().splitlines()[0][:200])
    if case.reference is not None:
        expected = case.reference(*arrays)
        if outputs is None:
            outputs = expected
        else:
            info["matches_numpy_reference"] = all(
                np.array_equal(a, b) for a, b in zip(outputs, expected))
    return outputs, info


def check_input_names(case_dir, exported, names):
    """Graph input names in the file are '<graph>:<construct arg name>'."""
    if exported.load_kwargs:  # encrypted: cannot parse without decrypting
        return
    model = mindir_proto.read_model(case_dir / exported.model_file)
    in_file = [vi.name.split(":", 1)[1] for vi in model.graph.input]
    assert in_file == names, (in_file, names)


def tolerance(outputs):
    floating = any(np.issubdtype(o.dtype, np.floating) for o in outputs)
    return dict(FLOAT_TOL if floating else EXACT_TOL)


def write_arrays(case_dir, prefix, arrays, raw=False):
    for i, array in enumerate(arrays):
        np.save(case_dir / f"{prefix}_{i}.npy", array)
        if raw:
            (case_dir / f"{prefix}_{i}.bin").write_bytes(np.ascontiguousarray(array).tobytes())


def make_writable(case_dir):
    """MindSpore writes its files read-only (0400) and folders 0700; normalise them."""
    for path in [case_dir, *case_dir.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def write_meta(case_dir, case, exported, names, arrays, outputs, info):
    meta = {
        "case": case.name,
        "description": case.description,
        "mindspore_version": ms.__version__,
        "numpy_version": np.__version__,
        "generator": "tools/golden/make_golden.py",
        "seed": case.seed,
        "model_file": exported.model_file,
        "rng": "weights np.random.default_rng([seed, 0]), inputs np.random.default_rng([seed, 1])",
        "inputs": [{"name": n, "shape": list(a.shape), "dtype": str(a.dtype),
                    "file": f"input_{i}.npy", "raw_file": f"input_{i}.bin"}
                   for i, (n, a) in enumerate(zip(names, arrays))],
        "outputs": [{"shape": list(o.shape), "dtype": str(o.dtype), "file": f"output_{i}.npy"}
                    for i, o in enumerate(outputs)],
        "tolerance": tolerance(outputs),
        **info,
        **exported.extra,
        **case.extra,
    }
    (case_dir / "meta.json").write_text(to_json(meta) + "\n")


def to_json(obj):
    """Indented JSON with lists of numbers (shapes) kept on one line."""
    text = json.dumps(obj, indent=2, ensure_ascii=False)
    return re.sub(r"\[\s+([-+.\deE,\s]*?)\s+\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text)


def make_case(case, out_root):
    case_dir = Path(out_root) / case.name
    if case_dir.exists():
        make_writable(case_dir)
        shutil.rmtree(case_dir)
    case_dir.mkdir(parents=True)

    ms.set_seed(case.seed)
    net = case.make_net()
    net.set_train(False)
    randomize_parameters(net, np.random.default_rng([case.seed, 0]), case.conv_gain)
    arrays = case.make_inputs(np.random.default_rng([case.seed, 1]))
    names = list(inspect.signature(net.construct).parameters)

    exported = STORAGE[case.storage](net, [ms.Tensor(a) for a in arrays], case_dir)
    check_input_names(case_dir, exported, names)
    outputs, info = compute_outputs(case, case_dir, exported, net, arrays)

    write_arrays(case_dir, "input", arrays, raw=True)
    write_arrays(case_dir, "output", outputs)
    write_meta(case_dir, case, exported, names, arrays, outputs, info)
    make_writable(case_dir)
    return case_dir


def summarize(case_dir):
    meta = json.loads((case_dir / "meta.json").read_text())
    size = sum(p.stat().st_size for p in case_dir.rglob("*") if p.is_file())
    outs = ", ".join(f"{o['dtype']}{o['shape']}" for o in meta["outputs"])
    return f"{case_dir}: {size / 1024:.0f} KiB, outputs {outs}, source: {meta['output_source']}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help="cases to build (default: all committed ones): "
                        + ", ".join(CASES_BY_NAME))
    parser.add_argument("--out", default="golden", help="output root for committed cases")
    parser.add_argument("--big-out", default="golden_big", help="output root for large cases")
    parser.add_argument("--big", action="store_true", help="also build the large on-demand cases")
    args = parser.parse_args(argv)

    unknown = [name for name in args.cases if name not in CASES_BY_NAME]
    if unknown:
        parser.error("unknown case(s): " + ", ".join(unknown))
    selected = ([CASES_BY_NAME[name] for name in args.cases] if args.cases
                else [c for c in CASES if args.big or not c.big])

    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    for case in selected:
        case_dir = make_case(case, args.big_out if case.big else args.out)
        print(summarize(case_dir), flush=True)


if __name__ == "__main__":
    main()
