"""Input files of the command-line tools (refinfer/inputs.py): a ``.npy`` of
the wrong shape, size or dtype is an error naming the file, the input, the
expected and the actual tensor, as the raw ``.bin`` path's (issue 16,
frictions 1 and 2)."""
import numpy as np
import pytest

from refinfer.inputs import load_input
from refinfer.runtime import IOSpec

from helpers_tools import golden_file, run_cli

LENET = golden_file("lenet5", "model.mindir")
NEEDS = "input 'x' needs float32[1, 1, 32, 32]"


def saved(tmp_path, array, name="x.npy") -> str:
    path = str(tmp_path / name)
    np.save(path, array)
    return path


def test_run_refuses_a_transposed_input_of_the_right_byte_size(tmp_path, capsys):
    """The original report: LeNet's [1, 1, 32, 32] input given as
    np.zeros((1, 32, 32, 1)) ran, printed outputs and exited 0."""
    path = saved(tmp_path, np.zeros((1, 32, 32, 1), np.float32))
    code, out, err = run_cli(capsys, "run", LENET, "--input", path)
    assert (code, out) == (3, "")
    assert err == (f"refinfer run: error: input file {path!r} holds "
                   f"float32[1, 32, 32, 1]; {NEEDS}: the same number of "
                   "elements; transpose or reshape it\n")


def test_run_names_a_npy_of_the_wrong_size(tmp_path, capsys):
    """Not Lite's 'data size not equal! Numpy size: 12288, Tensor size:
    4096': what the file holds and what the input needs."""
    path = saved(tmp_path, np.zeros((1, 3, 32, 32), np.float32))
    code, _, err = run_cli(capsys, "run", LENET, "--input", path)
    assert code == 3
    assert err == (f"refinfer run: error: input file {path!r} holds "
                   f"float32[1, 3, 32, 32]; {NEEDS}\n")


def test_run_names_a_npy_of_the_wrong_dtype_with_a_cast(tmp_path, capsys):
    path = saved(tmp_path, np.zeros((1, 1, 32, 32), np.float64))
    code, _, err = run_cli(capsys, "run", LENET, "--input", path)
    assert code == 3
    assert err == (f"refinfer run: error: input file {path!r} holds "
                   f"float64[1, 1, 32, 32]; {NEEDS}: cast it, e.g. "
                   f"np.save({path!r}, np.load({path!r}).astype(np.float32))\n")


def test_the_right_npy_runs(tmp_path, capsys):
    path = saved(tmp_path, np.load(golden_file("lenet5", "input_0.npy")))
    code, out, err = run_cli(capsys, "run", LENET, "--input", path)
    assert code == 0 and out.count("tensor's name is:") == 1


def test_an_unreadable_npy_is_named(tmp_path):
    path = tmp_path / "broken.npy"
    path.write_bytes(b"not numpy")
    with pytest.raises(ValueError, match=r"broken.npy: not a readable .npy file"):
        load_input(str(path), IOSpec("x", (2,), np.dtype(np.float32)))


@pytest.mark.parametrize("shape, fits", [
    ((3, 4), True), ((1, 4), True), ((3, 5), False), ((4,), False)])
def test_a_dynamic_dim_takes_any_size(tmp_path, shape, fits):
    path = saved(tmp_path, np.ones(shape, np.float32))
    spec = IOSpec("x", (-1, 4), np.dtype(np.float32))
    if fits:
        assert load_input(path, spec).shape == shape
        return
    with pytest.raises(ValueError) as info:
        load_input(path, spec)
    assert str(info.value) == (f"input file {path!r} holds float32{list(shape)}"
                               "; input 'x' needs float32[-1, 4] (-1: any size)")


def archived(tmp_path, **arrays) -> str:
    path = str(tmp_path / "arrays.npz")
    np.savez(path, **arrays)
    return path


def test_run_takes_an_array_of_an_npz_archive(tmp_path, capsys):
    """``ARCHIVE.npz:KEY``, as the per-op golden cases store their arrays:
    the same outputs as the .npy file holding the same array."""
    x = np.load(golden_file("lenet5", "input_0.npy"))
    member = archived(tmp_path, input_0=x, output_0=np.zeros(3)) + ":input_0"
    code, out, err = run_cli(capsys, "run", LENET, "--input", member)
    assert code == 0 and out.count("tensor's name is:") == 1
    code, plain, _ = run_cli(capsys, "run", LENET, "--input", saved(tmp_path, x))
    assert code == 0 and out == plain


def test_an_npz_input_needs_a_key_that_is_there(tmp_path, capsys):
    path = archived(tmp_path, input_0=np.zeros((1, 1, 32, 32), np.float32),
                    output_0=np.zeros(3))
    code, out, err = run_cli(capsys, "run", LENET, "--input", path)
    assert (code, out) == (3, "")
    assert err == (f"refinfer run: error: {path}: an .npz archive, not a .npy "
                   f"file (name one of its arrays as {path}:KEY; it holds "
                   "input_0, output_0)\n")
    code, _, err = run_cli(capsys, "run", LENET, "--input", f"{path}:input_1")
    assert code == 3
    assert err == (f"refinfer run: error: {path}: no array 'input_1' in this "
                   "archive (it holds input_0, output_0)\n")
    code, _, err = run_cli(capsys, "run", LENET, "--input",
                           str(tmp_path / "none.npz") + ":input_0")
    assert code == 3 and "none.npz' does not exist" in err


def test_an_npz_member_of_the_wrong_dtype_is_named_with_a_cast(tmp_path):
    path = archived(tmp_path, input_0=np.zeros((1, 1, 32, 32), np.float64))
    with pytest.raises(ValueError) as info:
        load_input(f"{path}:input_0", IOSpec("x", (1, 1, 32, 32),
                                             np.dtype(np.float32)))
    assert str(info.value) == (
        f"input file '{path}:input_0' holds float64[1, 1, 32, 32]; {NEEDS}: "
        f"cast it, e.g. np.save('x.npy', np.load({path!r})['input_0']"
        ".astype(np.float32))")
