"""Tensor file formats: Lite calibration text, manifests, directories."""
import json
import os
import re

import numpy as np
import pytest

from refinfer.tools import tensorio

from helpers_tools import leftovers


def test_calibration_text_is_lites_format():
    text = tensorio.format_calibration(
        "Default/fc-Dense/BiasAdd-op0", np.array([[1.5, -2], [0.25, 3]],
                                                 np.float32))
    assert text == "Default/fc-Dense/BiasAdd-op0 2 2 2\n1.5 -2 0.25 3\n"
    assert tensorio.format_calibration("n", np.array(7, np.int32)) == \
        "n 0\n7\n"


def test_calibration_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    tensors = [("out:1", rng.normal(size=(2, 3)).astype(np.float32)),
               ("scalar", np.array(np.pi, np.float32)),
               ("ints", np.array([-3, 0, 9], np.int32)),
               ("tiny", np.array([1e-30, -3.4e38, 1 / 3], np.float32)),
               ("empty", np.zeros((2, 0), np.float32))]
    path = str(tmp_path / "calib.txt")
    tensorio.write_calibration(path, tensors)
    read = tensorio.read_calibration(path)
    assert [r.name for r in read] == [name for name, _ in tensors]
    for ref, (_, array) in zip(read, tensors):
        got = ref.load()
        assert got.dtype == np.float32 and got.shape == array.shape
        np.testing.assert_array_equal(got, array.astype(np.float32))


def test_calibration_refuses_names_with_spaces(tmp_path):
    with pytest.raises(ValueError, match="whitespace"):
        tensorio.format_calibration("a b", np.zeros(1))


@pytest.mark.parametrize("text, message", [
    ("out 2 2\n1 2 3 4\n", "expected a header"),
    ("out x 2\n1 2\n", "expected a header"),
    ("out 1 3\n1 2\n", "the line holds 2"),
    ("out 1 2\n1 abc\n", "not numbers"),
    ("\n\n", "no tensors"),
])
def test_calibration_errors_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        tensorio.read_calibration(str(path))


def test_read_single_npy_and_npy_directory(tmp_path):
    np.save(tmp_path / "b.npy", np.arange(3))
    np.save(tmp_path / "a.npy", np.ones(2))
    (single,) = tensorio.read_tensors(str(tmp_path / "a.npy"))
    assert (single.name, single.stem) == ("a", "a")
    refs = tensorio.read_tensors(str(tmp_path))
    assert [r.name for r in refs] == ["a", "b"]
    np.testing.assert_array_equal(refs[1].load(), np.arange(3))


