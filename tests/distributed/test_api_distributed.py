"""The Lite API and the CLI on sliced models, ranks as threads: the {rank}
path, the context readers, and the build-time checks that turn the usual
distributed mistakes into one clear error."""
import json
import os
import time

import numpy as np
import pytest

import refinfer as mslite
from refinfer import cli
from refinfer.distributed import RankError, each_rank, run_local
from refinfer.registry import get_op

import dist_cases

TIMEOUT = 30


def build(path, config=None):
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR,
                          config_dict={**dist_cases.BACKEND_CONFIG, **(config or {})})
    return model


def test_rank_path_and_context_readers():
    case = dist_cases.case("matmul_allreduce_4")

    def rank_main(rank):
        context = mslite.Context()
        model = build(case.rank_model)
        return (model.model_path_, context.cpu.rank_id, context.cpu.group_size,
                context.gpu.rank_id, context.gpu.group_size)

    results = run_local(4, rank_main, timeout=TIMEOUT)
    for rank, (path, *readers) in enumerate(results):
        assert path == case.rank_model.replace("{rank}", str(rank))
        assert readers == [rank, 4, rank, 4]


def test_readers_outside_a_distributed_run():
    context = mslite.Context()
    assert (context.cpu.rank_id, context.cpu.group_size) == (0, 1)
    assert (context.gpu.rank_id, context.gpu.group_size) == (0, 1)


def test_sliced_model_without_a_communicator():
    case = dist_cases.case("matmul_allreduce")
    with pytest.raises(RuntimeError, match="communicates between ranks.*mpirun -n N"):
        build(case.rank_model.replace("{rank}", "0"))


def test_unsliced_models_need_no_communicator():
    case = dist_cases.case("matmul_allreduce")
    outputs = build(case.unsliced_model).predict(case.inputs())
    np.testing.assert_allclose(outputs[0].get_data_to_numpy(), case.unsliced_outputs()[0],
                               **case.tolerance)


def test_job_smaller_than_the_slices():
    """mpirun -n 1 on a 2-way model whose AllReduce has no rank_size."""
    case = dist_cases.case("matmul_allreduce")
    with pytest.raises(RankError, match=r"model_rank1.mindir exists but the job has only "
                       r"1 rank\(s\): launch one rank per slice"):
        run_local(1, lambda rank: build(case.rank_model), timeout=TIMEOUT)


def test_job_larger_than_the_slices():
    """Three ranks on a file sliced for two (AllGather rank_size 2)."""
    path = dist_cases.case("op_allgather").rank_model.replace("{rank}", "0")
    with pytest.raises(RankError, match=r"AllGather\) was sliced for a group of 2 ranks, "
                       r"but group 'mccl_world_group' has 3 in this job of 3"):
        run_local(3, lambda rank: build(path), timeout=TIMEOUT)


def test_a_rank_without_a_file_says_how_many_ranks_the_model_has():
    """Issue 16, friction 6: three ranks on a model with two rank files;
    rank 2's error named the pattern, ``model_rank{rank}.mindir``."""
    case = dist_cases.case("matmul_allreduce")
    missing = case.rank_model.replace("{rank}", "2")
    message = (f"build_from_file failed! Error is rank 2 of 3 has no model file: "
               f"{missing} does not exist; the model has 2 rank(s), "
               "model_rank0.mindir to model_rank1.mindir: launch one rank per file "
               "(mpirun -n 2)")
    with pytest.raises(RankError) as info:
        run_local(3, lambda rank: build(case.rank_model), timeout=TIMEOUT)
    assert str(info.value).endswith(message)


def test_cli_names_the_rank_without_a_file(capsys):
    case = dist_cases.case("matmul_allreduce")
    assert cli.main(["run", "--distributed", "--ranks", "3", case.rank_model]) == 3
    err = capsys.readouterr().err
    assert "rank 2 of 3 has no model file: " in err and "{rank}" not in err
    assert "the model has 2 rank(s)" in err and "(mpirun -n 2)" in err


def test_user_group_missing_from_the_config():
    case = dist_cases.case("group_config_4")
    with pytest.raises(RankError, match=r"unknown communication group 'tp_a'.*"
                       r"\[distributed\] groups"):
        run_local(4, lambda rank: build(case.rank_model), timeout=TIMEOUT)


