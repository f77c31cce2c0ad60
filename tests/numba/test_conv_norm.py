"""The convolution, normalisation, linear and LSTM kernels
(ops/_kernels/conv.py, norm.py and gemm.py) equal their NumPy references:
every pad mode, stride, dilation, group and output padding, 1-D to 3-D, channel-first
and channel-last layouts, special values, and the inputs they hand back to
the reference (float16, mixed dtypes, empty tensors, errors).

The ``small_pieces`` cases shrink the work grains and column blocks so that
small problems take the split and blocked paths (several threads, several
GEMM blocks per thread, blocks crossing group boundaries).
"""
import numpy as np
import pytest

from refinfer.registry import get_op
from refinfer.ops._kernels import conv as _conv
from refinfer.ops._kernels import gemm as _gemm
from refinfer.ops._kernels import norm as _norm

from kernel_check import FLOATS, check, normal, rng


@pytest.fixture(params=[False, True], ids=["grains", "small_pieces"])
def pieces(request, monkeypatch):
    """Run a case with the real work grains, then with grains of one item
    and column blocks of one row / channel."""
    if request.param:
        for module in (_conv, _gemm, _norm):
            monkeypatch.setattr(module, "min_items", lambda *args: 1)
        monkeypatch.setattr(_conv, "BLOCK", 1)


# -- convolutions ------------------------------------------------------------------------------
def conv_data(shape, dtype):
    """Convolution operands: float64 normal values, float32 small integers
    (every product and partial sum exact, so a GEMM's summation order,
    which differs from the reference's by more than the 1e-6 float32
    tolerance where sums of a hundred products cancel, cannot matter)."""
    if dtype == np.float64:
        return normal(shape, dtype)
    return rng.integers(-3, 4, shape).astype(dtype)


CONV3D = [
    # (x shape, out channels, kernel, stride, dilation, group, pad_mode, pad)
    ((1, 3, 5, 6, 7), 4, (3, 3, 3), (1, 1, 1), (1, 1, 1), 1, "PAD", (1, 1, 1, 1, 1, 1)),
    ((2, 4, 5, 6, 7), 6, (3, 2, 3), (1, 2, 1), (1, 1, 2), 2, "PAD", (1, 0, 0, 1, 2, 0)),
    ((1, 4, 6, 5, 5), 4, (2, 3, 3), (2, 1, 2), (1, 1, 1), 4, "SAME", (0,) * 6),
    ((2, 4, 3, 4, 5), 8, (1, 1, 1), (1, 1, 1), (1, 1, 1), 1, "VALID", (0,) * 6),
    ((1, 4, 5, 6, 6), 2, (1, 1, 1), (2, 1, 2), (1, 1, 1), 2, "VALID", (0,) * 6),
    ((1, 2, 4, 4, 4), 3, (3, 3, 3), (1, 1, 1), (2, 2, 2), 1, "PAD", (2, 2, 2, 2, 2, 2)),
]


