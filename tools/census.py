"""The MindSpore primitive census (issue 14): every primitive MindSpore defines, its
category, and whether MindSpore runs it forward on CPU, decided by running a tiny case.

Run in the MindSpore virtualenv (see tools/golden/README.md), from the repository root:

    msenv/bin/python tools/census.py                 # all primitives -> tools/census/
    msenv/bin/python tools/census.py Add Conv2D       # probe a few, print, write nothing
    msenv/bin/python tools/census.py --reclassify tools/census/mindspore-2.7.1.json
                                                     # new NAME_RULES, no new probes

It writes ``tools/census/mindspore-<version>.json``: the raw MindSpore findings only.
refinfer's side of the table (implemented, golden-tested, Numba kernel) is added by
``refinfer ops --census > docs/census.md``, which reads that file and the op registry.

Each primitive is probed in a pool of worker processes (a crash or a hang costs only
that op: the worker is replaced). A probe constructs the primitive (constructor
arguments guessed from their names), calls it in PyNative mode on CPU with tiny
arguments (guessed from the call's argument names, several shape/dtype variants
tried in turn) and reads every output back. The outcome is one of:

- ``runs``: a variant ran and its outputs were read back;
- ``no-cpu-kernel``: MindSpore's infer passed and then it said it has no CPU kernel;
- ``unprobed``: no variant got past the constructor or shape inference (the
  reason is the first variant's error): the census cannot say;
- ``crashed`` / ``timeout``: the worker died, or the op ran past the time limit.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import re
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

OUT_DIR = Path(__file__).resolve().parent / "census"
PROBE_SECONDS = 20          # per primitive, all variants together
RESULT_TAG = "@@census@@ "  # marks the worker's answers among MindSpore's log lines
PACKAGES = ("mindspore.ops.operations", "mindspore.ops.auto_generate")

# ---------------------------------------------------------------------------
# Enumeration (parent and worker)
# ---------------------------------------------------------------------------


def primitive_classes() -> dict[str, type]:
    """Class name -> class, for every public Primitive subclass that a module of
    PACKAGES defines or re-exports (the first module seen wins a name)."""
    from mindspore.ops.primitive import Primitive
    found: dict[str, type] = {}
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        modules = [package_name] + [m.name for m in pkgutil.walk_packages(
            package.__path__, package_name + ".")]
        for module_name in modules:
            try:
                module = importlib.import_module(module_name)
            except Exception:   # noqa: BLE001 - an unimportable module has no census
                continue
            for name, obj in sorted(vars(module).items()):
                if (inspect.isclass(obj) and issubclass(obj, Primitive)
                        and not name.startswith("_") and obj.__module__.startswith(
                            "mindspore.ops") and name not in found):
                    found[name] = obj
    for base in ("Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck"):
        found.pop(base, None)
    return found


# ---------------------------------------------------------------------------
# Classification (parent)
# ---------------------------------------------------------------------------

# First matching rule wins: (category, regular expression on the class name).
NAME_RULES = [
    # Graph compilation folds these into constants, rewrites them into other
    # primitives (Gelu exports GeLU, DynamicShape TensorShape, Any ReduceAny,
    # lists MakeTuple, casts Cast) or drops them (StopGradient, identity, the
    # Stack* resource ops, sharding and inlining marks); the PyNative views
    # have no graph-mode evaluator: checked by exporting each (issue 14).
    ("compile-time", r"^(Gelu|FastGelu|identity|StopGradient|DynamicShape|Rank|DType|"
                     r"Any|AnyExt|StackInit|StackPush|StackPop|StackDestroy|"
                     r"ListToTuple|TupleToList|AShardIdentity|SameTypeShape|IsConstant|"
                     r"IsParameter|TopTypeof|TileSize|DtypeToEnum|Reusing|"
                     r"MixedPrecisionCast|ToDtype|ToOther|ToDevice|"
                     r"GetitemTensorIndexInfo|SetitemTensorIndexInfo)$"),
    ("pynative-only", r"^(RealView|ImagView|AsStrided|CopyWithSlice)$"),
    ("control flow", r"^(WhileLoop|Scan|ForiLoop|Switch|SwitchLayer|Partial|Depend|"
                     r"UpdateState|Load|MakeTuple|TupleGetItem|Identity|StopGradient|"
                     r"ControlDepend|ConditionGather|ConditionSwitch)$"),
    ("summary", r"Summary$|^(TensorDump|DumpGradient|TensorReport)$"),
    ("training-only", r"Grad(V\d)?$|Grad[A-Z]|Backward|^(Sparse)?Apply(?!RotaryPosEmb)|"
                      r"^Fused.*Apply|"
                      r"^(Adam|AdamWeightDecay|AdamNoUpdateParam|SGD|Lamb\w*|LARSUpdate|"
                      r"LarsV2Update|FusedAdam\w*|FusedCastAdamWeightDecay|AdamW|"
                      r"Momentum|FtrlOptimizer|NPU\w*FloatStatus\w*|"
                      r"\w*FloatStatus\w*|IsFinite\w*Grad|InsertGradientOf|"
                      r"GetNext|InitDataSetQueue|FusedAdaFactor\w*|\w*BackpropFilter|"
                      r"DepthwiseConv2dNativeBackpropInput|Dilation2DBackprop\w*|"
                      # the FFT ops' gradient helpers (grad_math_ops.cc)
                      r"FFTOrtho|FFTShapeCopy|IRFFTDouble)$"),
    ("communication", r"^(AllReduce|AllGather\w*|ReduceScatter\w*|AlltoAll\w*|"
                      r"NeighborExchange\w*|Send|Receive|Broadcast|BarrierOp|"
                      r"CollectiveScatter|CollectiveGather|Reduce|MirrorOperator|"
                      r"_\w+|Batch\w*Comm\w*|DistComm\w*|InnerComm\w*|"
                      r"\w*Mirror\w*|VirtualDiv|VirtualDataset\w*|"
                      r"MatmulAllReduce\w*|AllGatherMatmul|MatmulReduceScatter|"
                      r"AlltoAllV\w*|Gather\w*Comm\w*)$"),
    ("quantisation", r"Quant|^(Dequant|WeightQuant\w*|QuantBatchMatmul\w*|"
                     r"MinMaxUpdate\w*|BatchNormFold\w*|CorrectionMul\w*|ActsULQ\w*|"
                     r"WtsARQ|IFMR|FakeLearnedScale\w*)"),
    ("sparse", r"^(Sparse|CSR|COO|Csr|Coo)|Sparse|^(DenseToCSRSparseMatrix|"
               r"DenseToSparseSetOperation|SetSize|RaggedTensorToSparse)$"),
    ("random", r"^(Random\w*|StandardNormal|StandardLaplace|UniformInt|UniformReal|"
               r"Uniform\w*|Gamma|RandomGamma|Poisson|RandomPoisson|Multinomial\w*|"
               r"Dropout\w*|DropoutGenMask\w*|DropoutDoMask\w*|RandpermV2|Randperm|"
               r"RandomCategorical|RandomChoiceWithMask|LogUniformCandidateSampler|"
               r"UniformCandidateSampler|ParameterizedTruncatedNormal|TruncatedNormal|"
               r"Normal\w*|Bernoulli\w*|RandInt\w*|RandLike\w*|Rand\w*|InplaceUniform|"
               r"InplaceNormal|InplaceRandom|Generator|RandExt|RandnLike|Randn|"
               r"LogNormalReverse)$"),
    ("Ascend-fused", r"FlashAttention|PagedAttention|^RmsNorm|AddRmsNorm|Swiglu|"
                     r"Rotary|ApplyRotaryPosEmb|^Moe|GroupedMatmul|ReshapeAndCache|"
                     r"IncreFlash|PromptFlash|^Fused|^Npu|Fusion$|^Inner\w*Attention|"
                     r"^Matmul(Add|Split|Qkv|FfnFused|BiasSplit)\w*|^KVCache|"
                     r"^DecoderKVCache|^PromptKVCache|^Ring\w*Attention|"
                     r"^(Mla|Nsa)\w*|^Lightning\w*"),
    ("fft", r"FFT|^(FFTShift|IFFTShift|STFT|ISTFT|HammingWindow|BlackmanWindow|"
            r"BartlettWindow|HannWindow|KaiserWindow|Fftn\w*|Rfft\w*|Irfft\w*)$|"
            r"^(Fft|Ifft|Hfft|Ihfft|Rfft|Irfft)"),
    ("sequence/scalar", r"^(Scalar\w*|Tuple\w*|List\w*|Sequence\w*|[a-z_0-9]+|"
                        r"InSequence|MakeRange|ShapeMul\w*|TensorToTuple|"
                        r"TensorToList|TensorToScalar|MakeList|MakeDict|"
                        r"DictGetItem|DictSetItem|MakeKeywordArg|ExtractKeywordArg|"
                        r"Bool\w*|BoolNot|IsInstance|Str\w*|Format)$"),
    ("image", r"^(Resize\w*|CropAndResize\w*|ROIAlign|RoiAlign|ROIPooling|"
              r"GridSampler\w*|Upsample\w*|UpsampleNearest\w*|UpsampleBilinear\w*|"
              r"UpsampleBicubic\w*|UpsampleTrilinear\w*|UpsampleLinear\w*|"
              r"NonMaxSuppression\w*|IOU|Iou|BoundingBox\w*|Adjust\w*|HSVToRGB|"
              r"RGBToHSV|ExtractGlimpse|CombinedNonMaxSuppression|DecodeImage|"
              r"ScaleAndTranslate|AffineGrid|Col2Im|Im2Col\w*|PixelShuffle|"
              r"PixelUnshuffle|ChannelShuffle|SpaceToDepth|DepthToSpace|"
              r"SpaceToBatch\w*|BatchToSpace\w*|DrawBoundingBoxes|ExtractImagePatches)$"),
    ("linalg", r"^(MatMul\w*|Matmul\w*|BatchMatMul\w*|Bmm\w*|Dot|Addbmm|Addmm\w*|"
               r"Addmv|Addr|Baddbmm\w*|Cholesky\w*|Matrix\w*|Eig\w*|SelfAdjointEig|"
               r"Qr|Svd|Lu\w*|LU\w*|Det|LogMatrixDeterminant|Inverse|Solve\w*|"
               r"Trace\w*|Einsum\w*|Cross|Inner|Outer|Ger|Kron|Tensordot|Pinv|"
               r"Geqrf|Orgqr|Ormqr|LinalgQr|LinalgVectorNorm|Lstsq|Cdist|Pdist|"
               r"Vander|TriangularSolve|Mv|MatrixPower|Dense|Tridiagonal\w*|"
               r"BandPart|DiagPart|Diag\w*|Tril\w*|Triu\w*|MatMulExt|Mm|Mm\w*)$"),
    ("reduction", r"^(Reduce\w*|ArgMax\w*|ArgMin\w*|Argmax\w*|Argmin\w*|Cum\w*|"
                  r"Mean\w*|Sum\w*|Prod\w*|Std\w*|Var\w*|Norm\w*|LpNorm|L2Loss|"
                  r"LogSumExp|LogCumSumExp|MaxDim|MinDim|Median\w*|Nanmedian\w*|"
                  r"Amax|Amin|Max|Min|All\w*|Any\w*|CountNonZero|Nansum|"
                  r"Bincount|Histc|Histogram|Kthvalue|Mode|Aminmax|Unique\w*)$"),
    ("index", r"^(Gather\w*|Scatter\w*|TensorScatter\w*|Index\w*|Inplace\w*Index\w*|"
              r"Masked\w*|Take\w*|OneHot\w*|Embedding\w*|UnsortedSegment\w*|"
              r"Segment\w*|Select\w*|Where|NonZero\w*|TopK\w*|Topk\w*|Sort\w*|"
              r"ArgSort|Argsort|SearchSorted|Searchsorted|Bucketize|"
              r"InplaceUpdate\w*|InplaceAdd|InplaceSub|MaskedSelect|"
              r"Coalesce|Unique\w*|BatchGather|NthElement|InTopK|"
              r"TensorCopySlices|Slice\w*|StridedSlice\w*|Narrow|SplitV|"
              r"RepeatInterleave\w*|Nonzero)$"),
    ("shape", r"^(Reshape|Transpose\w*|Concat|Stack\w*|Unstack\w*|Split\w*|Squeeze|"
              r"ExpandDims|Unsqueeze|Tile|BroadcastTo|Flatten\w*|Pad\w*|MirrorPad|"
              r"ConstantPad\w*|ReflectionPad\w*|ReplicationPad\w*|Roll|Reverse\w*|"
              r"Flip|Shape|TensorShape|DynamicShape|Size|Rank|Cast|Identity|"
              r"Fill\w*|Zeros\w*|Ones\w*|Full\w*|Eye|Range|Arange|LinSpace\w*|"
              r"Linspace|Meshgrid|Chunk\w*|View\w*|Contiguous|Expand\w*|"
              r"Unfold|Fold|Im2Col|ResizeBilinear|Trans\w*|Copy\w*|Clone|"
              r"Empty\w*|NewOnes|NewZeros|NewEmpty|NewFull|Real|Imag|Complex|"
              r"Conj|Polar|ParallelConcat|Col2Im|Diagonal\w*|Movedim|Swapaxes|"
              r"Hstack|Vstack|Dstack|Ravel|Reshape\w*|Squeeze\w*|"
              r"UnravelIndex|Triu|Tril|Lerp)$"),
    ("nn", r"^(Conv\w*|Deconv\w*|\w*Pool\w*|\w*Norm\w*|BiasAdd\w*|Softmax\w*|"
           r"LogSoftmax\w*|ReLU\w*|Relu\w*|GeLU|GeLU\w*|Gelu\w*|FastGeLU|FastGelu\w*|"
           r"Sigmoid\w*|HSigmoid|HSwish|Elu\w*|SeLU|Selu|CeLU|Celu|Mish|SiLU|Silu|"
           r"Softplus\w*|Softsign|Softshrink|SoftShrink|HShrink|Hardshrink|"
           r"HardTanh|Hardtanh|Hardswish|Hardsigmoid|PReLU|LeakyReLU\w*|RReLU|"
           r"LSTM\w*|GRU\w*|RNN\w*|DynamicRNN|DynamicGRUV2|Dense|"
           r"\w*Loss\w*|\w*Entropy\w*|NLLLoss\w*|CTC\w*|SmoothL1\w*|"
           r"KLDiv\w*|BCE\w*|Binary\w*|Glu|GLU|Swish|LRN|Attention\w*|"
           r"Dropout\w*|Im2Col|Upsample\w*|Embedding|Threshold\w*|Logit\w*|"
           r"LogSigmoid|Tanhshrink|Softmin|Unfold|Fold|Col2Im|MultiMarginLoss|"
           r"Dilation2D|MaxUnpool\w*|AdaptiveAvgPool\w*|AdaptiveMaxPool\w*)$"),
]

MODULE_DEFAULTS = {
    "_grad_ops": "training-only", "_sparse_grad_ops": "training-only",
    "_thor_ops": "training-only", "_custom_grad": "training-only",
    "comm_ops": "communication", "_csr_ops": "sparse", "sparse_ops": "sparse",
    "_quant_ops": "quantisation", "random_ops": "random", "image_ops": "image",
    "linalg_ops": "linalg", "spectral_ops": "fft", "_sequence_ops": "sequence/scalar",
    "_scalar_ops": "sequence/scalar", "control_ops": "control flow",
    "debug_ops": "other", "nn_ops": "nn", "math_ops": "elementwise",
    "array_ops": "shape", "_embedding_cache_ops": "other", "_rl_inner_ops": "other",
    "_map_tensor_ops": "other", "_ocr_ops": "other", "custom_ops": "other",
    "_pyfunc_registry": "other", "_ms_kernel": "other", "reshard_ops": "communication",
}

# Categories whose primitives never appear in an exported inference graph.
NOT_IN_INFERENCE = {"training-only", "summary", "compile-time", "pynative-only"}


def category(name: str, module: str) -> str:
    """The census category of one primitive: the first name rule that matches,
    else the default of the module that defines it (auto-generated ops whose
    name says nothing count as elementwise)."""
    for label, pattern in NAME_RULES:
        if re.search(pattern, name):
            return label
    return MODULE_DEFAULTS.get(module.rsplit(".", 1)[-1], "elementwise")


def documented_platforms(cls: type) -> list[str]:
    """The platforms MindSpore's docstring lists (``Supported Platforms``); an
    auto-generated class refers to its functional form, whose docstring is read."""
    doc = cls.__doc__ or ""
    refer = re.search(r"Refer to :func:`mindspore\.ops\.(\w+)`", doc)
    if refer:
        import mindspore.ops as ops
        doc = getattr(getattr(ops, refer.group(1), None), "__doc__", "") or doc
    found = re.search(r"Supported Platforms:\s*\n\s*(.*)", doc)
    return re.findall(r"``(\w+)``", found.group(1)) if found else []


# ---------------------------------------------------------------------------
# The probe (worker)
# ---------------------------------------------------------------------------

NO_KERNEL = re.compile(r"unregistered|not support(ed)? on (the )?CPU|"
                       r"Unsupported op .* on CPU|kernel .* not (found|registered)|"
                       r"does not support (the )?CPU|not registered|"
                       r"device_target.*CPU.*not support|can not find .*kernel|"
                       r"Can not select a valid kernel|Create device context failed|"
                       r"Not found op .* on device", re.I)

SHAPE_VARIANTS = [(2, 4), (1, 2, 4, 4), (4, 4), (4,), (2, 4, 4), (1, 2, 4),
                  (1, 2, 2, 4, 4)]
# Where a per-channel argument (BatchNorm's scale, LayerNorm's gamma, BiasAdd's
# bias) gets its length: the input's dim 1, or its last dim.
CHANNEL_AXES = (1, -1)
CHANNEL_ARGUMENT = re.compile(r"^(scale|bias|offset|mean|variance|gamma|beta|weight|"
                              r"running_\w+|b|moving_\w+)$")
DTYPE_VARIANTS = ["float32", "int32", "bool", "complex64"]


# Argument name -> guessed scalar value; first match wins, no match means a tensor.
SCALAR_GUESSES = [
    (r"^(dtype|type|dst_type|out_dtype|output_type)$", "float32"),
    (r"^(keep_?dims?|transpose\w*|align_corners|is_\w+|training|inplace|"
     r"approximate|descending|stable|largest|sorted|exclusive|reverse|adjoint\w*|"
     r"unbiased|ceil_mode|count_include_pad|return_\w+|use_\w+|has_bias|"
     r"half_pixel_centers)$", False),
    (r"^(axis|dim|dims|axes|start_dim|end_dim|dim0|dim1|split_dim|diagonal)$", 0),
    (r"^(perm|input_perm)$", (1, 0)),
    (r"^(kernel_size|stride|strides|dilation)$", 1),
    (r"^(shape|size|sizes|output_size|new_shape|padding|pads|paddings)$", (2, 4)),
    (r"^pad_mode$", "valid"),
    (r"^reduction$", "mean"),
    (r"^side$", "left"),
    (r"^(num\w*|k|n|groups?|count|repeats|chunks|seed\d?|offset\d?|out_channel|"
     r"output_num|num_classes|depth|mode)$", 2),
    (r"^(alpha|beta|eps|epsilon|lambd|scale|value|p|min|max|threshold|"
     r"negative_slope|momentum|exponent|scalar|start|end|step)$", 1.0),
]


def _scalar_guess(name: str):
    """A plausible scalar for an argument from its name, or None (a tensor)."""
    for pattern, value in SCALAR_GUESSES:
        if re.search(pattern, name.lower()):
            if value == "float32":
                import mindspore as ms
                return ms.float32
            return value
    return None


def _tensor(name: str, shape, dtype: str, channel_axis: int = 1):
    from mindspore import Tensor
    n = name.lower()
    if CHANNEL_ARGUMENT.match(n) and len(shape) >= 2:
        shape = (shape[channel_axis],)
    if re.search(r"indices|index|idx|ids|segment|label|target|positions?$|"
                 r"multiples|seq_len|lengths?$", n):
        return Tensor(np.zeros(shape, np.int32))
    if re.search(r"mask|cond(ition)?$", n):
        return Tensor(np.ones(shape, bool))
    if n in ("w", "filter") and len(shape) >= 3:
        shape = (2, shape[1]) + (1,) * (len(shape) - 2)     # out_channel 2, kernel 1
    rng = np.random.default_rng(0)
    if dtype == "bool":
        return Tensor(rng.random(shape) > 0.5)
    if dtype == "complex64":
        return Tensor((rng.random(shape) + 1j * rng.random(shape)).astype(np.complex64))
    return Tensor((rng.random(shape) * 2 + 0.5).astype(dtype))


def _typed(name: str, kind: str, shape, dtype: str):
    """An argument of the type MindSpore's "valid calling" message names
    (``<Tensor>``, ``<int>``, ``<list of int, tuple of int>``, ...)."""
    guess = _scalar_guess(name)
    first = kind.split(",")[0].strip()
    if first == "Tensor":
        return _tensor(name, shape, dtype)
    if "of int" in first:
        if isinstance(guess, tuple):
            return guess
        return (0,) if re.search(r"dim|axis|axes", name) else (1,) * len(shape)
    if first == "int":
        return guess if type(guess) is int else 1
    if first in ("float", "Number"):
        return 1.0
    if first == "bool":
        return False
    if first == "str":
        return guess if isinstance(guess, str) else "none"
    if first == "mindspore.dtype":
        import mindspore as ms
        return ms.float32
    return None


def _init_kwargs(cls: type) -> dict:
    """Constructor arguments: MindSpore's defaults, guesses for the required."""
    kwargs = {}
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.default is not p.empty:
            continue
        guess = _scalar_guess(p.name)
        kwargs[p.name] = 1 if guess is None else guess
    return kwargs


