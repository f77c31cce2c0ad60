"""Dtypes beyond float32: bfloat16 through ml_dtypes (optional), and the
tolerances the float16 model goldens are checked at. The models themselves
run in tests/test_golden.py (fp16_*, amp_o2_cnn, fp64_net, int_ops,
bf16_add)."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer import dtypes
from refinfer.errors import MindIRError
from refinfer.executor import Hooks
from refinfer.format.reader import read_mindir
from refinfer.runtime import LoadedModel

from golden_cases import all_cases, assert_close, golden_case

ml_dtypes = pytest.importorskip("ml_dtypes")


def test_bfloat16_weights_are_read_as_ml_dtypes_bfloat16():
    mindir = read_mindir(golden_case("bf16_add").model_path)
    (bias,) = mindir.main.parameters.values()
    assert bias.dtype == np.dtype(ml_dtypes.bfloat16) and bias.shape == (8,)
    # bfloat16 is the top half of a float32: the low 16 bits are zero
    bits = bias.astype(np.float32).view(np.uint32)
    assert not np.any(bits & 0xFFFF)
    assert np.any(bias.astype(np.float32) != 0)


def test_bfloat16_type_ids_map_to_ml_dtypes():
    assert dtypes.dtype_from_any(45) == np.dtype(ml_dtypes.bfloat16)
    assert dtypes.numpy_of_mindir(16) == np.dtype(ml_dtypes.bfloat16)


def test_bfloat16_model_matches_mindspore_through_hooks():
    """The bfloat16 intermediates really are bfloat16 (Cast, then Adds)."""
    case = golden_case("bf16_add")
    model = LoadedModel(case.model_path)
    seen = []
    hooks = Hooks(after=lambda node, inputs, out: seen.append(
        (node.op.name, np.asarray(out).dtype)))
    (out,) = model.run(case.inputs(), hooks=hooks)
    assert_close(out, case.outputs()[0], **case.tolerance)
    bf16 = np.dtype(ml_dtypes.bfloat16)
    assert ("Add", bf16) in seen and ("Cast", bf16) in seen


def test_bfloat16_without_ml_dtypes_names_the_tensor(monkeypatch):
    monkeypatch.delitem(dtypes.MINDIR_TO_NUMPY, 16)
    monkeypatch.delitem(dtypes.TYPEID_TO_NUMPY, 45)
    path = golden_case("bf16_add").model_path
    with pytest.raises(MindIRError, match=r"bias.*BFLOAT16.*ml_dtypes"):
        LoadedModel(path)
    with pytest.raises(RuntimeError, match=r"build_from_file failed.*bias.*ml_dtypes"):
        mslite.Model().build_from_file(path, mslite.ModelType.MINDIR)
    with pytest.raises(ValueError, match="TypeId 45.*ml_dtypes"):
        dtypes.dtype_from_any(45)


def test_float16_models_are_checked_at_rtol_1e_2():
    cases = {c.name: c for c in all_cases()
             if c.name in ("fp16_lenet", "fp16_params", "amp_o2_cnn")}
    assert len(cases) == 3
    for case in cases.values():
        assert case.tolerance["rtol"] == 1e-2, case.name
    for name in ("fp16_lenet", "fp16_params"):
        assert {o.dtype for o in cases[name].outputs()} == {np.dtype(np.float16)}
