"""float16 tensors of the ops whose references compute them in float32
(refinfer/cuda/half.py): cast to float32 on the device, the float32
kernel, the float results rounded to float16 once. Each against its
reference on small random float16 tensors (NaN included where the op
orders values): float results within 1 float16 ulp (a float32 sum in
another order than NumPy's may move the rounding by one), indices exact."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import half, load_kernels

from cuda_check import on_device, to_host

load_kernels()
rng = np.random.default_rng(1613)


def _half(shape, nan=False):
    x = np.asarray(rng.standard_normal(shape) * 2, np.float16)
    if nan:
        x.flat[3] = np.nan
    return x


X = _half((2, 3, 8))
CASES = {
    "CumSum": (X, 1, False, False), "CumProd": (X, 2, False, True),
    "CumsumExt": (X, 2, None), "Cummax": (_half((3, 8), True), 1),
    "Cummin": (_half((3, 8)), 0),
    "Sort": (_half((3, 8), True), -1, False), "SortExt": (X, -1, True, False),
    "ArgSort": (X, -1, False), "TopK": (X, 3, True), "TopkExt": (X, 2, 1, False, True),
    "NthElement": (X, 2, False), "Median": (X, False, 2, False, False),
    "MedianExt": (X,),
    "LRN": (_half((1, 6, 3, 3)), 2, 1.0, 1e-4, 0.75, "ACROSS_CHANNELS"),
    "RmsNorm": (X, _half((8,)), 1e-6),
    "ReduceStd": (X, (2,), False, False), "Std": (X, (2,), 1, False),
    "LpNorm": (X, (2,), 3, False, 1e-12), "LogSumExp": (X, (2,), False),
    "RotaryPositionEmbedding": (_half((1, 2, 3, 8)), _half((1, 1, 3, 8)),
                                _half((1, 1, 3, 8)), 0),
    "IOU": (np.array([[0, 0, 9, 9], [2, 3, 20, 18], [5, 5, 6, 7]], np.float16),
            np.array([[1, 1, 8, 10], [0, 2, 30, 12]], np.float16), "iou"),
}


def assert_half_result(op, got, expected):
    """Dtypes and shapes as the reference's; float16 within 1 ulp (NaN
    where it has NaN), everything else exact or within float32 rounding."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), op
        for g, e in zip(got, expected):
            assert_half_result(op, g, e)
        return
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, \
        (op, got.dtype, expected.dtype, got.shape, expected.shape)
    if expected.dtype != np.float16:
        np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=op)
        return
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=op)
    want, have = expected[~nan].astype(np.float64), got[~nan].astype(np.float64)
    ulp = np.spacing(np.abs(expected[~nan])).astype(np.float64)
    off = np.abs(have - want) > ulp
    assert not off.any(), (op, have[off], want[off])


@pytest.mark.parametrize("op", sorted(CASES))
def test_float16_as_its_reference(op):
    args = CASES[op]
    definition = registry.get_op(op)
    with np.errstate(all="ignore"):
        expected = definition.reference(*args)
        result = definition.kernels["cuda"](*map(on_device, args))
    assert result is not None, f"{op} declined float16"
    got = tuple(map(to_host, result)) if isinstance(result, tuple) else to_host(result)
    assert_half_result(op, got, expected)


def test_other_dtypes_pass_through_and_declines_stay():
    """A kernel wrapped by in_float32 sees other dtypes unchanged, and its
    decline (an empty search) stays a decline."""
    calls = []

    def kernel(x, *rest):
        calls.append(x.dtype)
        return None if x.size == 0 else x

    wrapped = half.in_float32(kernel)
    x = on_device(np.arange(3, dtype=np.float64))
    assert wrapped(x) is x
    assert to_host(wrapped(on_device(np.ones(2, np.float16)))).dtype == np.float16
    assert wrapped(on_device(np.ones(0, np.float16))) is None
    assert calls == [np.float64, np.float32, np.float32]