def _fix_init(kwargs: dict, message: str) -> bool:
    """Adjust one constructor argument as MindSpore's complaint asks (a tuple
    for an int, a float for an int, a bound); False when it says nothing usable."""
    found = re.search(r"type of '(\w+)' should be (?:one of )?'\[?'?(\w+)", message)
    if found and found.group(1) in kwargs:
        name, kind = found.groups()
        value = kwargs[name]
        scalar = value[0] if isinstance(value, (tuple, list)) and value else value
        pair = (scalar,) if re.search(r"axis|axes|dim", name) else (scalar, scalar)
        kwargs[name] = {"tuple": pair, "list": list(pair),
                        "float": float(scalar) if isinstance(scalar, (int, float))
                        else 1.0, "int": 1, "bool": False, "str": "valid"}.get(
                            kind, value)
        return repr(kwargs[name]) != repr(value)
    found = re.search(r"'(\w+)' should be >= ?:?[\w ]*: (\d+)", message)
    if found and found.group(1) in kwargs:
        kwargs[found.group(1)] = int(found.group(2))
        return True
    return False


def _construct(cls: type):
    """The primitive, its constructor arguments corrected up to a few times."""
    kwargs = _init_kwargs(cls)
    for _ in range(6):
        try:
            return cls(**kwargs)
        except Exception as error:   # noqa: BLE001 - the error is the finding
            if not _fix_init(kwargs, str(error)):
                raise
    return cls(**kwargs)