def test_read_manifest_directory_with_bin_only(tmp_path):
    data = np.arange(6, dtype=np.int16).reshape(2, 3)
    data.tofile(tmp_path / "t.bin")
    manifest = {"outputs": [{"name": "a/b:1", "shape": [2, 3],
                             "dtype": "int16", "raw_file": "t.bin"}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (ref,) = tensorio.read_tensors(str(tmp_path))
    assert (ref.name, ref.stem, ref.shape) == ("a/b:1", "t", (2, 3))
    np.testing.assert_array_equal(ref.load(), data)


@pytest.mark.parametrize("setup, error, message", [
    (lambda d: (d / "x.bin").write_bytes(b"1234"), ValueError,
     "need a manifest.json"),
    (lambda d: None, ValueError, "no tensors found"),
    (lambda d: (d / "x.npy").write_bytes(b"garbage"), ValueError,
     "not a readable .npy"),
    (lambda d: (d / "x.npy").write_bytes(b""), ValueError,
     "not a readable .npy"),
    (lambda d: np.savez(d / "x.npy", a=np.ones(2)) or os.rename(
        d / "x.npy.npz", d / "x.npy"), ValueError, "an .npz archive"),
    (lambda d: (d / "manifest.json").write_text("{"), ValueError,
     "not valid JSON"),
    (lambda d: (d / "manifest.json").write_text(json.dumps(
        {"outputs": [{"name": "t", "file": "../t.npy"}]})), ValueError,
     "outside its folder"),
    (lambda d: (d / "manifest.json").write_text(json.dumps(
        {"outputs": [{"name": "t", "raw_file": "t.bin"}]})), ValueError,
     "no shape"),
    (lambda d: (d / "manifest.json").write_text(json.dumps(
        {"outputs": [{"name": "t", "shape": [4], "dtype": "float32",
                      "raw_file": "t.bin"}]})), FileNotFoundError,
     "no such file"),
])
def test_unreadable_directories(tmp_path, setup, error, message):
    setup(tmp_path)
    with pytest.raises(error, match=message):
        for ref in tensorio.read_tensors(str(tmp_path)):
            ref.load()


def test_bin_size_must_fit(tmp_path):
    (tmp_path / "t.bin").write_bytes(b"\0" * 12)
    with pytest.raises(ValueError, match="holds 12 bytes.*needs 16"):
        tensorio.read_bin(str(tmp_path / "t.bin"), [4], "float32")


def test_missing_and_unknown_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        tensorio.read_tensors(str(tmp_path / "nope.npy"))
    (tmp_path / "x.bin").write_bytes(b"1234")
    with pytest.raises(ValueError, match="unknown tensor file type"):
        tensorio.read_tensors(str(tmp_path / "x.bin"))


def test_safe_stem():
    assert tensorio.safe_stem("Default/conv1-Conv2d/Conv2D-op0") == \
        "Default_conv1-Conv2d_Conv2D-op0"
    assert tensorio.safe_stem("a:1@2") == "a_1_2"
    assert tensorio.safe_stem("3920_↵nets:CNode_784:6") == \
        "3920__nets_CNode_784_6"
    assert tensorio.safe_stem("../..") == "_.."
    assert tensorio.safe_stem("....") == "tensor"
    long = tensorio.safe_stem("x" * 300)
    assert len(long) == tensorio.MAX_STEM
    assert re.fullmatch(r"x{42}\.\.[0-9a-f]{8}\.\.x{42}", long)


def test_long_stems_stay_readable_and_unique():
    """The report: dump file names were cut from the left, losing the module
    path; two names differing only there got the same file name."""
    scope = ("Default/network-WithLossCell/_backbone-MobileNetV2/features-"
             "SequentialCell/{}-InvertedResidual/conv-SequentialCell/"
             "1-ConvBNReLU/features-SequentialCell/0-Conv2d/Conv2D-op{}")
    first, second = (tensorio.safe_stem(scope.format(k, 7)) for k in (3, 4))
    assert first != second
    for stem in (first, second):
        assert len(stem) == tensorio.MAX_STEM
        assert stem.startswith("Default_network-WithLossCell_")
        assert stem.endswith("_0-Conv2d_Conv2D-op7")
        assert re.fullmatch(r"[A-Za-z0-9._-]+", stem)


def test_json_keeps_non_finite_values_readable(tmp_path):
    path = str(tmp_path / "r.json")
    tensorio.write_json(path, {"a": [{"v": float("inf")}, {"v": np.float32(
        0.5)}], "b": float("nan")})
    data = json.loads((tmp_path / "r.json").read_text())
    assert data == {"a": [{"v": "inf"}, {"v": 0.5}], "b": "nan"}
    assert os.listdir(tmp_path) == ["r.json"]


def test_save_npy_is_atomic(tmp_path):
    path = tmp_path / "t.npy"
    tensorio.save_npy(str(path), np.arange(3, dtype=np.int16))
    np.save(tmp_path / "keep.npy", np.ones(2))
    with pytest.raises(ValueError, match="Object arrays cannot be saved"):
        tensorio.save_npy(str(path), np.array([None, 1], dtype=object))
    assert np.load(path).tolist() == [0, 1, 2]        # the old file stays
    assert sorted(os.listdir(tmp_path)) == ["keep.npy", "t.npy"]


def test_staged_dir_publishes_on_success(tmp_path):
    out = tmp_path / "out"
    with tensorio.staged_dir(str(out)) as staging:
        assert not out.exists()
        (tmp_path / os.path.basename(staging) / "f").write_text("x")
    assert (out / "f").read_text() == "x"
    assert leftovers(tmp_path) == []


def test_staged_dir_leaves_nothing_on_error(tmp_path):
    out = tmp_path / "sub" / "out"
    with pytest.raises(KeyError):
        with tensorio.staged_dir(str(out)) as staging:
            (out.parent / os.path.basename(staging) / "f").write_text("x")
            raise KeyError("boom")
    assert not out.exists() and leftovers(out.parent) == []


def test_staged_dir_existing_destination(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with tensorio.staged_dir(str(out)):        # an empty folder is fine
        pass
    (out / "old").write_text("x")
    with pytest.raises(FileExistsError, match="already exists"):
        with tensorio.staged_dir(str(out)):
            pass
    with tensorio.staged_dir(str(out), replace=True) as staging:
        (tmp_path / os.path.basename(staging) / "new").write_text("y")
    assert sorted(os.listdir(out)) == ["new"]
    assert leftovers(tmp_path) == []


def test_read_entry_reads_every_layout_of_a_golden_case(tmp_path):
    """A packed case's ``file`` + ``key`` (arrays.npz), a ``file`` (.npy),
    a ``raw_file`` (.bin): the same array, and entry_path names each as
    ``refinfer run --input`` takes it."""
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.savez(tmp_path / "arrays.npz", input_0=x)
    np.save(tmp_path / "input_0.npy", x)
    x.tofile(tmp_path / "input_0.bin")
    entries = [{"file": "arrays.npz", "key": "input_0"}, {"file": "input_0.npy"},
               {"raw_file": "input_0.bin", "shape": [2, 3], "dtype": "int32"}]
    folder = str(tmp_path)
    for entry in entries:
        array = tensorio.read_entry(folder, entry)
        assert array.dtype == x.dtype and np.array_equal(array, x)
    assert [tensorio.entry_path(folder, e) for e in entries] == [
        os.path.join(folder, "arrays.npz:input_0"),
        os.path.join(folder, "input_0.npy"), os.path.join(folder, "input_0.bin")]


def test_npz_members_are_tensors_and_errors_name_the_archive(tmp_path):
    path = str(tmp_path / "arrays.npz")
    np.savez(path, **{f"a{k}": np.full(2, k) for k in range(10)})
    [ref] = tensorio.read_tensors(f"{path}:a3")
    assert ref.name == "a3" and ref.source == f"{path}:a3"
    assert np.array_equal(ref.load(), [3, 3])
    with pytest.raises(ValueError) as info:
        tensorio.read_npz_member(path, "b")
    assert str(info.value) == (f"{path}: no array 'b' in this archive (it "
                               "holds a0, a1, a2, a3, a4, a5, a6, a7, ...)")
    with open(tmp_path / "x.npz", "wb") as f:     # a .npy file named .npz
        np.save(f, np.zeros(2))
    with pytest.raises(ValueError, match=r"x.npz: a .npy file, not an .npz "
                       r"archive \(give it without :k\)"):
        tensorio.read_array(str(tmp_path / "x.npz") + ":k")
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(ValueError, match=r"bad.npz: not a readable .npz"):
        tensorio.read_npz_member(str(tmp_path / "bad.npz"), "a")
    with pytest.raises(FileNotFoundError, match="none.npz: no such file"):
        tensorio.read_tensors(str(tmp_path / "none.npz:a"))
