"""Every distributed golden case, its ranks run as threads of this process:
each rank's outputs equal MindSpore's for that rank and, for the sliced
networks, the unsliced network's outputs (float32: rtol 1e-4, atol 1e-5)."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer.distributed import run_local

import dist_cases

TIMEOUT = 60
CASES = dist_cases.all_cases()


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_ranks_match_mindspore_and_the_unsliced_model(case):
    results = run_local(case.ranks, lambda rank: dist_cases.run_rank(
        case, dist_cases.BACKEND_CONFIG), timeout=TIMEOUT)
    for rank, outputs in enumerate(results):
        assert dist_cases.mismatches(case, rank, outputs) == [], f"rank {rank}"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES
                                  if c.unsliced_model and c.ranks == 2])
def test_unsliced_model_matches_its_golden(case):
    """The unsliced file (the benchmark's baseline) runs in one process."""
    model = mslite.Model()
    model.build_from_file(case.unsliced_model, mslite.ModelType.MINDIR,
                          config_dict=dist_cases.BACKEND_CONFIG)
    outputs = model.predict(case.inputs())
    for got, want in zip(outputs, case.unsliced_outputs()):
        np.testing.assert_allclose(got.get_data_to_numpy(), want, **case.tolerance)


def test_default_backend_runs_a_sliced_transformer_block():
    """The fast path (Numba kernels, fused plan) with communication ops."""
    case = dist_cases.case("transformer_block")
    results = run_local(2, lambda rank: dist_cases.run_rank(case), timeout=TIMEOUT)
    for rank, outputs in enumerate(results):
        assert dist_cases.mismatches(case, rank, outputs) == [], f"rank {rank}"
