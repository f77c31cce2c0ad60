"""LstsqV2 (issue 14): least-squares solutions checked by the normal equations and the
minimum-norm property, and each LAPACK driver's outputs as MindSpore 2.7.1 returns them."""
import numpy as np
import pytest

from refinfer.registry import get_op


def lstsq(A, B, driver=None):
    op = get_op("LstsqV2")
    return op.reference(A, B, op.convert["driver"](driver))


def test_tall_full_rank_solves_the_normal_equations():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((2, 6, 3)), rng.standard_normal((2, 6, 2))
    solution, residual, rank, singular = lstsq(A, B, "gelsd")
    np.testing.assert_allclose(np.swapaxes(A, -1, -2) @ (A @ solution - B), 0, atol=1e-12)
    np.testing.assert_allclose(residual, ((A @ solution - B) ** 2).sum(axis=-2), rtol=1e-12)
    assert rank.dtype == np.int64 and rank.tolist() == [3, 3]
    np.testing.assert_allclose(singular, np.linalg.svd(A, compute_uv=False), rtol=1e-12)


def test_wide_and_rank_deficient_give_the_minimum_norm_solution():
    A = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], np.float32)      # rank 1
    B = np.array([[14.0], [28.0]], np.float32)
    solution, residual, rank, singular = lstsq(A, B, 2)       # code 2: gelsd
    # the minimum-norm solution lies in A's row space: x = t (1, 2, 3)
    np.testing.assert_allclose(solution[:, 0], [1.0, 2.0, 3.0], rtol=1e-5)
    assert residual.shape == (0,) and rank.tolist() == 1 and singular.shape == (2,)


@pytest.mark.parametrize("driver,shapes", [
    ("gels", [(2, 3, 2), (2, 2), (0,), (0,)]),
    (None, [(2, 3, 2), (0,), (2,), (0,)]),
    ("gelss", [(2, 3, 2), (2, 2), (2,), (2, 3)]),
    (3, [(2, 3, 2), (2, 2), (2,), (2, 3)])])
def test_each_driver_returns_what_mindspore_returns(driver, shapes):
    rng = np.random.default_rng(1)
    out = lstsq(rng.standard_normal((2, 4, 3)).astype(np.float32),
                rng.standard_normal((2, 4, 2)).astype(np.float32), driver)
    assert [o.shape for o in out] == shapes
    assert [o.dtype for o in out] == [np.float32, np.float32, np.int64, np.float32]


def test_a_vector_right_hand_side_and_errors():
    A, b = np.eye(3)[:, :2] * 2.0, np.array([2.0, 4.0, 5.0])
    solution, residual, rank, _ = lstsq(A, b, "gels")
    np.testing.assert_allclose(solution, [1.0, 2.0])
    np.testing.assert_allclose(residual, [25.0])
    with pytest.raises(ValueError, match=r"LstsqV2: A \(\*, M, N\) and B \(\*, M, K\) or "
                                         r"\(\*, M\) must be floats of one dtype, got A "
                                         r"float64\[3, 2\] and B float32\[3, 1\]"):
        lstsq(A, b[:, None].astype(np.float32))
    with pytest.raises(ValueError, match="LstsqV2: unknown driver 'lu'"):
        lstsq(A, b, "lu")