@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf", "nan"])
def test_a_bad_collective_timeout_is_a_build_error(value):
    case = dist_cases.case("matmul_allreduce")
    config = {"distributed": {"timeout_s": value}}
    with pytest.raises(RankError, match=r"build_from_file failed! Error is config "
                       rf"\[distributed\] timeout_s must be a positive number of "
                       rf"seconds, got '{value}'"):
        run_local(2, lambda rank: build(case.rank_model, config), timeout=TIMEOUT)


def test_the_collective_timeout_reaches_the_session():
    """[distributed] timeout_s is the built model's session's (an MPI wait reads it
    there; tests/distributed/test_mpi.py runs it under mpirun)."""
    case = dist_cases.case("matmul_allreduce")
    config = {"distributed": {"timeout_s": "2.5"}}
    sessions = run_local(2, lambda rank: build(case.rank_model, config)._session,
                         timeout=TIMEOUT)
    assert [s.timeout_s for s in sessions] == [2.5, 2.5]
    assert run_local(2, lambda rank: build(case.rank_model)._session.timeout_s,
                     timeout=TIMEOUT) == [None, None]


def test_rank_outside_its_group():
    """Rank r loads the file of rank r + 2 (group_rank_ids of the other pair)."""
    case = dist_cases.case("group_rank_ids_4")
    with pytest.raises(RankError, match=r"rank 0 failed: .*rank 0 is not in its group "
                       r"'group_b' \(ranks \[2, 3\]\)"):
        run_local(4, lambda rank: build(case.rank_model.replace(
            "{rank}", str((rank + 2) % 4))), timeout=TIMEOUT)


def test_in_place_communication_of_an_op_not_declaring_it_is_refused(monkeypatch):
    """DistCommAllReduce declares that it writes its input (the in-place case runs, in
    test_golden_local); an op that did not would leave later reads stale: refused."""
    monkeypatch.setattr(get_op("DistCommAllReduce"), "mutates", "")
    case = dist_cases.case("op_dist_comm_allreduce_inplace")
    with pytest.raises(RankError, match=r"rank \d failed: .*used in place.*"
                       r"\(DistCommAllReduce\)"):
        run_local(2, lambda rank: build(case.rank_model), timeout=TIMEOUT)


def test_bad_input_on_one_rank_fails_fast():
    case = dist_cases.case("mlp_col_row")

    def rank_main(rank):
        inputs = case.inputs()
        if rank == 1:
            inputs = [x[:1] for x in inputs]
        return build(case.rank_model).predict(inputs)

    start = time.monotonic()
    with pytest.raises(RankError, match="rank 1 failed: RuntimeError: data size not equal"):
        run_local(2, rank_main, timeout=60)
    assert time.monotonic() - start < 10


def test_each_rank_returns_texts_in_rank_order():
    assert each_rank(3, lambda: str(mslite.Context().cpu.rank_id)) == ["0", "1", "2"]


def test_cli_runs_every_rank(capsys, tmp_path):
    case = dist_cases.case("matmul_col_allgather")
    code = cli.main(["run", "--distributed", "--ranks", "2", case.rank_model, "--input",
                     os.path.join(case.directory, "input_0.npy"),
                     "--output-dir", str(tmp_path)])
    assert code == 0
    text = capsys.readouterr().out
    assert text.startswith("rank 0:\ntensor's name is:") and "\nrank 1:\n" in text
    for rank in range(2):
        np.testing.assert_allclose(np.load(tmp_path / f"rank{rank}" / "output_0.npy"),
                                   case.unsliced_outputs()[0], **case.tolerance)


def test_cli_json_has_every_rank(capsys, tmp_path):
    case = dist_cases.case("matmul_col_allgather")
    code = cli.main(["run", "--distributed", "--ranks", "2", case.rank_model, "--input",
                     os.path.join(case.directory, "input_0.npy"),
                     "--json", str(tmp_path / "r.json")])
    assert code == 0 and capsys.readouterr().out.startswith("rank 0:\ntensor's name is:")
    reports = json.loads((tmp_path / "r.json").read_text())
    assert len(reports) == 2
    for report in reports:
        [output] = report["outputs"]
        assert output["shape"] == list(case.unsliced_outputs()[0].shape)


def test_cli_distributed_needs_ranks_outside_mpirun(capsys):
    case = dist_cases.case("matmul_allreduce")
    assert cli.main(["run", "--distributed", case.rank_model]) == 2
    assert "--ranks N" in capsys.readouterr().err
