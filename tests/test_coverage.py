"""The op coverage table (``refinfer ops``, docs/ops.md) and the build-time
check that lists every unsupported primitive, sub-graphs included."""
import os

import pytest

from refinfer import coverage, dtypes, registry
from refinfer.cli import main as cli_main, ops as ops_command
from refinfer.errors import UnsupportedOpsError
from refinfer.runtime import LoadedModel

from golden_cases import ROOT, golden_case, rename_primitive

DOCS = os.path.join(ROOT, "docs", "ops.md")


@pytest.fixture(scope="module")
def table():
    return coverage.coverage(os.path.join(ROOT, "golden"), ops_command.cuda_kernels())


def test_docs_ops_md_is_current(table):
    with open(DOCS) as f:
        current = f.read()
    assert current == coverage.format_markdown(table), (
        "docs/ops.md is stale: run `refinfer ops --markdown > docs/ops.md`")


def test_every_registered_op_has_a_row(table):
    assert [row.name for row in table.rows] == [op.name for op in
                                               registry.list_ops()]
    assert table.golden == os.path.join(ROOT, "golden")


def test_tested_means_a_golden_model_applies_the_op(table):
    rows = {row.name: row for row in table.rows}
    # lenet5 applies Conv2D and MaxPool; Load/UpdateState are plumbing the
    # graph builder removes, but the file still applies them.
    assert "lenet5" in rows["Conv2D"].cases
    assert "lenet5" in rows["MaxPool"].cases
    assert rows["Conv2D"].tested
    # control flow and shape arithmetic live in sub-graphs and scalar nodes
    assert "ctrl_while" in rows["Switch"].cases
    assert "dyn_shape_math" in rows["ScalarFloorDiv"].cases
    # encrypted cases repeat plain ones and are not read
    assert not any(c.startswith("encrypted") for row in table.rows
                   for c in row.cases)


def test_nothing_is_tested_without_golden_cases(tmp_path):
    empty = coverage.coverage(tmp_path)
    assert empty.tested_count == 0 and not empty.unsupported
    missing = coverage.coverage(tmp_path / "absent")
    assert missing.golden is None
    assert f"no golden/ folder found at {tmp_path / 'absent'}: " in \
        coverage.format_text(missing)


def test_cases_this_installation_cannot_read_are_named(monkeypatch):
    """Without ml_dtypes the bfloat16 case cannot be read: the table is
    still made, and says which case it left out."""
    monkeypatch.delitem(dtypes.MINDIR_TO_NUMPY, 16, raising=False)
    table = coverage.coverage(os.path.join(ROOT, "golden"))
    assert table.unreadable == ["bf16_add"]
    assert "not read here: bf16_add" in coverage.format_text(table)


def test_unsupported_primitives_of_golden_cases_are_reported(tmp_path):
    case = golden_case("mlp")
    folder = tmp_path / "renamed"
    folder.mkdir()
    (folder / "meta.json").write_text('{"model_file": "model.mindir"}')
    rename_primitive(case.model_path, folder / "model.mindir", "ReLU",
                      "FancyRelu")
    table = coverage.coverage(tmp_path)
    assert table.unsupported == {"FancyRelu": ["renamed"]}
    assert "not supported: FancyRelu" in coverage.format_text(table)
    rows = {row.name: row for row in table.rows}
    assert rows["MatMul"].cases == ["renamed"] and not rows["ReLU"].tested


def test_cli_ops_prints_the_table(capsys, table):
    assert cli_main(["ops"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["primitive", "family", "tested", "fast", "path", "cuda",
                                "dtypes"]
    conv = next(line.split() for line in lines if line.startswith("Conv2D "))
    assert conv[:5] == ["Conv2D", "nn", "yes", "numba", "yes"] and "f32" in conv
    reshape = next(line.split() for line in lines if line.startswith("Reshape "))
    assert reshape[:5] == ["Reshape", "shape", "yes", "view", "no"]
    assert lines[-1 - bool(table.unsupported)].startswith(
        f"{len(table.rows)} primitives, {table.tested_count} tested")


def test_cli_ops_columns_line_up(capsys):
    """The report: communication rows ('communication' is longer than the
    family column was) pushed their other cells one place right."""
    assert cli_main(["ops"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0]
    starts = [header.index(h) for h in ("tested", "fast path", "cuda", "dtypes")]
    rows = {line.split()[0]: line for line in lines[1:-1]}
    for name in ("AllReduce", "Conv2D", "Reshape"):
        cells = [rows[name][s:].split()[0] for s in starts]
        assert all(rows[name][s - 1] == " " for s in starts), rows[name]
        assert cells[0] == "yes" and cells[3] in ("f16", "f32"), rows[name]
        assert cells[2] == ("yes" if name == "Conv2D" else "no"), rows[name]
    assert [rows["AllReduce"][s:].split()[0] for s in starts][1] == \
        "communication"


def test_cli_ops_outside_the_repository_says_where_it_looked(
        capsys, monkeypatch, tmp_path):
    """The report: installed outside the repository, ``refinfer ops``
    silently said 0 tested. Now nothing claims untested and the summary
    names the folders it looked in."""
    places = (tmp_path / "site" / "golden", tmp_path / "cwd" / "golden")
    monkeypatch.setattr(coverage, "GOLDEN_CANDIDATES", places)
    assert cli_main(["ops"]) == 0
    lines = capsys.readouterr().out.splitlines()
    tested = {line.split()[2] for line in lines[1:-1]}
    assert tested == {"?"}
    assert lines[-1] == (
        f"{len(registry.list_ops())} primitives; tested by a golden case: "
        f"unknown (no golden/ folder found at {places[0]} or {places[1]}: run "
        "from a checkout or pass --golden DIR; docs/ops.md in the repository "
        "has the table)")
    assert " 0 tested" not in "\n".join(lines)


def test_cli_ops_golden_folder_must_exist(capsys, tmp_path):
    assert cli_main(["ops", "--golden", str(tmp_path / "nope")]) == 3
    assert capsys.readouterr().err == (
        f"refinfer ops: error: --golden {tmp_path / 'nope'}: no such folder\n")


def test_cli_ops_markdown_is_the_docs_table(capsys, table):
    assert cli_main(["ops", "--markdown"]) == 0
    assert capsys.readouterr().out == coverage.format_markdown(table)


def test_unsupported_ops_in_branches_fail_at_build_time(tmp_path):
    """Every unknown primitive is listed when the model is built, also those
    that only a branch not taken would run (Muls is in the true branch of
    ctrl_if, Tanh in the main graph)."""
    path = tmp_path / "model.mindir"
    rename_primitive(golden_case("ctrl_if").model_path, path, "Muls",
                      "FancyMuls")
    rename_primitive(path, path, "Tanh", "FancyTanh")
    with pytest.raises(UnsupportedOpsError) as info:
        LoadedModel(str(path))
    assert set(info.value.missing) == {"FancyMuls", "FancyTanh"}


def test_the_cuda_column_names_the_ops_with_a_cuda_kernel(table):
    """From the registry once the cuda families are declared: an
    elementwise recipe op, each device runner's ops, and an op without
    arithmetic (no kernel)."""
    rows = {row.name: row for row in table.rows}
    assert all(rows[name].cuda for name in ("Add", "MatMul", "Conv2D", "ReduceSum",
                                            "Softmax", "Transpose", "MaxPool"))
    assert rows["Shape"].cuda is False
    assert "| MatMul | nn | yes | numba | yes |" in coverage.format_markdown(table)
    assert coverage.coverage(os.path.join(ROOT, "golden")).rows[0].cuda is None
