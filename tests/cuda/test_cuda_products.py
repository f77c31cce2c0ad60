"""The cuda kernels of refinfer/cuda/products.py (Baddbmm, GroupedMatmul,
Einsum: gemm.py's product under each op's arguments) equal their NumPy
references on tiny shapes in float32, float64 and float16 (the op
tolerances: the product sums in order over k where BLAS blocks, k <= 6
here), Einsum in int32 too (exact); what is not one product declines."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import products

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731
WITH_HALF = FLOATS + (np.float16,)


def test_every_kernel_is_tested():
    assert set(products.KERNELS) == {"Baddbmm", "GroupedMatmul", "Einsum"}


@pytest.mark.parametrize("dtype", WITH_HALF, ids=ids)
@pytest.mark.parametrize("input_shape", [(2, 3, 4), (4,), (1, 3, 1)])
def test_baddbmm(dtype, input_shape):
    check("Baddbmm", values(input_shape, dtype), values((2, 3, 5), dtype),
          values((2, 5, 4), dtype), 0.5, -1.5)


def test_baddbmm_declines():
    a, b = values((2, 3, 5), np.float32), values((2, 5, 4), np.float32)
    assert run("Baddbmm", values((3, 3, 4), np.float32), a, b) is None   # no broadcast
    assert run("Baddbmm", values((2, 3, 4), np.float64), a, b) is None   # two dtypes
    assert run("Baddbmm", values((2, 3, 4), np.float32), a, a) is None   # m != m
    with pytest.raises(ValueError, match="Baddbmm"):
        registry.get_op("Baddbmm").reference(values((2, 3, 4), np.float32), a, a)


@pytest.mark.parametrize("dtype", WITH_HALF, ids=ids)
def test_grouped_matmul_pairs(dtype):
    xs = [values((3, 5), dtype), values((2, 2, 4), dtype)]
    ws = [values((5, 2), dtype), values((4, 3), dtype)]
    check("GroupedMatmul", xs, ws, [values((2,), dtype), values((3,), dtype)])
    check("GroupedMatmul", [x.swapaxes(-1, -2).copy() for x in xs],
          [w.T.copy() for w in ws], None, None, None, None, None, None, 0, -1,
          True, True)


@pytest.mark.parametrize("dtype", WITH_HALF, ids=ids)
def test_grouped_matmul_groups(dtype):
    x, w = values((7, 4), dtype), values((3, 4, 2), dtype)
    ends = np.array([2, 2, 5], np.int64)        # an empty group, rows 5-6 zero
    check("GroupedMatmul", [x], [w], [values((3, 2), dtype)], None, None, None, None,
          ends, 3, 0)
    check("GroupedMatmul", [x], [w.swapaxes(1, 2).copy()], None, None, None, None,
          None, ends, 3, 0, False, True)


def test_grouped_matmul_declines():
    x, w = values((7, 4), np.float32), values((3, 4, 2), np.float32)
    falling = np.array([4, 2, 5], np.int64)
    assert run("GroupedMatmul", [x], [w], None, None, None, None, None,
               falling, 3, 0) is None
    with pytest.raises(ValueError, match="group_list"):
        registry.get_op("GroupedMatmul").reference([x], [w], None, None, None, None,
                                                    None, falling, 3, 0)
    assert run("GroupedMatmul", [x], [w], None, values((1,), np.float32)) is None


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("ik,jk", [(3, 4), (2, 4)]),                    # implicit output: ij
    ("ab,cb->ca", [(3, 4), (2, 4)]),
    ("i,j->ij", [(3,), (4,)]),                      # outer product
    ("i,i->", [(5,), (5,)]),                        # dot
    ("abc->cab", [(2, 3, 4)]),
    ("ab->ab", [(2, 3)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),                # the same letters twice
    ("ij->i", [(3, 4)]),                            # sums first
    ("i->", [(5,)]),
    ("bij,jk->k", [(2, 3, 4), (4, 2)]),
])
def test_einsum(dtype, equation, shapes):
    check("Einsum", tuple(values(s, dtype) for s in shapes), equation)


@pytest.mark.parametrize("equation, shapes", [
    ("ii->i", [(3, 3)]),                    # a diagonal
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk->ik", [(3, 4), (1, 5)]),        # j: 4 and 1 (NumPy broadcasts)
])
def test_einsum_declines_what_is_not_one_product(equation, shapes):
    tensors = tuple(values(s, np.float32) for s in shapes)
    assert run("Einsum", tensors, equation) is None


def test_einsum_float16_sums_decline():
    """(a float16 sum before the product would be rounded twice)"""
    assert run("Einsum", (values((3, 4), np.float16),), "ij->i") is None
    check("Einsum", (values((3, 4), np.float16), values((4, 2), np.float16)),
          "ij,jk->ik")
