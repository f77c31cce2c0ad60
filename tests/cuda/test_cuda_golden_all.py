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
import re

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

# Graphs whose integer arithmetic (loop counters, shape arithmetic, integer
# fills and sums) runs on the host: the elementwise recipes bind float32 and
# float64 tensors only, as the CPU Numba kernels do (refinfer/cuda/
# elementwise.py), and SumExt/ProdExt decline a widening of integer inputs
# (refinfer/cuda/reduce.py).
INTEGER_GRAPHS = {"ctrl_while", "ctrl_while_if", "ctrl_while_break",
                  "ctrl_while_long", "ctrl_nested_loops", "seq_plumbing",
                  "dyn_shape_math", "ops/eye", "ops/tril_triu_indices",
                  "ops/sum_ext_all", "ops/sum_ext_bool", "ops/prod_ext_all", "int_ops"}
# Graphs that compute in float16 or bfloat16 from float32 inputs (mixed
# precision), or take bfloat16: as float16 inputs below.
HALF_GRAPHS = {"amp_o2_cnn", "fp16_lenet", "bf16_add"}
# Declines measured under the simulator (2026-11-26) that no kernel's
# docstring gives as a rule: findings, expected to fail until fixed.
UNEXPLAINED = {"oppack_spectral": "2 declines in the spectral graph"}


def declines_by_design(case) -> str | None:
    """Why ``case`` may see cuda kernels decline, or None where it may not."""
    if case.name in HALF_GRAPHS or any(i["dtype"] == "float16"
                                       for i in case.meta["inputs"]):
        # The elementwise recipes (and LRN, the samplers, the compact
        # kernels) decline float16: its CPU kernel computes in float32.
        return "float16 or bfloat16 arithmetic"
    if case.name in INTEGER_GRAPHS or re.search(r"_(u?int\d*|bool)(_|$)", case.name):
        # An op case on integer or bool tensors: the recipes bind floats.
        return "integer or bool elementwise arithmetic"
    if case.name in ("ops/sum_ext_dtype", "ops/prod_ext_keep_dtype"):
        return "SumExt/ProdExt with a dtype declines (refinfer/cuda/reduce.py)"
    if case.name == "ops/gather_batch_dims":
        return "Gather with batch axes declines (refinfer/cuda/index.py)"
    return None


def _param(case):
    marks = ([pytest.mark.xfail(reason=UNEXPLAINED[case.name], strict=True)]
             if case.name in UNEXPLAINED else [])
    return pytest.param(case, id=case.name, marks=marks)


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
