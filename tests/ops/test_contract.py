"""The registry contract for the kernels in ops/: MindSpore argument orders
(docs/mindir-format.md Appendix A), docstrings, and defaults that survive
their own normalisers (the interpreter converts defaults too)."""
import inspect

import pytest

from refinfer.registry import get_op

# Positional parameters, in MindSpore 2.7.1's order.
SIGNATURES = {
    "Conv2D": "x weight out_channel kernel_size mode pad_mode pad stride "
              "dilation group data_format pad_list",
    "BiasAdd": "input_x bias data_format",
    "BatchNorm": "x scale bias mean variance is_training epsilon momentum "
                 "data_format",
    "Dense": "input weight bias",
    "MatMul": "input mat2 transpose_a transpose_b",
    "BatchMatMul": "x y transpose_a transpose_b",
    "MatMulExt": "input other",
    "MaxPool": "x kernel_size strides pad_mode data_format",
    "AvgPool": "x kernel_size strides pad_mode data_format",
    "ReLU6": "x", "HSwish": "input", "Sigmoid": "input", "Tanh": "input",
    "Softmax": "input axis", "LogSoftmax": "logits axis",
    "Sub": "input other", "Mul": "input other", "Muls": "input other",
    "Div": "input other", "RealDiv": "x y", "Maximum": "input other",
    "Minimum": "input other", "Pow": "input exponent",
    "Exp": "input", "Sqrt": "x", "Neg": "input", "Abs": "input",
    "Square": "input", "Greater": "input other", "Less": "input other",
    "Equal": "input other", "Select": "condition input other",
    "Cast": "input_x dtype",
    "ReduceSum": "x axis keep_dims skip_mode",
    "ReduceMean": "x axis keep_dims", "ReduceMax": "x axis keep_dims",
    "SumExt": "input dim keepdim dtype", "MeanExt": "input dim keepdim dtype",
    "Flatten": "input_x", "Reshape": "input shape", "Transpose": "input dims",
    "ExpandDims": "input_x axis", "Squeeze": "input axis",
    "Concat": "tensors axis", "Split": "input_x axis output_num",
    "Gather": "input_params input_indices axis batch_dims",
    "StridedSlice": "input_x begin end strides begin_mask end_mask "
                    "ellipsis_mask new_axis_mask shrink_axis_mask",
    "Shape": "x", "Tile": "input dims", "Stack": "x axis",
    "Identity": "input_x",
    "ScatterAdd": "input_x indices updates use_locking",
    "SegmentSum": "input_x segment_ids",
    "TensorScatterDiv": "input_x indices updates",
    "Scatter": "input dim index src reduce",
    "TensorScatterElements": "data indices updates axis reduce",
    "ScatterAddWithAxis": "input_x indices updates axis",
    "IndexAdd": "input_x indices input_y axis use_lock check_index_bound",
    "InplaceIndexAdd": "var indices updates axis",
    "InplaceUpdateV2": "x indices v", "MaskedScatter": "input mask source",
    "EmbeddingLookup": "input_params input_indices offset",
    "NthElement": "input n reverse", "SliceExt": "input dim start end step",
    "CheckNumerics": "x", "Complex": "real imag", "ConjugateTranspose": "x perm",
    "FillDiagonal": "input_x fill_value wrap", "LowerBound": "sorted_x values out_type",
    "UpperBound": "sorted_x values out_type", "Mvlgamma": "x p",
    "NewEmpty": "input size dtype device", "Ones": "shape type", "Zeros": "shape type",
    "PopulationCount": "input_x",
    "Histogram": "x bins min max", "L2Loss": "input",
    "UniqueConsecutive": "input return_inverse return_counts dim",
    "UniqueWithPad": "x pad_num", "ClipByNorm": "x clip_norm axis",
    "DataFormatDimMap": "input_x src_format dst_format", "GLU": "x axis",
    "KLDivLoss": "logits labels reduction", "NuclearNorm": "input dim keepdim",
    "SoftmaxCrossEntropyWithLogits": "logits labels", "ListDiff": "x y out_idx",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_argument_order(name):
    op = get_op(name)
    assert [p.name for p in op.params] == SIGNATURES[name].split()


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_docstring_and_metadata(name):
    op = get_op(name)
    lines = op.doc.splitlines()
    assert lines and lines[0].endswith(".") and len(lines[0]) <= 79
    assert len(lines) > 1 or len(op.params) <= 2
    assert op.family and op.dtypes


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_defaults_are_canonical(name):
    op = get_op(name)
    for param in op.params:
        convert = op.convert.get(param.name)
        if convert is None or param.default is inspect.Parameter.empty:
            continue
        assert convert(param.default) == param.default, param.name


def test_classic_primitive_attribute_aliases():
    assert get_op("Conv2D").attrs == {"format": "data_format",
                                      "groups": "group"}
    assert get_op("MaxPool").attrs["format"] == "data_format"