@pytest.mark.parametrize("case", CONV3D, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_conv3d(case, dtype, pieces):
    shape, c_out, kernel, stride, dilation, group, pad_mode, pad = case
    x, w = conv_data(shape, dtype), conv_data((c_out, shape[1] // group) + kernel, dtype)
    check("Conv3D", x, w, None, None, 1, pad_mode, pad, stride, dilation, group)


def test_conv3d_realistic_size():
    """A (1, 16, 16, 32, 32) 3x3x3 convolution: several output-row blocks
    per thread, the rows split across the threads (float64: float32 sums of
    432 products differ by more than 1e-6 where they cancel)."""
    x = normal((1, 16, 16, 32, 32), np.float64)
    w = normal((16, 16, 3, 3, 3), np.float64)
    check("Conv3D", x, w, None, None, 1, "PAD", (1,) * 6, (1, 1, 1), (1, 1, 1), 1)


def test_conv3d_fallbacks_and_errors():
    x, w = conv_data((1, 2, 4, 4, 4), np.float32), conv_data((2, 2, 3, 3, 3), np.float32)
    check("Conv3D", x.astype(np.float16), w.astype(np.float16))
    check("Conv3D", x, w.astype(np.float64))
    check("Conv3D", x[:0], w)
    check("Conv3D", x, w, None, (2, 2, 2))                        # kernel_size
    check("Conv3D", x, w, 3)                                      # out_channel
    check("Conv3D", x, normal((3, 2, 3, 3, 3)), None, None, 1, "VALID", (0,) * 6,
          (1, 1, 1), (1, 1, 1), 3)                                # groups
    check("Conv3D", x, normal((2, 2, 5, 5, 5)))                   # window too big
    x[0, 1, 2, 2, 2], x[0, 0, 0, 1, 3] = np.nan, np.inf
    check("Conv3D", x, w, None, None, 1, "SAME", (0,) * 6)


TORCH_CONV = [
    # (x shape, weight shape, stride, padding, dilation, groups)
    ((2, 4, 9), (6, 2, 3), (2,), (1,), (1,), 2),
    ((4, 11), (3, 4, 2), (1,), (2,), (3,), 1),
    ((2, 4, 9, 8), (6, 4, 3, 3), (1, 2), (1, 0), (2, 1), 1),
    ((4, 7, 6), (4, 1, 3, 2), (1,), (1,), (1,), 4),
    ((1, 6, 30, 33), (4, 3, 3, 3), (1,), (1,), (1,), 2),
    ((1, 4, 5, 6, 7), (6, 4, 3, 3, 3), (1,), (1,), (1,), 1),
    ((2, 4, 5, 6, 4), (4, 2, 2, 1, 3), (2, 1, 1), (0, 1, 1), (1, 2, 1), 2),
]


@pytest.mark.parametrize("case", TORCH_CONV, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("with_bias", (False, True))
def test_torch_convolutions(case, dtype, with_bias, pieces):
    x_shape, w_shape, stride, padding, dilation, groups = case
    x, w = conv_data(x_shape, dtype), conv_data(w_shape, dtype)
    b = normal(w_shape[:1], dtype) if with_bias else None
    name = {3: "Conv1DExt", 4: "Conv2DExt", 5: "Conv3DExt"}[len(w_shape)]
    check(name, x, w, b, stride, padding, dilation, groups)
    check("Convolution", x, w, b, stride, padding, dilation, False, (0,), groups)


TRANSPOSED = [
    # (x shape, weight shape, stride, padding, output_padding, groups, dilation)
    ((2, 4, 4, 3), (4, 3, 3, 2), (2,), (1,), (1,), 1, (1,)),
    ((1, 4, 5, 5), (4, 2, 3, 3), (1,), (0,), (0,), 2, (2,)),
    ((2, 6, 3, 4), (6, 1, 4, 4), (3, 2), (2, 1), (2, 1), 3, (1,)),
    ((1, 8, 6, 6), (8, 4, 4, 4), (2,), (1,), (0,), 1, (1,)),
    ((2, 4, 7), (4, 3, 3), (2,), (1,), (1,), 1, (1,)),
    ((1, 4, 3, 4, 5), (4, 2, 2, 3, 2), (2, 1, 2), (1, 0, 1), (1, 0, 0), 2, (1, 1, 2)),
]


@pytest.mark.parametrize("case", TRANSPOSED, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_torch_transposed_convolutions(case, dtype, pieces):
    x_shape, w_shape, stride, padding, output_padding, groups, dilation = case
    x, w = conv_data(x_shape, dtype), conv_data(w_shape, dtype)
    b = conv_data((w_shape[1] * groups,), dtype)
    check("Convolution", x, w, b, stride, padding, dilation, True, output_padding, groups)
    check("Convolution", x, w, None, stride, padding, dilation, True, output_padding,
          groups)
    if len(w_shape) == 4:
        check("ConvTranspose2D", x, w, b, stride, padding, output_padding, groups,
              dilation)


def test_conv_transpose2d_upsampling_realistic_size():
    """2x upsampling of (1, 64, 32, 32): several channel blocks, the result
    channels split across the threads (float64, as above)."""
    x, w = normal((1, 64, 32, 32), np.float64), normal((64, 32, 4, 4), np.float64)
    b = normal((32,), np.float64)
    check("ConvTranspose2D", x, w, b, (2,), (1,), (0,), 1, (1,))


def test_torch_convolution_fallbacks_and_errors():
    x, w = conv_data((1, 4, 6, 6), np.float32), conv_data((4, 4, 3, 3), np.float32)
    for name, transposed in (("Conv2DExt", None), ("Convolution", True)):
        extra = () if transposed is None else (transposed, (0,))

        def conv(*args, name=name, extra=extra):
            stride, padding, dilation, groups = args[3:7]
            check(name, *args[:3], stride, padding, dilation, *extra, groups)
        conv(x.astype(np.float16), w.astype(np.float16), None, (1,), (0,), (1,), 1)
        conv(x, w.astype(np.float64), None, (1,), (0,), (1,), 1)
        conv(x, w, normal((4,), np.float64), (1,), (0,), (1,), 1)
        conv(x[:0], w, None, (1,), (0,), (1,), 1)
        conv(x, normal((4, 3, 3, 3)), None, (1,), (0,), (1,), 1)        # channels
        conv(x, w, None, (1,), (0,), (1,), 3)                           # groups
        conv(x[0, 0], w, None, (1,), (0,), (1,), 1)                     # rank
        conv(x, normal((4, 4, 9, 9)), None, (1,), (0,), (1,), 1)
    check("ConvTranspose2D", x, w, None, (1,), (3,))    # no output pixels


@pytest.mark.parametrize("stride, dilation", [((0, 0), (1, 1)), ((1, 1), (0, 1))])
def test_conv_transpose_refuses_steps_below_one(stride, dilation):
    """Seed 17's heap corruption (issue 17): a ConvTranspose2D of stride 0
    made the col2vol scatter write outside its output. The reference
    refuses it clearly; the fast kernel declines whoever calls it."""
    x, w = conv_data((1, 4, 7, 6), np.float32), conv_data((4, 3, 3, 3), np.float32)
    with pytest.raises(ValueError, match=r"window (stride|dilation) .* must be >= 1"):
        get_op("ConvTranspose2D").reference(x, w, None, stride, (1,), (0,), 1,
                                            dilation)
    assert _conv.conv_transpose_fast(x, w, None, ((1, 1), (1, 1)), (2, 2),
                                     stride, dilation, 1) is None


BACKPROP = [
    # (dout shape, filter shape, input_size, pad_mode, pad, stride, dilation, group)
    ((2, 6, 5, 4), (6, 2, 3, 3), (2, 4, 9, 8), "PAD", (1, 1, 0, 1), (2, 2), (1, 1), 2),
    ((2, 6, 5, 4), (6, 2, 3, 3), (2, 4, 10, 8), "SAME", (0,) * 4, (2, 2), (1, 1), 2),
    ((1, 4, 6, 6), (4, 3, 3, 3), (1, 3, 8, 8), "VALID", (0,) * 4, (1, 1), (1, 1), 1),
    ((1, 4, 4, 5), (4, 2, 2, 3), (1, 2, 9, 12), "VALID", (0,) * 4, (2, 3), (2, 1), 1),
    ((1, 6, 3, 3), (6, 1, 3, 3), (1, 6, 7, 6), "PAD", (1, 2, 0, 1), (2, 2), (1, 1), 6),
]


@pytest.mark.parametrize("case", BACKPROP, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", ("Conv2DBackpropInput", "Conv2DTranspose"))
def test_conv2d_backprop_input(case, dtype, op, pieces):
    shape, f_shape, input_size, pad_mode, pad, stride, dilation, group = case
    dout, f = conv_data(shape, dtype), conv_data(f_shape, dtype)
    check(op, dout, f, input_size, None, None, pad_mode, pad, None, 1, stride, dilation,
          group)


def test_conv2d_backprop_input_fallbacks_and_errors():
    dout, f = conv_data((1, 4, 3, 3), np.float32), conv_data((4, 2, 3, 3), np.float32)
    run = lambda *a, size=(1, 2, 5, 5): check(  # noqa: E731
        "Conv2DBackpropInput", *a, size)
    run(dout.astype(np.float16), f.astype(np.float16))
    run(dout, f.astype(np.float64))
    run(dout, f, size=(1, 3, 5, 5))                                 # channels
    run(dout, f, size=(1, 2, 5))                                    # rank
    run(dout, normal((3, 2, 3, 3)), size=(1, 2, 5, 5))              # filter
    check("Conv2DBackpropInput", dout, f, (1, 2, 5, 5), 5)          # out_channel
    check("Conv2DBackpropInput", dout[:0], f, (0, 2, 5, 5))


CONV3D_TRANSPOSE = [
    # (x shape, filter shape, pad_mode, pad, stride, dilation, group, output_padding,
    #  input_size)
    ((1, 4, 3, 4, 5), (4, 3, 2, 3, 2), "PAD", (1, 0, 0, 1, 1, 1), (2, 1, 2), (1, 1, 1), 1,
     (1, 0, 1), None),
    ((2, 4, 3, 3, 3), (4, 2, 3, 3, 3), "SAME", (0,) * 6, (2, 2, 2), (1, 1, 1), 2,
     (0, 0, 0), None),
    ((1, 2, 3, 3, 2), (2, 2, 2, 2, 2), "VALID", (0,) * 6, (1, 2, 1), (2, 1, 1), 1,
     (0, 0, 0), (1, 2, 5, 6, 3)),
]


@pytest.mark.parametrize("case", CONV3D_TRANSPOSE, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_conv3d_transpose(case, dtype, pieces):
    shape, f_shape, pad_mode, pad, stride, dilation, group, out_pad, size = case
    x, f = conv_data(shape, dtype), conv_data(f_shape, dtype)
    check("Conv3DTranspose", x, f, None, None, None, 1, pad_mode, pad, stride, dilation,
          group, out_pad, "NCDHW", None, size)


def test_conv3d_transpose_fallbacks_and_errors():
    x, f = conv_data((1, 2, 3, 3, 3), np.float32), conv_data((2, 2, 2, 2, 2), np.float32)
    check("Conv3DTranspose", x.astype(np.float16), f.astype(np.float16))
    check("Conv3DTranspose", x, f.astype(np.float64))
    check("Conv3DTranspose", x, f, 3)                               # in_channel
    check("Conv3DTranspose", x, normal((3, 2, 2, 2, 2)))            # channels
    check("Conv3DTranspose", x, f, None, None, None, 1, "PAD", (3,) * 6)


# -- normalisation -----------------------------------------------------------------------------
# Statistics of a few values can have a tiny variance, whose large 1 / std
# amplifies the reference's own float32 rounding of the mean past the
# tolerance: the cases normalise at least 8 values per statistic.
def _special(x):
    """x with a NaN and an infinity in its first row (channel 0 of sample 0)."""
    x = x.copy()
    x.flat[1], x.flat[2] = np.nan, np.inf
    return x


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,groups", [((2, 6, 5, 7), 3), ((2, 6, 5, 7), 6), ((3, 16), 2),
                                          ((2, 8, 3, 2, 2), 1), ((1, 4, 9), 4)], ids=str)
def test_group_norm(dtype, shape, groups, pieces):
    x = normal(shape, dtype, scale=3.0, shift=1.0)
    c = shape[1]
    check("GroupNorm", x, groups, normal((c,), dtype), normal((c,), dtype), 1e-5)
    check("GroupNorm", x, groups, None, normal((c,), dtype), 1e-3)
    check("GroupNorm", _special(x), groups)


def test_group_norm_realistic_size_and_fallbacks():
    x = normal((8, 64, 56, 56), scale=2.0, shift=0.5)
    check("GroupNorm", x, 32, normal((64,)), normal((64,)), 1e-5)
    check("GroupNorm", x[:2, :8].astype(np.float16), 4)
    check("GroupNorm", x[:2, :8], 4, normal((8,), np.float64))
    check("GroupNorm", x[:2, :8], 4, normal((4,)))                   # weight size
    check("GroupNorm", x[:2, :8], 3)                                 # groups
    check("GroupNorm", x[:0], 4)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(2, 3, 5, 7), (2, 3), (1, 4, 2, 3, 5)], ids=str)
def test_instance_norm(dtype, shape, pieces):
    x = normal(shape, dtype, scale=2.0, shift=-1.0)
    c = shape[1]
    stats = normal((c,), dtype), np.abs(normal((c,), dtype))
    check("InstanceNorm", x, normal((c,), dtype), normal((c,), dtype), *stats, 1e-5, 0.1)
    check("InstanceNorm", _special(x), normal((c,), dtype), normal((c,), dtype), *stats)
    check("InstanceNorm", x.astype(np.float16), *(v.astype(np.float16) for v in (
        normal((c,)), normal((c,)), *stats)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,normalized", [((2, 5, 7), (5, 7)), ((2, 5, 300), (300,)),
                                              ((4, 3), ()), ((6,), (6,))], ids=str)
def test_layer_norm_ext(dtype, shape, normalized, pieces):
    x = normal(shape, dtype, scale=3.0, shift=2.0)
    check("LayerNormExt", x, normalized, normal(normalized, dtype), normal(normalized, dtype),
          1e-5)
    check("LayerNormExt", _special(x), normalized, None, None, 1e-6)
    check("LayerNormExt", x, normalized, None, normal(normalized, dtype))


def test_layer_norm_ext_fallbacks_and_errors():
    x = normal((2, 3, 4))
    check("LayerNormExt", x.astype(np.float16), (4,))
    check("LayerNormExt", x, (4,), normal((4,), np.float64))
    check("LayerNormExt", x, (3,))
    check("LayerNormExt", x, (4,), normal((3,)))
    check("LayerNormExt", x[:0], (3, 4))
    check("LayerNormExt", normal(()), ())


BATCH_NORM_SHAPES = [((2, 6, 5, 7), "NCHW"), ((2, 5, 7, 6), "NHWC"), ((16, 6), "NCHW"),
                     ((2, 6, 3, 2, 4), "NCHW"), ((4, 3, 6), "NHWC")]


def _channel_vectors(channels, dtype, count=4):
    """scale, bias, mean and a positive variance."""
    vectors = [normal((channels,), dtype) for _ in range(count - 1)]
    return vectors + [np.abs(normal((channels,), dtype)) + dtype(0.1)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", BATCH_NORM_SHAPES, ids=str)
@pytest.mark.parametrize("training", (False, True))
def test_batch_norm(dtype, case, training, pieces):
    shape, layout = case
    x = normal(shape, dtype, scale=2.0, shift=1.0)
    vectors = _channel_vectors(shape[-1 if layout == "NHWC" else 1], dtype)
    check("BatchNorm", x, *vectors, training, 1e-5, 0.1, layout)
    check("BatchNorm", _special(x), *vectors, training, 1e-3, 0.1, layout)


def test_batch_norm_fallbacks():
    x = normal((2, 3, 4, 4))
    vectors = _channel_vectors(3, np.float32)
    check("BatchNorm", x.astype(np.float16), *(v.astype(np.float16) for v in vectors))
    check("BatchNorm", x, *vectors[:3], vectors[3].astype(np.float64))
    check("BatchNorm", x, *_channel_vectors(4, np.float32))
    check("BatchNorm", normal((3,)), *vectors)
    check("BatchNorm", x[:0], *vectors)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(2, 6, 5, 7), (16, 6), (2, 6, 3, 2, 4)], ids=str)
@pytest.mark.parametrize("training", (False, True))
def test_batch_norm_ext(dtype, shape, training, pieces):
    x = normal(shape, dtype, scale=2.0, shift=1.0)
    weight, bias, mean, var = _channel_vectors(shape[1], dtype)
    check("BatchNormExt", x, weight, bias, mean, var, training, 0.1, 1e-5)
    check("BatchNormExt", _special(x), None, bias, mean, var, training, 0.1, 1e-5)
    check("BatchNormExt", x, weight, None, None, None, training, 0.1, 1e-3)


def test_batch_norm_ext_fallbacks():
    x = normal((2, 3, 4))
    weight, bias, mean, var = _channel_vectors(3, np.float32)
    check("BatchNormExt", x.astype(np.float16))
    check("BatchNormExt", x, weight.astype(np.float64), bias, mean, var)
    check("BatchNormExt", x, normal((4,)), bias, mean, var)
    check("BatchNormExt", normal((3,)), weight, bias, mean, var)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,layout", [((2, 6, 5, 7), "NCHW"), ((2, 5, 7, 6), "NHWC"),
                                          ((3, 6), "NCHW"), ((2, 6, 3, 2, 4), "NCDHW"),
                                          ((4, 6), "NHWC")], ids=str)
