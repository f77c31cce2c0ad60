"""More elementwise arithmetic: the classic primitives (Xdivy, MulNoNan, TruncateDiv,
...), the scalar spellings graph mode exports for mint (AddScalar, SubScalar, Divs) and
the in-place ones (``x.add_(y)`` exports InplaceAddExt), whose result keeps x's dtype;
TypeAs and BroadcastToView, which MindSpore 2.7.1 exports but cannot run on CPU (NumPy
goldens).
"""
import numpy as np
from mindspore import mint, nn, ops

from op_cases import OpCase, fixed, t

S = (2, 3)
NAN, INF = float("nan"), float("inf")
AG = "ops.auto_generate."


class ElementwisePack(nn.Cell):
    """The new elementwise ops as users spell them, in one model."""
    def construct(self, x, y):
        gamma = ops.fmax(ops.lgamma(ops.abs(x) + 0.5), ops.digamma(ops.abs(y) + 1.0))
        bessel = ops.bessel_i0e(x) * mint.div(y, 2.0) + ops.bessel_j1(y) - ops.bessel_k0(y)
        ratio = ops.renorm(ops.xdivy(x, y), 2, 0, 1.0) + ops.truncate_mod(x, y)
        incomplete = ops.igamma(y, ops.abs(x)) - ops.zeta(y + 1.5, ops.abs(x) + 0.5)
        return gamma + bessel - ratio + incomplete + ops.inv(y) + ops.nextafter(x, y)

