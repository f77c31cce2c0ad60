"""The shape, creation and padding kernels (ops/_kernels/shape.py: gather,
permute, affine) equal their NumPy references bit for bit: pads in every
mode, ReverseV2, Tile, the transposes, Unstack and the progressions,
on random shapes and every element size, with the cases they hand back to
the reference (invalid arguments, rank 0, more than six axes after
merging, small arrays).

The runners move bit patterns (one compiled signature per element size),
so the dtype sweeps pick one dtype of each size: int8, float16, float32,
float64 (bool and int32 share theirs).
"""
import numpy as np
import pytest

from refinfer.ops._kernels import shape as _fast_shape
from refinfer.ops._ref import pad as _pad
from refinfer.registry import get_op

from kernel_check import check, rng

TESTED = {"ConstantPadND", "Pad", "PadV3", "MirrorPad", "ReverseV2", "Tile",
          "Transpose", "TransposeView", "TransposeExtView", "TExt", "Unstack",
          "UnstackExtView", "Unpack", "Arange", "Range", "LinSpace", "LinSpaceExt"}
SIZES = (np.int8, np.float16, np.float32, np.float64)    # one dtype per element size
# Large enough to be split across the conftest's 3 worker threads.
LARGE = (4, 64, 56, 56)
SMALL, SMALL_PERMUTE = _fast_shape.SMALL, _fast_shape.SMALL_PERMUTE


@pytest.fixture(autouse=True)
def every_size(monkeypatch):
    """The runners hand arrays below SMALL elements to the reference; the
    tests take small ones through the kernels too (see
    test_small_arrays_go_to_the_reference for the threshold itself)."""
    monkeypatch.setattr(_fast_shape, "SMALL", 0)
    monkeypatch.setattr(_fast_shape, "SMALL_PERMUTE", 0)


def values(shape, dtype=np.float32):
    """Random values of dtype; floats include NaN, inf and -0.0."""
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        if x.size > 3:
            x.reshape(-1)[:3] = (np.nan, -np.inf, -0.0)
        return x
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    return rng.integers(-100, 100, shape).astype(dtype)


def exact(op, *args):
    """check(), and bit for bit: the kernels only move data, so NaN, -0.0
    and every integer must come through unchanged."""
    check(op, *args)
    definition = get_op(op)
    try:
        expected = definition.reference(*args)
    except Exception:   # noqa: BLE001  check() saw the kernel raise alike
        return
    got = definition.kernel("numba")(*args)
    for g, e in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, expected))):
        assert g.tobytes() == e.tobytes(), op


# -- padding ----------------------------------------------------------------------------------
MODES = ("constant", "reflect", "symmetric", "edge", "circular")


@pytest.mark.parametrize("mode", MODES + ("replicate",))
@pytest.mark.parametrize("length", [1, 2, 5])
def test_index_map_is_what_np_pad_does_to_an_arange(mode, length):
    """Every width from cropping all but one element to padding past the
    axis length several times."""
    for before in range(-length + 1, 3 * length + 2):
        for after in range(-length + 1 - min(before, 0), 3 * length + 2):
            expected = _pad.pad(np.arange(length), [(before, after)], mode, -1)
            np.testing.assert_array_equal(
                _pad.index_map(length, before, after, mode), expected)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,paddings", [
    ((7,), (2, 3)), ((3, 5, 6), (1, 1, 2, 0)), ((2, 3, 9, 11), (1, 1, 1, 1)),
    ((2, 3, 4, 5, 6), (2, 1, 0, 3, 1, 1, 1, 2, 2, 1)), ((4, 9), (0, 0)), (LARGE, (1, 1, 1, 1))],
    ids=str)
def test_pad_v3_every_mode(mode, shape, paddings):
    x = values(shape)
    exact("PadV3", x, paddings, None, mode)
    exact("PadV3", x, paddings, None, mode, False)


@pytest.mark.parametrize("dtype", SIZES + (np.bool_,))
def test_pad_v3_every_element_size_and_fill(dtype):
    x = values((3, 4, 10), dtype)
    exact("PadV3", x, (2, 3, 1, 0), np.array(5).astype(dtype), "constant")
    exact("PadV3", x, (3, 2, 2, 2), None, "reflect")
    exact("PadV3", x, (12, 25), None, "circular")        # wider than the axis


