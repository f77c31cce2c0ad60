"""Shape and indexing ops: reshaping views, splits, gathers and scatters, padding,
ranges, constant fills, triangles, einsum.

Cases whose primitive MindSpore 2.7.1 exports but cannot run on CPU (the mint
primitives, ops.Einsum) carry a NumPy ``reference``; meta.json then says the
outputs came from it.
"""
import numpy as np
from mindspore import Parameter, Tensor, nn, ops

from op_cases import OpCase, fixed, t

IDX = "int32"


def _split_at(sizes, axis):
    """Reference: np.split at the running sums of ``sizes``."""
    return lambda x: list(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def _scatter_nd_cell(kind):
    """ops.scatter_nd_<kind> into a Parameter (the op updates it in place)."""
    def make():
        class ScatterNdNet(nn.Cell):
            def __init__(self):
                super().__init__()
                self.table = Parameter(Tensor(np.arange(1, 13, dtype=np.float32)
                                              .reshape(4, 3)))
                self.scatter = getattr(ops, f"scatter_nd_{kind}")

            def construct(self, indices, updates):
                return self.scatter(self.table, indices, updates) * 2.0
        return ScatterNdNet()
    return make


def _unique_first(x):
    """Reference: the distinct values in order of first appearance, and the inverse."""
    _, first = np.unique(x, return_index=True)
    values = x[np.sort(first)]
    return [values, np.array([list(values).index(v) for v in x], np.int32)]


def _pad_cell(paddings, mode):
    return lambda: nn.Pad(paddings, mode=mode)


CASES = [
    # the classic shape ops
    OpCase("reshape", "Reshape", "ops.reshape(x, (4, -1))", [t((2, 3, 4), "int32")]),
    OpCase("transpose", "Transpose", "ops.transpose(x, (2, 0, 1))", [t((2, 3, 4))]),
    OpCase("expand_dims", "ExpandDims", "ops.expand_dims(x, -1)", [t((2, 3), "float16")]),
    OpCase("squeeze", "Squeeze", "ops.squeeze(x, (0, 2))", [t((1, 3, 1, 2))]),
    OpCase("flatten", "Flatten", "ops.flatten(x)", [t((2, 3, 4), "int64")]),
    OpCase("concat", "Concat", "ops.cat((x, y, x), -1)", [t((2, 3)), t((2, 1))]),
    OpCase("split", "Split", "ops.split(x, 2, 1)", [t((2, 4, 3), "int8")]),
    OpCase("stack", "Stack", "ops.stack((x, y), 1)", [t((2, 3)), t((2, 3))]),
    OpCase("tile", "Tile", "ops.tile(x, (2, 1, 3))", [t((3, 2), "int8")]),
    OpCase("strided_slice", "StridedSlice", "x[1:, ::2, None, -1]", [t((3, 4, 5))]),
    OpCase("strided_slice_ellipsis", "StridedSlice", "x[..., 3:0:-2]", [t((2, 3, 5))]),
    OpCase("gather", "Gather", "ops.gather(x, y, 1)", [t((2, 4, 3)), fixed([[3, 0], [1, 1]], IDX)]),
    OpCase("gather_batch_dims", "Gather", "ops.gather(x, y, 1, 1)",
           [t((2, 4, 3)), fixed([[3, 0], [1, 2]], IDX)]),
    OpCase("identity", "Identity", "ops.deepcopy(x)", [t((2, 3), "int32")]),
    # broadcasting and slicing
    OpCase("broadcast_to", "BroadcastTo", "ops.broadcast_to(x, (2, 3, 4))", [t((3, 1))]),
    OpCase("expand", "Expand", "P.Expand()(x, Tensor([2, 3, 4], ms.int32))", [t((3, 1))]),
    OpCase("broadcast_to_keep", "BroadcastTo", "ops.broadcast_to(x, (2, -1, 4))",
           [t((3, 1), "int32")]),
    OpCase("expand_as", "BroadcastTo", "x.expand_as(y)", [t((1, 4)), t((3, 4))]),
    OpCase("expand_as_op", "ExpandAs", "ops.expand_as(x, y)", [t((3, 1)), t((2, 3, 4))],
           reference=lambda x, y: [np.broadcast_to(x, y.shape).copy()]),
    OpCase("slice", "Slice", "ops.slice(x, (0, 1, 1), (2, 2, -1))", [t((2, 3, 4))]),
    OpCase("tensor_split", ("Slice", "Split"), "ops.tensor_split(x, 3, 2)", [t((2, 3, 4))]),
    OpCase("narrow", "Narrow", "mint.narrow(x, 1, 1, 2)", [t((2, 4, 3))],
           reference=lambda x: [x[:, 1:3]]),
    OpCase("reverse_v2", "ReverseV2", "ops.flip(x, (0, 2))", [t((2, 3, 4), "int32")]),
    OpCase("masked_select", "MaskedSelect", "ops.masked_select(x, y)",
           [t((3, 4)), fixed([True, False, False, True], "bool")]),
    # splitting and stacking
    OpCase("unstack", "Unstack", "ops.unstack(x, 1)", [t((2, 3, 4))]),
    OpCase("split_with_size", "SplitWithSize", "mint.split(x, [1, 3], 2)", [t((2, 3, 4))],
           reference=_split_at([1, 3], 2)),
    OpCase("split_tensor", "SplitTensor", "mint.split(x, 3, 2)", [t((2, 3, 7))],
           reference=_split_at([3, 3, 1], 2)),
    OpCase("chunk", "Chunk", "mint.chunk(x, 3, 1)", [t((3, 5))],
           reference=_split_at([2, 2, 1], 1)),
    OpCase("stack_ext", "StackExt", "mint.stack((x, y), 1)", [t((2, 3)), t((2, 3))],
           reference=lambda x, y: [np.stack((x, y), 1)]),
    OpCase("flatten_ext", "FlattenExt", "mint.flatten(x, 1, 2)", [t((2, 3, 4, 5))]),
    OpCase("meshgrid", "Meshgrid", "ops.meshgrid(x, y)", [t((3,)), t((2,))]),
    OpCase("meshgrid_ij", "Meshgrid", "ops.meshgrid(x, y, indexing='ij')", [t((3,)), t((2,))]),
    # gathers
    OpCase("gather_d", "GatherD", "ops.gather_elements(x, 1, y)",
           [t((3, 4)), t((2, 3), IDX, -4, 3)]),
    OpCase("gather_nd", "GatherNd", "ops.gather_nd(x, y)",
           [t((3, 4, 2)), fixed([[0, 3], [2, 1], [1, 1]], IDX)]),
    OpCase("index_select", "IndexSelect", "mint.index_select(x, 1, y)",
           [t((2, 4, 3)), fixed([3, 0, 0], "int64")],
           reference=lambda x, i: [np.take(x, i, axis=1)]),
    # scatters (repeated indices included)
    OpCase("scatter_nd", "ScatterNd", "ops.scatter_nd(y, x, (4, 3))",
           [t((3, 3)), fixed([[1], [3], [1]], IDX)]),
    *[OpCase(f"tensor_scatter_{kind}", f"TensorScatter{kind.capitalize()}",
             f"ops.tensor_scatter_{kind}(x, y, z)",
             [t((4, 3)), fixed([[2], [0]] if kind == "update" else [[2], [0], [2]], IDX),
              t((2 if kind == "update" else 3, 3))])
      for kind in ("update", "add", "sub", "mul", "max", "min")],
    *[OpCase(f"scatter_nd_{kind}", f"ScatterNd{kind.capitalize()}", None,
             [fixed([[1], [3], [1]] if kind != "update" else [[1], [3]], IDX),
              t((3 if kind != "update" else 2, 3), low=0.5, high=3.0)],
             cell=_scatter_nd_cell(kind))
      for kind in ("add", "sub", "update", "mul", "max", "min", "div")],
    OpCase("index_put", "IndexPut", "P.IndexPut(0)(x, y, (z, w))",
           [t((4, 3)), t((1,)), fixed([1, 3, 0], IDX), fixed([2, 0, -1], IDX)]),
    OpCase("index_put_accumulate", "IndexPut", "P.IndexPut(1)(x, y, (z,))",
           [t((4, 3)), t((3,)), fixed([1, 1, -4], IDX)]),
    OpCase("index_fill", "IndexFill", "ops.index_fill(x, 1, y, -1.0)",
           [t((2, 4, 3)), fixed([0, 2, -1], IDX)]),
    OpCase("index_fill_int", "IndexFill", "ops.index_fill(x, -1, y, Tensor(7, ms.int32))",
           [t((3, 4), "int32"), fixed([3], IDX)]),
    OpCase("unsorted_segment_sum", "UnsortedSegmentSum",
           "ops.unsorted_segment_sum(x, y, 4)",
           [t((5, 3)), fixed([0, 2, 0, 3, -1], IDX)]),
    *[OpCase(f"unsorted_segment_{kind}", f"UnsortedSegment{kind.capitalize()}",
             f"ops.unsorted_segment_{kind}(x, y, 4)",
             [t((5, 2), dtype), fixed([0, 2, 0, -1, 0], IDX)])
      for kind, dtype in (("max", "float32"), ("min", "int32"), ("prod", "float32"))],
    OpCase("unsorted_segment_sum_2d", "UnsortedSegmentSum",
           "ops.unsorted_segment_sum(x, y, 3)", [t((2, 3, 2), "int32"),
                                                  fixed([[0, 2, 2], [-3, 1, 0]], IDX)]),
    OpCase("unique", "Unique", "ops.unique(x)", [fixed([3, 1, 3, 2, 1, 7], IDX)],
           reference=_unique_first),
    OpCase("unique_float", "Unique", "ops.unique(x)", [fixed([0.5, -1.0, 0.5, 2.0])],
           reference=_unique_first),
    # one-hot
    OpCase("one_hot", "OneHot", "ops.one_hot(x, 5, Tensor(1.0, ms.float32), "
           "Tensor(0.0, ms.float32))", [fixed([0, 4, -1, 7], IDX)]),
    OpCase("one_hot_axis0_int", "OneHot", "ops.one_hot(x, 4, Tensor(3, ms.int32), "
           "Tensor(-1, ms.int32), 0)", [fixed([[0, 1], [3, 2]], IDX)]),
    OpCase("one_hot_ext", "OneHotExt", "mint.nn.functional.one_hot(x, 5)",
           [fixed([0, 3, 4, 1], "int64")],
           reference=lambda i: [(i[:, None] == np.arange(5)).astype(np.int64)]),
    # padding
    OpCase("pad_v3_constant", "PadV3", "ops.pad(x, (1, 2, 1, 0), value=3.0)", [t((2, 3, 4))]),
    OpCase("pad_v3_reflect", "PadV3", "ops.pad(x, (1, 2), mode='reflect')", [t((2, 3, 4))]),
    OpCase("pad_v3_edge", "PadV3", "ops.pad(x, (1, 2, 0, 1), mode='replicate')",
           [t((2, 3, 4))]),
    OpCase("pad_v3_circular", "PadV3", "ops.pad(x, (2, 1), mode='circular')", [t((1, 3, 4))]),
    OpCase("pad_v3_crop", "PadV3", "ops.pad(x, (-1, 2))", [t((3, 4), "int32")]),
    OpCase("pad", "Pad", None, [t((2, 3, 4))],
           cell=_pad_cell(((0, 0), (1, 1), (2, 0)), "CONSTANT")),
    OpCase("mirror_pad_reflect", "MirrorPad", None, [t((2, 3, 4))],
           cell=_pad_cell(((0, 0), (1, 2), (2, 0)), "REFLECT")),
    OpCase("mirror_pad_symmetric", "MirrorPad", None, [t((2, 3, 4))],
           cell=_pad_cell(((0, 0), (1, 2), (3, 0)), "SYMMETRIC")),
    OpCase("constant_pad_nd", "ConstantPadND", "mint.nn.functional.pad(x, (1, 2, -1, 1), "
           "value=2.5)", [t((2, 3, 4))],
           reference=lambda x: [np.pad(x[:, 1:], ((0, 0), (0, 1), (1, 2)),
                                       constant_values=np.float32(2.5))]),
    # ranges and constants
    OpCase("range_int", "Range", "ops.range(x, y, z)",
           [fixed(1, IDX), fixed(10, IDX), fixed(3, IDX)]),
    OpCase("range_float_down", "Range", "ops.range(x, y, z)",
           [fixed(2.0), fixed(-1.0), fixed(-0.75)]),
    OpCase("lin_space", "LinSpace", "ops.linspace(x, y, 7)", [fixed(0.1), fixed(1.7)]),
    OpCase("eye", "Eye", "ops.eye(3, 4, ms.int32) + x", [t((3, 4), "int32")]),
    OpCase("diag_part", "DiagPart", "P.DiagPart()(x)", [t((3, 2, 3, 2), "int32")]),
    OpCase("diag", "Diag", "ops.diag(x)", [t((2, 3))]),
    OpCase("space_to_batch_nd", "SpaceToBatchND",
           "ops.space_to_batch_nd(x, (2, 2), ((0, 0), (1, 1)))", [t((1, 2, 4, 2))]),
    OpCase("space_to_batch_nd_pad", "SpaceToBatchND",
           "ops.space_to_batch_nd(x, (3, 2), ((1, 1), (0, 1)))",
           [t((2, 1, 4, 3), "int32")]),
    OpCase("depth_to_space", "DepthToSpace", "ops.DepthToSpace(2)(x)", [t((1, 8, 2, 3))]),
    OpCase("space_to_depth", "SpaceToDepth", "ops.SpaceToDepth(2)(x)",
           [t((2, 2, 4, 6), "int32")]),
    OpCase("matrix_band_part", "MatrixBandPart", "ops.matrix_band_part(x, 1, 0)",
           [t((2, 3, 4))]),
    OpCase("matrix_band_part_all", "MatrixBandPart", "ops.matrix_band_part(x, -1, 2)",
           [t((4, 5), "int32")]),
    OpCase("channel_shuffle", "ChannelShuffle", "ops.channel_shuffle(x, 2)",
           [t((1, 6, 2, 2))]),
    OpCase("batch_to_space_nd", "BatchToSpaceND",
           "ops.batch_to_space_nd(x, (2, 2), ((0, 0), (1, 0)))", [t((4, 2, 2, 3))]),
    OpCase("batch_to_space_nd_crop", "BatchToSpaceND",
           "ops.batch_to_space_nd(x, (3, 2), ((1, 2), (0, 1)))",
           [t((12, 1, 2, 2), "int32")]),
    OpCase("triu", "Triu", "ops.triu(x, 1)", [t((2, 3, 4))]),
    OpCase("tril", "Tril", "ops.tril(x, -1)", [t((3, 4), "int32")]),
    OpCase("tril_ext", "TrilExt", "mint.tril(x, 1)", [t((3, 4))],
           reference=lambda x: [np.tril(x, 1)]),
    OpCase("zeros_like_ext", "ZerosLikeExt", "mint.zeros_like(x)", [t((2, 3), "int32")]),
    OpCase("ones_like_ext", "OnesLikeExt", "mint.ones_like(x)", [t((2, 3))]),
    OpCase("full_like", "FullLike", "mint.full_like(x, 2.0)", [t((2, 3))],
           reference=lambda x: [np.full(x.shape, 2.0, np.float32)]),
    OpCase("zeros_like_dynamic", "ZerosLike", "ops.zeros_like(x)", [t((2, 3), "int32")],
           dynamic=True),
    OpCase("ones_like_dynamic", "OnesLike", "ops.ones_like(x) + x", [t((2, 3))], dynamic=True),
    OpCase("size_dynamic", "Size", "x * x.size", [t((3, 4))], dynamic=True),
    OpCase("arange_dynamic", "Arange", "mint.arange(x.shape[0])", [t((5, 2))], dynamic=True,
           reference=lambda x: [np.arange(x.shape[0], dtype=np.int64)]),
    OpCase("arange_float_dynamic", "Arange", "mint.arange(0.5, x.shape[1], 1.5)", [t((2, 5))],
           dynamic=True,
           reference=lambda x: [np.arange(0.5, x.shape[1], 1.5).astype(np.float32)]),
    OpCase("lin_space_ext_dynamic", "LinSpaceExt", "mint.linspace(0, x.shape[0], 4)",
           [t((3,))], dynamic=True,
           reference=lambda x: [np.linspace(0, x.shape[0], 4).astype(np.float32)]),
    OpCase("fill_scalar", "FillScalar", "mint.full(x.shape, 1.5) + x", [t((2, 3))]),
    OpCase("fill_v2", "FillV2", "ops.fill(ms.float32, (2, 3), x)", [fixed(2.5)]),
    OpCase("new_ones", "NewOnes", "x.new_ones((2, 3))", [t((3,), "int32")]),
    OpCase("new_zeros", "NewZeros", "x.new_zeros((2, 3))", [t((3,))]),
    OpCase("new_full", "NewFull", "x.new_full((2, 3), 2.5)", [t((3,))],
           reference=lambda x: [np.full((2, 3), 2.5, np.float32)]),
    OpCase("tensor_shape", "TensorShape", "P.TensorShape()(x)", [t((2, 3, 4))]),
    OpCase("non_zero", "NonZero", "ops.nonzero(x > 0)", [t((3, 4))]),
    OpCase("non_zero_ext", "NonZeroExt", "mint.nonzero(x, as_tuple=True)",
           [fixed([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])],
           reference=lambda x: [i.astype(np.int64) for i in np.nonzero(x)]),
    # einsum and view forms
    OpCase("einsum", "Einsum", "ops.einsum('ij,kj->ik', x, y)", [t((3, 4)), t((2, 4))],
           reference=lambda x, y: [np.einsum("ij,kj->ik", x, y)]),
    OpCase("mint_einsum", ("TransposeView", "BatchMatMulExt"),
           "mint.einsum('bij,bkj->bik', x, y)", [t((2, 3, 4)), t((2, 5, 4))]),
    OpCase("transpose_ext_view", "TransposeExtView", "mint.transpose(x, 0, 2)",
           [t((2, 3, 4))], reference=lambda x: [np.swapaxes(x, 0, 2)]),
    OpCase("select_ext_view", "SelectExtView", "mint.select(x, 1, -1)", [t((2, 3, 4))],
           reference=lambda x: [x[:, -1]]),
    OpCase("t_ext", "TExt", "mint.t(x)", [t((3, 4))], reference=lambda x: [x.T]),
    OpCase("view_as", "ViewAs", "x.view_as(y)", [t((3, 4)), t((2, 6))]),
    OpCase("roll", "Roll", "mint.roll(x, (1, -1), (0, 1))", [t((3, 4))],
           reference=lambda x: [np.roll(x, (1, -1), (0, 1))]),
    OpCase("repeat_interleave_int", "RepeatInterleaveInt", "mint.repeat_interleave(x, 2, 1)",
           [t((2, 3))], reference=lambda x: [np.repeat(x, 2, axis=1)]),
    OpCase("repeat_interleave_tensor", "RepeatInterleaveTensor",
           "mint.repeat_interleave(x, y, 0)", [t((3, 2)), fixed([1, 0, 2], "int64")],
           reference=lambda x, r: [np.repeat(x, r, axis=0)]),
    *[OpCase(f"gather_d_{dtype}", "GatherD", "ops.gather_elements(x, 0, y)",
             [t((3, 2), dtype), t((2, 2), "int64", -3, 2)]) for dtype in ("float16", "int64")],
]
