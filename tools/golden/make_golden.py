"""Generate golden test cases (MindIR model + inputs + MindSpore outputs + meta.json).

Run with the MindSpore dev venv (never imported by refinfer itself):

    /work/msenv/bin/python tools/golden/make_golden.py [CASE ...] [--out golden] [--big]

No CASE = every committed case. ``--big`` adds the large on-demand cases, which are
written under ``--big-out`` (default ``golden_big/``, git-ignored).

Each case directory gets the model file(s), ``input_<i>.npy`` + ``input_<i>.bin`` (raw
C-order bytes, like MindSpore Lite benchmark inputs; an input of RAW_ONLY_BYTES or more keeps
only the .bin), ``output_<i>.npy`` (MindSpore's
outputs on the *exported* file, tuples flattened depth-first) and ``meta.json``. A packed
case (the per-op cases) keeps its inputs and outputs in one ``arrays.npz`` instead, members
``input_<i>``/``output_<i>`` (see case_files.py).
Everything except the model bytes is deterministic (fixed seeds).
"""
import argparse
import contextlib
import dataclasses
import functools
import inspect
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Callable, Optional

import numpy as np

os.environ.setdefault("GLOG_v", "3")  # keep MindSpore's C++ logging quiet

import mindspore as ms
from mindspore import nn
from mindspore.train import serialization

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mindir_proto
import nets
from case_files import ARRAYS_FILE, npy_bytes, packed_entry, to_json, write_npz

FLOAT_TOL = {"rtol": 1e-4, "atol": 1e-5}
FLOAT16_TOL = {"rtol": 1e-3, "atol": 1e-3}  # one float16 ulp is ~1e-3 relative
FLOAT16_MODEL_TOL = {"rtol": 1e-2, "atol": 1e-3}  # float16 rounding accumulates over layers
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
    """Seeded values in each parameter's own dtype (float16/bfloat16/float64 nets)."""
    for name, param in net.parameters_and_names():
        value = parameter_value(name, tuple(param.shape), rng, conv_gain)
        if param.dtype == ms.float32:
            value = value.astype(np.float32)
        param.set_data(ms.Tensor(value, dtype=param.dtype))


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


def filled(shape, value):
    return lambda rng: [np.full(shape, value, np.float32)]


def with_arrays(make, *extra):
    """``make``'s inputs followed by fixed arrays (a loop count, a limit, an index vector)."""
    return lambda rng: make(rng) + [np.asarray(a) for a in extra]


def token_ids(batch, seq, vocab):
    return lambda rng: [rng.integers(0, vocab, (batch, seq)).astype(np.int32)]


