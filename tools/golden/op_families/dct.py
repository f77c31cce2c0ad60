"""The orthonormal discrete cosine transforms (mindspore.scipy.fft.dct and kin): DCT,
IDCT, DCTN, IDCTN, with crops, zero-pads, axes and an integer input; and Correlate
(mindspore.numpy.correlate) in its three modes; LstsqV2 (mindspore.scipy.linalg.lstsq)
with each LAPACK driver's outputs."""
from op_cases import OpCase, t

AG = "ops.auto_generate."

CASES = [
    OpCase("dct", "DCT", AG + "DCT()(x, 2, None, -1, None)", [t((3, 5))]),
    OpCase("dct_crop_axis0_int32", "DCT", AG + "DCT()(x, 2, 2, 0, 'ortho')",
           [t((3, 4), "int32", -9, 9)], "int32 -> float32, 3 rows cropped to 2"),
    OpCase("idct_pad_f64", "IDCT", AG + "IDCT()(x, 2, 6, -1, None)", [t((2, 4), "float64")]),
    OpCase("dctn", "DCTN", AG + "DCTN()(x, 2, None, None, None)", [t((2, 3, 4))]),
    OpCase("dctn_s_axes", "DCTN", AG + "DCTN()(x, 2, (3, 2), (0, 2), None)", [t((2, 3, 4))],
           "axis 0 padded to 3, axis 2 cropped to 2"),
    OpCase("idctn", "IDCTN", AG + "IDCTN()(x, 2, (4,), None, 'ortho')", [t((3, 5))],
           "the last axis only, cropped to 4"),
    OpCase("correlate_full", "Correlate", AG + "Correlate('full')(x, y)", [t((5,)), t((3,))]),
    OpCase("correlate_same_even", "Correlate", AG + "Correlate('same')(x, y)",
           [t((6,)), t((4,))], "an even kernel: where 'same' centres it"),
    OpCase("correlate_valid_longer_v", "Correlate", AG + "Correlate('valid')(x, y)",
           [t((3,), "float64"), t((5,), "float64")], "v longer than a"),
    OpCase("lstsq_v2", "LstsqV2", AG + "LstsqV2()(x, y)", [t((2, 5, 3)), t((2, 5, 2))],
           "gelsy (the default): rank, no residual or singular values"),
    OpCase("lstsq_v2_gels", "LstsqV2", AG + "LstsqV2()(x, y, 'gels')",
           [t((4, 3), "float64"), t((4, 2), "float64")]),
    OpCase("lstsq_v2_gelsd_vector", "LstsqV2", AG + "LstsqV2()(x, y, 'gelsd')",
           [t((4, 3)), t((4,))], "B a vector"),
    OpCase("lstsq_v2_gelss_wide", "LstsqV2", AG + "LstsqV2()(x, y, 'gelss')",
           [t((3, 4)), t((3, 1))], "M < N: the minimum-norm solution, no residual"),
]