def test_pads_that_crop_or_go_to_the_reference():
    x = values((4, 6, 7))
    exact("PadV3", x, (-2, 3, 1, -1), np.array(2.5, np.float32), "constant")
    exact("ConstantPadND", x, (-3, -3, 2, 2), 7.0)
    exact("ConstantPadND", x, (-7, 1), 0.0)          # crops the whole axis: reference
    exact("PadV3", x, (1, 1, 1), None, "constant")   # odd count: raises
    exact("PadV3", x, (9, 9), None, "reflect")       # wider than the axis: np.pad's way
    exact("PadV3", x, (1, 1), None, "bogus")         # unknown mode: raises
    exact("PadV3", np.array(3.0, np.float32), (), None, "constant")
    exact("PadV3", values((2,) * 8), (1, 1, 1, 1), None, "edge")     # 8 axes, merged
    exact("PadV3", values((3, 1, 2, 1, 2, 1, 2, 1)), (1,) * 16, None,
          "constant")                                # 8 padded axes: reference


@pytest.mark.parametrize("dtype", (np.float32, np.float64))
def test_constant_pad_nd_pad_and_mirror_pad(dtype):
    x = values((2, 3, 8, 9), dtype)
    exact("ConstantPadND", x, (1, 2, 3, 0), -1.5)
    exact("ConstantPadND", x, (1, 2, 0, 0, 1, 1, 2, 2), 0.0)
    exact("Pad", x, ((0, 0), (1, 2), (3, 0), (2, 2)))
    exact("Pad", x, ((0, 0), (1, 2)))                                  # wrong rank: raises
    for mode in ("reflect", "symmetric"):
        exact("MirrorPad", x, np.array([[0, 0], [1, 1], [2, 3], [4, 1]]), mode)
    exact("MirrorPad", x, np.array([[1, 1]] * 4), "edge")               # raises
    exact("MirrorPad", x, np.array([[1, 1]] * 3), "reflect")            # raises


# -- ReverseV2, Tile --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", SIZES + (np.bool_,))
def test_reverse_v2(dtype):
    x = values((4, 3, 19), dtype)
    for axis in [(-1,), (1, 2), (0, 1, 2), (0,), ()]:     # the last two: NumPy
        exact("ReverseV2", x, axis)


def test_reverse_v2_large_and_fallbacks():
    exact("ReverseV2", values(LARGE), (1, 3))
    exact("ReverseV2", values((5,)), (0,))
    exact("ReverseV2", values((2,) * 7), (0, 2, 6))         # 7 axes, merged to 6
    exact("ReverseV2", values((3, 4)), (1, -1))      # repeated axis: raises
    exact("ReverseV2", values((3, 4)), (2,))         # no such axis: raises
    exact("ReverseV2", np.array(2.0), ())


@pytest.mark.parametrize("dtype", SIZES)
@pytest.mark.parametrize("shape,dims", [
    ((3, 4), (2, 3)), ((5,), (4,)), ((2, 1, 3), (1, 6, 2)), ((3, 4), (2, 2, 1)),
    ((2, 3, 4), (3, 2)), ((4, 1), (3, 0)), ((2, 3), (1, 4))], ids=str)
def test_tile(dtype, shape, dims):
    exact("Tile", values(shape, dtype), dims)


def test_tile_large_and_fallbacks():
    exact("Tile", values((4, 64, 56, 14)), (1, 1, 2, 2))
    exact("Tile", values((2, 3)), (-1, 2))                 # raises
    exact("Tile", np.array(1.5, np.float32), ())
    exact("Tile", values((2,) * 7), (1, 2, 1, 2, 1, 2, 1))  # 7 axes: reference


# -- transposes and Unstack -------------------------------------------------------------------
PERMUTATIONS = [
    ((2, 6, 9, 11), (0, 2, 3, 1)),      # NCHW -> NHWC
    ((2, 9, 11, 6), (0, 3, 1, 2)),      # NHWC -> NCHW
    ((2, 3, 10, 8), (0, 2, 1, 3)),      # attention heads: rows stay rows (NumPy)
    ((13, 37), (1, 0)), ((40, 24), (-1, -2)), ((3, 1, 5, 1, 7), (4, 1, 0, 3, 2)),
    ((2, 3, 4, 5, 6), (4, 2, 0, 3, 1)), ((3, 4, 5), (0, 1, 2)), ((6,), (0,)),
    ((2, 3, 2, 3, 2, 3, 2), (6, 5, 4, 3, 2, 1, 0)),    # 7 axes: NumPy
]