def _call_arguments(prim, cls: type) -> list[tuple[str, object]]:
    """(name, default) of the call's inputs: the ``__call__`` signature of an
    auto-generated class, else the primitive's declared input names."""
    call = vars(cls).get("__call__") or next(
        (vars(base)["__call__"] for base in cls.__mro__[1:-1]
         if "__call__" in vars(base) and base.__module__.startswith(
             "mindspore.ops.auto_generate")), None)
    if call is not None:
        params = list(inspect.signature(call).parameters.values())[1:]
        if not any(p.kind == p.VAR_POSITIONAL for p in params):
            return [(p.name, p.default) for p in params]
    names = list(getattr(prim, "input_names", None) or ["x"])
    declared = len(getattr(cls, "__mindspore_signature__", ()))
    if declared > len(names):   # the signature counts the inputs, names unknown
        names += [f"x{i}" for i in range(len(names), declared)]
    return [(name, inspect.Parameter.empty) for name in names]


def _sequence_argument(name: str, cls: type):
    """An argument of a tuple, list or scalar primitive: small ints, a list for
    the list ops, a tuple otherwise."""
    if re.search(r"^(x|y|input_\w+|seq|sequence|shape_\d|x\d)$", name.lower()) and not (
            cls.__name__.startswith(("Scalar", "bit_", "bool_", "make_range"))):
        return [1, 2] if cls.__name__.lower().startswith("list") else (1, 2)
    return 1


