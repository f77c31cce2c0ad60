"""The MindSpore primitive census (docs/census.md, issue 14): the page is
current, the census is a real MindSpore run, and the out-of-scope table
(refinfer/out_of_scope.py) agrees with its categories."""
import os

import pytest

from refinfer import census, coverage, registry
from refinfer.cli import main as cli_main
from refinfer.out_of_scope import OUT_OF_SCOPE, out_of_scope

from golden_cases import ROOT

DOCS = os.path.join(ROOT, "docs", "census.md")


@pytest.fixture(scope="module")
def document():
    return census.load()


@pytest.fixture(scope="module")
def table():
    return coverage.coverage(os.path.join(ROOT, "golden"))


def test_docs_census_md_is_current(document, table):
    with open(DOCS) as f:
        current = f.read()
    assert current == census.format_markdown(document, table), (
        "docs/census.md is stale: run `refinfer ops --census > docs/census.md`")


def test_cli_prints_the_census(capsys, document, table):
    assert cli_main(["ops", "--census"]) == 0
    assert capsys.readouterr().out == census.format_markdown(document, table)


def test_cli_names_a_missing_census_file(capsys, tmp_path):
    assert cli_main(["ops", "--census", str(tmp_path / "none.json")]) == 3
    assert "none.json" in capsys.readouterr().err


def test_the_census_is_a_real_mindspore_run(document):
    entries = document["primitives"]
    assert document["mindspore_version"] == "2.7.1"
    assert len(entries) > 1400
    by_class = {e["class"]: e for e in entries}
    # a sample whose outcome is known: Add runs, RmsNorm is Ascend-only,
    # Muls has no PyNative kernel but runs compiled
    assert by_class["Add"]["outcome"] == "runs"
    assert by_class["RmsNorm"]["outcome"] == "no-cpu-kernel"
    assert (by_class["Muls"]["outcome"], by_class["Muls"]["mode"]) == ("runs", "graph")
    assert by_class["ApplyAdagrad"]["category"] == "training-only"
    assert not by_class["ApplyAdagrad"]["inference_graph"]
    assert all(e["reason"] for e in entries if e["outcome"] == "unprobed")


def _row(name, category="elementwise", outcome="runs", inference=True):
    return {"class": name, "primitive": name, "category": category,
            "outcome": outcome, "inference_graph": inference}


def test_scope_and_totals_of_a_small_census(table):
    document = {"mindspore_version": "0.0", "primitives": [
        _row("Add"), _row("Tanh"), _row("FancyOp"),
        _row("PagedAttentionMask", "Ascend-fused", "no-cpu-kernel"),
        _row("ApplyAdam", "training-only", inference=False),
        _row("StandardNormal", "random"),
        _row("WhileLoop", "control flow")]}
    rows = {r.name: r for r in census.rows(document, table)}
    assert [rows[n].status for n in ("Add", "FancyOp", "ApplyAdam", "StandardNormal",
                                     "WhileLoop", "PagedAttentionMask")] == [
        "implemented", "missing", "out of scope", "out of scope", "lowered", "missing"]
    assert rows["WhileLoop"].tested       # the ctrl_whileloop golden case
    assert rows["Add"].fast_path == "numba"
    # in scope: runs on CPU, in an inference graph, not out of scope or lowered
    assert [n for n, r in rows.items() if r.in_scope] == ["Add", "FancyOp", "Tanh"]
    text = census.format_markdown(document, table)
    assert ("Of the 3 in scope (run on CPU, can appear in an inference graph, not "
            "out of scope on purpose) refinfer implements 2 (66.7 %)") in text
    assert "| **all** | 7 | 6 | 3 | 2 | 2 | 2 |" in text
    assert "| FancyOp | elementwise | runs | yes | missing | no | - |" in text


def test_out_of_scope_table_agrees_with_the_census(document):
    """Every census primitive of an out-of-scope category that refinfer does
    not implement gets that category's error; no primitive of another
    category does."""
    wrong = []
    for entry in document["primitives"]:
        name, label = entry["primitive"], entry["category"]
        if registry.has_op(name):
            continue
        found = out_of_scope(name)
        expected = label if label in OUT_OF_SCOPE else None
        if (found and found[0]) != expected:
            wrong.append((name, label, found and found[0]))
    assert not wrong