CLASSIC = [
    OpCase("xdivy_edges", "Xdivy", "P.Xdivy()(x, y)",
           [fixed([0.0, 0.0, 1.0, 2.0, -1.0, 3.0]), fixed([0.0, NAN, 0.0, 4.0, 0.0, -1.5])],
           "0 where x == 0, even 0 / 0 and 0 / NaN"),
    OpCase("xdivy_f64", "Xdivy", "P.Xdivy()(x, y)", [t(S, "float64"), t((3,), "float64")]),
    OpCase("mul_no_nan_edges", "MulNoNan", "P.MulNoNan()(x, y)",
           [fixed([INF, NAN, 2.0, 3.0, -1.5]), fixed([0.0, 0.0, INF, 2.0, 4.0])],
           "0 where y == 0, even inf * 0 and NaN * 0"),
    OpCase("mul_no_nan_int32", "MulNoNan", "P.MulNoNan()(x, y)",
           [t(S, "int32", -9, 9), t(S, "int32", -1, 1)]),
    OpCase("squared_difference", "SquaredDifference", "P.SquaredDifference()(x, y)",
           [t(S), t((3,))]),
    OpCase("squared_difference_int32", "SquaredDifference", "P.SquaredDifference()(x, y)",
           [t(S, "int32", -50, 50), t(S, "int32", -50, 50)]),
    OpCase("truncate_div", "TruncateDiv", "P.TruncateDiv()(x, y)",
           [t(S, low=-9.0, high=9.0), t(S, low=0.5, high=3.0)]),
    OpCase("truncate_div_int32", "TruncateDiv", "P.TruncateDiv()(x, y)",
           [fixed([-7, 7, -7, 5, 0, -5], "int32"), fixed([2, -2, -2, 0, 0, 0], "int32")],
           "toward zero; x / 0 saturates, 0 / 0 = 0"),
    OpCase("truncate_mod", "TruncateMod", "P.TruncateMod()(x, y)",
           [t(S, low=-9.0, high=9.0), t(S, low=-3.0, high=3.0)]),
    OpCase("truncate_mod_int32", "TruncateMod", "P.TruncateMod()(x, y)",
           [fixed([-7, 7, -7, 5, 0], "int32"), fixed([3, -3, -3, 0, 0], "int32")],
           "the dividend's sign; x mod 0 = 0"),
    OpCase("next_after", "NextAfter", "ops.nextafter(x, y)",
           [fixed([1.0, 1.0, -2.0, 3.0, NAN]), fixed([2.0, 0.0, -2.0, INF, 1.0])]),
    OpCase("next_after_f64", "NextAfter", "ops.nextafter(x, y)",
           [t(S, "float64"), t(S, "float64")]),
    OpCase("fmax_nan", "Fmax", "ops.fmax(x, y)",
           [fixed([1.0, NAN, NAN, 2.0, -0.5]), fixed([NAN, 3.0, NAN, 1.0, -0.25])],
           "NaN ignored; NaN only where both are"),
    OpCase("fmax_int_float", "Fmax", "ops.fmax(x, y)", [t(S, "int32", -5, 5), t((3,))]),
    OpCase("inv", "Inv", "ops.inv(x)", [t(S, low=0.25, high=4.0)]),
    OpCase("inv_int32", "Inv", "ops.inv(x)", [fixed([2, 0, -4, 1, -1], "int32")],
           "int32 stays int32: 1 / 2 = 0, 1 / 0 = -2**31"),
    OpCase("approximate_equal", "ApproximateEqual", "P.ApproximateEqual(0.5)(x, y)",
           [fixed([1.0, 1.0, 1.0, NAN, -2.0]), fixed([1.5, 1.4, 2.0, NAN, -2.25])],
           "strict: |x - y| = tolerance is False"),
    OpCase("approximate_equal_f16", "ApproximateEqual", "P.ApproximateEqual(0.3)(x, y)",
           [t(S, "float16", -1.0, 1.0), t(S, "float16", -1.0, 1.0)]),
    OpCase("equal_count_int32", "EqualCount", "P.EqualCount()(x, y)",
           [t((3, 4), "int32", 0, 2), t((3, 4), "int32", 0, 2)]),
    OpCase("equal_count_nan", "EqualCount", "P.EqualCount()(x, y)",
           [fixed([1.0, NAN, 3.0, 4.0]), fixed([1.0, NAN, 3.0, 5.0])]),
    OpCase("square_sum_all", "SquareSumAll", "P.SquareSumAll()(x, y)", [t(S), t(S)]),
    OpCase("square_sum_all_f16", "SquareSumAll", "P.SquareSumAll()(x, y)",
           [t((4, 5), "float16"), t((4, 5), "float16")]),
    OpCase("eps", "Eps", "P.math_ops.Eps()(x)", [t(S)]),
    OpCase("eps_f16", "Eps", "P.math_ops.Eps()(x)", [t(S, "float16")]),
    OpCase("add_n", "AddN", "ops.addn([x, y, z])", [t(S), t(S), t(S)]),
    OpCase("add_n_int32", "AddN", "ops.addn([x, y])",
           [t(S, "int32", -100, 100), t(S, "int32", -100, 100)]),
    OpCase("renorm_p2", "Renorm", "ops.renorm(x, 2, 0, 1.0)", [t((3, 4))],
           "rows whose 2-norm exceeds 1 scaled to 1"),
    OpCase("renorm_p1_dim_last", "Renorm", "ops.renorm(x, 1, -1, 2.5)", [t((2, 3, 2))]),
    OpCase("complex_abs", "ComplexAbs", "P.ComplexAbs()(ops.fft(x))", [t((2, 5))],
           "the magnitude of a spectrum (Lite has no complex model inputs)"),
    OpCase("dynamic_broadcast_to", "DynamicBroadcastTo",
           "P._inner_ops.DynamicBroadcastTo()(x, ops.shape(y))", [t(S), t((4, 2, 3))],
           dynamic=True),
]

SCALAR = [
    OpCase("add_scalar", "AddScalar", "mint.add(x, 2.5)", [t(S)]),
    OpCase("add_scalar_int32_alpha", "AddScalar", "mint.add(x, 2, alpha=3)",
           [t(S, "int32", -50, 50)]),
    OpCase("sub_scalar", "SubScalar", "mint.sub(x, 2.5)", [t(S)]),
    OpCase("sub_scalar_f16_alpha", "SubScalar", "mint.sub(x, 1.5, alpha=2)",
           [t(S, "float16")]),
    OpCase("divs", "Divs", "mint.div(x, 4.0)", [t(S)]),
    OpCase("divs_int32", "Divs", "mint.div(x, 2)", [t(S, "int32", -9, 9)],
           "int32 / Python int stays int32 (truncated)"),
]