def _arguments(inputs, shape, dtype, cls, types: dict, channel_axis: int) -> list:
    args = []
    for name, default in inputs:
        if name in types:
            args.append(_typed(name, types[name], shape, dtype))
            continue
        if default is not inspect.Parameter.empty:
            args.append(default)
            continue
        guess = _scalar_guess(name)
        if _is_sequence_op(cls) and "tensor" not in name:
            args.append(_sequence_argument(name, cls))
        elif guess is not None:
            args.append(guess)
        else:
            args.append(_tensor(name, shape, dtype, channel_axis))
    return args


def _is_sequence_op(cls: type) -> bool:
    """Primitives on Python scalars, tuples and lists rather than tensors."""
    return (cls.__module__.endswith(("_sequence_ops", "_scalar_ops"))
            or cls.__name__.startswith("Scalar") or cls.__name__.islower())


def _better_call(message: str, inputs: list, types: dict) -> bool:
    """Learn from MindSpore's complaint about the call: the argument types of
    its "valid calling", or the number of inputs it expects. False: nothing new."""
    valid = re.search(r'valid calling should be: \s*"\w+\([^)]*\)\((.*)\)"', message)
    if valid:
        learned = dict(re.findall(r"(\w+)=<([^>]*)>", valid.group(1)))
        if learned and learned != types:
            types.clear()
            types.update(learned)
            return True
        return False
    count = re.search(r"input number must be (?:equal to|greater than or equal to) "
                      r"(\d+), but got (\d+)|inputs number should be (\d+) but got",
                      message)
    if count:
        wanted = int(count.group(1) or count.group(3))
        if wanted != len(inputs):
            del inputs[wanted:]
            inputs += [(f"x{i}", inspect.Parameter.empty)
                       for i in range(len(inputs), wanted)]
            return True
    return False


