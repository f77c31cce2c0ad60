"""``refinfer compare``: matching, tolerances, verdicts, reports, errors."""
import numpy as np
import pytest

from refinfer.tools import compare
from refinfer.tools.tensorio import TensorRef

from helpers_tools import read_json, run_cli

E = np.array([10.0, 20.0, 30.0], np.float32)
A = (E * (1 + 2e-4)).astype(np.float32)      # relative error 2e-4


def save(folder, **arrays):
    folder.mkdir(exist_ok=True)
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.asarray(array))
    return folder


@pytest.fixture
def pair(tmp_path):
    return (save(tmp_path / "e", out=E, other=E),
            save(tmp_path / "a", out=A, other=E))


def test_default_tolerance_fails_relative_error(pair, capsys):
    code, out, _ = run_cli(capsys, "compare", *pair)
    assert code == 1
    assert "2 tensor(s) compared (atol 1e-05, rtol 0.0001): 1 passed, 1 " \
        "failed" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:3]}
    assert rows["out"][-2:] == ["3", "FAIL"]
    assert rows["other"][-2:] == ["0", "ok"]


@pytest.mark.parametrize("options", [
    ["--rtol", "1e-3"], ["--atol", "0.01"], ["--tol", "out:0,1e-3"],
    ["--tol", "o?t:0,1e-3"], ["--tol", "*:1e-2,0"],
    ["--tol", "out:0,1e-3", "--tol", "*:0,0"],    # exact name beats glob
])
def test_tolerances(pair, capsys, options):
    assert run_cli(capsys, "compare", *pair, *options)[0] == 0


def test_per_tensor_tolerance_overrides_global(pair, capsys, tmp_path):
    code, out, _ = run_cli(capsys, "compare", *pair, "--rtol", "1e-3",
                           "--tol", "out:0,1e-5", "--json",
                           tmp_path / "r.json")
    assert code == 1 and "1 with a --tol tolerance" in out
    tensors = {t["name"]: t for t in read_json(tmp_path / "r.json")["tensors"]}
    assert (tensors["out"]["atol"], tensors["out"]["rtol"]) == (0, 1e-5)
    assert tensors["other"]["rtol"] == 1e-3


@pytest.mark.parametrize("tol, message", [
    ("nothing:1,1", "matches no compared tensor"),
    ("out:1", "expected NAME:ATOL,RTOL"),
    ("out:a,b", "expected NAME:ATOL,RTOL"),
    (":1,1", "expected NAME:ATOL,RTOL"),
    ("out:-1,0", "non-negative"),
])
def test_bad_tolerances(pair, capsys, tol, message):
    code, _, err = run_cli(capsys, "compare", *pair, "--tol", tol)
    assert code == 2 and message in err


def test_names_with_colons_take_tolerances():
    assert compare.parse_tolerance("Default/x-op0:1:1e-3,0.5") == \
        ("Default/x-op0:1", 1e-3, 0.5)


def test_shape_mismatch_is_a_failure(tmp_path, capsys):
    e = save(tmp_path / "e", t=np.zeros((2, 3)))
    a = save(tmp_path / "a", t=np.zeros((3, 2)))
    code, out, _ = run_cli(capsys, "compare", e, a, "--json",
                           tmp_path / "r.json")
    assert code == 1 and "2x3 vs 3x2" in out and "FAIL" in out
    (t,) = read_json(tmp_path / "r.json")["tensors"]
    assert t["max_abs_err"] is None and not t["passed"]
    assert (t["expected_shape"], t["actual_shape"]) == ([2, 3], [3, 2])


def test_nan_positions_must_agree(tmp_path, capsys):
    e = save(tmp_path / "e", t=[1.0, np.nan, np.inf])
    same = save(tmp_path / "same", t=[1.0, np.nan, np.inf])
    moved = save(tmp_path / "moved", t=[np.nan, 1.0, np.inf])
    assert run_cli(capsys, "compare", e, same)[0] == 0
    code, out, _ = run_cli(capsys, "compare", e, moved, "--json",
                           tmp_path / "r.json")
    assert code == 1 and " 1/1 " in out
    (t,) = read_json(tmp_path / "r.json")["tensors"]
    assert (t["nan_expected"], t["nan_actual"], t["mismatches"]) == (1, 1, 2)
    assert t["mean_bias"] == "inf"          # Lite fails on NaN output


def test_json_report(pair, capsys, tmp_path):
    run_cli(capsys, "compare", *pair, "--json", tmp_path / "r.json")
    report = read_json(tmp_path / "r.json")
    assert report["passed"] is False
    assert (report["atol"], report["rtol"]) == (1e-5, 1e-4)
    assert [t["name"] for t in report["tensors"]] == ["other", "out"]
    keys = set(report["tensors"][0])
    assert set(compare.METRICS) | {"nan_actual", "inf_expected",
                                   "mismatches", "passed"} <= keys


def test_table_is_aligned(pair, capsys):
    _, out, _ = run_cli(capsys, "compare", *pair)
    lines = out.splitlines()
    assert len({len(line) for line in lines[:3]}) == 1
    assert lines[0].split()[:3] == ["tensor", "shape", "max_abs"]