def test_bias_add(dtype, shape, layout, pieces):
    x = normal(shape, dtype)
    channels = shape[-1 if layout == "NHWC" else 1]
    check("BiasAdd", x, normal((channels,), dtype), layout)
    check("BiasAdd", _special(x), normal((channels,), dtype), layout)


def test_bias_add_fallbacks_and_errors():
    x = normal((2, 3, 4))
    check("BiasAdd", x, normal((3,), np.float64))
    check("BiasAdd", x.astype(np.float16), normal((3,), np.float16))
    ints = rng.integers(-5, 5, (2, 3)).astype(np.int32)
    check("BiasAdd", ints, ints[0])
    check("BiasAdd", x, normal((4,)))
    check("BiasAdd", normal((3,)), normal((3,)))
    check("BiasAdd", x[:0], normal((3,)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,axis", [((3, 4, 5), (1,)), ((3, 4, 5), (-1,)),
                                        ((3, 4, 5), (0,)), ((7,), (0,)), ((2, 300), (1,))],
                         ids=str)
def test_l2_normalize(dtype, shape, axis, pieces):
    x = normal(shape, dtype, scale=2.0)
    check("L2Normalize", x, axis, 1e-4)
    x.flat[0], x.flat[-1] = np.nan, np.inf
    check("L2Normalize", x, axis, 1e-4)
    check("L2Normalize", np.zeros(shape, dtype) + dtype(1e-3), axis, 1e-4)   # eps floor