def bert_inputs(batch, seq, vocab):
    """input_ids, token_type_ids (second half = segment 1), attention_mask (the last
    sequence's final quarter is padding)."""
    def make(rng):
        segments = np.broadcast_to(np.arange(seq) >= seq // 2, (batch, seq))
        mask = np.ones((batch, seq), np.int32)
        mask[-1, seq - seq // 4:] = 0
        return token_ids(batch, seq, vocab)(rng) + [segments.astype(np.int32), mask]
    return make


def integer_inputs(shape):
    """One array each of int8, int16, int32, int64, uint8 and bool, over their ranges."""
    return lambda rng: [rng.integers(-128, 128, shape).astype(np.int8),
                        rng.integers(-3000, 3000, shape).astype(np.int16),
                        rng.integers(-1000, 1000, shape).astype(np.int32),
                        rng.integers(-10**12, 10**12, shape).astype(np.int64),
                        rng.integers(0, 256, shape).astype(np.uint8),
                        rng.integers(0, 2, shape).astype(np.bool_)]


def foriloop_reference(x):
    """nets.CtrlForiLoopOp in float32."""
    for i in range(5):
        x = x * np.float32(0.5) + np.float32(i)
    return [x]


def scan_reference(x, w):
    """nets.CtrlScanOp in float32."""
    carry, ys = x, []
    for item in (w, x * np.float32(0.5), w - np.float32(1)):
        carry = carry * np.float32(0.5) + item * item
        ys.append(carry - item)
    return [carry, ys[0], ys[2]]


def sequence_pair(a, b):
    """Two fixed int64 vectors (sequence-op cases want chosen values)."""
    return lambda rng: [np.array(a, np.int64), np.array(b, np.int64)]


def list_plumbing_reference(v):
    """NumPy result of nets.ListPlumbing (MindSpore has no CPU kernel for its ops)."""
    return [np.array([v[1] + v[2], v[1], v[2]], np.int32)]


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


def write_weight_update(case, case_dir, exported, net, arrays):
    """New weights for the same net (rng [seed, 2]) as ``new_weights.ckpt`` and
    ``new_weights.safetensors``, and ``updated_output_<i>.npy``: MindSpore's outputs of the
    exported file run with them (``GraphCell(load(model_file), params_init=new weights)``),
    cross-checked against the Cell after ``load_param_into_net`` of the saved checkpoint."""
    rng = np.random.default_rng([case.seed, 2])
    new = {name: ms.Tensor(parameter_value(name, tuple(p.shape), rng, case.conv_gain)
                           .astype(np.float32))
           for name, p in net.parameters_and_names()}
    records = [{"name": name, "data": value} for name, value in new.items()]
    ms.save_checkpoint(records, str(case_dir / "new_weights.ckpt"))
    ms.save_checkpoint(records, str(case_dir / "new_weights.safetensors"), format="safetensors")
    tensors = [ms.Tensor(a) for a in arrays]
    graph = ms.load(str(case_dir / exported.model_file), **exported.load_kwargs)
    params = {name: ms.Parameter(value, name=name) for name, value in new.items()}
    outputs = flatten(nn.GraphCell(graph, params_init=params)(*tensors))
    ms.load_param_into_net(net, ms.load_checkpoint(str(case_dir / "new_weights.ckpt")))
    cell_outputs = flatten(net(*tensors))
    assert all(np.array_equal(a, b) for a, b in zip(outputs, cell_outputs)), "Cell != GraphCell"
    assert not np.allclose(outputs[0], np.load(case_dir / "output_0.npy")), "update changed nothing"
    write_arrays(case_dir, "updated_output", outputs)
    return {"weight_update": {
        "weights": ["new_weights.ckpt", "new_weights.safetensors"],
        "rng": "np.random.default_rng([seed, 2]), same rule as the model's weights",
        "outputs": [f"updated_output_{i}.npy" for i in range(len(outputs))],
        "output_source": "mindspore.nn.GraphCell(mindspore.load(model_file), params_init=new)",
        "equal_to_cell_with_loaded_checkpoint": True}}


def shape_runs(*makers):
    """``also_write`` for dynamic-shape cases: MindSpore's outputs of the exported file at
    more input shapes. ``makers[k - 1]`` makes run k's inputs (rng [seed, 1 + k]); they go
    to ``shape<k>_input_<i>.npy`` (+ .bin) and the outputs to ``shape<k>_output_<i>.npy``.
    meta.json gets ``shapes``: one {inputs, outputs, bit_identical_to_cell} per run, run 0
    being the case's main input and output files."""
    def write(case, case_dir, exported, net, arrays):
        runs = []
        for k, make in enumerate([lambda rng: arrays, *makers]):
            inputs = make(np.random.default_rng([case.seed, 1 + k]))
            tensors = [ms.Tensor(a) for a in inputs]
            outputs = run_exported(case_dir, exported, tensors)
            prefix = f"shape{k}_" if k else ""
            if k:
                write_arrays(case_dir, prefix + "input", inputs, raw=True)
                write_arrays(case_dir, prefix + "output", outputs)
            runs.append({"inputs": _array_entries(inputs, prefix + "input"),
                         "outputs": _array_entries(outputs, prefix + "output"),
                         "bit_identical_to_cell": _identical(outputs, flatten(net(*tensors)))})
        shapes = {tuple(tuple(i["shape"]) for i in run["inputs"]) for run in runs}
        assert len(shapes) == len(runs), "every run needs its own input shapes"
        return {"shapes": runs}
    return write


def _array_entries(arrays, prefix):
    return [{"shape": list(a.shape), "dtype": str(a.dtype), "file": f"{prefix}_{i}.npy"}
            for i, a in enumerate(arrays)]


def _identical(outputs, others):
    return all(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
               for a, b in zip(outputs, others))


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
    # meta.json tolerance; None: chosen from the output dtypes (see ``tolerance``).
    tolerance: Optional[dict] = None
    # Export with every input dim unknown (True) or with these input shapes (a tuple of
    # shapes, None = unknown dim): shape arithmetic stays in the graph.
    dynamic: object = False
    # Also write inputs as raw .bin, as Lite's benchmark reads them. Per-op cases skip it:
    # the .npy holds the same bytes, and hundreds of tiny files cost disk blocks.
    raw_inputs: bool = True
    # Inputs and outputs as members of one arrays.npz (meta.json names each one's key)
    # rather than a file per array: the per-op cases, for the same reason.
    packed: bool = False
    extra: dict = dataclasses.field(default_factory=dict)
    # Writes more files after the standard ones; returns extra meta.json entries.
    also_write: Optional[Callable] = None


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
         "'same', 1x1 conv+BN downsample, ReduceMean keep_dims + Flatten, Dense) base width 8, "
         "10 classes",
         lambda: nets.ResNet18(base_width=8, num_classes=10), normal(1, 3, 64, 64),
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
    Case("mlp_update", "an mlp with its own weights, plus new weights (.ckpt, .safetensors) and "
         "MindSpore's outputs of the exported file with the new weights (update_weights, "
         "load_checkpoint)", nets.MLP, normal(2, 4), seed=10, also_write=write_weight_update),
    # ---- model families ------------------------------------------------------------------
    Case("resnet50_narrow", "ResNet-50 (Bottleneck [3,4,6,3], 1x1-3x3(stride)-1x1 x4, "
         "projection shortcuts) at base width 4, 10 classes, 64x64 input",
         lambda: nets.ResNet50(base_width=4, num_classes=10), normal(1, 3, 64, 64),
         seed=11, conv_gain=1.0),
    Case("resnet50", "ResNet-50 base width 64, 1000 classes, 224x224 (large, not committed)",
         lambda: nets.ResNet50(base_width=64, num_classes=1000), normal(1, 3, 224, 224),
         seed=12, conv_gain=1.0, big=True),
    Case("mobilenetv3_small_narrow", "MobileNetV3-small at width 0.25: hard-swish, "
         "squeeze-excite with ReduceMean + ReLU + HSigmoid gate, depthwise 3x3/5x5, "
         "Dense 288->128 head with Dropout, 10 classes, 64x64 input",
         lambda: nets.MobileNetV3Small(0.25, 128, 10), normal(1, 3, 64, 64), seed=13),
    Case("mobilenetv3_small", "MobileNetV3-small width 1.0, 1024-wide head, 1000 classes, "
         "224x224 (large, not committed)", nets.MobileNetV3Small, normal(1, 3, 224, 224),
         seed=14, big=True),
    Case("vgg_style", "VGG-11 layout at base width 8: 'same' 3x3 convs with bias + ReLU, "
         "2x2 max-pools, Flatten, Dense 64/64/10 with Dropout (inference: identity)",
         nets.VGGStyle, normal(2, 3, 32, 32), seed=15),
    Case("efficientnet_style", "EfficientNet-style: SiLU stem, MBConv blocks (expand 1x1, "
         "depthwise 3x3/5x5, squeeze-excite with AdaptiveAvgPool2d + SiLU + Sigmoid gate, "
         "project 1x1, residual), 1x1 head, AdaptiveAvgPool2d, Dense",
         nets.EfficientNetStyle, normal(1, 3, 64, 64), seed=16),
    Case("unet_style", "U-Net-style: double 3x3 conv+BN+ReLU, max-pool down, Conv2dTranspose "
         "(2, stride 2) and bilinear resize up (ResizeBilinearV2), nearest resize x4 "
         "(ResizeNearestNeighborV2) of an auxiliary head, Concat skips",
         nets.UNetStyle, normal(1, 3, 32, 32), seed=17),
    Case("conv1d_net", "1-D conv net: Conv1d (pad, bias; stride 2 'same' dilation 2), "
         "BatchNorm1d, MaxPool1d, AvgPool1d (ExpandDims/Conv2D/Squeeze as exported), Dense",
         nets.Conv1DNet, normal(2, 4, 32), seed=18),
    Case("conv3d_net", "3-D conv net: Conv3d (pad; stride (1,2,2) 'same'), BatchNorm3d, "
         "MaxPool3d, AvgPool3d, Dense", nets.Conv3DNet, normal(1, 2, 8, 16, 16), seed=19),
    Case("oppack_vision", "op pack (issue 14): Conv2d, nn.LRN, nn.ChannelShuffle (exported "
         "as Reshape/Transpose), "
         "ops.grid_sample (bilinear zeros, nearest border), ResizeBicubic, "
         "matrix_band_part, index_fill, Dense", nets.OpPackVision, normal(2, 3, 6, 6),
         seed=1401),
    Case("oppack_spectral", "op pack (issue 14): Dense, rfft/irfft (ortho), fft2, "
         "real/imag, fftshift, cdist, unsorted_segment_sum, cross, Softmax",
         nets.OpPackSpectral, normal(2, 16, 6), seed=1402),
    Case("oppack_index", "op pack (issue 14): Dense, index_add, tensor_scatter_elements "
         "(add), scatter, masked_scatter, tensor_scatter_div, scatter_add, SegmentSum, "
         "Softmax", nets.OpPackIndex, normal(2, 6, 4), seed=1403),
    Case("oppack_stats", "op pack (issue 14): Dense, kl_div (batchmean), "
         "SoftmaxCrossEntropyWithLogits, L2Loss, histc, fill_diagonal, mvlgamma, "
         "population_count", nets.OpPackStats, normal(4, 8), seed=1404),
    Case("bert_tiny", "BERT-like encoder: token + segment + position embeddings (Gather), "
         "LayerNorm, 2 post-norm layers (4 heads, hidden 32, exact GeLU FFN 64), additive "
         "attention mask from an int mask, tanh pooler; outputs (sequence, pooled)",
         nets.BertEncoder, bert_inputs(2, 8, 64), seed=20),
    Case("bert_base", "BERT-base-sized encoder (vocab 30522, hidden 768, 12 layers, 12 "
         "heads, FFN 3072), batch 1, sequence 128 (large, not committed)",
         lambda: nets.BertEncoder(30522, 768, 12, 12, 3072, 512),
         bert_inputs(1, 128, 30522), seed=21, big=True),
    Case("gpt2_tiny", "GPT-2-like decoder: token + learned position embeddings, causal mask "
         "(Tril of ones), 2 pre-norm blocks (fused qkv Dense + Split, 4 heads, tanh-GeLU MLP), "
         "final LayerNorm, LM head tied to the token embedding (MatMulExt with its transpose)",
         nets.GPT2Decoder, token_ids(2, 8, 64), seed=22),
    Case("gpt2_small", "GPT-2-small-sized decoder (vocab 50257, hidden 768, 12 layers, 12 "
         "heads, 1024 positions), batch 1, sequence 64 (large, not committed)",
         lambda: nets.GPT2Decoder(50257, 768, 12, 12, 1024), token_ids(1, 64, 50257),
         seed=23, big=True),
    Case("vit_tiny", "ViT: 8x8 conv patch embedding of a 32x32 image, class token "
         "(BroadcastTo + Concat), learned position embedding, 2 pre-norm blocks (4 heads, "
         "hidden 32, exact GeLU MLP 64), LayerNorm, Dense head on the class token",
         nets.ViT, normal(2, 3, 32, 32), seed=24),
    Case("lstm_classifier", "nn.LSTM (2 layers, bidirectional, batch_first, hidden 16) + "
         "Dense on the last step: fused LSTM primitive per layer and direction, ReverseV2",
         nets.LSTMClassifier, normal(2, 5, 8), seed=25),
    Case("gru_classifier", "nn.GRU (1 layer, batch_first, hidden 16) with a given h0, "
         "Dense on the final state + first output: unrolled MatMul/Split/Sigmoid/Tanh steps, "
         "make_list + Stack", nets.GRUClassifier,
         lambda rng: normal(2, 5, 8)(rng) + normal(1, 2, 16)(rng), seed=26),
    # ---- control flow ----------------------------------------------------------------------
    Case("ctrl_while_if", "while i < n with an if on x.sum() inside the body (x * 0.5 or "
         "x + 1), n = 6", nets.CtrlWhileIf, x_and_count((2, 3), 6), seed=30),
    Case("ctrl_return_first", "early return in a branch: x.max() > 2 returns x * 2 (this "
         "input); else y = relu(x), y.sum() < 1 returns y - 1, else exp(-y)",
         nets.CtrlEarlyReturn, filled((2, 3), 3.0), seed=31, extra={"branch": "first"}),
    Case("ctrl_return_second", "ctrl_return_first model, input taking the second early "
         "return (y - 1)", nets.CtrlEarlyReturn, filled((2, 3), -0.5), seed=31,
         extra={"branch": "second"}),
    Case("ctrl_return_end", "ctrl_return_first model, input reaching the final return "
         "(exp(-y))", nets.CtrlEarlyReturn, filled((2, 3), 0.5), seed=31,
         extra={"branch": "end"}),
    Case("ctrl_while_break", "while k < 50 with a break when x.min() > limit; returns "
         "(x, k): a loop with two exits and a tuple result",
         nets.CtrlWhileBreak, with_arrays(normal(2, 3), np.float32(0.9)), seed=32),
    Case("ctrl_nested_loops", "nested while loops (n = 4) with an if inside the inner one "
         "that applies a Dense layer: loop and branch graphs take a UMonad input bound by "
         "Partial; returns (x, total)", nets.CtrlNestedLoops, x_and_count((2, 3), 4), seed=33),
    Case("ctrl_unrolled_for", "for k in range(3) (unrolled) with an if on x.mean() in each "
         "step applying a Dense layer or adding 1", nets.CtrlUnrolledFor, normal(2, 3),
         seed=34),
    # ---- dynamic shapes and scalar / sequence plumbing -------------------------------------
    Case("dyn_mlp", "the mlp network exported with input shape [None, 4]; run at batch 2, "
         "1 and 7", nets.MLP, normal(2, 4), seed=40, dynamic=((None, 4),),
         also_write=shape_runs(normal(1, 4), normal(7, 4))),
    Case("dyn_cnn", "conv net exported with input [None, 3, None, None]; run at 1x3x16x16, "
         "2x3x24x20 and 3x3x9x13", nets.DynConvNet, normal(1, 3, 16, 16), seed=41,
         dynamic=((None, 3, None, None),),
         also_write=shape_runs(normal(2, 3, 24, 20), normal(3, 3, 9, 13))),
    Case("dyn_shape_math", "shape arithmetic with every dim unknown: Reshape to computed "
         "shapes, ScalarAdd/Sub/Mul/Div/FloorDiv/Mod/Pow/Usub/Uadd/Max/Min/Bool, ScalarCast, "
         "ScalarToTensor, TupleToTensor; run at 2x3x8, 1x5x8, 4x2x8",
         nets.DynShapeMath, normal(2, 3, 8), seed=42, dynamic=True,
         also_write=shape_runs(normal(1, 5, 8), normal(4, 2, 8))),
    Case("dyn_shape_branch", "if on shape values (ScalarGt/Eq/Ge/Le/Lt, BoolNot, and) with "
         "every dim unknown; run at 1x5, 2x2, 3x7 (different branches)",
         nets.DynShapeBranch, normal(1, 5), seed=43, dynamic=True,
         also_write=shape_runs(normal(2, 2), normal(3, 7))),
    Case("dyn_bert", "the bert_tiny network exported with [None, None] inputs (position "
         "ids sliced to the run's length); run at 2x8, 1x5, 3x12",
         nets.BertEncoder, bert_inputs(2, 8, 64), seed=44, dynamic=True,
         also_write=shape_runs(bert_inputs(1, 5, 64), bert_inputs(3, 12, 64))),
    Case("seq_plumbing", "TensorToTuple of an int32 vector, TupleGetItem, tuple_setitem, "
         "ScalarMul/Sub, TensorToScalar of a sum, TupleToTensor, ScalarToTensor",
         nets.SeqPlumbing, with_arrays(normal(2, 3), np.array([3, -2, 5], np.int32)),
         seed=45),
    Case("list_plumbing", "TensorToList, list_getitem, list_setitem, ScalarAdd, "
         "ListToTensor (outputs from the NumPy reference: MindSpore has no CPU kernels for "
         "TensorToList/ListToTensor)", nets.ListPlumbing,
         lambda rng: [np.array([3, -2, 5], np.int32)], seed=46,
         reference=list_plumbing_reference),
    # ---- functional control flow and sequence primitives (issue 14) -----------------------
    Case("ctrl_whileloop", "ops.WhileLoop: 4 steps of x = x * x / 2 - x with a (tensor, "
         "int) carry", nets.CtrlWhileLoopOp, normal(2, 3), seed=60),
    Case("ctrl_foriloop", "ops.ForiLoop(0, 5, x = x / 2 + i, unroll=False) (outputs from "
         "the NumPy reference: MindSpore 2.7.1 exports this loop but cannot run the "
         "exported file)", nets.CtrlForiLoopOp, normal(2, 3), seed=61,
         reference=foriloop_reference),
    Case("ctrl_scan", "ops.Scan from x over [w, x / 2, w - 1] (carry = carry / 2 + "
         "item * item, y = carry - item), unroll=False; returns (carry, ys[0], ys[2]) "
         "(outputs from the NumPy reference: MindSpore 2.7.1 cannot run the exported "
         "file)",
         nets.CtrlScanOp, lambda rng: normal(2, 3)(rng) + normal(2, 3)(rng), seed=62,
         reference=scan_reference),
    Case("tuple_ops", "tuple primitives on run-time tuples (TensorToTuple of int64 "
         "vectors): sequence_len, SequenceMax/Min/Count/Index/Add/Slice/Mul/ZerosLike, "
         "InSequence, shape_mul, make_range, bit_and/or, tuple comparisons; run at "
         "lengths 5/3, 4/4, 2/6", nets.TupleOps, sequence_pair([3, 1, 4, 1, 5], [3, 1, 5]),
         seed=63, dynamic=((None,), (None,)),
         also_write=shape_runs(sequence_pair([2, 3, 1, 3], [2, 3, 1, 3]),
                               sequence_pair([3, 9], [3, 9, 0, 1, 2, 3]))),
    Case("scalar_log", "ScalarLog of a run-time scalar: math.log(x.sum())",
         nets.ScalarLogNet, lambda rng: [rng.uniform(0.1, 2.0, (2, 3)).astype(np.float32)],
         seed=65),
    Case("list_ops", "lists built at run time (ListAppend on a mutable empty list), "
         "ListInsert, list_getitem, sequence_len, list comparisons",
         nets.ListOps, sequence_pair([3, 1, 4], [3, 1, 5]), seed=64),
    # ---- dtypes ----------------------------------------------------------------------------
    Case("fp16_lenet", "LeNet-5 with to_float(float16): float32 weights and input, Casts to "
         "float16 in front of every layer, float16 output", lambda: nets.LeNet5().to_float(
             ms.float16), normal(1, 1, 32, 32), seed=50, tolerance=FLOAT16_MODEL_TOL),
    Case("fp16_params", "float16 parameters and input: Dense, LayerNorm, exact GeLU (Erf), "
         "Softmax, all float16", nets.Float16Params,
         lambda rng: [rng.standard_normal((3, 8)).astype(np.float16)], seed=51,
         tolerance=FLOAT16_MODEL_TOL),
    Case("amp_o2_cnn", "auto_mixed_precision O2: float16 convs and Dense, float32 BatchNorm, "
         "Casts between, float32 output", nets.MixedPrecisionCNN, normal(2, 3, 12, 12),
         seed=52, tolerance=FLOAT16_MODEL_TOL),
    Case("fp64_net", "float64 parameters and input: Dense, Tanh, Muls, Softmax, Exp, SumExt",
         nets.Float64Net, lambda rng: [rng.standard_normal((2, 4))], seed=53),
    Case("int_ops", "int8/int16/int32/int64/uint8/bool inputs: integer promotion, Muls/Sub "
         "keeping int32, FloorDiv, Greater to bool, LogicalAnd/Not, Select, Casts, SumExt "
         "(int32 -> int64)", nets.IntegerOps, integer_inputs((2, 5)), seed=54),
    Case("bf16_add", "bfloat16 parameter (BFLOAT16 in the file) and intermediates: float32 "
         "input, Cast to bfloat16, two bfloat16 Adds, Cast back to float32",
         nets.BFloat16Add, normal(2, 8), seed=55),
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
        info["bit_identical_to_cell"] = _identical(outputs, cell_outputs)
        info["output_source"] = "mindspore.nn.GraphCell(mindspore.load(model_file))"
    except Exception as exc:  # pylint: disable=broad-except
        if case.reference is None:
            raise
        lines = [line for line in str(exc).splitlines() if any(c.isalnum() for c in line)]
        # "Kernel select failed:" is followed by the line that names the op
        reason = next((line for line in lines if "Unsupported op" in line), (lines or [""])[0])
        info["output_source"] = "NumPy reference (MindSpore failed: %s: %s)" % (
            type(exc).__name__, reason.strip()[:200])
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
    """float16 outputs: FLOAT16_TOL; other floats: FLOAT_TOL; exact otherwise."""
    if any(o.dtype == np.float16 for o in outputs):
        return dict(FLOAT16_TOL)
    floating = any(np.issubdtype(o.dtype, np.floating) for o in outputs)
    return dict(FLOAT_TOL if floating else EXACT_TOL)


# An input this big keeps only its raw .bin (when it has one): golden/'s size.
RAW_ONLY_BYTES = 1 << 19


def npy_too(array, raw: bool) -> bool:
    """Whether an array is written as .npy beside its raw .bin."""
    return not raw or array.nbytes < RAW_ONLY_BYTES


def write_arrays(case_dir, prefix, arrays, raw=False):
    for i, array in enumerate(arrays):
        if npy_too(array, raw):
            np.save(case_dir / f"{prefix}_{i}.npy", array)
        if raw:
            (case_dir / f"{prefix}_{i}.bin").write_bytes(np.ascontiguousarray(array).tobytes())


def write_case_arrays(case_dir, case, inputs, outputs):
    """The case's inputs and outputs: one arrays.npz (packed) or files per array."""
    if case.packed:
        assert not case.raw_inputs, f"{case.name}: a packed case has no raw .bin inputs"
        members = {f"{prefix}_{i}": npy_bytes(a)
                   for prefix, arrays in (("input", inputs), ("output", outputs))
                   for i, a in enumerate(arrays)}
        write_npz(case_dir / ARRAYS_FILE, members)
        return
    write_arrays(case_dir, "input", inputs, raw=case.raw_inputs)
    write_arrays(case_dir, "output", outputs)


def array_fields(case, prefix, i, array):
    """meta.json's file fields of array ``i`` of ``prefix`` (input/output)."""
    if case.packed:
        return packed_entry(f"{prefix}_{i}")
    raw = prefix == "input" and case.raw_inputs
    return {**({"file": f"{prefix}_{i}.npy"} if npy_too(array, raw) else {}),
            **({"raw_file": f"{prefix}_{i}.bin"} if raw else {})}


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
                    **array_fields(case, "input", i, a)}
                   for i, (n, a) in enumerate(zip(names, arrays))],
        "outputs": [{"shape": list(o.shape), "dtype": str(o.dtype),
                     **array_fields(case, "output", i, o)}
                    for i, o in enumerate(outputs)],
        "tolerance": case.tolerance or tolerance(outputs),
        **info,
        **exported.extra,
        **case.extra,
    }
    (case_dir / "meta.json").write_text(to_json(meta) + "\n")


def export_tensors(case, arrays):
    """The example inputs for export: the arrays, or for a dynamic case placeholders with
    the arrays' dtypes and every dim None (``dynamic=True``) or the given dims (a shape per
    input, None = unknown)."""
    if case.dynamic:
        shapes = case.dynamic if case.dynamic is not True else [[None] * a.ndim for a in arrays]
        return [ms.Tensor(shape=list(s), dtype=ms.Tensor(a).dtype)
                for s, a in zip(shapes, arrays)]
    return [ms.Tensor(a) for a in arrays]


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

    exported = STORAGE[case.storage](net, export_tensors(case, arrays), case_dir)
    check_input_names(case_dir, exported, names)
    outputs, info = compute_outputs(case, case_dir, exported, net, arrays)

    write_case_arrays(case_dir, case, arrays, outputs)
    if case.also_write is not None:
        info.update(case.also_write(case, case_dir, exported, net, arrays))
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
