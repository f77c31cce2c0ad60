"""The cuda kernels of Embedding and DataFormatDimMap
(refinfer/cuda/lookup.py) equal their NumPy references; what they decline
(max_norm, bad indices or entries, bad formats) runs the reference, error
included."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer import registry
from refinfer.cuda import lookup

rng = np.random.default_rng(1313)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_embedding(dtype, index_dtype):
    weight = np.asarray(rng.standard_normal((7, 5)), dtype)
    for shape in [(4,), (2, 3), (), (0, 2)]:
        check("Embedding", rng.integers(0, 7, shape).astype(index_dtype), weight)


def test_embedding_declines():
    weight = rng.standard_normal((4, 3)).astype(np.float32)
    check("Embedding", np.array([1, 4, 0], np.int32), weight)    # 4 is out of range
    check("Embedding", np.array([-1], np.int64), weight)
    renormalised = (np.array([0, 3], np.int32), weight, None, 0.5)   # max_norm
    assert lookup.embedding(*on_device(renormalised)) is None
    embedding = registry.get_op("Embedding")
    np.testing.assert_allclose(embedding.kernel("cuda")(*renormalised),
                               embedding.reference(*renormalised), rtol=1e-6)
    assert lookup.embedding(*on_device((np.array([1, 4], np.int32), weight))) is None
    assert lookup.embedding(*on_device((np.array([1.0], np.float32), weight))) is None


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_data_format_dim_map(dtype):
    low = 0 if np.dtype(dtype).kind == "u" else -4
    x = rng.integers(low, 4, (3, 5)).astype(dtype)
    for formats in [(), ("NCHW", "NHWC"), ("NHWC", "NHWC"), ("NCHW", "NCHW")]:
        check("DataFormatDimMap", x, *formats)
    check("DataFormatDimMap", np.zeros((0,), dtype))


def test_data_format_dim_map_declines():
    x = np.array([0, 4, -1], np.int32)
    check("DataFormatDimMap", x)                                  # 4: refused
    assert lookup.data_format_dim_map(*on_device((x,))) is None
    check("DataFormatDimMap", np.array([-5], np.int64))
    check("DataFormatDimMap", x[:1].copy(), "NHWC", "NCDH")      # refused
