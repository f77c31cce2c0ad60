"""Every golden case: refinfer's outputs against MindSpore's, through the
Lite API and through ``refinfer run``."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer.cli import main as cli_main

from golden_cases import all_cases, assert_close

CASES = [c for c in all_cases() if not c.encrypted]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
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


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cli_run_matches_mindspore(case, tmp_path, capsys):
    bins = [case.file(i["file"].replace(".npy", ".bin"))
            for i in case.meta["inputs"]]
    code = cli_main(["run", case.model_path, "--input", *bins,
                     "--output-dir", str(tmp_path)])
    assert code == 0
    printed = capsys.readouterr().out.splitlines()
    for k, exp in enumerate(case.outputs()):
        got = np.load(tmp_path / f"output_{k}.npy")
        assert_close(got, exp, what=f"{case.name} output {k}", **case.tolerance)
        header, values = printed[2 * k], printed[2 * k + 1]
        assert f"data size is:{exp.nbytes} " in header
        assert f"tensor elements num is:{exp.size}" in header
        shown = np.array(values.removeprefix("output data is:").split(),
                         dtype=np.float64)
        np.testing.assert_allclose(shown, exp.reshape(-1)[:50].astype(np.float64),
                                   rtol=case.tolerance["rtol"],
                                   atol=case.tolerance["atol"])


@pytest.mark.parametrize("case", [c for c in all_cases() if c.encrypted],
                         ids=lambda c: c.name)
def test_encrypted_without_key_is_refused(case):
    with pytest.raises(RuntimeError, match="encrypted.*AES-GCM"):
        mslite.Model().build_from_file(case.model_path, mslite.ModelType.MINDIR)