def test_lone_tensors_pair_up_whatever_their_names(tmp_path, capsys):
    """The report: two single tensors were paired by position without a
    word; the report now says so (table, summary and JSON)."""
    np.save(tmp_path / "x.npy", E)
    np.save(tmp_path / "y.npy", E)
    code, out, _ = run_cli(capsys, "compare", tmp_path / "x.npy",
                           tmp_path / "y.npy", "--json", tmp_path / "r.json")
    assert code == 0 and "x = y" in out
    assert out.splitlines()[-1] == ("paired by position: EXPECTED's only "
                                    "tensor 'x' with ACTUAL's only tensor "
                                    "'y' (their names differ)")
    assert read_json(tmp_path / "r.json")["paired_by"] == "position"


def test_lone_tensors_with_one_name_pair_by_name(tmp_path, capsys):
    np.save(tmp_path / "out.npy", E)
    code, out, _ = run_cli(capsys, "compare", tmp_path / "out.npy",
                           save(tmp_path / "d", out=E), "--json",
                           tmp_path / "r.json")
    assert code == 0 and "paired by position" not in out
    assert read_json(tmp_path / "r.json")["paired_by"] == "name"


def test_a_calibration_tensor_against_a_lone_npy_says_position(tmp_path,
                                                               capsys):
    (tmp_path / "c.txt").write_text("Default/fc3/Add-op9 1 3\n10 20 30\n")
    np.save(tmp_path / "mine.npy", E)
    code, out, _ = run_cli(capsys, "compare", tmp_path / "c.txt",
                           tmp_path / "mine.npy")
    assert code == 0 and "Default/fc3/Add-op9 = mine" in out
    assert "paired by position: EXPECTED's only tensor 'Default/fc3/Add-op9'"\
        " with ACTUAL's only tensor 'mine'" in out


def test_named_lone_tensors_pair_only_by_name(tmp_path, capsys):
    """Both sides name their tensor (calibration texts): different names
    are not paired by position."""
    (tmp_path / "e.txt").write_text("out_a 1 3\n10 20 30\n")
    (tmp_path / "a.txt").write_text("out_b 1 3\n10 20 30\n")
    code, out, err = run_cli(capsys, "compare", tmp_path / "e.txt",
                             tmp_path / "a.txt")
    assert code == 3 and out == ""
    assert err == (f"refinfer compare: error: no tensors in common: "
                   f"{tmp_path / 'e.txt'} has ['out_a'], {tmp_path / 'a.txt'}"
                   " has ['out_b']\n")
    (tmp_path / "a.txt").write_text("out_a 1 3\n10 20 30\n")
    code, out, _ = run_cli(capsys, "compare", tmp_path / "e.txt",
                           tmp_path / "a.txt")
    assert code == 0 and "paired by position" not in out


def test_integer_against_float(tmp_path, capsys):
    np.save(tmp_path / "i.npy", np.array([1, 2, 3], np.int32))
    np.save(tmp_path / "f.npy", np.array([1, 2, 3], np.float32))
    assert run_cli(capsys, "compare", tmp_path / "i.npy",
                   tmp_path / "f.npy", "--atol", 0, "--rtol", 0)[0] == 0


def ref(name, stem=None):
    return TensorRef(name, stem, "?", lambda: None)


def test_matching_by_name_then_stem():
    e = [ref("x", "input_0"), ref("out", "output_0"), ref("lost", "z")]
    a = [ref("Default/op", "output_0"), ref("x", "q"), ref("extra", "w")]
    pairs, only_e, only_a = compare.match_tensors(e, a)
    assert [(p.name, q.name) for p, q in pairs] == [("x", "x"),
                                                    ("out", "Default/op")]
    assert (only_e, only_a) == (["lost"], ["extra"])


@pytest.mark.parametrize("make, message", [
    (lambda d: (save(d / "e", a=E, b=E), save(d / "a", c=E, d=E)),
     "no tensors in common"),
    (lambda d: (d / "missing.npy", save(d / "a", c=E)), "no such file"),
    (lambda d: ((d / "bad.npy").write_bytes(b"xx") and d / "bad.npy",
                save(d / "a", c=E)), "not a readable .npy"),
    (lambda d: (save(d / "e", s=np.array(["a", "b"])), save(d / "a", s=E[:2])),
     "cannot compare"),
])
def test_bad_input_exits_3(tmp_path, capsys, make, message):
    expected, actual = make(tmp_path)
    code, out, err = run_cli(capsys, "compare", expected, actual)
    assert code == 3 and message in err and out == ""
    assert err.startswith("refinfer compare: error:")


def test_compare_arrays_api():
    result = compare.compare_arrays(A, E)
    assert not result["passed"] and result["mismatches"] == 3
    assert result["max_rel_err"] == pytest.approx(2e-4, rel=1e-3)
    assert compare.compare_arrays(A, E, rtol=1e-3)["passed"]
