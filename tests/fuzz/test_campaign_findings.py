"""Each failure signature of twenty 20,000-case fuzz campaigns (``tools/fuzz.py
--cases 20000 --seed 1 --timeout 20``, then seeds 2 to 19, 24 and 32, issue 17), rebuilt
from its golden model and mutation steps (the case.json of its reproducer):
refinfer now refuses every one of them with a clean error that says what is
wrong."""
import os
import re

import numpy as np
import pytest

from fuzzer.mutate import Case, load_source, mutated_bytes
from fuzzer.pool import Worker
from fuzzer.worker import run_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (signature found, golden model, mutation kind, steps, backend, input seed,
#  what the error now says); seed 1's, then seeds 2's to 7's
CASES = [
    ("memory:MemoryError@refinfer/ops/_kernels/conv.py:fused_conv2d",
     "golden/resnet50_narrow/model.mindir", "struct", [("drop_field", 4030237285), ("int_extreme", 1422355824)], "numba", 4182632860,
     r"MemoryError: Unable to allocate 512\. GiB"),
    ("raw:AttributeError@refinfer/ops/_ref/common.py:as_float",
     "golden/ops/softplus_mint/model.mindir", "struct", [("drop_field", 576205736)], "numba", 3722188386,
     r"\(op SoftplusExt\) failed: TypeError: input must be a tensor, got 2"),
    ("raw:AttributeError@refinfer/ops/_ref/math.py:clamp",
     "golden/ops/clamp_scalar_int_float_bounds/model.mindir", "struct", [("drop_field", 1850003689)], "numba", 248256822,
     r"\(op ClampScalar\) failed: TypeError: input must be a tensor, got 0\.5"),
    ("raw:AttributeError@refinfer/ops/_ref/norm.py:affine",
     "golden/ops/layer_norm_two_axes/model.mindir", "struct", [("drop_field", 1590006335)], "reference", 4196887654,
     r"\(op LayerNorm, .*input 1 is a state monad"),
    ("raw:AttributeError@refinfer/ops/_ref/window.py:check_4d",
     "golden/resnet18_narrow/model.mindir", "struct", [("op_type", 2764784437)], "numba", 1069906068,
     r"MaxPool: x must be a tensor or a number, got \(float32\[1, 64, 2, 2\]"),
    ("raw:AttributeError@refinfer/ops/hswish.py:hswish",
     "golden/mobilenetv3_small_narrow/model.mindir", "struct", [("op_type", 3503127060)], "reference", 1947395849,
     r"HSwish: input must be a tensor or a number, got \(float32"),
    ("raw:AttributeError@refinfer/ops/log_sum_exp.py:log_sum_exp",
     "golden/ops/logsumexp_mint/model.mindir", "struct", [("drop_field", 289684511)], "numba", 663700969,
     r"LogSumExp: input must be a tensor or a number"),
    ("raw:AttributeError@refinfer/ops/reduce_mean.py:reduce_mean",
     "golden/ctrl_unrolled_for/model.mindir", "struct", [("op_type", 1281228188)], "reference", 1299516436,
     r"ReduceMean: x must be a tensor or a number, got \(float32\[2, 3\]"),
    ("raw:AttributeError@refinfer/ops/reshape.py:reshape",
     "golden/conv3d_net/model.mindir", "struct", [("op_type", 1497143772)], "numba", 1132549412,
     r"Reshape: input must be a tensor or a number"),
    ("raw:AttributeError@refinfer/ops/squeeze.py:squeeze",
     "golden/ops/conv1d_same_group/model.mindir", "struct", [("op_type", 1436953602)], "numba", 4055749269,
     r"\(op Squeeze, .*input 0 is a state monad"),
    ("raw:IndexError@refinfer/ops/_ref/resize.py:resize",
     "golden/ops/resize_linear1d_align/model.mindir", "struct", [("drop_repeated", 560562982)], "numba", 631757992,
     r"resize: 1 output sizes for an input of rank 0"),
    ("raw:KeyError@refinfer/ops/_ref/pad.py:pad",
     "golden/ops/pad_v3_constant/model.mindir", "struct", [("drop_field", 672446302)], "reference", 3480225856,
     r"\(op PadV3, .*unknown padding mode ''"),
    ("raw:RecursionError@refinfer/graph.py:resolve",
     "golden/ctrl_while_long/model.mindir", "struct", [("duplicate_field", 2555634557), ("drop_message", 2015954554)], "reference", 598818825,
     r"cannot resolve its own name"),
    ("raw:TypeError@refinfer/args.py:<genexpr>",
     "golden/amp_o2_cnn/model.mindir", "struct", [("dtype", 1064752827)], "numba", 2664252667,
     r"\(op Conv2D, .*bad constant argument '\w+' \(1, 1, \[\], 1\): expected an int"),
    ("raw:TypeError@refinfer/args.py:ints",
     "golden/efficientnet_style/model.mindir", "struct", [("dtype", 875416297)], "reference", 2502524709,
     r"\(op Conv2D, .*expected an int, ints or an int tensor, got Monad"),
    ("raw:TypeError@refinfer/graph.py:_arg",
     "golden/fp16_lenet/model.mindir", "struct", [("dtype", 1925685200)], "numba", 3672393622,
     r"\(op Conv2D, .*bad constant argument '\w+' \[\]: expected one int, got \[\]"),
    ("raw:TypeError@refinfer/ops/_ref/common.py:_as_dtype",
     "golden/ctrl_if_neg/model.mindir", "struct", [("wire_confusion", 385920320)], "reference", 447556100,
     r"Greater: other must be a tensor or a number, got dtype\('float32'\)"),
    ("raw:TypeError@refinfer/ops/_ref/conv.py:<genexpr>",
     "golden/conv3d_net/model.mindir", "struct", [("dtype", 2667575613)], "reference", 1171810637,
     r"\(op Conv3D, .*expected an int, ints or an int tensor, got \(0, 0, 0, 0, Monad, 0\)"),
    ("raw:TypeError@refinfer/ops/_ref/lstm.py:split_weights",
     "golden/ops/lstm_with_state/model.mindir", "struct", [("dtype", 3896540221)], "numba", 854509995,
     r"\(op LSTM, .*bad constant argument '\w+' \(\): expected one int"),
    ("raw:TypeError@refinfer/ops/_ref/pad.py:pad",
     "golden/ops/constant_pad_nd/model.mindir", "struct", [("dtype", 374996502)], "reference", 3283320252,
     r"\(op ConstantPadND, .*bad constant argument '\w+' \{\}: expected a number"),
    ("raw:TypeError@refinfer/ops/_ref/search.py:one_axis",
     "golden/ops/argmax_nan/model.mindir", "struct", [("dtype", 23270140)], "numba", 1029090975,
     r"\(op Argmax, .*input 1 is a state monad"),
    ("raw:TypeError@refinfer/ops/sequence_set_item.py:sequence_set_item",
     "golden/list_plumbing/model.mindir", "struct", [("dtype", 4060722316)], "numba", 3946985567,
     r"\(op list_setitem, .*expected a number, got \(\)"),
    ("raw:TypeError@refinfer/ops/sub.py:sub",
     "golden/int_ops/model.mindir", "struct", [("op_type", 3319510626)], "reference", 3882498319,
     r"Sub: bool - bool is not supported"),
    ("raw:TypeError@refinfer/ops/tuple_get_item.py:tuple_get_item",
     "golden/gru_classifier/model.mindir", "struct", [("op_type", 1573069924)], "reference", 2905908680,
     r"\(op TupleGetItem, .*expected a number, got \(1, 0, 2\)"),
    ("raw:AttributeError@refinfer/ops/_ref/search.py:cumulative",
     "golden/ops/cumsum_exclusive_reverse/model.mindir", "struct", [("drop_field", 2088094018)], "reference", 259905475,
     r"\(op CumSum\) failed: TypeError: input must be a tensor, got 2"),
    ("raw:AttributeError@refinfer/ops/_ref/search.py:extreme",
     "golden/ops/max_dim_keep_int/model.mindir", "struct", [("drop_field", 3145821491)], "reference", 3299967570,
     r"\(op MaxDim\) failed: TypeError: input must be a tensor, got -1"),
    ("raw:AttributeError@refinfer/ops/batch_mat_mul.py:batch_mat_mul",
     "golden/ops/bmm_transpose/model.mindir", "struct", [("wire_confusion", 2033084220)], "reference", 520072540,
     r"BatchMatMul: y must be a tensor, got True"),
    ("raw:IndexError@refinfer/ops/sequence_set_item.py:sequence_set_item",
     "golden/list_plumbing/model.mindir", "struct", [("int_extreme", 3881670748)], "reference", 1960983831,
     r"list_setitem: index \d+ out of range for a sequence of 3"),
    ("raw:IndexError@refinfer/ops/strided_slice.py:strided_slice",
     "golden/ops/strided_slice_ellipsis/model.mindir", "struct", [("shape", 3507971960)], "reference", 2529050957,
     r"StridedSlice: 3 sliced axes for an input of rank 2"),
    ("raw:TypeError@refinfer/ops/tuple_get_item.py:tuple_get_item",
     "golden/list_plumbing/model.mindir", "struct", [("op_type", 1836040674)], "numba", 3021671131,
     r"TupleGetItem: expected a tuple or a list, got 0"),
    # seed 3's
    ("hang:predict",
     "golden/ctrl_whileloop/model.mindir", "struct", [("drop_field", 3658832570)], "reference", 2756028469,
     r"more than 100000 graph calls in one run \(a loop that never ends\?\)"),
    ("raw:AttributeError@refinfer/ops/grid_sampler.py:grid_sample",
     "golden/oppack_vision/model.mindir", "struct", [("wire_confusion", 2641599988)], "reference", 1590420553,
     r"GridSampler2D: grid must be a tensor, got 0"),
    ("raw:IndexError@refinfer/ops/_ref/fft.py:hermitian_ifftn",
     "golden/ops/ihfftn/model.mindir", "struct", [("attribute_values", 2328269639)], "numba", 2427983217,
     r"IHFFTN: dim \(or s\) must name at least one axis, got \(\)"),
    ("raw:IndexError@refinfer/ops/_ref/fft.py:transform_n",
     "golden/ops/rfftn/model.mindir", "struct", [("shape", 3494939189)], "numba", 2443343498,
     r"RFFTN: dim \(1, 2\): axis 2 out of range for rank 2"),
    ("raw:TypeError@refinfer/ops/_ref/sequence.py:compare",
     "golden/list_ops/model.mindir", "struct", [("op_type", 398261741)], "reference", 3922127852,
     r"sequence lt: expected a tuple or a list, got 0"),
    ("raw:TypeError@refinfer/ops/_ref/sequence.py:position",
     "golden/ops/argsort/model.mindir", "struct", [("dtype", 3490795711)], "reference", 3325171905,
     r"\(op TupleGetItem, .*bad constant argument '\w+' None: expected a number, got None"),
    ("raw:TypeError@refinfer/ops/tuple_to_tensor.py:tuple_to_tensor",
     "golden/list_plumbing/model.mindir", "struct", [("drop_field", 4174542707)], "reference", 3858385688,
     r"TupleToTensor: expected a tuple or a list, got dtype\('int32'\)"),
    ("raw:ZeroDivisionError@refinfer/ops/resize_bicubic.py:cubic_weights",
     "golden/ops/resize_bicubic/model.mindir", "struct", [("dtype", 3837947898)], "reference", 2275555753,
     r"ResizeBicubic: output size \(5, 0\) must be positive"),
    # seed 4's
    ("raw:AttributeError@refinfer/ops/chunk.py:chunk",
     "golden/ops/chunk/model.mindir", "struct", [("drop_field", 2023627084)], "reference", 3497223547,
     r"Chunk: input must be a tensor, got \d"),
    ("raw:AttributeError@refinfer/ops/round.py:round",
     "golden/ops/round_f16/model.mindir", "struct", [("wire_confusion", 28346454)], "reference", 3548039538,
     r"Round: input must be a tensor, got 0"),
    ("raw:IndexError@refinfer/ops/batch_norm.py:batch_norm",
     "golden/mobilenetv3_small_narrow/model.mindir", "struct", [("wire_confusion", 3627491523)], "reference", 785840588,
     r"BatchNorm: x must have rank >= 2 \(batch, channels, ...\), got shape \(\d+,\)"),
    ("raw:IndexError@refinfer/ops/search_sorted.py:search_sorted",
     "golden/ops/search_sorted/model.mindir", "struct", [("shape", 3563120653)], "reference", 1513849449,
     r"SearchSorted: sorted_sequence must have rank >= 1, got a 0-d tensor"),
    ("raw:IndexError@refinfer/ops/space_to_batch_nd.py:<listcomp>",
     "golden/ops/space_to_batch_nd_pad/model.mindir", "struct", [("attribute_values", 537580105)], "numba", 701060431,
     r"SpaceToBatchND: input_x of shape \(.*\) does not fit block_shape"),
    ("raw:TypeError@einsumfunc.py:_parse_einsum_input",
     "golden/ops/einsum/model.mindir", "struct", [("op_type", 3599726859)], "reference", 3843626781,
     r"Einsum: equation must be a string, got float32"),
    ("raw:TypeError@refinfer/ops/_ref/dct.py:cosine_transform",
     "golden/ops/idct_pad_f64/model.mindir", "struct", [("wire_confusion", 1582163407)], "numba", 4129098197,
     r"\(op IDCT\) failed: TypeError: expected an int, ints or an int tensor, got None"),
    ("raw:TypeError@refinfer/ops/roi_align.py:roi_align",
     "golden/ops/roi_align/model.mindir", "struct", [("dtype", 1263767967)], "reference", 2272156252,
     r"\(op ROIAlign, .*bad constant argument '\w+' None: expected a number, got None"),
    # seed 5's
    ("raw:TypeError@refinfer/ops/list_append.py:list_append",
     "golden/ctrl_foriloop/model.mindir", "struct", [("op_type", 822877988)], "reference", 2912961685,
     r"ListAppend: expected a tuple or a list, got 1"),
    # seed 6's (and the CI corpus's Cdist and UniqueConsecutive, the same cause)
    ("raw:AttributeError@refinfer/ops/_ref/conv.py:torch_conv",
     "golden/ops/conv2d_ext/model.mindir", "struct", [('wire_confusion', 4080503896)], "reference", 1045527976,
     r"Conv2DExt: (weight|bias) must be a tensor, got"),
    ("raw:AttributeError@refinfer/ops/cdist.py:cdist",
     "golden/oppack_spectral/model.mindir", "struct", [('wire_confusion', 2676917732)], "reference", 211429448,
     r"Cdist: x2 must be a tensor, got"),
    ("raw:AttributeError@refinfer/ops/solve_triangular.py:solve_triangular",
     "golden/ops/solve_triangular/model.mindir", "struct", [('wire_confusion', 352739550)], "numba", 2828509188,
     r"SolveTriangular: b must be a tensor, got"),
    ("raw:IndexError@refinfer/ops/bounding_box.py:<genexpr>",
     "golden/ops/bounding_box_decode/model.mindir", "struct", [('shape', 3275328421)], "numba", 142357367,
     r"BoundingBoxDecode: deltas must have anchor_box's shape"),
    ("raw:IndexError@refinfer/ops/strided_slice.py:strided_slice",
     "golden/ops/gru_classifier/model.mindir", "struct", [('drop_message', 3424088118), ('wire_confusion', 2796202616)], "reference", 1848134742,
     r"StridedSlice: index \d+ is out of bounds for axis 1 with size 3"),
    ("raw:TypeError@refinfer/dtypes.py:dtype_from_any",
     "golden/bf16_add/model.mindir", "struct", [('int_extreme', 2485815071)], "numba", 2319718630,
     r"\(op Cast.*unknown dtype name ''"),
    ("raw:TypeError@refinfer/ops/bounding_box.py:<genexpr>",
     "golden/ops/bounding_box_decode/model.mindir", "struct", [('dtype', 2100791532)], "reference", 3070047379,
     r"\(op BoundingBoxDecode.*expected a number, got Monad"),
    ("raw:TypeError@refinfer/ops/index_fill.py:index_fill",
     "golden/oppack_vision/model.mindir", "struct", [('dtype', 3250557288)], "reference", 2375916448,
     r"\(op IndexFill, .*bad constant argument '\w+' None: expected a number, got None"),
    ("raw:TypeError@refinfer/ops/matrix_band_part.py:matrix_band_part",
     "golden/ops/matrix_band_part/model.mindir", "struct", [('dtype', 2438218702)], "numba", 1660965245,
     r"\(op MatrixBandPart.*bad constant"),
    # seed 7's
    ("raw:IndexError@refinfer/ops/_ref/shape.py:split_sizes",
     "golden/ops/split_with_size_view/model.mindir", "struct", [("int_extreme", 1212441605)], "reference", 3493317414,
     r"\(op SplitWithSizeView\) failed: ValueError: axis \d+ out of range for rank 2"),
    ("raw:IndexError@refinfer/ops/update_cache.py:update_cache",
     "golden/ops/update_cache/model.mindir", "struct", [("dtype", 3055477894)], "numba", 1931496006,
     r"UpdateCache: indices must be int8, .* got float16"),
    ("raw:OverflowError@refinfer/ops/fill_diagonal.py:fill_diagonal",
     "golden/ops/fill_diagonal_wrap/model.mindir", "struct", [("float_special", 3807199626), ("external_data", 2917676402)], "numba", 509706195,
     r"FillDiagonal: fill_value -?inf does not fit input_x's int32"),
    # seed 8's
    ("raw:IndexError@refinfer/ops/moe_gating_top_k_softmax.py:moe_gating_top_k_softmax",
     "golden/ops/moe_gating_topk_softmax_3d/model.mindir", "struct", [("drop_repeated", 3642231089)], "reference", 1929212004,
     r"MoeGatingTopKSoftmax\) failed: ValueError: x must be 2-D or 3-D .* got x of shape \[\]"),
    ("raw:TypeError@refinfer/ops/_ref/pad.py:<genexpr>",
     "golden/ops/pad/model.mindir", "struct", [("dtype", 619800326)], "numba", 3347268767,
     r"\(op Pad\) failed: TypeError: expected an int, ints or an int tensor, got \(\{\}, 1\)"),
    ("raw:TypeError@refinfer/ops/_ref/pad.py:pad",
     "golden/ops/pad_v3_crop/model.mindir", "struct", [("duplicate_field", 1742323023), ("drop_field", 2680870222)], "reference", 1309578886,
     r"\(op PadV3, .*bad constant argument '\w+' dtype\('int32'\): expected a number"),
    ("raw:TypeError@refinfer/ops/_ref/search.py:one_axis",
     "golden/ops/irfft/model.mindir", "struct", [("dtype", 2886418117)], "reference", 3969231221,
     r"\(op RFFT\) failed: TypeError: expected one int, got \(\)"),
    # seed 9's
    ("raw:IndexError@refinfer/ops/fft_shift.py:fft_shift",
     "golden/oppack_spectral/model.mindir", "struct", [("wire_confusion", 1100078260)], "numba", 2134363311,
     r"\(op FFTShift\) failed: ValueError: axis 8 out of range for rank 3"),
    ("raw:TypeError@refinfer/ops/_ref/common.py:_as_dtype",
     "golden/ops/addcdiv/model.mindir", "struct", [("drop_repeated", 4082408915)], "numba", 2162033579,
     r"\(op Addcdiv\) failed: TypeError: expected a number or a tensor, got dtype\('float32'\)"),
    ("raw:TypeError@refinfer/ops/_ref/common.py:cast",
     "golden/ops/hardtanh_mint/model.mindir", "struct", [("dtype", 1663951720)], "numba", 325620629,
     r"\(op Hardtanh\) failed: TypeError: expected a number or a tensor, got \{\}"),
    ("raw:TypeError@refinfer/ops/_ref/linalg.py:triangle",
     "golden/ops/matrix_triangular_solve/model.mindir", "struct", [("drop_repeated", 2286309501)], "numba", 788191583,
     r"\(op MatrixTriangularSolve\) failed: ValueError: expected square matrices \(rank >= 2\), got shape \[\]"),
    ("raw:TypeError@refinfer/ops/meshgrid.py:meshgrid",
     "golden/ops/meshgrid_ij/model.mindir", "struct", [("drop_field", 1797307386)], "reference", 1785191658,
     r"\(op Meshgrid\) failed: TypeError: Meshgrid: expected a tuple or a list, got 0"),
    ("raw:TypeError@refinfer/ops/nan_to_num.py:nan_to_num",
     "golden/ops/nan_to_num_args/model.mindir", "struct", [("dtype", 1531093392)], "reference", 2373676737,
     r"\(op NanToNum\) failed: TypeError: expected a number or a tensor, got \{\}"),
    ("raw:TypingError@refinfer/ops/_kernels/conv.py:channels",
     "golden/ops/conv3d_transpose_pad/model.mindir", "struct", [("drop_field", 3604800866)], "numba", 1683126451,
     r"Conv3DTranspose: input_size must be \(N, C, D, H, W\), got \(1, 5, 8, 10\)"),
    # seed 10's
    ("raw:AttributeError@refinfer/ops/_kernels/conv.py:fused_conv2d",
     "golden/efficientnet_style/model.mindir", "struct", [("op_type", 842207051)], "numba", 3795426057,
     r"\(op Conv2D\) failed: TypeError: Conv2D: x must be a tensor or a number, got \(float32"),
    ("raw:OverflowError@refinfer/ops/round.py:round",
     "golden/ops/round_f16/model.mindir", "struct", [("int_extreme", 3338797263)], "numba", 3468997038,
     r"\(op Round\) failed: ValueError: Round: decimals must fit int32, got 2147483648"),
    # seed 11's
    ("raw:TypeError@refinfer/ops/inplace_scatter_src.py:inplace_scatter_src",
     "golden/ops/inplace_scatter_src/model.mindir", "struct", [("dtype", 1306855301)], "reference", 3190820237,
     r"\(op InplaceScatterSrc, .*bad constant argument '\w+' None: expected an int"),
    ("raw:TypeError@refinfer/ops/meshgrid.py:_indexing",
     "golden/ops/meshgrid_ij/model.mindir", "struct", [("op_type", 341438718)], "numba", 36797161,
     r"node '.*' \(op Meshgrid\) failed: ValueError: Meshgrid: indexing must be 'xy' or 'ij', "
     r"got float32\[2\]"),
    # seed 12's
    ("raw:IndexError@refinfer/ops/split_tensor.py:split_tensor",
     "golden/ops/split_tensor/model.mindir", "struct", [("drop_field", 3534676500)], "numba", 1383483288,
     r"\(op SplitTensor\) failed: ValueError: axis 2 out of range for rank 2"),
    ("raw:ZeroDivisionError@refinfer/ops/batch_to_space_nd.py:batch_to_space_nd",
     "golden/ops/batch_to_space_nd_crop/model.mindir", "struct", [("wire_confusion", 806530670), ("drop_field", 1038341988)], "numba", 2303158445,
     r"BatchToSpaceND: input_x of shape \(12, 1, 2, 2\) does not fit block_shape \(0, 2\)"),
    # seed 13's
    ("raw:OverflowError@refinfer/ops/unstack.py:unstack",
     "golden/ops/unstack_ext_view/model.mindir", "struct", [("int_extreme", 2033476579)], "numba", 3978743078,
     r"\(op UnstackExtView\) failed: ValueError: axis -9223372036854775808 out of range for rank 2"),
    # seed 14's
    ("raw:TypeError@refinfer/ops/concat.py:concat",
     "golden/unet_style/model.mindir", "struct", [("wire_confusion", 3868586073)], "reference", 3402848684,
     r"\(op Concat\) failed: TypeError: Concat: expected a tuple or a list, got 1"),
    # seed 15's
    ("raw:OverflowError@refinfer/ops/stack.py:stack",
     "golden/ops/stack/model.mindir", "struct", [("int_extreme", 51141939)], "numba", 2966687308,
     r"\(op Stack\) failed: ValueError: axis 2147483648 out of range for rank \d"),
    # seed 16's
    ("raw:IndexError@refinfer/ops/_ref/window.py:output_hw",
     "golden/ops/max_pool_with_argmax_v2_ceil_dilated/model.mindir", "struct", [("wire_confusion", 601014727)], "numba", 3082569219,
     r"\(op MaxPoolWithArgmaxV2\) failed: ValueError: MaxPoolWithArgmaxV2: input must be "
     r"4-D, got shape \(1, 4, 7, 8, 1\)"),
    # seed 17's crash (a heap corruption, "double free or corruption"), found
    # by rerunning its first cases with NUMBA_BOUNDSCHECK=1 (--boundscheck)
    ("raw:IndexError@refinfer/ops/_kernels/conv.py:channels",
     "golden/ops/conv_transpose2d/model.mindir", "bytes", [("bit_flip", 1770024375)], "numba", 601277293,
     r"\(op ConvTranspose2D\) failed: ValueError: window stride \(0, 0\) must be >= 1"),
    # seed 18's (--boundscheck, numba only)
    ("raw:TypeError@refinfer/ops/_kernels/conv.py:_torch_conv",
     "golden/ops/convolution_same/model.mindir", "struct", [("dtype", 2914240316)], "numba", 4058697628,
     r"\(op Convolution, .*bad constant argument '\w+' None: expected an int"),
    ("raw:TypingError@refinfer/ops/_kernels/gemm.py:rows",
     "golden/lstm_classifier/model.mindir", "struct", [("drop_repeated", 4139346156)], "numba", 3913267043,
     r"\(op LSTM\) failed: ValueError: LSTM: hx must be \(num_layers \* directions, batch, "
     r"hidden_size\) = \(1, 2, 16\), got \(1, 1, 2, 16\)"),
    # seed 19's
    ("raw:IndexError@refinfer/ops/select_ext_view.py:select_ext_view",
     "golden/ops/select_ext_view/model.mindir", "struct", [("drop_repeated", 3805164250)], "reference", 3455165276,
     r"\(op SelectExtView\) failed: ValueError: SelectExtView: input must have rank >= 1"),
    ("raw:TypeError@refinfer/ops/_ref/attention.py:attend",     # any number set to None
     "golden/ops/pfa_bsh_gqa_mask/model.mindir", "struct", [("dtype", 404972140)], "reference", 3794185965,
     r"\(op PromptFlashAttention, .*bad constant argument '\w+' None: expected a number, got None"),
    ("raw:TypeError@refinfer/ops/space_to_batch_nd.py:<genexpr>",
     "golden/ops/space_to_batch_nd/model.mindir", "struct", [("dtype", 3319971066)], "numba", 1849851260,
     r"\(op SpaceToBatchND, .*expected pairs of ints, got \(\(0, 0\), \(1, Monad\)\)"),
    # seed 24's (session 10, after the builder's sixth round)
    ("raw:ZeroDivisionError@refinfer/ops/roi_align.py:roi_align",
     "golden/ops/roi_align/model.mindir", "struct", [("drop_repeated", 4065860148)], "reference", 3324950192,
     r"\(op ROIAlign\) failed: ValueError: ROIAlign: pooled_height and pooled_width must "
     r"be >= 1, got 2 and 0"),
    ("raw:TypeError@refinfer/ops/neg.py:neg",
     "golden/ctrl_return_second/model.mindir", "struct", [("dtype", 141347730)], "reference", 4142646741,
     r"\(op Neg\) failed: TypeError: Neg: input is bool; Neg takes numbers"),
    # seed 26's (session 11, after the reader's node runs)
    ("raw:IndexError@refinfer/ops/index_put.py:index_put",
     "golden/ops/index_put/model.mindir", "struct", [("wire_confusion", 1094249159)], "reference", 716388735,
     r"\(op IndexPut\) failed: ValueError: IndexPut: indices\[1\] has 3 points, another "
     r"index tensor 8"),
    # seed 27's
    ("raw:IndexError@refinfer/ops/_ref/window.py:<genexpr>",
     "golden/ops/max_pool_with_argmax_v2_ceil_dilated/model.mindir", "struct", [("shape", 3394696991)], "numba", 3037445665,
     r"\(op MaxPoolWithArgmaxV2\) failed: ValueError: MaxPoolWithArgmaxV2: input must be "
     r"4-D, got shape \(1, 4, 6\)"),
    # seed 30's
    ("raw:IndexError@refinfer/ops/_ref/linalg.py:triangle",
     "golden/ops/solve_triangular/model.mindir", "struct", [("shape", 2091848387)], "reference", 1050697580,
     r"\(op SolveTriangular\) failed: ValueError: expected square matrices \(rank >= 2\), "
     r"got shape \[2, 3, 1048576\]"),
    # seed 32's (session 13)
    ("raw:IndexError@refinfer/ops/batch_to_space_nd.py:batch_to_space_nd",
     "golden/ops/batch_to_space_nd_crop/model.mindir", "struct", [("drop_repeated", 3914130914)], "numba", 1221670010,
     r"\(op BatchToSpaceND\) failed: ValueError: BatchToSpaceND: input_x of shape \(\) "
     r"does not fit block_shape"),
    # seed 35's (session 14)
    ("raw:IndexError@refinfer/ops/grouped_matmul.py:_affine",
     "golden/ops/grouped_matmul_list/model.mindir", "struct", [("drop_repeated", 3499503415)], "numba", 1670134769,
     r"\(op GroupedMatmul\) failed: ValueError: GroupedMatmul: x \[\] and weight .* do not multiply"),
    # seed 38's (session 16)
    ("raw:TypeError@refinfer/ops/_ref/reduce.py:shifted_logits",
     "golden/ops/moe_gating_topk_softmax_3d/model.mindir", "struct", [("dtype", 3325533634)], "reference", 1512298747,
     r"\(op MoeGatingTopKSoftmax\) failed: TypeError: MoeGatingTopKSoftmax: input must be a "
     r"float tensor, got bool"),
    # seed 39's
    ("raw:TypeError@refinfer/ops/_ref/math.py:scaled",
     "golden/ops/add_ext_int32/model.mindir", "struct", [("drop_field", 2478124601), ("dtype", 1773534844)],
     "reference", 60934320,
     r"\(op AddExt, .*bad constant argument '\w+' None: expected a number, got None"),
    # seed 40's
    ("raw:IndexError@refinfer/ops/data_format_dim_map.py:data_format_dim_map",
     "golden/ops/data_format_dim_map/model.mindir", "struct", [("int_extreme", 1792049111)], "numba", 2085996293,
     r"\(op DataFormatDimMap\) failed: TypeError: DataFormatDimMap: input_x must be int8, .*"
     r"got float32\[8\]"),
    # seed 42's
    ("raw:TypeError@refinfer/ops/_ref/pad.py:axis_pairs",
     "golden/ops/pad/model.mindir", "struct", [("dtype", 2387446257)], "reference", 171690369,
     r"\(op Pad\) failed: TypeError: Pad: paddings must be \(before, after\) pairs, got 0"),
    # seed 43's
    ("raw:IndexError@refinfer/ops/lrn.py:lrn",
     "golden/ops/lrn_defaults/model.mindir", "struct", [("int_extreme", 3979696428)], "reference", 1178162998,
     r"\(op LRN\) failed: ValueError: LRN: depth_radius must be >= 0, got -9223372036854775808"),
    ("raw:IndexError@refinfer/ops/paged_attention.py:paged_attention",
     "golden/ops/paged_attention_gqa/model.mindir", "struct", [("drop_repeated", 187338018)], "reference", 3725260270,
     r"\(op PagedAttention\) failed: ValueError: PagedAttention: query \[\], block_tables "
     r"\[3, 3\] and context_lens \[3\] must be"),
    # seed 46's
    ("raw:ZeroDivisionError@refinfer/ops/_ref/conv.py:conv_transpose_nd",
     "golden/ops/conv_transpose2d/model.mindir", "struct", [("drop_repeated", 3727217161)], "reference", 4098682165,
     r"\(op ConvTranspose2D\) failed: ValueError: 4 input channels and weight \(4, 3, 3, 3\) "
     r"do not fit group=0"),
    # seed 47's
    ("raw:OverflowError@refinfer/ops/reverse_v2.py:reverse_v2",
     "golden/ops/reverse_v2/model.mindir", "struct", [("int_extreme", 2129699421)], "reference", 368925249,
     r"\(op ReverseV2\) failed: ValueError: axis -9223372036854775808 out of range for "
     r"rank 3"),
    # seed 52's
    ("raw:TypeError@refinfer/ops/_ref/math.py:rotated",
     "golden/ops/apply_rotary_pos_emb_format2/model.mindir", "struct",
     [("duplicate_field", 503535832), ("int_extreme", 473156183)], "reference", 3535087734,
     r"\(op ApplyRotaryPosEmb\) failed: TypeError: ApplyRotaryPosEmb: key must be "
     r"float16, float32, float64, got bool\[4, 16\]"),
    # seed 53's
    ("raw:IndexError@refinfer/ops/flash_attention_score.py:<genexpr>",
     "golden/ops/fas_tnd_causal/model.mindir", "struct",
     [("drop_repeated", 1600777573)], "numba", 2436034962,
     r"\(op FlashAttentionScore\) failed: ValueError: FlashAttentionScore: TND value "
     r"\[\] must be \(T, N, D\) with T the last actual_seq_kvlen 7"),
    # seed 58's
    ("raw:IndexError@refinfer/ops/apply_rotary_pos_emb.py:_embed",
     "golden/ops/apply_rotary_pos_emb_format3/model.mindir", "struct",
     [("drop_repeated", 3445422775)], "reference", 2512684985,
     r"\(op ApplyRotaryPosEmb\) failed: ValueError: ApplyRotaryPosEmb: query \[.*\] must "
     r"be \(T, N \* D\) or \(B, S, N \* D\) with cos and sin \(T, D\), D even, got cos \[\]"),
    ("raw:TypeError@refinfer/ops/bounding_box.py:_centres",
     "golden/ops/bounding_box_encode/model.mindir", "struct",
     [("dtype", 1043226026)], "numba", 3384145701,
     r"\(op BoundingBoxEncode\) failed: TypeError: BoundingBoxEncode: groundtruth_box must "
     r"be float16, float32, float64, got bool\[5, 4\]"),
    # seed 61's
    ("raw:TypeError@refinfer/ops/_ref/common.py:normalise_optional",
     "golden/ops/conv3d_transpose/model.mindir", "struct",
     [("duplicate_field", 1803113780)], "reference", 2292711730,
     r"\(op Conv3DTranspose, .*bad constant argument 'in_channel' float32\[2, 3, 3, 3, 3\]"
     r".*: expected one int, got float32\[2, 3, 3, 3, 3\]"),
]


def test_seed_18_trace_offset_past_the_plane_sums_nothing():
    """Seed 18's TraceV2 of offset 2^62 overflowed NumPy's C int: an offset
    past the plane leaves every diagonal empty (zeros, as NumPy gives for
    any offset beyond the plane); an axis out of range is refused."""
    from refinfer.ops.trace_v2 import trace_v2

    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for offset in (4, 2 ** 62, -3, -2 ** 62):
        np.testing.assert_array_equal(trace_v2(x, offset, 1, 2), [0.0, 0.0])
    np.testing.assert_array_equal(trace_v2(x, 1, 1, 2), np.trace(x, 1, 1, 2))
    with pytest.raises(ValueError, match=r"axis 4611686018427387904 out of range for rank 3"):
        trace_v2(x, 0, 2 ** 62, 2)


def test_seed_32_diagonal_offset_past_the_plane_is_empty():
    """Seed 32's DiagonalView of offset 2^31 overflowed NumPy's C int, as
    seed 18's TraceV2 did: an offset past the plane gives empty diagonals,
    as NumPy does for any offset beyond the plane."""
    from refinfer.ops.diagonal import diagonal

    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    for offset in (4, 2 ** 31, -3, -2 ** 62):
        assert diagonal(x, offset, 2, 1).shape == (2, 0)
    np.testing.assert_array_equal(diagonal(x, -2, 2, 1), np.diagonal(x, -2, 2, 1))


def test_seed_39_index_fill_casts_its_value_as_cast_does():
    """Seed 39's IndexFill of -1.0 into a uint64 tensor overflowed in
    NumPy's assignment: the value is cast to x's dtype as Cast does."""
    from refinfer.ops.index_fill import index_fill

    got = index_fill(np.zeros((2, 3), np.uint64), 1, np.array([0, 2], np.int32), -1.0)
    assert got.dtype == np.uint64
    assert got.tolist() == [[2 ** 64 - 1, 0, 2 ** 64 - 1]] * 2
    np.testing.assert_array_equal(
        index_fill(np.zeros((2, 2), np.float32), 0, np.array([-1], np.int64), 1.5),
        [[0, 0], [1.5, 1.5]])


def test_seed_38_softmax_refuses_only_non_floats():
    """Seed 38's check (a bool input refused by name) leaves bfloat16 to
    Softmax and LogSoftmax, which it computes in its own dtype."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from refinfer.registry import get_op

    x = np.array([[1.0, 2.0, 3.0]], ml_dtypes.bfloat16)
    want = np.exp([-2.0, -1.0, 0.0]) / np.exp([-2.0, -1.0, 0.0]).sum()
    got = get_op("Softmax").reference(x, (-1,))
    assert got.dtype == x.dtype
    np.testing.assert_allclose(got.astype(np.float32)[0], want, rtol=1e-2)
    np.testing.assert_allclose(get_op("LogSoftmax").reference(x, (-1,)).astype(
        np.float32)[0], np.log(want), rtol=2e-2)
    with pytest.raises(TypeError, match="Softmax: input must be a float tensor, got bool"):
        get_op("Softmax").reference(np.ones((2, 3), bool), (-1,))


def test_seed_42_bfloat16_wins_over_an_integer_tensor():
    """Seed 42's Add of bfloat16 and int16 tensors reached NumPy's
    promotion, which has no common type for them: a float tensor wins over
    an integer one, bfloat16 as the others."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from refinfer.ops._ref.common import promote

    x = np.array([1.5, -2.0], ml_dtypes.bfloat16)
    a, b = promote(x, np.array([3, 4], np.int16))
    assert a.dtype == b.dtype == np.dtype(ml_dtypes.bfloat16)
    assert (a + b).astype(np.float32).tolist() == [4.5, 2.0]
    assert promote(x, np.ones(2, np.float32))[0].dtype == np.float32


def test_seed_57_float16_and_bfloat16_meet_in_float32(tmp_path):
    """Seed 57's MatMul of a float16 and a (mutated) bfloat16 tensor reached
    NumPy's promotion, which has no common type for them; MindSpore 2.7.1's
    Add of the two gives float32, and so does refinfer's promotion (its
    MatMul then runs in float32)."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from refinfer.ops._ref.common import promote

    a, b = promote(np.array([1.5], np.float16), np.array([2.0], ml_dtypes.bfloat16))
    assert a.dtype == b.dtype == np.float32
    source = load_source(os.path.join(ROOT, "golden/fp16_params/model.mindir"))
    model = tmp_path / "model.mindir"
    model.write_bytes(mutated_bytes(Case(0, source, "struct", [("dtype", 638043937)],
                                         "numba", 97952982))[0])
    result = run_case({"model": str(model), "backend": "numba",
                       "input_seed": 97952982}, lambda stage: None)
    assert result["outcome"] == "ok", result.get("traceback")


@pytest.mark.slow
@pytest.mark.parametrize("signature, golden, kind, steps, backend, seed, said",
                         CASES, ids=[c[0] for c in CASES])
def test_campaign_finding_is_refused_cleanly(tmp_path, signature, golden, kind,
                                             steps, backend, seed, said):
    source = load_source(os.path.join(ROOT, golden))
    data, _ = mutated_bytes(Case(0, source, kind, steps, backend, seed))
    model = tmp_path / "model.mindir"
    model.write_bytes(data)
    result = run_case({"model": str(model), "backend": backend,
                       "input_seed": seed}, lambda stage: None)
    assert result["outcome"] == "clean", result["traceback"]
    assert re.search(said, result["traceback"]), result["traceback"]


def _run_in_worker(tmp_path, golden: str, steps: list, backend: str, seed: int) -> dict:
    """The case's outcome in the fuzz worker, whose address-space limit
    (4 GiB) makes allocations fail alike on any machine."""
    source = load_source(os.path.join(ROOT, golden))
    case = Case(0, source, "struct", steps, backend, seed)
    model = tmp_path / "model.mindir"
    model.write_bytes(mutated_bytes(case)[0])
    worker = Worker()
    try:
        return worker.run({"model": str(model), "backend": backend,
                           "input_seed": seed, "dec_key": None,
                           "dec_mode": "AES-GCM", "timeout": 60.0})
    finally:
        worker.stop()


@pytest.mark.slow
def test_seed_7_hang_adaptive_pool_of_a_huge_output(tmp_path):
    """Seed 7's hang: AdaptiveAvgPool3D asked for an output of 2^31 along
    one axis looped over the bins in Python. The bins are arrays now: the
    allocation fails at once."""
    result = _run_in_worker(tmp_path, "golden/ops/adaptive_avg_pool3d/model.mindir",
                            [("int_extreme", 786245765)], "numba", 3981819792)
    assert result["outcome"] == "clean", result
    assert re.search(r"\(op AdaptiveAvgPool3D\) failed: MemoryError: "
                     r"Unable to allocate 16\.0 GiB", result["traceback"])


@pytest.mark.slow
def test_seed_38_hang_igamma_of_six_million_elements(tmp_path):
    """Seed 38's hang: Igamma's reference ran its series and its continued
    fraction on every element (an input grown to 1048576 x 6), each until
    the slowest element converged, 2000 iterations at most: minutes. Each
    now runs on the elements that use it, each element until it converges
    (as Cephes's igam and igamc): seconds."""
    result = _run_in_worker(tmp_path, "golden/ops/igamma_edges/model.mindir",
                            [("shape", 2532554099)], "reference", 2773750663)
    assert result["outcome"] == "ok", result
