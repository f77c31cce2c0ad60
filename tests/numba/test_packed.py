"""refinfer/ops/_kernels/packed.py: the products with a weight packed once
(on the left, or on the right of an image read in place or of packed
rows) and the epilogue
in their tiles, against float64 NumPy on random shapes
(tile, depth-block and panel edges, strided operands, a range of slivers),
each part of the epilogue as program.epilogue computes it (NaN and inf
included), and the convolutions that use it against the BLAS path; which
CPUs use it."""
import ctypes
import math
import mmap

import numpy as np
import pytest

from refinfer import threads
from refinfer.ops._kernels import conv, packed, program
from refinfer.ops._kernels.conv import fused_conv2d

TESTED = {"Conv2D"}   # the plan's fused Conv2D + residual Add uses it

AVX2 = frozenset({"avx", "avx2", "fma"})
AVX512 = AVX2 | {"avx512f"}
LIGHT = (program.ACT_NONE, program.ACT_RELU, program.ACT_RELU6,
         program.ACT_HSWISH, program.ACT_HSIGMOID)
F32 = np.float32
rng = np.random.default_rng(29)


AMD, INTEL = "AuthenticAMD", "GenuineIntel"


@pytest.mark.parametrize("setting, flags, vendor, expected", [
    ("auto", AVX2, AMD, True),
    ("auto", AVX2, INTEL, True),
    ("auto", AVX512, AMD, True),        # Zen 4: level with OpenBLAS, faster models
    ("auto", AVX512, INTEL, False),     # not measured there: the BLAS, MKL
    ("auto", frozenset({"avx2"}), AMD, False),   # no FMA
    ("packed", AVX512, INTEL, True),
    ("packed", frozenset({"sse4_2"}), INTEL, False),
    ("blas", AVX2, AMD, False),
])
def test_the_choice_follows_the_setting_and_the_cpu(setting, flags, vendor, expected):
    assert packed.choose(setting, flags, vendor) is expected


def test_an_unknown_setting_is_refused_by_name():
    with pytest.raises(ValueError, match=r"REFINFER_CONV_GEMM='mkl': expected "
                                         r"one of auto, packed, blas"):
        packed.choose("mkl", AVX2, AMD)


def _epilogue(y, bias, residual, act):
    """program.epilogue on a float32 copy of y (the reference)."""
    y = np.ascontiguousarray(y, F32)
    program.epilogue(y, bias, residual, act, 0, y.shape[1])
    return y


def _multiply(weight, b, c, bias, residual, act, rows=None, cols=None,
              onto=0):
    """packed.multiply of ``weight`` into c[rows, cols] (ranges; all of c
    by default)."""
    pw = packed.PackedWeight(weight)
    packed.multiply(pw.slivers, pw.depth, b, c, bias, residual, act,
                    packed.panel_scratch(), rows or (0, c.shape[0]),
                    cols or (0, c.shape[1]), onto)


def _view(rows, cols, pad):
    """A (rows, cols) float32 view with rows cols + pad apart."""
    return rng.standard_normal((rows, cols + pad), dtype=F32)[:, pad:]


@pytest.mark.parametrize("m, k, n", [
    (1, 1, 1), (6, 256, 16), (7, 5, 3), (13, 600, 37), (64, 147, 200),
    (20, 513, 4100), (130, 64, 49), (8, 33, 25)])
@pytest.mark.parametrize("act", LIGHT)
def test_the_product_and_its_epilogue_equal_numpy(m, k, n, act):
    """Last tiles of a row of every kind: a vector or less (masked or not:
    n = 49, 37, 200, 4100), more than a vector (masked: 25), whole; last
    rows of tiles that the tail tile computes (m = 1, 7, 8, 20, 64 on
    AVX-512) and that it does not (130); with the residual read, or in c
    itself (``onto``: over several depth blocks where k > DEPTH_BLOCK)."""
    weight = rng.standard_normal((m, k), dtype=F32)
    b = _view(k, n, 3)
    bias = rng.standard_normal(m, dtype=F32)
    residual = _view(m, n, 2)
    none = program.no_residual(F32)
    for bias_, residual_, onto in ((bias, residual, 0),
                                   (program.no_bias(F32), none, 0),
                                   (bias, none, 1)):
        c = np.full((m, n + 5), np.nan, F32)[:, 5:]
        if onto:
            c[...] = residual
        _multiply(weight, b, c, bias_, residual_, act, onto=onto)
        product = weight.astype(np.float64) @ b.astype(np.float64)
        want = _epilogue(product, bias_, residual if onto else residual_, act)
        scale = np.sqrt(k) * 4
        np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-6 * scale)


