"""The cuda kernels of the matrix products (refinfer/cuda/gemm.py) equal
their NumPy references: tiny shapes that are not multiples of the tile
(4 under the simulator), transpose flags, broadcast batch axes, 1-D
operands, bias; float32, float64 and int32 (exact). float32 sums run in
order over k where BLAS blocks them: the op tolerance (rtol 1e-5) holds
for these k <= 9."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import gemm

from cuda_check import FLOATS, check, run, values

DTYPES = FLOATS + (np.int32,)
ids = lambda d: np.dtype(d).name     # noqa: E731


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("ta, tb", [(False, False), (True, False),
                                    (False, True), (True, True)])
def test_mat_mul(dtype, ta, tb):
    a = values((7, 5)[::-1] if ta else (7, 5), dtype)
    b = values((5, 6)[::-1] if tb else (5, 6), dtype)
    check("MatMul", a, b, ta, tb)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("shapes, flags", [
    (((2, 3, 5), (2, 5, 4)), (False, False)),
    (((2, 1, 3, 5), (3, 4, 5)), (False, True)),     # batch axes broadcast
    (((5, 3), (2, 5, 4)), (True, False)),           # one without batch axes
])
def test_batch_mat_mul(dtype, shapes, flags):
    check("BatchMatMul", *(values(s, dtype) for s in shapes), *flags)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("shapes", [((3, 5), (5, 2)), ((5,), (5,)),
                                    ((5,), (2, 5, 3)), ((2, 3, 5), (5,)),
                                    ((2, 1, 3, 5), (4, 5, 2))])
def test_mat_mul_ext(dtype, shapes):
    check("MatMulExt", *(values(s, dtype) for s in shapes))


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_batch_mat_mul_ext(dtype):
    check("BatchMatMulExt", values((2, 3, 9), dtype), values((2, 9, 5), dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("x, bias", [((3, 6), (5,)), ((2, 3, 6), None),
                                     ((6,), (5,))])
def test_dense(dtype, x, bias):
    check("Dense", values(x, dtype), values((5, 6), dtype),
          None if bias is None else values(bias, dtype))


def test_float16_accumulates_in_float32():
    """A sum float16 cannot hold step by step (2048 + 1 + 1 ... = 2048)
    comes out as the reference's float32 sum, rounded once."""
    a = np.full((1, 9), 1.0, np.float16)
    a[0, 0] = 2048
    b = np.ones((9, 1), np.float16)
    check("MatMul", a, b)
    assert run("MatMul", a, b)[0, 0] == 2056


def test_empty_and_k_zero():
    check("MatMul", values((0, 3), np.float32), values((3, 4), np.float32))
    check("MatMul", values((2, 0), np.float32), values((0, 4), np.float32))


@pytest.mark.parametrize("op, args", [
    ("MatMul", ((3, 4), (5, 2))),                   # k does not match
    ("BatchMatMul", ((2, 3, 4), (3, 4, 2))),        # batch axes do not broadcast
    ("Dense", ((3, 6), (5, 6), (2,))),              # bias of the wrong size
])
def test_unfit_shapes_decline(op, args):
    """The reference raises the clear error for these."""
    assert run(op, *(values(s, np.float32) for s in args)) is None


def test_mixed_dtypes_decline():
    assert run("MatMul", values((2, 3), np.float32), values((3, 2), np.float64)) is None


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in gemm.KERNELS.items())
