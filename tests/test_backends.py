"""The Numba backend (fused plan, Numba kernels) agrees with the reference
backend (op by op, NumPy) on every golden case, within the case's
tolerance (float32: rtol 1e-4, atol 1e-5), on the case's inputs and on
them with a special value (NaN or infinity) as the last element of every
float input: NaN where the reference has NaN, the same infinities, and a
refusal where the reference refuses."""
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
    reference, numba = _load(case, "reference"), _load(case, "numba")
    _compare(case, reference, numba, inputs, shapes, "")
    for value in SPECIAL_VALUES:
        special = _ending_in(inputs, value)
        if special is not None:
            with np.errstate(all="ignore"):     # inf - inf and the like, as IEEE says
                _compare(case, reference, numba, special, shapes,
                         f" (inputs ending in {value})")


# The last element: a sorted input (SearchSorted's sequence) stays sorted.
SPECIAL_VALUES = (np.nan, np.inf)


def _ending_in(inputs, value):
    """A copy of inputs with ``value`` as the last element of every float
    array; None when there is none."""
    copies = [x.copy() if isinstance(x, np.ndarray) else x for x in inputs]
    floats = [x for x in copies if isinstance(x, np.ndarray)
              and x.dtype.kind in "fc" and x.size]
    for x in floats:
        x.reshape(-1)[-1] = value
    return copies if floats else None


def _compare(case, reference, numba, inputs, shapes, what):
    try:
        expected = reference.run(inputs, shapes=shapes)
    except Exception:       # the reference refuses them: so must Numba
        with pytest.raises(Exception):
            numba.run(inputs, shapes=shapes)
        return
    outputs = numba.run(inputs, shapes=shapes)
    assert len(outputs) == len(expected)
    for k, (got, want) in enumerate(zip(outputs, expected)):
        assert_close(got, want, what=f"{case.name} output {k}{what}", **case.tolerance)