def test_a_range_of_rows_and_columns_is_written_and_nothing_else():
    weight = rng.standard_normal((20, 70), dtype=F32)
    b = _view(70, 40, 0)
    bias, residual = rng.standard_normal(20, dtype=F32), _view(20, 40, 0)
    c = np.full((20, 40), -7, F32)
    _multiply(weight, b, c, bias, residual, program.ACT_RELU, rows=(12, 20),
              cols=(5, 38))
    want = _epilogue(weight.astype(np.float64) @ b, bias, residual,
                     program.ACT_RELU)
    np.testing.assert_allclose(c[12:, 5:38], want[12:, 5:38], rtol=1e-5,
                               atol=1e-5)
    c[12:, 5:38] = -7
    assert (c == -7).all()


@pytest.mark.parametrize("act", LIGHT + (program.ACT_SIGMOID,))
def test_nan_and_inf_go_through_the_epilogue_as_in_program_epilogue(act):
    """ReLU keeps NaN, ReLU6 makes it 0, HSwish keeps it; a heavy
    activation is left out (the caller applies it)."""
    weight = np.eye(6, 4, dtype=F32)
    b = rng.standard_normal((4, 35), dtype=F32)      # a full and an edge tile
    residual = rng.standard_normal((6, 35), dtype=F32) * 8
    residual[:, ::4] = np.nan
    residual[:, 1::4] = np.inf
    residual[:, 2::4] = -np.inf
    bias = rng.standard_normal(6, dtype=F32)
    c = np.empty((6, 35), F32)
    _multiply(weight, b, c, bias, residual, act)
    want = _epilogue(weight @ b, bias, residual, act)
    np.testing.assert_array_equal(np.isnan(c), np.isnan(want))
    np.testing.assert_allclose(c, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("rows", [12, 13])
def test_unpacked_gives_the_weight_back_in_float32(rows):
    weight = rng.standard_normal((rows, 3, 2, 2))
    got = packed.PackedWeight(weight).unpacked()
    assert got.dtype == F32
    np.testing.assert_array_equal(got, weight.astype(F32))


@pytest.mark.parametrize("extra_rows, k, n, first", [
    (0, 1, 1, 0), (1, 16, 96, 0), (37, 160, 40, 2), (7, 300, 17, 0),
    (88, 27, 32, 1)])
@pytest.mark.parametrize("act", LIGHT)
def test_the_image_times_a_right_weight_equals_numpy(extra_rows, k, n, first,
                                                    act):
    """multiply_image: x^T W[:, first:first + n] + bias, act, from x read
    in place (a strided view; a last partial tile of rows), W packed in
    slivers (a partial last one, more than a depth block, from the
    ``first`` sliver), the bias along the columns or none."""
    m, first = packed.IMAGE_ROWS + extra_rows, first * packed.IMAGE_COLUMNS
    x = _view(k, m, 3)
    weight = rng.standard_normal((k, first + n + 5), dtype=F32)
    bias = rng.standard_normal(first + n + 5, dtype=F32)
    slivers = packed.PackedRight(weight, packed.IMAGE_COLUMNS).slivers
    for bias_ in (bias, program.no_bias(F32)):
        c = np.full((m, n), np.nan, F32)
        packed.multiply_image(x, slivers, first, c, bias_, act)
        product = x.T.astype(np.float64) @ weight[:, first:first + n]
        want = product + (bias_[first:first + n] if bias_.size else 0)
        want = _epilogue(want.T, program.no_bias(F32), program.no_residual(F32),
                         act).T
        scale = np.sqrt(k) * 4
        np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-6 * scale)


