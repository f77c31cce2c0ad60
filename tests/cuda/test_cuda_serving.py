"""The cuda kernels of refinfer/cuda/serving.py (MoeGatingTopKSoftmax,
ReshapeAndCache) equal their NumPy references on tiny shapes:
MoeGatingTopKSoftmax in float32 (the op tolerance), float64 and float16
(computed in float32), ties
broken by the lower expert, finished rows, k = 0 and k = E;
ReshapeAndCache in float32, float16 and int8 (exact: a copy), both cache
layouts, a repeated slot (the later token wins). NaN rows and slots out
of range decline, and the reference decides."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import serving

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731


def test_every_kernel_is_tested():
    assert set(serving.KERNELS) == {"MoeGatingTopKSoftmax", "ReshapeAndCache"}


@pytest.mark.parametrize("dtype", FLOATS + (np.float16,), ids=ids)
def test_moe_gating_top_k_softmax(dtype):
    x = values((2, 3, 5), dtype)
    x[0, 1, 1] = x[0, 1, 3] = x[0, 1].max() + 1        # a tie: expert 1 first
    finished = np.array([[True, False, False], [False, True, False]])
    for k in (0, 2, 5):
        check("MoeGatingTopKSoftmax", x, None, k)
    check("MoeGatingTopKSoftmax", x, finished, 3)
    _, experts, _ = run("MoeGatingTopKSoftmax", x, None, 2)
    assert experts[0, 1].tolist() == [1, 3]


def test_moe_gating_declines():
    x = values((4, 5), np.float32)
    x[2, 3] = np.nan
    assert run("MoeGatingTopKSoftmax", x, None, 2) is None
    assert run("MoeGatingTopKSoftmax", values((4, 5), np.float32), None, 6) is None
    with pytest.raises(ValueError, match="k in"):
        registry.get_op("MoeGatingTopKSoftmax").reference(
            values((4, 5), np.float32), None, 6)


@pytest.mark.parametrize("dtype", (np.float32, np.float16, np.int8), ids=ids)
@pytest.mark.parametrize("cache_shape", [(3, 2, 2, 3), (3, 2, 6)])
def test_reshape_and_cache(dtype, cache_shape):
    keys, caches = values((4, 6), dtype), [values(cache_shape, dtype) for _ in range(2)]
    slots = np.array([5, 0, 3, 0], np.int32)           # slot 0 twice: token 3 wins
    check("ReshapeAndCache", keys, values((4, 6), dtype), *caches, slots)
    check("ReshapeAndCache", keys.reshape(2, 2, 6), None, caches[0], None, slots)


def test_reshape_and_cache_declines():
    keys, cache = values((2, 6), np.float32), values((3, 2, 6), np.float32)
    assert run("ReshapeAndCache", keys, None, cache, None,
               np.array([1, 6], np.int64)) is None             # 6 slots: 0 to 5
    with pytest.raises(ValueError, match="slot_mapping must lie in"):
        registry.get_op("ReshapeAndCache").reference(keys, None, cache, None,
                                                     np.array([1, 6], np.int64))
    assert run("ReshapeAndCache", keys, None, cache, None,
               np.array([1, 2, 3], np.int64)) is None          # 3 slots, 2 tokens
