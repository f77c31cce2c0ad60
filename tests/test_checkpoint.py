"""``refinfer.load_checkpoint``: MindSpore ``.ckpt`` (our own protobuf reader) and
``.safetensors`` files, by parameter name.

The golden files were written by MindSpore 2.7.1 (golden/mlp_update, tools/golden); the
synthetic ones follow MindSpore's writer (serialization._write_parameter_data): one
serialized ``Checkpoint`` message per tensor or slice, appended, slices along axis 0 each
carrying the full dims, and an optional ``crc_num`` trailer.
"""
from __future__ import annotations

import binascii
import os
import sys

import numpy as np
import pytest

import refinfer
from refinfer.checkpoint import Checkpoint, CheckpointError, load_checkpoint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UPDATE_DIR = os.path.join(ROOT, "golden", "mlp_update")
MLP_WEIGHTS = {"fc1.weight": (8, 4), "fc1.bias": (8,), "fc2.weight": (3, 8),
               "fc2.bias": (3,)}


def message(tag: str, kind: str, dims, content: bytes) -> bytes:
    """One serialized Checkpoint message holding one tensor (slice)."""
    proto = Checkpoint()
    value = proto.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = kind
    value.tensor.tensor_content = content
    return proto.SerializeToString()


def write(tmp_path, blob: bytes, name="w.ckpt") -> str:
    path = tmp_path / name
    path.write_bytes(blob)
    return str(path)


# -- files MindSpore wrote ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["new_weights.ckpt", "new_weights.safetensors"])
def test_mindspore_files_hold_the_mlp_weights(name):
    weights = refinfer.load_checkpoint(os.path.join(UPDATE_DIR, name))
    assert {k: v.shape for k, v in weights.items()} == MLP_WEIGHTS
    assert all(v.dtype == np.float32 and not v.flags.writeable for v in weights.values())


def test_ckpt_reader_agrees_with_the_safetensors_package():
    ckpt = load_checkpoint(os.path.join(UPDATE_DIR, "new_weights.ckpt"))
    safe = load_checkpoint(os.path.join(UPDATE_DIR, "new_weights.safetensors"))
    assert ckpt.keys() == safe.keys()
    for name in ckpt:
        np.testing.assert_array_equal(ckpt[name], safe[name], err_msg=name)


# -- the format's corners ------------------------------------------------------------------
def test_slices_with_one_tag_are_joined(tmp_path):
    big = np.arange(7 * 3, dtype=np.float32).reshape(7, 3)
    blob = b"".join(message("w", "Float32", [7, 3], part.tobytes())
                    for part in np.array_split(big, 3))
    np.testing.assert_array_equal(load_checkpoint(write(tmp_path, blob))["w"], big)


def test_dtypes_scalars_and_strings(tmp_path):
    blob = (message("step", "Int32", [0], np.int32(42).tobytes())
            + message("half", "Float16", [2], np.float16([1.5, -2]).tobytes())
            + message("mask", "Bool", [3], np.array([1, 0, 1], np.bool_).tobytes())
            + message("note", "str", [1], "hi".encode("utf-32-le")))
    weights = load_checkpoint(write(tmp_path, blob))
    assert sorted(weights) == ["half", "mask", "step"]        # strings are no weights
    assert weights["step"].shape == () and weights["step"] == 42
    assert weights["half"].dtype == np.float16 and weights["half"].tolist() == [1.5, -2]
    assert weights["mask"].tolist() == [True, False, True]


def test_bfloat16_with_ml_dtypes(tmp_path):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    values = np.array([1.5, -2.0], ml_dtypes.bfloat16)
    weights = load_checkpoint(write(tmp_path, message("w", "BFloat16", [2], values.tobytes())))
    assert weights["w"].dtype == values.dtype and weights["w"].tolist() == [1.5, -2.0]


def test_crc_trailer_is_checked(tmp_path):
    body = message("w", "Float32", [2], np.float32([1, 2]).tobytes())
    good = body + b"crc_num" + binascii.crc32(body).to_bytes(10, "big")
    assert load_checkpoint(write(tmp_path, good))["w"].tolist() == [1, 2]
    bad = body + b"crc_num" + (binascii.crc32(body) ^ 1).to_bytes(10, "big")
    with pytest.raises(CheckpointError, match="CRC-32"):
        load_checkpoint(write(tmp_path, bad))


@pytest.mark.parametrize("blob, expected", [
    (message("w", "Int4", [2], bytes(1)), "tensor type 'Int4'"),
    (message("w", "Float32", [3], bytes(8)), r"Float32\[3\] needs 12 bytes, the file holds 8"),
    (message("w", "Float32", [2], bytes(8))[:-3], "truncated"),
    (message("a", "Int8", [1], b"\1") + message("b", "Int8", [1], b"\2")
     + message("a", "Int8", [1], b"\3"), "'a' appears twice"),
    (b"\xff" * 40, "not a MindSpore checkpoint"),
])
def test_bad_files_are_refused_with_the_reason(tmp_path, blob, expected):
    with pytest.raises(CheckpointError, match=expected):
        load_checkpoint(write(tmp_path, blob))


def test_map_parameters_are_refused(tmp_path):
    proto = Checkpoint()
    value = proto.value.add()
    value.tag = "table"
    value.maptensor.tensor.add(tensor_type="Int64", dims=[1], tensor_content=bytes(8))
    with pytest.raises(CheckpointError, match="map parameter"):
        load_checkpoint(write(tmp_path, proto.SerializeToString()))


def test_missing_file(tmp_path):
    with pytest.raises(CheckpointError, match="no such file"):
        load_checkpoint(str(tmp_path / "absent.ckpt"))


def test_safetensors_without_the_package_says_what_to_install(tmp_path, monkeypatch):
    path = write(tmp_path, open(os.path.join(UPDATE_DIR, "new_weights.safetensors"),
                                "rb").read(), "w.safetensors")
    monkeypatch.setitem(sys.modules, "safetensors.numpy", None)
    with pytest.raises(CheckpointError, match=r'pip install "refinfer\[safetensors\]"'):
        load_checkpoint(path)


def test_format_is_sniffed_without_a_suffix(tmp_path):
    path = write(tmp_path, open(os.path.join(UPDATE_DIR, "new_weights.safetensors"),
                                "rb").read(), "weights.bin")
    assert set(load_checkpoint(path)) == set(MLP_WEIGHTS)
