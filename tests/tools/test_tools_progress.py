"""Progress bars: on stderr only, and only when asked or on a terminal."""
import pytest

from helpers_tools import golden_file, golden_input_files, run_cli

LENET = golden_file("lenet5", "model.mindir")


@pytest.mark.parametrize("flags", [[], ["--progress"]])
def test_dump_bar_goes_to_stderr_only(tmp_path, capsys, flags):
    code, out, err = run_cli(capsys, "dump", LENET, "--out", tmp_path / "d",
                             *flags)
    assert code == 0
    assert out == f"dumped 17 tensor(s) of 17 node run(s) to {tmp_path / 'd'}\n"
    if flags:
        assert "dump:" in err and "0/17 [" in err       # drawn, then cleared
    else:
        assert err == ""             # stderr is no terminal under pytest


def test_compare_and_bisect_bars(tmp_path, capsys):
    inputs = golden_input_files("lenet5")
    assert run_cli(capsys, "dump", LENET, "--input", *inputs, "--out",
                   tmp_path / "d")[0] == 0
    code, out, err = run_cli(capsys, "compare", tmp_path / "d",
                             tmp_path / "d", "--progress")
    assert code == 0 and "compare:" in err and "0/18 [" in err
    assert "compare" not in out.splitlines()[0]
    code, out, err = run_cli(capsys, "bisect", LENET, "--input", *inputs,
                             "--against", tmp_path / "d", "--progress")
    assert code == 0 and "bisect:" in err and "0/17 [" in err
    assert out.startswith("bisect ") and "%|" not in out