def _read_back(result) -> None:
    """Force PyNative's asynchronous kernels to run: read every output."""
    if isinstance(result, (tuple, list)):
        for item in result:
            _read_back(item)
    elif hasattr(result, "asnumpy"):
        result.asnumpy()


def _first_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".strip()
    return text.split("\n")[0][:300]


def _variants(sequence: bool, channels: bool):
    """(shape, dtype, channel axis) of each call tried: one for sequence ops,
    both channel axes only for ops with a per-channel argument."""
    if sequence:
        yield SHAPE_VARIANTS[0], DTYPE_VARIANTS[0], 1
        return
    # every shape in float32, then the other dtypes on the first shapes only
    tries = [(shape, DTYPE_VARIANTS[0]) for shape in SHAPE_VARIANTS] + [
        (shape, dtype) for dtype in DTYPE_VARIANTS[1:] for shape in SHAPE_VARIANTS[:3]]
    for shape, dtype in tries:
        for axis in CHANNEL_AXES if channels else CHANNEL_AXES[:1]:
            yield shape, dtype, axis


def _graph_mode_runs(prim, args) -> bool:
    """Whether the call runs compiled (GRAPH_MODE): PyNative has no kernel for
    some primitives that graph mode runs (``Muls``), and an exported model
    runs in graph mode."""
    import mindspore as ms
    from mindspore import nn

    class Apply(nn.Cell):
        def __init__(self):
            super().__init__()
            self.prim = prim

        def construct(self, *inputs):
            return self.prim(*inputs)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _read_back(Apply()(*args))
        return True
    except Exception:   # noqa: BLE001 - PyNative's finding stands
        return False
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def probe(cls: type) -> dict:
    """Run one primitive on CPU; see the module docstring for the outcomes."""
    try:
        prim = _construct(cls)
    except Exception as error:   # noqa: BLE001 - the error is the finding
        return {"outcome": "unprobed", "reason": "constructor: " + _first_line(error)}
    inputs = _call_arguments(prim, cls)
    types: dict[str, str] = {}
    first_error = None
    channels = any(CHANNEL_ARGUMENT.match(name.lower()) for name, _ in inputs)
    for shape, dtype, axis in _variants(_is_sequence_op(cls), channels):
        for _ in range(3):      # the call, corrected by MindSpore's complaints
            args = _arguments(inputs, shape, dtype, cls, types, axis)
            variant = {"primitive": prim.name, "variant": f"{dtype}{list(shape)}"}
            try:
                _read_back(prim(*args))
                return {"outcome": "runs", "mode": "PyNative", **variant}
            except Exception as error:   # noqa: BLE001 - the error is the finding
                text = str(error)
                if NO_KERNEL.search(text) and _graph_mode_runs(prim, args):
                    return {"outcome": "runs", "mode": "graph", **variant}
                if NO_KERNEL.search(text):
                    return {"outcome": "no-cpu-kernel", "primitive": prim.name,
                            "reason": _first_line(error)}
                if _better_call(text, inputs, types):
                    first_error = None      # the earlier call was our mistake
                    continue
                first_error = first_error or _first_line(error)
                break
    return {"outcome": "unprobed", "primitive": prim.name,
            "reason": "arguments: " + (first_error or "no variant")}


