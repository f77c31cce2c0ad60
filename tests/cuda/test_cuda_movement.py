"""The cuda kernels of the view forms and pure data movement ops
(refinfer/cuda/movement.py) equal their NumPy references: views with
negative axes and steps, the splits' uneven pieces, unstacking, diagonals,
triangles and bands, rolls, the block moves, meshgrids and device copies;
float32, int32 and bool (what they move is bytes), and the arguments the
references reject decline."""
import numpy as np
import pytest

from cuda_check import check, run, values

from refinfer.cuda import movement  # noqa: F401  (declares the kernels)

ids = lambda d: np.dtype(d).name     # noqa: E731
DTYPES = (np.float32, np.int32, np.bool_)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_views(dtype):
    x = values((2, 3, 4), dtype)
    check("TransposeView", x, (2, 0, 1))
    check("TransposeExtView", x, -1, 0)
    check("TransposeExtView", x[0, 0, 0], 0, 0)
    check("TExt", x[0])
    check("TExt", x[0, 0])
    check("ExpandAs", x[:, :1], values((5, 2, 3, 4), np.float32))
    check("Narrow", x, -1, -3, 2)
    check("SliceExt", x, 2, 3, -5, 1)        # an empty axis
    check("SliceExtView", x, 1, 0, 3, 2)
    check("SelectExtView", x, 1, -1)
    check("SelectExtView", x[0, 0], 0, 2)    # a 0-d result
    check("Diagonal", x, 1, 2, 0)
    check("DiagonalView", x, -1, -1, -2)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_splits_and_unstack(dtype):
    x = values((2, 5, 3), dtype)
    check("SplitTensor", x, 2, 1)
    check("SplitTensorView", x, 3, -1)
    check("SplitWithSize", x, (1, 0, 4), -2)
    check("SplitWithSizeView", x, (2,), 0)
    check("Chunk", x, 4, 1)
    check("ChunkView", x, 2, 0)
    check("Unstack", x, -1)
    check("Unpack", x, 1, 5)
    check("UnstackExtView", x, 0)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_diagonals_triangles_and_rolls(dtype):
    x = values((2, 3, 4), dtype)
    check("Diag", x[0])
    check("DiagPart", values((2, 3, 2, 3), dtype))
    for diagonal in (0, 2, -1):
        check("Triu", x, diagonal)
    for lower, upper in ((0, 0), (1, -1), (-1, 2), (-1, -1)):
        check("MatrixBandPart", x, lower, upper)
    check("Roll", x, (1, -2), (0, 2))
    check("Roll", x, (5, 1), (-1, -1))       # one axis twice
    check("Roll", x, (7,))                   # flattened


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_transposes_casts_and_diagonal_fills(dtype):
    x = values((2, 3, 4), dtype)
    check("ConjugateTranspose", x, (1, 2, 0))
    check("TypeAs", x, values((1,), np.float64))
    check("TypeAs", x, values((2,), np.int8))
    for shape, wrap in (((5, 3), False), ((7, 3), True), ((3, 5), True), ((3, 3, 3), False)):
        check("FillDiagonal", values(shape, dtype), 2.0, wrap)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_block_moves(dtype):
    x = values((1, 8, 2, 3), dtype)
    check("DepthToSpace", x, 2)
    check("SpaceToDepth", values((2, 2, 4, 6), dtype), 2)
    check("PixelShuffle", values((2, 1, 9, 2, 1), dtype), 3)
    check("ChannelShuffle", x, 4)
    check("BatchToSpaceND", values((8, 2, 2, 3), dtype), (2, 2), ((0, 1), (2, 1)))
    check("BatchToSpaceND", values((6, 2, 3), dtype), (3,), ((1, 1),))
    check("SpaceToBatchND", values((2, 1, 3, 2), dtype), (2, 2), ((1, 0), (1, 1)))
    check("SpaceToBatchND", values((1, 2, 4), dtype), (4,), ((0, 0),))


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_repeats_and_one_hot(dtype):
    x = values((2, 3), dtype)
    check("RepeatInterleaveInt", x, 2, 1)
    check("RepeatInterleaveInt", x, 3)
    check("RepeatInterleaveTensor", x, np.array([0, 2, 1], np.int64), -1, 3)
    check("RepeatInterleaveTensor", x, np.array([2], np.int32), 0)
    on, off = np.array(5, dtype), np.array(0, dtype)
    check("OneHotExt", np.array([[0, 3], [2, -1]], np.int64), 4, on, off, -1)
    check("OneHotExt", np.array([1, 0, 2], np.int32), 3, on, off, 0)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_meshgrid_and_copies(dtype):
    a, b, c = values((3,), dtype), values((2,), dtype), values((4,), dtype)
    check("Meshgrid", (a, b, c), "xy")
    check("Meshgrid", (a, b), "ij")
    x = values((2, 3), dtype)
    for op in ("Contiguous", "Copy", "Identity"):
        check(op, x)


def test_rejected_arguments_decline():
    """The reference raises its error for each of these."""
    x = values((2, 3, 4), np.float32)
    assert run("TExt", x) is None
    assert run("Narrow", x, 1, 2, 2) is None
    assert run("SliceExt", x, 3, 0, 1, 1) is None
    assert run("SliceExt", x, 0, 0, 2, 0) is None
    assert run("SelectExtView", x, 1, 3) is None
    assert run("SplitTensor", x, 0, 1) is None
    assert run("SplitWithSize", x, (1, 1), 1) is None
    assert run("Chunk", x, 0) is None
    assert run("Unstack", x, 0, 3) is None
    assert run("Diagonal", x, 0, 1, -2) is None
    assert run("DiagPart", x) is None
    assert run("Diag", x[0, 0, 0]) is None
    assert run("Triu", x[0, 0]) is None
    assert run("Roll", x, (1, 2), (0,)) is None
    assert run("DepthToSpace", values((1, 6, 2, 2), np.float32), 2) is None
    assert run("SpaceToDepth", values((1, 1, 3, 4), np.float32), 2) is None
    assert run("PixelShuffle", x, 2) is None
    assert run("ChannelShuffle", x, 2) is None
    assert run("ConjugateTranspose", x, (0, -1, 1)) is None
    assert run("FillDiagonal", x, 1.0) is None
    assert run("BatchToSpaceND", x, (3,), ((0, 0),)) is None
    assert run("SpaceToBatchND", x, (3,), ((0, 1),)) is None
    assert run("RepeatInterleaveInt", x, -1, 0) is None
    assert run("RepeatInterleaveTensor", x, np.array([1, 2]), 1) is None
    assert run("RepeatInterleaveInt", x, 2, 0, 5) is None
