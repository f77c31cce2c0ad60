"""The ``gpu`` tier: every golden case (tests/golden_cases.all_cases())
built with ``target=["gpu"]`` through the Lite API, its outputs within the
case's tolerance and no cuda kernel declining (but for the cases of
:func:`declines_by_design`), plus GEMM and convolution at real sizes
against the reference.

These need a real GPU: each case is minutes of simulated threads in numba's
CUDA simulator (the whole tier about an hour), so they are skipped unless
a GPU is present or ``REFINFER_GPU_GOLDEN=1`` asks for the simulator. On a
GPU machine::

    NUMBA_ENABLE_CUDASIM=0 pytest -m gpu tests/cuda

and under the simulator, a subset::

    REFINFER_GPU_GOLDEN=1 pytest -m gpu tests/cuda/test_cuda_golden_all.py -k lenet
"""
import os

import numpy as np
import pytest
from numba.core import config

import refinfer as mslite
from refinfer.cuda import load_kernels

from cuda_check import check, values
from golden_cases import all_cases


def _wanted() -> bool:
    """A real GPU, or the simulator asked for by REFINFER_GPU_GOLDEN=1."""
    if os.environ.get("REFINFER_GPU_GOLDEN") == "1":
        return True
    from numba import cuda
    return not config.ENABLE_CUDASIM and cuda.is_available()


pytestmark = [pytest.mark.gpu, pytest.mark.slow, pytest.mark.skipif(
    not _wanted(), reason="needs a GPU (NUMBA_ENABLE_CUDASIM=0), or "
                          "REFINFER_GPU_GOLDEN=1 for the simulator")]

# Graphs with an op no device kernel takes, each a counted decline by design
# (measured under the simulator, 2026-11-26: the only golden cases left with
# one; docs/architecture.md "Dtypes on the device"): bfloat16 arithmetic
# (NumPy has none of its own), complex arithmetic and a Cast to complex64,
# SeLU of int32 (its reference truncates scale * max(x, 0), which is not its
# float formula: refinfer/cuda/elementwise.py).
BY_DESIGN = {"bf16_add": "bfloat16 arithmetic",
             "oppack_spectral": "complex arithmetic and a Cast to complex64",
             "ops/selu_int32": "SeLU of integers"}


def declines_by_design(case) -> str | None:
    """Why ``case`` may see cuda kernels decline, or None where it may not."""
    return BY_DESIGN.get(case.name)


def _param(case):
    return pytest.param(case, id=case.name)


def _build(case) -> mslite.Model:
    """The case's model on the GPU target, decrypted with its key if it has one."""
    context = mslite.Context()
    context.target = ["gpu"]
    context.gpu.device_id = 0
    key = ({"dec_key": bytes.fromhex(case.meta["enc_key"]),
            "dec_mode": case.meta.get("enc_mode", "AES-GCM")}
           if case.encrypted else {})
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR, context, **key)
    return model


@pytest.mark.parametrize("case", [_param(c) for c in all_cases()])
def test_golden_case_on_the_gpu(case, record_property):
    """Lite's dynamic-shape recipe for every case (resize to the inputs'
    shapes, a no-op for static ones), then predict and compare."""
    model = _build(case)
    arrays = case.inputs()
    inputs = model.get_inputs()
    model.resize(inputs, [list(np.shape(a)) for a in arrays])
    for tensor, array in zip(inputs, arrays):
        tensor.set_data_from_numpy(array)
    outputs = model.predict(inputs)
    expected = case.outputs()
    assert len(outputs) == len(expected)
    for k, (got, want) in enumerate(zip(outputs, expected)):
        np.testing.assert_allclose(got.get_data_to_numpy(), want, equal_nan=True,
                                   err_msg=f"{case.name}: output {k}",
                                   **case.tolerance)
    transfers = model.host_transfers()
    record_property("host_transfers", transfers)
    if declines_by_design(case) is None:
        assert transfers["declined"] == 0, f"{case.name}: {transfers}"


# float32 sums over k ~ 1000 in another order than BLAS's: rtol 1e-4.
REAL_SIZE = {"rtol": 1e-4, "atol": 1e-4}


def test_gemm_at_a_real_size():
    """BERT-base's FFN product at batch x sequence 128: 128x768 @ 768x3072."""
    load_kernels()
    check("MatMul", values((128, 768), np.float32), values((768, 3072), np.float32),
          False, False, tolerance=REAL_SIZE)


def test_conv_at_a_real_size():
    """A ResNet-50 stage-2 3x3 convolution: N2 C64 56x56, 64 filters."""
    load_kernels()
    check("Conv2D", values((2, 64, 56, 56), np.float32),
          values((64, 64, 3, 3), np.float32), None, None, 1, "PAD", (1,) * 4,
          (1, 1), (1, 1), 1, tolerance=REAL_SIZE)