def test_l2_normalize_fallbacks_and_errors():
    x = normal((3, 4))
    check("L2Normalize", x.astype(np.float16), (1,), 1e-4)
    check("L2Normalize", x, (0, 1), 1e-4)
    check("L2Normalize", x, (2,), 1e-4)
    check("L2Normalize", x[:0], (1,), 1e-4)
    check("L2Normalize", normal(()), (0,), 1e-4)


# -- linear and LSTM ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_dense_and_batch_mat_mul_ext(dtype):
    w, b = normal((6, 5), dtype), normal((6,), dtype)
    for shape in ((3, 4, 5), (7, 5), (5,), (0, 5)):
        check("Dense", normal(shape, dtype), w, b)
        check("Dense", normal(shape, dtype), w, None)
    check("BatchMatMulExt", normal((3, 4, 5), dtype), normal((3, 5, 2), dtype))
    check("BatchMatMulExt", normal((2, 0, 5), dtype), normal((2, 5, 3), dtype))


def test_dense_and_batch_mat_mul_ext_fallbacks():
    x, w = normal((4, 5)), normal((6, 5))
    check("Dense", x, w, normal((6,), np.float64))
    check("Dense", x, w, np.array(1.5, np.float32))                  # broadcast bias
    check("Dense", x, normal((5,)))                                  # 1-D weight
    check("Dense", x.astype(np.float16), w.astype(np.float16))
    ints = rng.integers(-3, 3, (4, 5)).astype(np.int32)
    check("Dense", ints, ints[:2])
    check("Dense", x, normal((6, 4)))
    check("BatchMatMulExt", normal((2, 3, 4)), normal((2, 5, 3)))
    check("BatchMatMulExt", normal((3, 4)), normal((4, 3)))
    check("BatchMatMulExt", normal((2, 3, 4), np.float16), normal((2, 4, 3), np.float16))


