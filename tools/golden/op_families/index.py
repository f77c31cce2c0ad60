"""Index ops of the census: the Parameter scatters by row, sorted segment
reductions, element scatters along an axis, index adds, masked scatter,
EmbeddingLookup, NthElement, ListDiff and SliceExt.

SliceExt and SliceExtView run on CPU in PyNative mode only, so their cases
carry a NumPy ``reference``.
"""
import numpy as np
from mindspore import Parameter, Tensor, nn
from mindspore.ops import operations as P

from op_cases import OpCase, fixed, t

IDX = "int32"


def _parameter_cell(primitive):
    """``primitive(table, indices, updates)`` on a 4x3 Parameter (the op
    updates it in place), doubled after so the new value is read."""
    def make():
        class ParameterNet(nn.Cell):
            def __init__(self):
                super().__init__()
                self.table = Parameter(Tensor(np.arange(1, 13, dtype=np.float32)
                                              .reshape(4, 3)))
                self.update = primitive()

            def construct(self, indices, updates):
                return self.update(self.table, indices, updates) * 2.0
        return ParameterNet()
    return make


SEGMENT_IDS = fixed([0, 0, 2, 2, 2, 4], IDX)

CASES = [
    # ScatterAdd ... ScatterDiv: rows of a Parameter, repeated rows included
    *[OpCase(f"scatter_{kind.lower()}", f"Scatter{kind}", None,
             [fixed([[1, 3], [1, 0]] if kind != "Update" else [[1, 3]], IDX),
              t((2, 2, 3) if kind != "Update" else (1, 2, 3), low=0.5, high=3.0)],
             cell=_parameter_cell(getattr(P, f"Scatter{kind}")))
      for kind in ("Add", "Sub", "Update", "Mul", "Max", "Min", "Div")],
    OpCase("scatter_add_with_axis", "ScatterAddWithAxis", None,
           [fixed([[2, 0], [1, 1], [-1, 0]], IDX), t((3, 2))],
           cell=_parameter_cell(lambda: P.ScatterAddWithAxis(1))),
    # the sorted segment reductions (an empty segment and a trailing one)
    *[OpCase(f"segment_{kind.lower()}", f"Segment{kind}",
             f"P.Segment{kind}()(x, y)", [t((6, 2), dtype), SEGMENT_IDS])
      for kind, dtype in (("Sum", "float32"), ("Max", "float32"), ("Min", "int32"),
                          ("Mean", "float32"), ("Prod", "float32"))],
    OpCase("segment_mean_int", "SegmentMean", "P.SegmentMean()(x, y)",
           [t((6,), "int32", -9, 9), SEGMENT_IDS]),
    OpCase("tensor_scatter_div", "TensorScatterDiv", "ops.tensor_scatter_div(x, y, z)",
           [t((4, 3)), fixed([[2], [0], [2]], IDX), t((3, 3), low=0.5, high=3.0)]),
    # element scatters along an axis
    OpCase("scatter_elements", "Scatter", "ops.scatter(x, 1, y, z)",
           [t((3, 4)), fixed([[2, 0], [1, -1]], "int64"), t((2, 2))]),
    OpCase("tensor_scatter_elements_add", "TensorScatterElements",
           "ops.tensor_scatter_elements(x, y, z, 0, 'add')",
           [t((3, 4), "int32"), fixed([[2, 0, 1], [2, 2, -3]], IDX),
            t((2, 3), "int32")]),
    # index adds and row updates
    OpCase("index_add", "IndexAdd", "ops.index_add(x, y, z, 1)",
           [t((2, 4, 3)), fixed([2, 0, 2], IDX), t((2, 3, 3))]),
    OpCase("inplace_index_add", "InplaceIndexAdd", "P.InplaceIndexAdd(0)(x, y, z)",
           [t((4, 3), "int32"), fixed([3, 0, 3], IDX), t((3, 3), "int32")]),
    OpCase("inplace_update_v2", "InplaceUpdateV2", "P.InplaceUpdateV2()(x, y, z)",
           [t((4, 3)), fixed([2, -4], IDX), t((2, 3))]),
    OpCase("masked_scatter", "MaskedScatter", "x.masked_scatter(y, z)",
           [t((4, 3)), fixed([[True], [False], [True], [True]], "bool"), t((10,))]),
    # lookups and selections
    OpCase("embedding_lookup", "EmbeddingLookup", "P.EmbeddingLookup()(x, y, 2)",
           [t((4, 3)), fixed([[2, 5], [1, 6], [3, 0]], IDX)]),
    OpCase("nth_element", "NthElement", "P.NthElement()(x, 2)", [t((3, 5))]),
    OpCase("nth_element_reverse", "NthElement", "P.NthElement(True)(x, y)",
           [t((2, 4), "int32"), fixed(1, IDX)]),
    OpCase("list_diff", "ListDiff", "P.ListDiff()(x, y)",
           [fixed([4, 1, 7, 4, 2, 9], IDX), fixed([4, 9, 3], IDX)]),
    OpCase("slice_ext", "SliceExt", "ops.auto_generate.SliceExt()(x, 1, -4, 9, 2)",
           [t((2, 5, 3))], reference=lambda x: [x[:, -4:9:2]]),
    OpCase("slice_ext_view", "SliceExtView",
           "ops.auto_generate.SliceExtView()(x, 0, 1, 3, 1)", [t((4, 3))],
           reference=lambda x: [x[1:3]]),
]
