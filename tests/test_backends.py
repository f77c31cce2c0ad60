"""The Numba backend (fused plan, Numba kernels) agrees with the reference
backend (op by op, NumPy) on every golden case, within the case's
tolerance (float32: rtol 1e-4, atol 1e-5)."""
import numpy as np
import pytest

from refinfer.runtime import LoadedModel

from golden_cases import all_cases, assert_close

# Cases whose inputs have unknown dimensions run with their recorded shapes.
CASES = [c for c in all_cases() if "shapes" not in c.meta]


def _load(case, backend):
    key = bytes.fromhex(case.meta["enc_key"]) if case.encrypted else None
    mode = case.meta.get("enc_mode", "AES-GCM")
    return LoadedModel(case.model_path, backend, dec_key=key, dec_mode=mode)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_numba_backend_matches_reference(case):
    inputs = case.inputs()
    shapes = [np.shape(x) for x in inputs]
    expected = _load(case, "reference").run(inputs, shapes=shapes)
    outputs = _load(case, "numba").run(inputs, shapes=shapes)
    assert len(outputs) == len(expected)
    for k, (got, want) in enumerate(zip(outputs, expected)):
        assert_close(got, want, what=f"{case.name} output {k}", **case.tolerance)
