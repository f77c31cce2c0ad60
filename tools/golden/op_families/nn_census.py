"""Reduction and nn primitives of the census (issue 14): histograms, losses,
norms, unique runs, GLU, ReLUV3, DataFormatDimMap."""
import numpy as np

from op_cases import OpCase, fixed, t

G = "ops.auto_generate"
NN = "ops.operations.nn_ops"


def _probabilities(shape):
    """Rows that sum to one (labels of a cross entropy)."""
    def make(rng):
        p = rng.uniform(0.05, 1.0, shape).astype(np.float32)
        return p / p.sum(axis=-1, keepdims=True)
    return make


CASES = [
    OpCase("histogram", "Histogram", "P.Histogram(4, -1.0, 1.0)(x)",
           [fixed([-1.0, 1.0, 0.99, -2.0, 2.0, 0.3, -0.5, 0.5, 0.0, np.nan])]),
    OpCase("histogram_range", "Histogram", "P.Histogram(5)(x)",
           [t((3, 4), "int32", -9, 9)]),
    OpCase("l2_loss", "L2Loss", "P.L2Loss()(x)", [t((3, 4))]),
    OpCase("unique_consecutive", "UniqueConsecutive",
           f"{G}.UniqueConsecutive(True, True, None)(x)",
           [fixed([[1, 1, 2], [2, 3, 1], [1, 1, 2]], "int32")]),
    OpCase("unique_consecutive_dim", "UniqueConsecutive",
           f"{G}.UniqueConsecutive(True, True, 0)(x)",
           [fixed([[1, 2], [1, 2], [3, 4], [1, 2]], "int64")]),
    OpCase("unique_with_pad", "UniqueWithPad", "P.UniqueWithPad()(x, -1)",
           [fixed([3, 1, 3, 2, 1, 7], "int32")]),
    OpCase("clip_by_norm", "ClipByNorm",
           "ops.operations._inner_ops.ClipByNorm()(x, y)", [t((3, 4)), fixed(2.0)]),
    # (no case with an axis: MindSpore 2.7.1's CPU kernel reads the wrong rows)
    OpCase("data_format_dim_map", "DataFormatDimMap", "P.DataFormatDimMap()(x)",
           [fixed([-4, -3, -2, -1, 0, 1, 2, 3], "int32")]),
    OpCase("glu", "GLU", f"{G}.GLU(0)(x)", [t((4, 3))]),
    OpCase("kl_div_loss", "KLDivLoss", "P.KLDivLoss('none')(x, y)",
           [t((2, 3)), fixed([[0.2, 0.0, 0.8], [0.5, 0.25, 0.25]])]),
    OpCase("kl_div_loss_batchmean", "KLDivLoss", "P.KLDivLoss('batchmean')(x, y)",
           [t((3, 4)), _probabilities((3, 4))]),
    OpCase("nuclear_norm", "NuclearNorm", "P.NuclearNorm((0, 2), True)(x)",
           [t((3, 2, 4))]),
    OpCase("relu_v3", "ReLUV3", f"{NN}.ReLUV3()(x)", [t((2, 5))]),
    OpCase("softmax_cross_entropy_with_logits", "SoftmaxCrossEntropyWithLogits",
           "P.SoftmaxCrossEntropyWithLogits()(x, y)", [t((3, 5)), _probabilities((3, 5))]),
]
