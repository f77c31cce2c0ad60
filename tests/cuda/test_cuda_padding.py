"""The cuda kernels of MirrorPad, PadV3 and ConstantPadND
(refinfer/cuda/padding.py) equal their NumPy references: every mode,
widths beyond the axis length, negative widths that crop, the constant
as a host value or a 0-d tensor; float32, int32 and bool; arguments the
references reject decline."""
import numpy as np
import pytest

from cuda_check import check, run, values

from refinfer.cuda import padding  # noqa: F401  (declares the kernels)

ids = lambda d: np.dtype(d).name     # noqa: E731


@pytest.mark.parametrize("dtype", (np.float32, np.int32, np.bool_), ids=ids)
def test_paddings(dtype):
    x = values((2, 3, 4), dtype)
    for mode in ("reflect", "symmetric"):
        check("MirrorPad", x, np.array([[1, 0], [0, 2], [3, 1]], np.int64), mode)
    for mode in ("constant", "reflect", "edge", "circular"):
        check("PadV3", x, (2, 1, 0, 3), None, mode)
        check("PadV3", x, (1, 0, 2, 1, 1, 1), None, mode, False)
    check("PadV3", x, (-1, 2, 1, -2), np.array(1, dtype), "constant")
    check("PadV3", x, (5, 6), None, "circular")          # wider than the axis
    check("ConstantPadND", x, (1, -2, -1, 0), 1)
    check("ConstantPadND", x, (0, 0, 0, 0, 1, 1))
    check("ConstantPadND", x, (-3, -2, 1, 0), 2)         # an axis cropped away
    check("PadV3", x, (-4, 0), None, "reflect")


def test_rejected_arguments_decline():
    x = values((2, 3), np.float32)
    assert run("MirrorPad", x, np.array([[1, 1]], np.int64), "reflect") is None
    assert run("PadV3", x, (1, 2, 3), None, "constant") is None
    assert run("PadV3", x, (-3, 1), None, "reflect") is None
    assert run("PadV3", x, (1, 1), np.array(1, np.int32), "constant") is None
