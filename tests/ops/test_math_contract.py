"""The registry contract for the elementwise, activation, comparison and
reduction families: MindSpore 2.7.1's argument orders and defaults (from the
wheel's generated primitive classes; classic PRIMITIVE ops: node inputs,
then attributes), docstrings, dtype tables, and a golden case for every op."""
import functools
import inspect
import json
from pathlib import Path

import pytest

from refinfer.registry import get_op, list_ops

FAMILIES = ("elementwise", "activation", "comparison", "reduction")
GOLDEN_OPS = Path(__file__).resolve().parents[2] / "golden" / "ops"

UNARY_INPUT = """Log Rsqrt Erf Erfc Erfinv Floor Ceil Sign Reciprocal Sin Cos Tan Sinh
    Cosh Asin ACos Atan Asinh Acosh Atanh Log1p Expm1 Trunc Sinc Exp2 Log2 Log10 Frac
    Invert HSigmoid GeLU SiLU Mish MishExt Softplus Softsign SeLU SeLUExt LogSigmoid
    LogicalNot IsInf IsFinite IsNegInf Max Min MedianExt Real Imag Conj Angle""".split()
BINARY_INPUT_OTHER = """FloorDiv RemainderTensorTensor RemainderTensorScalar
    RemainderScalarTensor FmodTensor FmodScalar Atan2 Atan2Ext Xlogy LogAddExp
    BitwiseAnd BitwiseOr BitwiseXor BitwiseAndTensor BitwiseOrTensor BitwiseXorTensor
    BitwiseAndScalar BitwiseOrScalar BitwiseXorScalar NotEqual GreaterEqual LessEqual
    LogicalXor""".split()

