"""Primitives refinfer leaves out on purpose, by category, and why.

A model that applies one of them fails to build with an
:class:`~refinfer.errors.UnsupportedOpsError` whose line for that primitive
says which category it is in and why it is out of scope, rather than just
"unsupported". The categories are those of the MindSpore census
(docs/census.md, ``tools/census.py``); ``tests/test_census.py`` checks that
every census primitive of these categories is recognised here and that no
registered op is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    """One out-of-scope category: why, and which primitive names it holds
    (a regular expression matched against the whole name)."""
    reason: str
    names: str

    def holds(self, name: str) -> bool:
        return re.fullmatch(self.names, name) is not None


# In the census's order of precedence: a name two categories could claim
# (QuantLinearSparse) is in the first.
OUT_OF_SCOPE = {
    "compile-time": Scope(
        "resolved by MindSpore's graph compiler before export: folded into a "
        "constant (Rank, DType, type queries), exported as another primitive "
        "(Gelu as GeLU, FastGelu as FastGeLU, DynamicShape as TensorShape, Any "
        "as ReduceAny, lists as MakeTuple, casts as Cast) or dropped "
        "(StopGradient, identity, the Stack* resource ops, sharding and inlining "
        "marks), so no exported MindIR holds it; re-export the model with "
        "MindSpore",
        r"Gelu|FastGelu|identity|StopGradient|DynamicShape|Rank|DType|Any|AnyExt|"
        r"Stack(Init|Push|Pop|Destroy)|ListToTuple|TupleToList|AShardIdentity|"
        r"SameTypeShape|IsConstant|IsParameter|TopTypeof|TileSize|DtypeToEnum|"
        r"Reusing|MixedPrecisionCast|ToDtype|ToOther|ToDevice|"
        r"(Get|Set)itemTensorIndexInfo"),
    "summary": Scope(
        "a summary or debug record (ScalarSummary, TensorDump, ...): it "
        "writes training logs, not model outputs",
        r"\w*Summary|TensorDump|DumpGradient|TensorReport"),
    "training-only": Scope(
        "optimiser updates, gradients (FFTOrtho, FFTShapeCopy and IRFFTDouble "
        "are the FFT ops' gradient helpers) and loss-scaling status only run "
        "in training; export the network in eval mode (set_train(False)) and "
        "without its optimiser",
        r"\w*Grad(V\d)?|\w*Grad[A-Z]\w*|\w*Backward\w*|"
        r"(Sparse)?Apply(?!RotaryPosEmb)\w*|"
        r"Fused\w*Apply\w*|Adam|AdamW|AdamWeightDecay|AdamNoUpdateParam|SGD|"
        r"Lamb\w*|LARSUpdate|LarsV2Update|FusedAdam\w*|FusedCastAdamWeightDecay|"
        r"Momentum|FtrlOptimizer|\w*FloatStatus\w*|GetNext|InitDataSetQueue|"
        r"FusedAdaFactor\w*|"
        r"InsertGradientOf|\w*BackpropFilter|DepthwiseConv2dNativeBackpropInput|"
        r"Dilation2DBackprop\w*|ConcatOffset|FFTOrtho|FFTShapeCopy|IRFFTDouble|"
        # THOR, the second-order optimiser, and its custom cube kernels
        r"\w*Thor\w*|Cus[A-Z]\w*|DetTriangle|LoadIm2Col|NewIm2Col|RefToEmbed"),
    "quantisation": Scope(
        "a quantisation op: the fake-quant and fold ops belong to "
        "quantisation-aware training, and the quantised inference kernels "
        "(Quant, AntiQuant, QuantBatchMatmul, ...) run on Ascend only; "
        "refinfer runs float models",
        r"\w*Quant\w*|Dequant\w*|MinMaxUpdate\w*|BatchNormFold\w*|"
        r"CorrectionMul\w*|ActsULQ\w*|WtsARQ|IFMR|FakeLearnedScale\w*"),
    "sparse": Scope(
        "a sparse-tensor (CSR/COO) op: refinfer reads dense tensors only, and "
        "MindSpore's exported inference graphs do not carry sparse tensors",
        r"\w*Sparse\w*|CSR\w*|COO\w*|Csr\w*|Coo\w*|\w*SetOperation|RaggedTensorTo\w*|"
        r"SetSize|Sspaddmm"),
    "random": Scope(
        "a random number generator: MindSpore draws from its own Philox "
        "streams, which refinfer does not reproduce, so no output could match "
        "MindSpore's",
        r"Random\w*|StandardNormal|StandardLaplace|Uniform\w*|Gamma|"
        r"RandomGamma|Poisson|RandomPoisson|Multinomial\w*|Dropout(\d\w*|"
        r"GenMask\w*|DoMask\w*)|Randperm\w*|LogUniformCandidateSampler|"
        r"ParameterizedTruncatedNormal|TruncatedNormal|Normal\w*|Bernoulli\w*|"
        r"RandInt\w*|RandLike\w*|Rand\w*|Inplace(Uniform|Normal|Random)\w*|"
        r"Generator|NonDeterministicInts|LogNormalReverse"),
    "pynative-only": Scope(
        "a PyNative-only op that graph mode, and so export, refuses (MindSpore "
        "2.7.1 cannot infer it in a graph): an exported MindIR never holds it",
        r"RealView|ImagView|AsStrided|CopyWithSlice"),
}


def out_of_scope(name: str) -> tuple[str, str] | None:
    """(category, reason) when primitive ``name`` is out of scope, else None.
    Only asked about primitives refinfer does not register."""
    for category, scope in OUT_OF_SCOPE.items():
        if scope.holds(name):
            return category, scope.reason
    return None