# x.op_(y) exports Inplace*(x, y, U), then Depend; the result has x's dtype.
INPLACE = [
    OpCase("inplace_add_ext", "InplaceAddExt", "x.add_(y)", [t(S), t((3,))]),
    OpCase("inplace_add_ext_int_float", "InplaceAddExt", "x.add_(y)",
           [t(S, "int32", -9, 9), t(S, low=-2.0, high=2.0)],
           "y converted to int32 first (truncated)"),
    OpCase("inplace_adds_ext", "InplaceAddsExt", "x.add_(2.5)", [t(S, "float16")]),
    OpCase("inplace_sub_ext", "InplaceSubExt", AG + "InplaceSubExt()(x, y, 2)", [t(S), t(S)]),
    OpCase("inplace_sub_scalar", "InplaceSubScalar", AG + "InplaceSubScalar()(x, 1.5, 1)",
           [t(S)]),
    OpCase("inplace_mul", "InplaceMul", "x.mul_(y)", [t(S), t(S)]),
    OpCase("inplace_muls_int32", "InplaceMuls", "x.mul_(2.5)", [t(S, "int32", -9, 9)],
           "int32 * 2.5 multiplies by 2"),
    OpCase("inplace_div", "InplaceDiv", "x.div_(y)", [t(S), t(S, low=0.5, high=2.0)]),
    OpCase("inplace_div_int32", "InplaceDiv", "x.div_(y)",
           [fixed([-7, 7, 3, 9], "int32"), fixed([2, 2, 2, -4], "int32")],
           "the quotient truncated back to int32"),
    OpCase("inplace_divs", "InplaceDivs", "x.div_(4.0)", [t(S)]),
    OpCase("inplace_floor_divide", "InplaceFloorDivide", "x.floor_divide_(y)",
           [t(S, low=-9.0, high=9.0), t(S, low=0.5, high=3.0)]),
    OpCase("inplace_floor_divides_int32", "InplaceFloorDivides", "x.floor_divide_(2)",
           [t(S, "int32", -9, 9)]),
    OpCase("inplace_remainder_tt", "InplaceRemainderTensorTensor", "x.remainder_(y)",
           [t(S, "int32", -20, 20), t(S, "int32", 1, 6)]),
    OpCase("inplace_copy", "InplaceCopy", "x.copy_(y)", [t(S), t((3,), "int32", -9, 9)],
           "an int32 row broadcast and converted into float32 x"),
    OpCase("inplace_scatter_src", "InplaceScatterSrc", AG + "InplaceScatterSrc()(x, 1, y, z)",
           [t((3, 4)), fixed([[3, 0], [1, 2]], "int64"), t((2, 2))],
           "a 2x2 index into 3x4 x along dim 1 (MindSpore's CPU kernel wants src of "
           "index's shape)"),
    OpCase("inplace_remainder_ts", "InplaceRemainderTensorScalar", "x.remainder_(1.5)",
           [t(S, low=-9.0, high=9.0)]),
]

NO_CPU_KERNEL = [
    OpCase("type_as", "TypeAs", AG + "TypeAs()(x, y)",
           [t(S, low=-9.0, high=9.0), t(S, "int32", 0, 1)],
           "float32 -> int32, truncated", reference=lambda x, y: np.trunc(x).astype(y.dtype)),
    OpCase("broadcast_to_view", "BroadcastToView", AG + "BroadcastToView()(x, (3, 2, 3))",
           [t(S)], reference=lambda x: np.broadcast_to(x, (3, 2, 3)).copy()),
]

# Models built from the new ops, as users write them. (No chain of in-place writes:
# MindSpore 2.7.1 CPU runs one exported from z.mul_(2); z.add_(y); s = z * 3; z.div_(y)
# out of order, losing the mul_ and giving s the value after div_.)
PACKS = [
    OpCase("pack_elementwise", ["Fmax", "Lgamma", "Digamma", "BesselI0e", "Divs", "BesselJ1",
                                "BesselK0", "Renorm", "Xdivy", "TruncateMod", "Igamma",
                                "Zeta", "Inv", "NextAfter"], None,
           [t((3, 4)), t((3, 4), low=0.5, high=3.0)], cell=ElementwisePack),
]

CASES = CLASSIC + SCALAR + INPLACE + NO_CPU_KERNEL + PACKS
