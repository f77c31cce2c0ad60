"""Comparisons and logic: every comparison with broadcasting, Python-scalar and 0-d operands
(MindSpore's promotion: a Python int wraps into an integer tensor's dtype), logical ops on
bool and non-bool inputs, Select, MaskedFill, and the NaN / inf tests."""
import numpy as np

from op_cases import OpCase, fixed, per_dtype, t

S = (2, 3)
SPECIALS = [1.0, -0.0, float("nan"), float("inf"), float("-inf"), -2.5]
COMPARISONS = [("equal", "Equal", "=="), ("not_equal", "NotEqual", "!="),
               ("greater", "Greater", ">"), ("greater_equal", "GreaterEqual", ">="),
               ("less", "Less", "<"), ("less_equal", "LessEqual", "<=")]


def comparison_cases(name, op, sign):
    """Tensor-tensor with broadcasting per dtype, a float and an int Python scalar, a
    0-d tensor, NaN operands, and uint8 against -1 (which wraps to 255)."""
    return [
        *per_dtype(name, op, f"x {sign} y", [(2, 1, 3), (4, 1)],
                   ["float32", "float16", "int32", "uint8", "bool"], low=0, high=3),
        OpCase(f"{name}_scalar", op, f"x {sign} 0.5", [t(S, low=-1.0, high=2.0)]),
        OpCase(f"{name}_int_scalar", op, f"x {sign} 2", [t(S, "int64", 0, 4)]),
        OpCase(f"{name}_0d", op, f"x {sign} y", [t(S, "int8", -3, 3), t((), "int8", -1, 1)]),
        OpCase(f"{name}_nan", op, f"x {sign} y", [fixed(SPECIALS), fixed(SPECIALS[::-1])]),
        OpCase(f"{name}_uint8_wrap", op, f"x {sign} -1", [fixed([0, 1, 254, 255], "uint8")],
               "-1 wraps to 255 in uint8"),
    ]


CASES = [
    *[case for name, op, sign in COMPARISONS for case in comparison_cases(name, op, sign)],
    *per_dtype("logical_and", "LogicalAnd", "ops.logical_and(x, y)", [S, (3,)],
               ["bool", "int32", "float32"], low=-1, high=1),
    *per_dtype("logical_or", "LogicalOr", "ops.logical_or(x, y)", [S, (3,)],
               ["bool", "int32", "float32"], low=-1, high=1),
    *per_dtype("logical_xor", "LogicalXor", "ops.logical_xor(x, y)", [S, (3,)],
               ["bool", "int32"], low=-1, high=1),
    *per_dtype("logical_not", "LogicalNot", "ops.logical_not(x)", [S],
               ["bool", "int32", "float64"], low=-1, high=1),
    OpCase("logical_not_nan", "LogicalNot", "ops.logical_not(x)", [fixed(SPECIALS)]),
    *per_dtype("select", "Select", "ops.where(x > 0, x, y)", [S, (3,)],
               ["float32", "float16", "int32", "bool"], low=-2, high=2),
    OpCase("select_scalar", "Select", "ops.select(x, y, 1.0)", [t(S, "bool"), t(S)]),
    OpCase("select_bcast", "Select", "ops.where(x, y, z)",
           [t((2, 1, 3), "bool"), t((4, 1)), t((3,))]),
    *per_dtype("masked_fill", "MaskedFill", "ops.masked_fill(x, x > 0.5, 7.0)", [S],
               ["float32", "float16", "float64"]),
    OpCase("masked_fill_int32", "MaskedFill", "ops.masked_fill(x, y, Tensor(-1, ms.int32))",
           [t(S, "int32", -9, 9), t((3,), "bool")]),
    OpCase("masked_fill_tensor_value", "MaskedFill", "ops.masked_fill(x, y, z)",
           [t(S), t(S, "bool"), t(())]),
    OpCase("masked_fill_bcast_mask", "MaskedFill", "x.masked_fill(y, 0.0)",
           [t((2, 3, 2)), t((3, 1), "bool")]),
    OpCase("is_nan", "IsNan", "ops.isnan(x)", [fixed(SPECIALS)]),
    OpCase("is_nan_f16", "IsNan", "ops.isnan(x)", [fixed(SPECIALS, "float16")]),
    OpCase("is_nan_int32", "IsNan", "ops.isnan(x)", [t(S, "int32")]),
    OpCase("is_inf", "IsInf", "ops.isinf(x)", [fixed(SPECIALS)]),
    OpCase("is_inf_f64", "IsInf", "ops.isinf(x)", [fixed(SPECIALS, "float64")]),
    OpCase("is_finite", "IsFinite", "ops.isfinite(x)", [fixed(SPECIALS)]),
    OpCase("is_finite_f16", "IsFinite", "ops.isfinite(x)", [fixed(SPECIALS, "float16")]),
    OpCase("is_finite_int32", "IsFinite", "ops.isfinite(x)", [t(S, "int32")]),
    OpCase("is_close", "IsClose", "ops.isclose(x, y)",
           [fixed([1.0, 1.0, 1.0, float("inf"), float("nan"), 0.0]),
            fixed([1.0, 1.00001, 1.001, float("inf"), float("nan"), 1e-9])]),
    OpCase("is_close_args", "IsClose", "ops.isclose(x, y, 0.01, 0.1, True)",
           [fixed([1.0, 1.0, 1.0, float("inf"), float("nan"), 0.0]),
            fixed([1.05, 1.2, 1.001, float("-inf"), float("nan"), 0.09])]),
    OpCase("is_close_int32", "IsClose", "ops.isclose(x, y)",
           [t(S, "int32", 0, 2), t(S, "int32", 0, 2)]),
    OpCase("is_neg_inf_mint", "IsNegInf", "mint.isneginf(x)", [fixed(SPECIALS)],
           reference=np.isneginf),
]