@pytest.mark.parametrize("columns", [16, 19])
@pytest.mark.parametrize("sliver", [packed.TILE_COLUMNS, packed.IMAGE_COLUMNS])
def test_a_right_weight_unpacked_is_the_weight_in_float32(columns, sliver):
    weight = rng.standard_normal((7, columns))
    got = packed.PackedRight(weight, sliver).unpacked()
    assert got.dtype == F32 and got.flags.c_contiguous
    np.testing.assert_array_equal(got, weight.astype(F32))


@pytest.mark.parametrize("c_out", [5, 50])
def test_a_convolution_weight_for_channel_lanes_unpacks_to_itself(c_out):
    weight = rng.standard_normal((c_out, 3, 2, 2))
    got = packed.PackedChannels(weight).unpacked()
    assert got.shape == weight.shape and got.flags.c_contiguous
    np.testing.assert_array_equal(got, weight.astype(F32))


@pytest.mark.parametrize("pixels, depth, c_out, cols", [
    (packed.IMAGE_ROWS, 3, 1, None), (49, 300, 100, None), (50, 17, 48, None),
    (199, 64, 2 * packed.IMAGE_COLUMNS + 5, (packed.IMAGE_COLUMNS, None)),
    (33, 8, 3 * packed.IMAGE_COLUMNS, (0, packed.IMAGE_COLUMNS))])
@pytest.mark.parametrize("act", LIGHT)
def test_the_channel_lanes_product_equals_numpy(pixels, depth, c_out, cols,
                                                act):
    """channels_product: W x + bias + residual, act, into channels c0:c1 of
    dst (the product channel-last in scratch, then transposed in blocks of
    VECTOR x VECTOR and one by one at the edges); with the residual read,
    in dst itself (written over), or none, the bias or none; the other
    channels are not written."""
    x = _view(depth, pixels, 3)
    weight = rng.standard_normal((c_out, depth, 1, 1), dtype=F32)
    slivers = packed.PackedChannels(weight).slivers
    bias, residual = rng.standard_normal(c_out, dtype=F32), \
        rng.standard_normal((c_out, pixels), dtype=F32)
    c0, c1 = cols or (0, c_out)
    c1 = c_out if c1 is None else c1
    product = np.empty((pixels, c_out), F32)
    cases = ((bias, residual, False), (program.no_bias(F32), None, False),
             (bias, None, True))
    for bias_, residual_, onto in cases:
        dst = residual.copy() if onto else np.full((c_out, pixels), np.nan, F32)
        added = dst if onto else (program.no_residual(F32) if residual_ is None
                                  else residual_)
        packed.channels_product(x, slivers, c0, c1, product, dst, bias_, added,
                                act)
        want = _epilogue(weight[:, :, 0, 0].astype(np.float64) @ x, bias_,
                         residual if onto else added, act)
        scale = np.sqrt(depth) * 4
        np.testing.assert_allclose(dst[c0:c1], want[c0:c1], rtol=1e-5,
                                   atol=1e-6 * scale)
        if not onto:
            assert np.isnan(dst[:c0]).all() and np.isnan(dst[c1:]).all()


@pytest.mark.parametrize("pixels, depth, c0, k, n", [
    (packed.VECTOR, 1, 0, 1, 1), (49, 960, 0, 960, 160),
    (3 * packed.VECTOR + 5, 300, 48, 100, 24), (196, 64, 16, 48, 2 * packed.VECTOR),
    (packed.VECTOR + 1, 40, 39, 1, 17)])
