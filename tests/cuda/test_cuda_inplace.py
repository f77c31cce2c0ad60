"""The in-place spellings (InplaceMul of Mul, ...) and Divs inherit their
base op's cuda kernel through registry.inherit_kernels and
refinfer/cuda/inplace.py: computed in input's dtype and shape as their
references, other cast first and the result back; a result of another
shape declines (the reference raises)."""
import numpy as np
import pytest
from cuda_check import check, run

from refinfer import registry
from refinfer.cuda import load_kernels

rng = np.random.default_rng(1377)
load_kernels()
VARIANTS = sorted(name for _, name in registry.variants())


def test_every_variant_inherits_a_cuda_kernel():
    assert len(VARIANTS) == 13
    for name in VARIANTS:
        assert "cuda" in registry.get_op(name).kernels, name


def _operands(name, dtype):
    x = np.asarray(rng.standard_normal((2, 5)) * 6, dtype)
    other = np.asarray(rng.standard_normal(5) * 3 + 0.5, np.float32)
    other[other == 0] = 1.0
    params = (1.5,) if name in ("InplaceAddExt", "InplaceAddsExt", "InplaceSubExt",
                                "InplaceSubScalar") else ()
    return x, other, params


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_variant_matches_its_reference(name, dtype):
    x, other, params = _operands(name, dtype)
    check(name, x, other, *params)          # a float32 other cast to x's dtype
    check(name, x, 2.5, *params)            # a Python number


# Integer input: every base computes it on the device (the division family's
# kernels, and the integer forms of Mul, Div, AddExt, SubExt in
# refinfer/cuda/integer.py), other truncated to int32 first; a float alpha
# is refused as the reference refuses it.
@pytest.mark.parametrize("name", VARIANTS)
def test_integer_input(name):
    x, other, params = _operands(name, np.int32)
    if params:      # a float alpha: the reference and the kernel refuse it
        with pytest.raises(TypeError, match="a float alpha needs float operands"):
            registry.get_op(name).reference(x, other, *params)
        with pytest.raises(TypeError, match="a float alpha needs float operands"):
            run(name, x, other, *params)
        params = (3,)
    check(name, x, other, *params)
    check(name, x, 2.5, *params)


def test_a_result_of_another_shape_declines():
    x, other = np.ones((1, 3), np.float32), np.ones((2, 3), np.float32)
    assert run("InplaceMul", x, other) is None
    with pytest.raises(ValueError, match="InplaceMul: the result's shape"):
        registry.get_op("InplaceMul").reference(x, other)


def test_inheriting_again_changes_nothing():
    before = {name: registry.get_op(name).kernels["cuda"] for name in VARIANTS}
    load_kernels()
    assert all(registry.get_op(name).kernels["cuda"] is kernel
               for name, kernel in before.items())
