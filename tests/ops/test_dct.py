"""The orthonormal discrete cosine transforms (DCT, IDCT, DCTN, IDCTN; issue 14)
against the definition summed term by term in Python, their inverse property, crops,
zero-pads, axes, result dtypes, and MindSpore's refusals (type != 2, norm != ortho)."""
import math

import numpy as np
import pytest

from refinfer.registry import get_op


def dct_by_definition(row):
    n = len(row)
    return [math.sqrt((1 if k == 0 else 2) / n)
            * sum(v * math.cos(math.pi * k * (2 * j + 1) / (2 * n)) for j, v in enumerate(row))
            for k in range(n)]


def call(name, *args):
    op = get_op(name)
    return op.reference(*(op.convert.get(p.name, lambda v: v)(v)
                          for p, v in zip(op.params, args)))


def test_dct_is_the_definition_along_the_axis():
    x = np.random.default_rng(0).uniform(-3, 3, (3, 5))
    expected = np.array([dct_by_definition(row) for row in x])
    np.testing.assert_allclose(call("DCT", x, 2, None, -1, None), expected, rtol=1e-13,
                               atol=1e-14)
    np.testing.assert_allclose(call("DCT", x.T.copy(), 2, None, 0, 2), expected.T,
                               rtol=1e-13, atol=1e-14)
    got = call("DCT", x.astype(np.float32), 2, None, -1, "ortho")
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_crops_and_zero_pads_come_first():
    x = np.arange(1.0, 7.0).reshape(2, 3)
    np.testing.assert_allclose(call("DCT", x, 2, 2, -1, None),
                               [dct_by_definition(r[:2]) for r in x], atol=1e-14)
    np.testing.assert_allclose(call("DCT", x, 2, 5, -1, None),
                               [dct_by_definition(list(r) + [0, 0]) for r in x],
                               atol=1e-14)
    got = call("DCTN", x, 2, (3, 2), (0, 1), None)
    assert got.shape == (3, 2)
    padded = np.vstack([x[:, :2], np.zeros((1, 2))])
    columns = np.array([dct_by_definition(c) for c in padded.T]).T
    np.testing.assert_allclose(got, [dct_by_definition(r) for r in columns], atol=1e-13)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_the_inverses_undo_the_transforms(dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 4)).astype(dtype)
    if dtype == np.complex128:
        x = x + 1j * rng.standard_normal(x.shape)
    np.testing.assert_allclose(call("IDCT", call("DCT", x, 2, None, 1, None), 2, None, 1,
                                    None), x, atol=1e-13)
    spectrum = call("DCTN", x, 2, None, None, None)
    assert spectrum.dtype == dtype
    np.testing.assert_allclose(call("IDCTN", spectrum, 2, None, None, None), x, atol=1e-13)
    # orthonormal: the energy is kept
    np.testing.assert_allclose(np.sum(np.abs(spectrum) ** 2), np.sum(np.abs(x) ** 2))


def test_integer_inputs_give_float32():
    got = call("DCT", np.array([1, 2, 3], np.int32), 2, None, -1, None)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, dct_by_definition([1, 2, 3]), rtol=1e-6, atol=1e-6)


def test_what_mindspore_refuses():
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="DCT: only type 2 is supported, got type=1"):
        call("DCT", x, 1, None, -1, None)
    with pytest.raises(ValueError, match="DCT: only norm 'ortho' is supported, got 0"):
        call("IDCT", x, 2, None, -1, 0)
    with pytest.raises(ValueError, match="DCTN: s \\(2,\\) and axes \\(0, 1\\) must have "
                                         "the same length"):
        call("DCTN", x, 2, (2,), (0, 1), None)
    with pytest.raises(ValueError, match="IDCTN: axes \\(1, -1\\) repeat an axis"):
        call("IDCTN", x, 2, None, (1, -1), None)
    with pytest.raises(ValueError, match="DCT: axis 2 is out of range for rank 2"):
        call("DCT", x, 2, None, 2, None)
    with pytest.raises(ValueError, match="DCT: the transform length must be >= 1, got 0"):
        call("DCT", x, 2, 0, -1, None)
