"""Every golden case: refinfer's outputs against MindSpore's, through the
Lite API and through ``refinfer run``."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer.cli import main as cli_main

from golden_cases import all_cases, assert_close

# Dynamic-shape cases (meta "shapes") need a resize first: tests/test_dynamic_shapes.py;
# so do per-op cases exported with unknown dims: tests/ops/test_shape_dynamic_cases.py.
CASES = [c for c in all_cases() if not c.encrypted and "shapes" not in c.meta
         and not c.meta.get("dynamic_shape")]
# The fast tier (-m "not slow") keeps the whole models; the per-op cases,
# which tests/ops also checks against the references, run in the full suite.
API_CASES = [pytest.param(c, marks=pytest.mark.slow) if c.name.startswith("ops/")
             else c for c in CASES]


@pytest.mark.parametrize("case", API_CASES, ids=lambda c: c.name)
def test_api_matches_mindspore(case):
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR)
    inputs = model.get_inputs()
    for tensor, array in zip(inputs, case.inputs()):
        tensor.set_data_from_numpy(array)
    outputs = model.predict(inputs)
    expected = case.outputs()
    assert len(outputs) == len(expected)
    for k, (out, exp) in enumerate(zip(outputs, expected)):
        assert_close(out.get_data_to_numpy(), exp, what=f"{case.name} output {k}",
                     **case.tolerance)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cli_run_matches_mindspore(case, tmp_path, capsys):
    code = cli_main(["run", case.model_path, "--input", *case.input_files(),
                     "--output-dir", str(tmp_path)])
    assert code == 0
    printed = capsys.readouterr().out.splitlines()
    for k, exp in enumerate(case.outputs()):
        got = np.load(tmp_path / f"output_{k}.npy")
        assert_close(got, exp, what=f"{case.name} output {k}", **case.tolerance)
        header, values = printed[2 * k], printed[2 * k + 1]
        assert f"data size is:{exp.nbytes} " in header
        assert f"tensor elements num is:{exp.size}" in header
        shown = values.removeprefix("output data is:").split()
        if exp.dtype == np.bool_:  # printed as True / False
            assert shown == [str(v) for v in exp.reshape(-1)[:50]]
            continue
        np.testing.assert_allclose(np.array(shown, dtype=np.float64),
                                   exp.reshape(-1)[:50].astype(np.float64),
                                   rtol=case.tolerance["rtol"],
                                   atol=case.tolerance["atol"])


ENCRYPTED = [c for c in all_cases() if c.encrypted]


def _build_encrypted(case, key=None, mode=None):
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR,
                          dec_key=bytes.fromhex(case.meta["enc_key"])
                          if key is None else key,
                          dec_mode=mode or case.meta["enc_mode"])
    return model


@pytest.mark.parametrize("case", ENCRYPTED, ids=lambda c: c.name)
def test_encrypted_with_key_matches_mindspore(case):
    outputs = _build_encrypted(case).predict(case.inputs())
    assert_close(outputs[0].get_data_to_numpy(), case.outputs()[0],
                 **case.tolerance)


@pytest.mark.parametrize("case", ENCRYPTED, ids=lambda c: c.name)
def test_encrypted_without_key_is_refused(case):
    mode = case.meta["enc_mode"]
    with pytest.raises(RuntimeError, match=f"encrypted \\({mode}\\).*dec_key"):
        mslite.Model().build_from_file(case.model_path, mslite.ModelType.MINDIR)


@pytest.mark.parametrize("case", ENCRYPTED, ids=lambda c: c.name)
def test_encrypted_with_wrong_key_or_mode_is_refused(case):
    with pytest.raises(RuntimeError, match="cannot be decrypted: wrong key"):
        _build_encrypted(case, key=bytes(range(1, 17)))
    with pytest.raises(RuntimeError, match="cannot decrypt with this key"):
        _build_encrypted(case, key=b"short")
    other = "AES-CBC" if case.meta["enc_mode"] == "AES-GCM" else "AES-GCM"
    with pytest.raises(RuntimeError, match=f"dec_mode is {other}"):
        _build_encrypted(case, mode=other)


@pytest.mark.parametrize("cut", [5, 30, -1])
def test_truncated_encrypted_file_is_refused(cut, tmp_path):
    case = next(c for c in ENCRYPTED if c.meta["enc_mode"] == "AES-GCM")
    blob = open(case.model_path, "rb").read()
    path = tmp_path / "cut.mindir"
    path.write_bytes(blob[:cut])
    model = mslite.Model()
    with pytest.raises(RuntimeError, match="truncated or corrupt|wrong key"):
        model.build_from_file(str(path), mslite.ModelType.MINDIR,
                              dec_key=bytes.fromhex(case.meta["enc_key"]))
