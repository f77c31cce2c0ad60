"""The golden cases of the attention, recurrent, product and serving ops
(golden/ops/) with ``target=["gpu"]`` under the simulator: every node of
those ops placed on the device, no kernel declining, the outputs
MindSpore's (or the float64 reference's) within the cases' tolerances.
float16 cases (grouped_matmul_list, apply_rotary_pos_emb_format2)
included. fas_bsh_causal and fas_sbh_band are left out: their graphs
broadcast Ascend's compressed 2048 x 2048 mask on the device, ~8
minutes of simulated threads each for a value sparse modes 2-4 do not
read (they match too, measured 2026-11-26)."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer.cuda import attention, plan, products, recurrent, rnorm, serving

from golden_cases import golden_case

OPS = {*attention.KERNELS, *products.KERNELS, *recurrent.KERNELS, *serving.KERNELS,
       "ApplyRotaryPosEmb"}
assert "ApplyRotaryPosEmb" in rnorm.KERNELS
CASES = ["baddbmm", "einsum", "lstm_with_state", "paged_attention_gqa", "ifa_bnsd",
         "pfa_bsh_gqa_mask", "grouped_matmul_groups", "grouped_matmul_list",
         "apply_rotary_pos_emb_format2", "apply_rotary_pos_emb_format3",
         "moe_gating_topk_softmax_3d", "reshape_and_cache_paged_attention",
         "fas_tnd_causal", "fas_bnsd_mask_shift"]


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_golden_case_on_the_gpu_target(name):
    case = golden_case(f"ops/{name}")
    context = mslite.Context()
    context.target = ["gpu"]
    model = mslite.Model()
    model.build_from_file(case.model_path, mslite.ModelType.MINDIR, context)
    steps = [step for graph in model._loaded.program.plans.values()
             for step in graph.steps if isinstance(step, plan.DeviceStep)
             and step.node.op_name in OPS]
    assert steps and all(step.placement == plan.DEVICE for step in steps)
    outputs = model.predict(case.inputs())
    for got, want in zip(outputs, case.outputs()):
        np.testing.assert_allclose(got.get_data_to_numpy(), want, **case.tolerance)
    assert model.host_transfers()["declined"] == 0