def _lstm_args(steps, batch, size_in, hidden, layers, bidirectional, bias, dtype):
    directions = 2 if bidirectional else 1
    count = sum(4 * hidden * (size_in if layer == 0 else hidden * directions)
                for layer in range(layers)) * directions
    count += layers * directions * 4 * hidden * (hidden + (1 if bias else 0))
    states = (layers * directions, batch, hidden)
    return (normal((steps, batch, size_in), dtype), normal(states, dtype),
            normal(states, dtype), normal((count, 1, 1), dtype, scale=hidden ** -0.5), size_in,
            hidden, layers, bias, bidirectional, 0.0, 0)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layers,bidirectional,bias", [(1, False, True), (1, True, True),
                                                       (2, True, False), (3, False, True)])
def test_lstm(dtype, layers, bidirectional, bias, pieces):
    check("LSTM", *_lstm_args(5, 3, 4, 6, layers, bidirectional, bias, dtype))


def test_lstm_batch_split_and_other_dtypes():
    check("LSTM", *_lstm_args(2, 40, 8, 256, 1, True, True, np.float32))
    check("LSTM", *_lstm_args(4, 2, 3, 5, 1, False, True, np.float16))
    mixed = list(_lstm_args(4, 2, 3, 5, 2, True, True, np.float32))
    mixed[3] = mixed[3].astype(np.float64)
    check("LSTM", *mixed)


