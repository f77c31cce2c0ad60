"""Pack and Unpack, the names MindIR files of older MindSpore versions give Stack and
Unstack (2.7.1's ops.Pack exports Stack, so no golden case can hold them; issue 14):
the stack and unstack golden cases with the primitive renamed run and match
MindSpore's outputs."""
import pytest

import refinfer as mslite

from golden_cases import assert_close, golden_case, rename_primitive


@pytest.mark.parametrize("case_name,new,old", [("ops/stack", "Stack", "Pack"),
                                               ("ops/unstack", "Unstack", "Unpack")])
def test_old_names_run_as_the_new_ones(tmp_path, case_name, new, old):
    case = golden_case(case_name)
    path = tmp_path / "model.mindir"
    rename_primitive(case.model_path, path, new, old)
    model = mslite.Model()
    model.build_from_file(str(path), mslite.ModelType.MINDIR)
    inputs = model.get_inputs()
    for tensor, array in zip(inputs, case.inputs()):
        tensor.set_data_from_numpy(array)
    outputs = model.predict(inputs)
    expected = case.outputs()
    assert len(outputs) == len(expected)
    for k, (out, exp) in enumerate(zip(outputs, expected)):
        assert_close(out.get_data_to_numpy(), exp, what=f"{old} output {k}", **case.tolerance)