def worker() -> None:
    """Answer one probe per line of stdin (a class name) with a tagged JSON line."""
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    classes = primitive_classes()
    print(RESULT_TAG + json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name = line.strip()
        start = time.time()
        result = probe(classes[name])
        result["seconds"] = round(time.time() - start, 3)
        print(RESULT_TAG + json.dumps({"name": name, **result}), flush=True)


# ---------------------------------------------------------------------------
# The pool (parent)
# ---------------------------------------------------------------------------


class Worker:
    """One probe process; replaced when it crashes or runs past the limit."""

    def __init__(self, scratch: str):
        env = {**os.environ, "OMP_NUM_THREADS": "1", "GLOG_v": "3"}
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"], cwd=scratch, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        self.name: str | None = None
        self.started = 0.0

    def send(self, name: str) -> None:
        self.name, self.started = name, time.time()
        self.proc.stdin.write(name + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def run_pool(names: list[str], processes: int, limit: float) -> dict[str, dict]:
    """Probe every name; a worker that dies or hangs is replaced."""
    results: dict[str, dict] = {}
    queue = list(names)
    # MindSpore writes its failure analyses (rank_0/...) into the working folder
    scratch = tempfile.TemporaryDirectory(prefix="census-")
    selector = selectors.DefaultSelector()
    workers = []

    def start() -> None:
        """A new worker; it gets its first primitive once it says it is
        ready (importing MindSpore must not count against a probe's time)."""
        worker = Worker(scratch.name)
        selector.register(worker.proc.stdout, selectors.EVENT_READ, worker)
        workers.append(worker)

    def replace(worker: Worker, outcome: str) -> None:
        if worker.name is not None:
            results[worker.name] = {"outcome": outcome,
                                    "reason": f"probe {outcome} (worker replaced)"}
        selector.unregister(worker.proc.stdout)
        worker.stop()
        workers.remove(worker)
        start()

    for _ in range(min(processes, len(queue))):
        start()
    while len(results) < len(names):
        for key, _ in selector.select(timeout=1.0):
            worker = key.data
            line = worker.proc.stdout.readline()
            if not line:
                replace(worker, "crashed")
            elif line.startswith(RESULT_TAG):
                answer = json.loads(line[len(RESULT_TAG):])
                if not answer.pop("ready", False):
                    results[answer.pop("name")] = answer
                    print(f"{len(results)}/{len(names)} {worker.name}: "
                          f"{answer['outcome']}", file=sys.stderr, flush=True)
                worker.name = None
                if queue:
                    worker.send(queue.pop(0))
        for worker in list(workers):
            if worker.name and time.time() - worker.started > limit:
                replace(worker, "timeout")
    for worker in workers:
        worker.stop()
    scratch.cleanup()
    return results


def census(names: list[str] | None, processes: int, limit: float) -> dict:
    """The census document: one entry per primitive, sorted by name."""
    import mindspore
    classes = primitive_classes()
    unknown = sorted(set(names or ()) - set(classes))
    if unknown:
        raise SystemExit(f"not MindSpore {mindspore.__version__} primitive classes: "
                         + ", ".join(unknown))
    chosen = names or sorted(classes)
    probes = run_pool(chosen, processes, limit)
    entries = []
    for name in chosen:
        cls = classes[name]
        found = probes[name]
        label = category(name, cls.__module__)
        entries.append({
            "class": name,
            "primitive": found.pop("primitive", name),
            "module": cls.__module__,
            "category": label,
            "platforms": documented_platforms(cls),
            "inference_graph": label not in NOT_IN_INFERENCE,
            **found,
        })
    return {"mindspore_version": mindspore.__version__,
            "probe": {"mode": "PyNative, then GRAPH_MODE where PyNative has no kernel",
                      "device_target": "CPU",
                      "seconds_per_op": limit, "shape_variants": SHAPE_VARIANTS,
                      "dtype_variants": DTYPE_VARIANTS},
            "primitives": entries}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="probe only these classes (prints)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--limit", type=float, default=PROBE_SECONDS,
                        help="seconds per primitive")
    parser.add_argument("--reclassify", metavar="FILE", help="recompute the categories "
                        "of a census FILE from NAME_RULES without probing again")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return 0
    if args.reclassify:
        document = reclassify(json.loads(Path(args.reclassify).read_text()))
    else:
        document = census(args.names, args.processes, args.limit)
    if args.names:
        print(json.dumps(document["primitives"], indent=1))
        return 0
    OUT_DIR.mkdir(exist_ok=True)
    target = OUT_DIR / f"mindspore-{document['mindspore_version']}.json"
    partial = target.with_suffix(".json.partial")
    partial.write_text(json.dumps(document, indent=1) + "\n")
    partial.replace(target)     # never a half-written census
    print(f"{len(document['primitives'])} primitives -> {target}", file=sys.stderr)
    return 0


def reclassify(document: dict) -> dict:
    """The census with each primitive's category (and so whether it can appear in
    an inference graph) recomputed from the current rules; the probes stand."""
    for entry in document["primitives"]:
        entry["category"] = category(entry["class"], entry["module"])
        entry["inference_graph"] = entry["category"] not in NOT_IN_INFERENCE
    return document


if __name__ == "__main__":
    sys.exit(main())