@pytest.mark.parametrize("dtype", SIZES)
@pytest.mark.parametrize("shape,perm", PERMUTATIONS, ids=str)
def test_transpose(dtype, shape, perm):
    x = values(shape, dtype)
    exact("Transpose", x, perm)
    exact("TransposeView", x, perm)


def test_transpose_large_and_fallbacks():
    exact("Transpose", values(LARGE), (0, 2, 3, 1))
    exact("Transpose", values((4, 56, 56, 64), np.float64), (0, 3, 1, 2))
    exact("Transpose", values((3, 4)).T, (1, 0))              # a non-contiguous input
    exact("Transpose", values((3, 4)), (0, 0))                # no permutation: raises
    exact("Transpose", values((3, 4)), (0, 1, 2))             # raises
    exact("Transpose", values((3, 4)), (0, 2))                # raises
    exact("Transpose", np.array(3.0), ())
    exact("Transpose", values((3, 4)).astype(np.complex64), (1, 0))   # reference


def test_transpose_ext_view_and_t_ext():
    x = values((3, 17, 10))
    for dims in [(0, 2), (-1, 1), (1, 1), (0, 3)]:
        exact("TransposeExtView", x, *dims)
    exact("TransposeExtView", np.array(1.0), 0, 0)
    for shape in [(9, 20), (7,), (), (2, 3, 4)]:
        exact("TExt", values(shape))


@pytest.mark.parametrize("dtype", SIZES)
def test_unstack(dtype):
    x = values((4, 9, 10), dtype)
    for axis in (0, 1, -1):
        exact("Unstack", x, axis)
    exact("Unstack", x, 2, 10)
    exact("Unstack", x, 2, 3)                    # num disagrees: raises
    exact("Unstack", x, 3)                       # raises
    exact("Unstack", np.array(1.0), 0)           # raises
    exact("UnstackExtView", x, -2)               # the view form: the same kernel
    exact("Unpack", x, 1)                        # its old name


def test_small_arrays_go_to_the_reference(monkeypatch):
    monkeypatch.setattr(_fast_shape, "SMALL", SMALL)
    monkeypatch.setattr(_fast_shape, "SMALL_PERMUTE", SMALL_PERMUTE)
    x = values((4, 1, 16))
    assert _fast_shape.gather(x, [_fast_shape.COPY, 8, np.arange(16)[::-1]]) is None
    grown = _fast_shape.gather(x[:1], [_fast_shape.COPY, SMALL // 16, _fast_shape.COPY])
    assert grown is not None and grown.tobytes() == np.repeat(x[:1], SMALL // 16, 1).tobytes()
    x = values((4, 8, 16))
    assert _fast_shape.permute(x, (2, 0, 1)) is None
    assert _fast_shape.permute(values((8, 64, 64)), (2, 0, 1)) is not None
    assert _fast_shape.pad(x, [(0, 0), (1, 1), (2, 2)], "reflect").tobytes() == \
        _pad.pad(x, [(0, 0), (1, 1), (2, 2)], "reflect").tobytes()
    exact("ReverseV2", x, (2,))
    exact("Tile", x, (2, 2, 2))
    exact("Transpose", x, (2, 0, 1))


# -- progressions -----------------------------------------------------------------------------
def test_arange_and_range():
    for op in ("Arange", "Range"):
        extra = (None,) if op == "Arange" else ()
        for start, end, step in [(0, 1000, 1), (5, -20, -3), (0.5, 100.25, 0.75),
                                 (1, 2, 0.001), (3, 3, 1), (0, 10, 0), (0, 10, -1)]:
            check(op, start, end, step, *extra)
        check(op, np.array(2, np.int32), np.array(50, np.int32), np.array(4, np.int32),
              *extra)
    for dtype in (np.int8, np.int32, np.float32, np.float16):
        check("Arange", -50, 300, 7, dtype)
    check("Range", 0, 10 ** 7, 1, 100)           # over maxlen: raises


def test_lin_space():
    for dtype in (np.float32, np.float64, np.float16):
        for num in (0, 1, 2, 1000):
            check("LinSpace", np.array(-2.5, dtype), np.array(7.0, dtype), num)
    with np.errstate(invalid="ignore"):         # 0 * inf in the first value
        check("LinSpace", np.array(1.0, np.float32), np.array(np.inf, np.float32), 5)
    for dtype in (None, np.float64, np.int32, np.int64):
        check("LinSpaceExt", -3, 11.5, 301, dtype)
        check("LinSpaceExt", 4.0, 4.0, 1, dtype)
    check("LinSpaceExt", 0, 1, -1, None)         # raises