# Positional parameters with defaults, in MindSpore 2.7.1's order.
SIGNATURES = {
    **{op: "input" for op in UNARY_INPUT},
    **{op: "input other" for op in BINARY_INPUT_OTHER},
    "Round": "input decimals=0", "Rint": "input_x", "NanToNum": "input nan=None posinf=None neginf=None",
    "Logit": "input eps=-1.0", "FloorMod": "x y", "Mod": "x y", "Hypot": "x1 x2",
    "DivNoNan": "x1 x2", "AddV2": "input other", "Gcd": "input other",
    "Lcm": "input other", "Heaviside": "input values",
    **{f"UnsortedSegment{kind}": "input_x segment_ids num_segments"
       for kind in ("Sum", "Max", "Min", "Prod")},
    "Cross": "input other dim=-65530", "Cdist": "x1 x2 p=2.0", "Polar": "abs angle",
    "LpNorm": "input axis p=2 keep_dims=False epsilon=1e-12",
    "LeftShift": "x1 x2", "RightShift": "input_x input_y", "IsNan": "x",
    "LogicalAnd": "x y", "LogicalOr": "x y",
    "DivMod": "input other rounding_mode=None",
    "AddExt": "input other alpha=1", "SubExt": "input other alpha=1",
    "PowTensorScalar": "input exponent", "PowScalarTensor": "input exponent",
    "Lerp": "input end weight", "LerpScalar": "input end weight",
    "Addcmul": "input tensor1 tensor2 value=1", "AddcmulExt": "input tensor1 tensor2 value=1",
    "Addcdiv": "input tensor1 tensor2 value=1", "AddcdivExt": "input tensor1 tensor2 value=1",
    "ClampScalar": "input min=None max=None", "ClampTensor": "input min=None max=None",
    "Hardtanh": "input min_val=-1 max_val=1", "FastGeLU": "x",
    "GeluExt": "input approximate=none", "SoftplusExt": "input beta=1 threshold=20",
    "Elu": "input alpha=1.0", "EluExt": "input alpha=1.0", "CeLU": "x alpha=1.0",
    "SoftShrink": "input lambd=0.5", "HShrink": "input lambd=0.5",
    "LeakyReLUExt": "input negative_slope=0.01", "PReLU": "input weight",
    "MaskedFill": "input_x mask value",
    "IsClose": "input other rtol=1e-05 atol=1e-08 equal_nan=False",
    "ReduceMin": "x axis=() keep_dims=False", "ReduceProd": "x axis=() keep_dims=False",
    "ReduceAny": "x axis=() keep_dims=False", "ReduceAll": "input axis=None keep_dims=False",
    "ProdExt": "input dim=None keepdim=False dtype=None",
    "Argmax": "input_x axis=-1 output_type=int32", "Argmin": "x axis=-1 output_type=int32",
    "ArgMaxExt": "input dim=None keepdim=False", "ArgMinExt": "input dim=None keepdim=False",
    "ArgMaxWithValue": "input axis=0 keep_dims=False",
    "ArgMinWithValue": "input axis=0 keep_dims=False",
    "MaxDim": "input dim keepdim=False", "MinDim": "input dim keepdim=False",
    "CumSum": "input axis exclusive=False reverse=False",
    "CumProd": "x axis exclusive=False reverse=False",
    "CumsumExt": "input dim dtype=None", "Cummax": "input axis", "Cummin": "input axis",
    "TopK": "input k sorted=True", "TopkExt": "input k dim=-1 largest=True sorted=True",
    "Sort": "x axis=-1 descending=False",
    "SortExt": "input dim=-1 descending=False stable=False",
    "ArgSort": "input dim=-1 descending=False stable=False",
    "ReduceStd": "x axis=() unbiased=True keep_dims=False",
    "Std": "input dim=None correction=1 keepdim=False", "LogSumExp": "input dim keepdim=False",
    "Median": "x global_median=False axis=0 keep_dims=False ignore_nan=False",
    "Nansum": "input dim=None keepdim=False dtype=None",
    "SearchSorted": "sorted_sequence values sorter=None dtype=int64 right=False",
    "Swiglu": "input dim=-1",
    "TraceV2": "input offset=0 axis1=1 axis2=0 dtype=None",
    **{op: "x y" for op in ("Xdivy", "MulNoNan", "SquaredDifference", "TruncateDiv",
                            "TruncateMod", "EqualCount", "SquareSumAll")},
    "NextAfter": "input other", "Fmax": "x1 x2", "Inv": "x", "Eps": "x",
    "ApproximateEqual": "x y tolerance=1e-05", "AddN": "inputs",
    "Renorm": "x p dim maxnorm", "Divs": "input other",
    "AddScalar": "input other alpha=1", "SubScalar": "input other alpha=1",
    **{op: "input other alpha=1" for op in ("InplaceAddExt", "InplaceAddsExt",
                                            "InplaceSubExt", "InplaceSubScalar")},
    **{op: "input other" for op in (
        "InplaceMul", "InplaceMuls", "InplaceDiv", "InplaceDivs", "InplaceFloorDivide",
        "InplaceFloorDivides", "InplaceRemainderTensorTensor",
        "InplaceRemainderTensorScalar")},
    "Lgamma": "x", "Digamma": "input", "Zeta": "x q", "Igamma": "a x", "Igammac": "a x",
    "Betainc": "a b x",
    **{f"Bessel{kind}": "x" for kind in ("J0", "J1", "Y0", "Y1", "I0", "I0e", "I1", "I1e",
                                         "K0", "K0e", "K1", "K1e")},
    **{op: "x type=2 n=None axis=-1 norm=None" for op in ("DCT", "IDCT")},
    **{op: "x type=2 s=None axes=None norm=None" for op in ("DCTN", "IDCTN")},
    "Correlate": "a v pad_mode=VALID", "ComplexAbs": "x", "TypeAs": "input other",
    "InplaceCopy": "input src non_blocking=False", "InplaceScatterSrc": "input dim index src",
    "LstsqV2": "A B driver=None",
}


def spelled(param) -> str:
    if param.default is inspect.Parameter.empty:
        return param.name
    return f"{param.name}={param.default}"


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_argument_order_and_defaults(name):
    assert " ".join(spelled(p) for p in get_op(name).params) == SIGNATURES[name]


FAMILY_OPS = [op.name for op in list_ops() if op.family in FAMILIES]


@pytest.mark.parametrize("name", FAMILY_OPS)
def test_docstring_and_dtypes(name):
    op = get_op(name)
    lines = op.doc.splitlines()
    assert lines and lines[0].endswith(".") and len(lines[0]) <= 79, lines[:1]
    assert op.dtypes and all(d in {"float16", "float32", "float64", "int8", "int16",
                                   "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "bool"} for d in op.dtypes)


@pytest.mark.parametrize("name", FAMILY_OPS)
def test_defaults_survive_their_normalisers(name):
    op = get_op(name)
    for param in op.params:
        convert = op.convert.get(param.name)
        if convert is not None and param.default is not inspect.Parameter.empty:
            assert convert(param.default) == param.default, param.name


@functools.cache
def golden_ops() -> set[str]:
    """The ``op`` entries of the per-op golden cases."""
    ops = set()
    for meta in GOLDEN_OPS.glob("*/meta.json"):
        ops.update(json.loads(meta.read_text()).get("op", []))
    return ops


@pytest.mark.skipif(not GOLDEN_OPS.is_dir(), reason="no golden/ops folder")
@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_every_op_has_a_golden_case(name):
    assert name in golden_ops(), f"no golden/ops case has op {name!r}"
