"""The shape-category primitives of the census (issue 14): the view forms
(ChunkView, ExpandDimsView, SplitTensorView, SplitWithSizeView,
UnstackExtView) equal their copying ops, the identities, Ones/Zeros/NewEmpty,
FillDiagonal, ConjugateTranspose, LowerBound/UpperBound, PopulationCount,
Complex, Mvlgamma and CheckNumerics, over the dtypes, with their clear
errors."""
import math

import numpy as np
import pytest

from refinfer import args

DTYPES = ["float32", "float16", "float64", "int8", "int32", "int64", "uint8", "bool"]


def sample(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    return rng.integers(-20, 20, shape).astype(dtype) if "int" in dtype \
        else rng.uniform(-3, 3, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_view_forms_equal_their_copying_ops(call, rng, dtype):
    x = sample(rng, (5, 4), dtype)
    for view, op, extra in [("ChunkView", "Chunk", (3, 0)),
                            ("SplitTensorView", "SplitTensor", (2, 1)),
                            ("SplitWithSizeView", "SplitWithSize", ((1, 3), -1)),
                            ("UnstackExtView", "Unstack", (1,))]:
        got, want = call(view, x, *extra), call(op, x, *extra)
        assert len(got) == len(want)
        for piece, expected in zip(got, want):
            np.testing.assert_array_equal(piece, expected)
    np.testing.assert_array_equal(call("ExpandDimsView", x, 1), x[:, None])
    for same in ("Contiguous", "Copy", "ConvertToDynamic"):
        np.testing.assert_array_equal(call(same, x), x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_constant_fills(call, dtype):
    code = args.dtype(np.dtype(dtype))
    for op, value in [("Ones", 1), ("Zeros", 0)]:
        got = call(op, np.array([2, 3], np.int64), code)
        assert got.dtype == np.dtype(dtype) and got.shape == (2, 3)
        assert (got == value).all()
        assert call(op, (4,), None).dtype == np.float32
    empty = call("NewEmpty", np.ones(3, dtype), (2, 1))
    assert empty.dtype == np.dtype(dtype) and empty.shape == (2, 1) and not empty.any()


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
@pytest.mark.parametrize("shape, wrap", [((5, 3), False), ((7, 3), True), ((3, 5), False),
                                         ((3, 3, 3), False)])
def test_fill_diagonal(call, rng, dtype, shape, wrap):
    x = sample(rng, shape, dtype)
    got = call("FillDiagonal", x, 9.0, wrap=wrap)
    want = x.copy()
    for i in range(min(shape)):
        want[(i,) * len(shape)] = 9
    if wrap:        # the diagonal restarts after a skipped row: rows 4, 5, 6
        want[[4, 5, 6], [0, 1, 2]] = 9
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"FillDiagonal: input_x must be 2-D or have "
                                         r"equal dims, got shape \(3, 4, 3\)"):
        call("FillDiagonal", sample(rng, (3, 4, 3), dtype), 1.0)


@pytest.mark.parametrize("dtype", DTYPES + ["complex64"])
def test_conjugate_transpose(call, rng, dtype):
    x = sample(rng, (2, 3, 4), "float32").astype(np.complex64) * (1 + 2j) \
        if dtype == "complex64" else sample(rng, (2, 3, 4), dtype)
    got = call("ConjugateTranspose", x, (1, 2, 0))
    for i, j, k in np.ndindex(2, 3, 4):
        assert got[j, k, i] == np.conj(x[i, j, k])
    with pytest.raises(ValueError, match=r"ConjugateTranspose: perm \(1, 1, 0\) is not a "
                                         "permutation of the 3 axes of x"):
        call("ConjugateTranspose", x, (1, 1, 0))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int32", "uint8"])
def test_lower_and_upper_bounds(call, rng, dtype):
    seq = np.sort(rng.integers(0, 6, (3, 7)), axis=1).astype(dtype)
    values = rng.integers(-1, 8, (3, 5)).astype(dtype)
    lower = call("LowerBound", seq, values)
    upper = call("UpperBound", seq, values, out_type=args.dtype(np.dtype("int64")))
    assert lower.dtype == np.int32 and upper.dtype == np.int64
    for r, j in np.ndindex(3, 5):
        v = values[r, j]
        assert lower[r, j] == next((i for i in range(7) if seq[r, i] >= v), 7)
        assert upper[r, j] == next((i for i in range(7) if seq[r, i] > v), 7)
    with pytest.raises(ValueError, match=r"LowerBound: sorted_x and values must be 2-D "
                                         r"with the same rows, got \(3, 7\) and \(5,\)"):
        call("LowerBound", seq, values[0])


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"])
def test_population_count(call, rng, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, (4, 5), dtype=dtype, endpoint=True)
    x[0, :2] = info.min, info.max
    got = call("PopulationCount", x)
    assert got.dtype == np.uint8
    bits = 8 * np.dtype(dtype).itemsize
    for idx in np.ndindex(x.shape):
        assert got[idx] == bin(int(x[idx]) % (1 << bits)).count("1")
    with pytest.raises(TypeError, match="PopulationCount: input_x must be an integer "
                                        "tensor, got float32"):
        call("PopulationCount", np.ones(2, np.float32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_complex(call, rng, dtype):
    real, imag = sample(rng, (2, 3), dtype), sample(rng, (3,), dtype)
    got = call("Complex", real, imag)
    assert got.dtype == (np.complex64 if dtype == "float32" else np.complex128)
    np.testing.assert_array_equal(got.real, real)
    np.testing.assert_array_equal(got.imag, np.broadcast_to(imag, (2, 3)))
    with pytest.raises(TypeError, match="Complex: real and imag must share a dtype, "
                                        "got float32 and float64"):
        call("Complex", real.astype(np.float32), imag.astype(np.float64))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("p", [1, 2, 5])
def test_mvlgamma(call, close, rng, dtype, p):
    x = rng.uniform((p - 1) / 2 + 0.05, 9.0, (3, 4)).astype(dtype)
    want = [p * (p - 1) / 4 * math.log(math.pi)
            + sum(math.lgamma(float(v) - j / 2) for j in range(p)) for v in x.flat]
    close(call("Mvlgamma", x, p), np.array(want).reshape(3, 4).astype(dtype), dtype)
    with pytest.raises(ValueError, match=r"Mvlgamma: every element of x must exceed "
                                         r"\(p - 1\) / 2 = 2.0"):
        call("Mvlgamma", np.array([3.0, 1.5], dtype), 5)


def test_check_numerics_names_the_first_bad_value(call):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert call("CheckNumerics", x) is x
    x[1, 0], x[1, 2] = np.inf, np.nan
    with pytest.raises(ValueError, match=r"CheckNumerics: x of shape \(2, 3\) holds 2 "
                                         r"NaN or infinite value\(s\), the first inf at "
                                         r"\(1, 0\)"):
        call("CheckNumerics", x)
