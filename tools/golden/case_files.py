"""Writing a golden case's files the same way every time (NumPy only, no MindSpore).

Shared by ``make_golden.py`` (which writes the cases) and ``pack_arrays.py`` (which
converted the committed per-op cases to the packed layout), so a converted case and a
regenerated one are byte-identical.

Packed layout (per-op cases, ``golden/ops/<case>/``): every input and output array is a
member of one uncompressed ``arrays.npz``; meta.json's entry for an array names the file and
the member (``"file": "arrays.npz", "key": "input_0"``). One archive instead of a file per
array: golden/ holds a thousand tiny cases, and on disk each file takes a whole block.
"""
import io
import json
import os
import re
import zipfile

import numpy as np

ARRAYS_FILE = "arrays.npz"
# A fixed timestamp (ZIP's earliest) for every member: np.savez stamps the current time,
# so the same arrays would give another archive on every run.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def npy_bytes(array) -> bytes:
    """``array`` as the bytes of a .npy file (what ``np.save`` writes)."""
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.asanyarray(array), allow_pickle=False)
    return buffer.getvalue()


def write_npz(path, members: dict) -> None:
    """An uncompressed .npz that ``np.load`` reads: ``members`` maps each key to its .npy
    bytes, in order. Deterministic (fixed timestamps) and written atomically."""
    partial = f"{path}.partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as archive:
        for key, data in members.items():
            info = zipfile.ZipInfo(f"{key}.npy", date_time=ZIP_DATE)
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    os.replace(partial, path)


def packed_entry(key: str) -> dict:
    """meta.json's file fields of an array stored in the case's ``arrays.npz``."""
    return {"file": ARRAYS_FILE, "key": key}


def to_json(obj):
    """Indented JSON with lists of numbers (shapes) kept on one line."""
    text = json.dumps(obj, indent=2, ensure_ascii=False)
    return re.sub(r"\[\s+([-+.\deE,\s]*?)\s+\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]", text)