@pytest.mark.parametrize("act", LIGHT)
def test_channel_last_rows_times_a_right_weight_transposed_equal_numpy(
        pixels, depth, c0, k, n, act):
    """multiply_transposed: (x W[c0:c0 + k])^T + bias + residual, act, x
    channel-last and read in place (a strided view; a last partial tile
    of pixels), W packed in slivers of a vector (a partial last one),
    dst and the residual views with rows apart; bias and residual (read,
    or in dst itself: the last partial tile adds it to its new pixels
    only), or neither; nothing outside dst's view is written."""
    x = _view(pixels, k, 3)
    weight = rng.standard_normal((depth, n), dtype=F32)
    slivers = packed.PackedRight(weight, packed.VECTOR).slivers
    bias = rng.standard_normal(n, dtype=F32)
    residual = _view(n, pixels, 2)
    product = (x.astype(np.float64) @ weight[c0:c0 + k]).T
    for bias_, residual_, onto in (
            (bias, residual, False), (bias, residual, True),
            (program.no_bias(F32), program.no_residual(F32), False)):
        out = np.full((n, pixels + 4), np.nan, F32)
        if onto:
            out[:, 2:-2] = residual
        packed.multiply_transposed(x, slivers, c0, out[:, 2:-2], bias_,
                                   out[:, 2:-2] if onto else residual_, act)
        want = _epilogue(product, bias_, residual_ if residual_.size else
                         program.no_residual(F32), act)
        np.testing.assert_allclose(out[:, 2:-2], want, rtol=1e-5,
                                   atol=1e-6 * np.sqrt(k) * 4)
        assert np.isnan(out[:, :2]).all() and np.isnan(out[:, -2:]).all()