def test_lstm_fallbacks_and_errors():
    args = list(_lstm_args(3, 2, 4, 5, 1, False, True, np.float32))
    check("LSTM", *([args[0][:0]] + args[1:]))
    check("LSTM", *([args[0][:, :0]] + [args[1][:, :0], args[2][:, :0]] + args[3:]))
    check("LSTM", *(args[:4] + [3] + args[5:]))                      # input_size
    check("LSTM", *(args[:3] + [args[3][1:]] + args[4:]))            # weight size
    check("LSTM", *(args[:-1] + [2]))                                # proj_size


def test_dropout_is_the_reference():
    """Dropout's reference is its fast path: y is the input itself and the
    mask one fill (registry reason "copy")."""
    for name in ("Dropout", "DropoutExt"):
        assert get_op(name).fast_path == "copy"
    x = normal((3, 4))
    assert get_op("Dropout").reference(x)[0] is x


TESTED = {"BatchMatMulExt", "BatchNorm", "BatchNormExt", "BiasAdd", "Conv1DExt", "Conv2DExt",
          "Conv2DBackpropInput", "Conv2DTranspose", "Conv3D", "Conv3DExt", "Conv3DTranspose",
          "ConvTranspose2D", "Convolution", "Dense", "GroupNorm", "InstanceNorm",
          "L2Normalize", "LSTM", "LayerNormExt"}
