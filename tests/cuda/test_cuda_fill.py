"""The cuda kernels of refinfer/cuda/fill.py (constant tensors, Eye,
progressions and inference's Dropout) equal their NumPy references:
shapes, dtypes and values, Python and tensor fill values and bounds, empty
shapes, the references' refusals."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device, on_host

from refinfer import registry
from refinfer.cuda import device, fill

x = np.arange(6, dtype=np.float32).reshape(2, 3)
ints = np.arange(4, dtype=np.int32)
CASES = {
    "ZerosLike": [(x,), (ints,)],
    "ZerosLikeExt": [(x, None), (x, np.dtype(np.int64)), (ints, np.dtype(np.bool_))],
    "OnesLike": [(x,), (np.zeros((0, 3), np.float64),)],
    "OnesLikeExt": [(ints, np.dtype(np.float16)), (x, None)],
    "FullLike": [(x, 2.5), (ints, 7, np.dtype(np.float64)), (x, np.array(-3.0))],
    "NewZeros": [(x, (3, 2)), (ints, (5,), np.dtype(np.float32))],
    "NewOnes": [(x, (4,)), (x, (2, 2), np.dtype(np.uint8))],
    "NewFull": [(x, (2, 3), 1.5), (ints, (3,), -2, np.dtype(np.int8)),
                (x, (2,), True, None)],
    "Ones": [((2, 3),), ((4,), np.dtype(np.int32)), ((0, 2), np.dtype(np.bool_))],
    "Zeros": [((3,),), ((2, 2), np.dtype(np.float64)), ((), np.dtype(np.int8))],
    "NewEmpty": [(x, (3, 2)), (ints, (2,), np.dtype(np.float16), None)],
    "FillScalar": [((2, 3), 1.25), ((4,), 3), ((2,), True), ((3,), 2, np.dtype(np.float64))],
    "FillV2": [((2, 3), np.array(4.5, np.float32)), ((3,), np.array([7], np.int64)),
               ((2,), np.array([1.0, 2.0]))],     # two values: the reference raises
    "Eye": [(3, 3, np.dtype(np.float32)), (2, 4, np.dtype(np.int32)),
            (4, 1, np.dtype(np.bool_)), (0, 3, np.dtype(np.float64))],
    "Dropout": [(x,), (x.astype(np.float64), 0.9, 1, 2)],
    "Arange": [(0, 5, 1), (1.5, -2.0, -0.5), (2, 11, 3, np.dtype(np.int32)),
               (0, 1, 0.25, np.dtype(np.float64)), (np.array(3), np.array(9), 2),
               (0, 5, 0), (5, 0, 1)],                      # refused
    "Range": [(0, 10, 3), (0.5, 3.0, 0.7), (np.array(1.0, np.float32), 2, 0.25),
              (0, 100, 1, 10)],                            # past maxlen: refused
    "LinSpace": [(np.array(0.0, np.float32), np.array(1.0, np.float32), 5),
                 (np.array(-2.0), np.array(3.0), 1), (np.array(1.0), np.array(2.0), 0),
                 (np.array(0.0), np.array(1.0), -1)],
    "LinSpaceExt": [(0, 1, 7), (2.0, -3.0, 4, np.dtype(np.float64)),
                    (0, 10, 4, np.dtype(np.int32)), (1, 5, 1), (0, 1, 0)],
    "DropoutExt": [(x, 0.1, 0, 0), (np.ones(17, np.float32), 0.5, 3, 4)],
}


def test_every_fill_kernel_is_declared_and_tested():
    assert set(fill.KERNELS) == set(CASES)
    assert all(registry.get_op(op).kernels["cuda"] is fill.KERNELS[op] for op in CASES)


@pytest.mark.parametrize("op", sorted(CASES))
def test_fill_kernel_equals_reference(op):
    for args in CASES[op]:
        check(op, *args)


def test_fill_values_match_exactly():
    """A float value cast to an integer dtype truncates as NumPy's astype,
    on the device for a tensor value, on the host for a number."""
    got = on_host(fill.KERNELS["FullLike"](*on_device((ints, np.array(-2.7)))))
    np.testing.assert_array_equal(got, np.full(4, -2, np.int32))
    got = on_host(fill.KERNELS["FillScalar"]((2,), 3.9, np.dtype(np.int16)))
    np.testing.assert_array_equal(got, np.array([3, 3], np.int16))


def test_dropout_returns_its_input_itself():
    """No copy: y is the device array given."""
    given = device.to_device(x)
    y, mask = fill.KERNELS["Dropout"](given)
    assert y is given
    np.testing.assert_array_equal(on_host(mask), np.ones_like(x))