def test_the_transposed_product_reads_nothing_past_its_bias_and_residual():
    """A partial last sliver (three channels past a vector) stores its
    first three rows only and reads only theirs of the bias and the
    residual, both ending here where an inaccessible page begins (a read
    past them would crash the process)."""
    pixels, depth, n = 2 * packed.VECTOR, 8, packed.VECTOR + 3
    x = rng.standard_normal((pixels, depth), dtype=F32)
    weight = rng.standard_normal((depth, n), dtype=F32)
    bias, residual = _guarded((n,)), _guarded((n, pixels))
    bias[:] = rng.standard_normal(n, dtype=F32)
    residual[:] = rng.standard_normal((n, pixels), dtype=F32)
    out = np.empty((n, pixels), F32)
    packed.multiply_transposed(
        x, packed.PackedRight(weight, packed.VECTOR).slivers, 0, out, bias,
        residual, program.ACT_NONE)
    want = (x.astype(np.float64) @ weight).T + bias[:, None] + residual
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def _guarded(shape) -> np.ndarray:
    """A writable float32 array whose last byte is followed by a page no
    access is allowed to (mprotect): a kernel reading past its end
    crashes rather than reading whatever lies there."""
    size, page = math.prod(shape) * 4, mmap.PAGESIZE
    pages = -(-size // page)
    memory = mmap.mmap(-1, (pages + 1) * page)
    start = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mprotect(ctypes.c_void_p(start + pages * page),
                     ctypes.c_size_t(page), 0):   # PROT_NONE
        raise OSError(ctypes.get_errno(), "mprotect")
    return np.frombuffer(memory, F32, count=size // 4,
                         offset=pages * page - size).reshape(shape)


def test_fewer_pixels_than_a_vector_are_refused_by_the_transposed_product():
    weight = packed.PackedRight(np.ones((2, 3), F32), packed.VECTOR)
    with pytest.raises(ValueError, match="multiply_transposed: fewer pixels"):
        packed.multiply_transposed(
            np.ones((packed.VECTOR - 1, 2), F32), weight.slivers, 0,
            np.empty((3, packed.VECTOR - 1), F32), program.no_bias(F32),
            program.no_residual(F32), program.ACT_NONE)


@pytest.mark.parametrize("m, k, n, cols", [
    (1, 1, 1, None), (12, 256, 32, None), (13, 600, 37, None),
    (128, 96, 100, (32, 90)), (5, 513, 70, (64, 70)), (40, 33, 64, (0, 32)),
    (23, 40, 48, None)])
@pytest.mark.parametrize("act", LIGHT)
def test_rows_times_a_right_weight_equal_numpy(m, k, n, cols, act):
    """multiply_rows: x W[:, c0:c1] + bias, act, x's rows read in place at
    a pitch longer than k (NaN between: never read), a last partial tile
    of rows (of TAIL_ROWS or fewer, computed by the tail tile, or more), W
    packed in slivers (a partial last one, more than a depth block), the
    bias or none; columns outside the range are not written."""
    x = np.full((m, k + 7), np.nan, F32)
    x[:, :k] = rng.standard_normal((m, k), dtype=F32)
    weight = rng.standard_normal((k, n), dtype=F32)
    bias = rng.standard_normal(n, dtype=F32)
    c0, c1 = cols or (0, n)
    for bias_ in (bias, program.no_bias(F32)):
        c = np.full((m, n + 4), np.nan, F32)[:, 4:]
        packed.multiply_rows(x, k, packed.PackedRight(weight).slivers, c,
                             bias_, act, (c0, c1))
        product = x[:, :k].astype(np.float64) @ weight + (
            bias_ if bias_.size else 0)
        want = _epilogue(product, program.no_bias(F32),
                         program.no_residual(F32), act)
        scale = np.sqrt(k) * 4
        np.testing.assert_allclose(c[:, c0:c1], want[:, c0:c1], rtol=1e-5,
                                   atol=1e-6 * scale)
        assert np.isnan(c[:, :c0]).all() and np.isnan(c[:, c1:]).all()


@pytest.mark.parametrize("depth, pitch", [
    (768, 768), (3072, 3088), (1024, 1040), (512, 528), (1536, 1552),
    (96, 96), (1000, 1000)])
def test_rows_whose_lines_would_share_few_l1_sets_are_copied_apart(depth,
                                                                    pitch):
    """A pitch at which a tile's rows fall into fewer than 4 of L1's 64
    sets gets a line more (4 KB apart, all of them in one set)."""
    assert packed.rows_pitch(depth) == pitch
    x = rng.standard_normal((5, depth), dtype=F32)
    rows = packed.pitched(x)
    assert rows.shape == (5, pitch) and rows.flags.c_contiguous
    np.testing.assert_array_equal(rows[:, :depth], x)


@pytest.mark.parametrize("size, parts", [
    (0, 3), (16, 1), (100, 7), (4096, 11), (48 * 256, 7), (40, 12)])
def test_the_parts_tiles_ask_for_ahead_cover_the_weight_once(size, parts):
    """_ahead: the parts of a weight that successive tiles ask for are
    whole cache lines, in order, neither overlapping nor leaving a gap,
    from its start to its end (rounded up to a line)."""
    start = at = 96
    for part in range(parts):
        ahead, lines = packed._ahead(start, size, part, parts)
        assert ahead == at and lines >= 0
        at += lines * packed.LINE_FLOATS
    assert at == start + -(-size // packed.LINE_FLOATS) * packed.LINE_FLOATS


def test_an_image_of_fewer_pixels_than_a_tile_is_refused():
    weight = packed.PackedRight(np.ones((2, 3), F32))
    with pytest.raises(ValueError, match="multiply_image: fewer pixels than a tile"):
        packed.multiply_image(np.ones((2, packed.IMAGE_ROWS - 1), F32), weight.slivers,
                              0, np.empty((packed.IMAGE_ROWS - 1, 3), F32),
                              program.no_bias(F32), program.ACT_NONE)


@pytest.mark.parametrize("c_in, c_out, hw, kernel, stride, pads, dilation", [
    (64, 256, 14, 1, 1, (0,) * 4, 1), (16, 30, 9, 3, 2, (1,) * 4, 1),
    (8, 13, 40, 1, 1, (0,) * 4, 1), (24, 40, 29, 3, 1, (1,) * 4, 1),
    (3, 16, 23, 7, 2, (3,) * 4, 1), (12, 20, 15, 1, 2, (0,) * 4, 1),
    (5, 7, 17, 3, 1, (2, 0, 1, 3), 2), (6, 9, 16, 3, 2, (1, 0, 0, 1), 1),
    (4, 70, 2, 1, 1, (0,) * 4, 1)])
@pytest.mark.parametrize("act", (program.ACT_RELU, program.ACT_SILU))
@pytest.mark.parametrize("packing", [
    packed.PackedWeight, packed.PackedChannels,
    lambda weight: packed.PackedChannels(weight, packed.VECTOR)],
    ids=["pixels", "channels", "lanes"])
def test_a_packed_convolution_equals_the_blas_path(
        c_in, c_out, hw, kernel, stride, pads, dilation, act, packing,
        monkeypatch):
    """With a residual (read, or written over) and without; split across
    the workers by output rows, channels (whole slivers) or pixels; the
    image's own rows (1x1) or its im2col matrix (a stem's 7x7 / 2, a
    strided 1x1, a dilated and an unevenly padded 3x3, the wide-column
    layout of a 3x3 stride 1 on 29 columns, its epilogue after the
    product); a heavy activation applied after. The weight packed for the
    pixels as lanes or for the channels, in slivers of IMAGE_COLUMNS or
    of a vector (a 2x2 plane, fewer pixels than its tile's rows: the
    BLAS's). Every sliver or tile of pixels is a piece of its own."""
    monkeypatch.setattr(conv, "gemm_items", lambda *args: 1)
    x = rng.standard_normal((2, c_in, hw, hw), dtype=F32)
    weight = rng.standard_normal((c_out, c_in, kernel, kernel), dtype=F32) / 8
    bias = rng.standard_normal(c_out, dtype=F32)
    args = (bias, act, "PAD", pads, (stride, stride), (dilation,) * 2, 1)
    plain = fused_conv2d(x, None, weight, *args)
    residual = rng.standard_normal(plain.shape, dtype=F32)
    for res in (None, residual):
        want = fused_conv2d(x, res, weight, *args)
        got = fused_conv2d(x, res, packing(weight), *args)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    over, packed_weight = residual.copy(), packing(weight)
    got = fused_conv2d(x, over, packed_weight, *args, onto_residual=True)
    unpacked = plain[0, 0].size < getattr(packed_weight, "min_pixels", 0)
    assert (got is over) is not unpacked   # (the BLAS's result is new)
    np.testing.assert_allclose(got, fused_conv2d(x, residual, weight, *args),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("c_in, c_out, hw, kernel, stride, pads, dilation", [
    (3, 16, 45, 7, 2, (3,) * 4, 1), (6, 20, 33, 3, 1, (1, 0, 2, 1), 2),
    (5, 80, 16, 3, 2, (1,) * 4, 1)])
def test_a_convolution_reads_its_columns_in_the_image_s_phases(
        c_in, c_out, hw, kernel, stride, pads, dilation, monkeypatch):
    """The lanes product of a kxk convolution reads each column's values
    in the image's stride phases (conv.TapPhases: a tap's offset plus a
    pixel's; tiles inside an output row and across two), a piece for each
    worker: ranges of pixels (the last ending in a partial tile) or, with
    more channels than pixels (the last case), of slivers of output
    channels; with a residual written over. Against the unpacked weight's
    convolution (im2col and the BLAS)."""
    x = rng.standard_normal((1, c_in, hw, hw), dtype=F32)
    weight = rng.standard_normal((c_out, c_in, kernel, kernel), dtype=F32) / 8
    bias = rng.standard_normal(c_out, dtype=F32)
    args = (bias, program.ACT_RELU, "PAD", pads, (stride, stride),
            (dilation,) * 2, 1)
    plain = fused_conv2d(x, None, weight, *args)
    monkeypatch.setattr(conv, "gemm_items", lambda *args: 1)
    pieces = []
    monkeypatch.setattr(conv.TapPhases, "lanes_product", lambda self, *args: (
        pieces.append(args[1:5]), _LANES_IN_PHASES(self, *args)))
    residual = rng.standard_normal(plain.shape, dtype=F32)
    got = fused_conv2d(x, residual.copy(), packed.PackedChannels(
        weight, packed.VECTOR), *args, onto_residual=True)
    np.testing.assert_allclose(got, fused_conv2d(x, residual, weight, *args),
                               rtol=1e-5, atol=1e-5)
    covered = np.zeros(plain.shape[1:], int).reshape(c_out, -1)
    for c0, c1, p0, p1 in pieces:
        covered[c0:c1, p0:p1] += 1
    assert (covered == 1).all() and len(pieces) == threads.current_threads()


_LANES_IN_PHASES = conv.TapPhases.lanes_product
