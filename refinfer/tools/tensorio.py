"""Reading and writing tensor files: the one place that knows the formats.

Formats:

- ``.npy``: NumPy arrays (never pickles).
- ``ARCHIVE.npz:KEY``: the array ``KEY`` of an ``.npz`` archive (a golden
  case's ``arrays.npz``; meta.json entries name it as ``file`` + ``key``).
- ``.bin``: raw bytes, as MindSpore Lite's ``benchmark`` reads inputs;
  shape and dtype come from a manifest.
- ``.txt``: MindSpore Lite ``benchmark`` calibration text
  (``--benchmarkDataFile``): per tensor a line ``name ndims d0 d1 ...`` and
  a line of its values separated by spaces.
- a directory with a ``manifest.json`` (written by ``refinfer golden`` and
  ``refinfer dump``), or a directory of ``.npy`` files (named by stem).

Output directories are written atomically: :func:`staged_dir` gives a
temporary folder next to the destination and renames it at the end.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from refinfer.files import replaced_file

MANIFEST = "manifest.json"
MANIFEST_SECTIONS = ("inputs", "outputs", "tensors")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_STEM = 96
_DIGEST = 8         # hex digits of a name's hash in a shortened stem
_MEMBER = re.compile(r"(?P<archive>.+\.npz):(?P<key>[^:/\\]+)")
_LISTED_KEYS = 8    # keys an error names before "..."


@dataclass
class TensorRef:
    """A tensor in a file, loaded on demand.

    ``name`` is the tensor's real name; ``stem`` the file name without
    suffix (also used to match tensors); ``shape``/``dtype`` are known
    without loading for manifest and calibration entries. ``named`` is
    False for a lone ``.npy`` file, whose name is only its file name.
    """
    name: str
    stem: str | None
    source: str
    loader: Callable[[], np.ndarray]
    shape: tuple | None = None
    dtype: str | None = None
    named: bool = True

    def load(self) -> np.ndarray:
        return self.loader()


# -- single files -----------------------------------------------------------

def read_npy(path: str) -> np.ndarray:
    """A ``.npy`` file; a clear ValueError for anything unreadable."""
    _require_file(path)
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        raise ValueError(f"{path}: not a readable .npy file ({exc})") from exc
    if not isinstance(array, np.ndarray):
        keys = _key_list(array.files)
        array.close()
        raise ValueError(f"{path}: an .npz archive, not a .npy file (name one "
                         f"of its arrays as {path}:KEY; it holds {keys})")
    return array


def split_member(path: str) -> tuple[str, str | None]:
    """``ARCHIVE.npz:KEY`` as ``(ARCHIVE.npz, KEY)``; another path as
    ``(path, None)``."""
    match = _MEMBER.fullmatch(path)
    return (match["archive"], match["key"]) if match else (path, None)


def read_npz_member(path: str, key: str) -> np.ndarray:
    """The array ``key`` of the .npz archive ``path``; a clear ValueError
    for an unreadable archive or a missing key."""
    _require_file(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except (ValueError, EOFError, OSError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: not a readable .npz archive ({exc})") from exc
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: a .npy file, not an .npz archive (give it "
                         f"without :{key})")
    with archive:
        if key not in archive.files:
            raise ValueError(f"{path}: no array {key!r} in this archive (it "
                             f"holds {_key_list(archive.files)})")
        try:
            return archive[key]
        except (ValueError, EOFError, OSError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: array {key!r} is unreadable "
                             f"({exc})") from exc


def read_array(path: str) -> np.ndarray:
    """A ``.npy`` file, or one array of an archive: ``ARCHIVE.npz:KEY``."""
    archive, key = split_member(path)
    return read_npy(path) if key is None else read_npz_member(archive, key)


def read_entry(folder: str, entry: dict) -> np.ndarray:
    """The tensor a golden case's meta.json entry names: the member ``key``
    of its ``file`` (a case's arrays.npz), else its ``file`` (.npy), else
    its ``raw_file`` (.bin) of the entry's shape and dtype (big inputs keep
    only the raw file). The one way the tests and tools read a case."""
    if entry.get("file") and entry.get("key"):
        return read_npz_member(os.path.join(folder, entry["file"]),
                               entry["key"])
    if entry.get("file"):
        return read_npy(os.path.join(folder, entry["file"]))
    return read_bin(os.path.join(folder, entry["raw_file"]), entry["shape"],
                    entry["dtype"])


def entry_path(folder: str, entry: dict) -> str:
    """The array a meta.json entry names, as ``refinfer run --input`` takes
    it: ``folder/ARCHIVE.npz:KEY``, ``folder/FILE.npy`` or the raw file."""
    if entry.get("file") and entry.get("key"):
        return f"{os.path.join(folder, entry['file'])}:{entry['key']}"
    return os.path.join(folder, entry.get("file") or entry["raw_file"])


def read_bin(path: str, shape, dtype) -> np.ndarray:
    """Raw bytes of ``path`` as an array of ``shape`` and ``dtype``."""
    _require_file(path)
    dtype, shape = np.dtype(dtype), tuple(int(d) for d in shape)
    data = np.fromfile(path, dtype=dtype)
    count = math.prod(shape)
    if data.size != count or os.path.getsize(path) != count * dtype.itemsize:
        raise ValueError(f"{path}: holds {os.path.getsize(path)} bytes, "
                         f"{dtype}{list(shape)} needs {count * dtype.itemsize}")
    return data.reshape(shape)


def write_npy(path: str, array: np.ndarray) -> None:
    np.save(path, np.asarray(array), allow_pickle=False)


def save_npy(path: str, array: np.ndarray) -> None:
    """One ``.npy`` file written atomically (see :func:`replaced_file`);
    ``path`` is used as given (no ``.npy`` appended)."""
    with replaced_file(path, binary=True) as f:
        np.save(f, np.asarray(array), allow_pickle=False)


def write_bin(path: str, array: np.ndarray) -> None:
    np.ascontiguousarray(array).tofile(path)


def write_json(path: str, data) -> None:
    """JSON with non-finite floats written as the strings "nan"/"inf";
    written atomically (see :func:`replaced_file`)."""
    with replaced_file(path) as f:
        f.write(_json_text(json_safe(data)) + "\n")


def _json_text(data) -> str:
    """A top-level object one key per line, lists of objects one object per
    line (readable manifests of thousands of tensors)."""
    if not isinstance(data, dict):
        return _compact(data)
    items = [f" {_compact(k)}: {_json_list(v)}" for k, v in data.items()]
    return "{\n" + ",\n".join(items) + "\n}"


def _json_list(value) -> str:
    if not (isinstance(value, list) and value
            and all(isinstance(v, dict) for v in value)):
        return _compact(value)
    return "[\n" + ",\n".join(f"  {_compact(v)}" for v in value) + "\n ]"


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def read_json(path: str):
    _require_file(path)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc


def json_safe(value):
    """``value`` with NaN/Inf floats as strings and NumPy scalars as Python."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


# -- Lite calibration text --------------------------------------------------

def format_calibration(name: str, array: np.ndarray) -> str:
    """One tensor in Lite's calibration text: a header line
    ``name ndims d0 d1 ...`` and a line of values (float32 with 9
    significant digits, so they read back exactly)."""
    if not name or any(c.isspace() for c in name):
        raise ValueError(f"tensor name {name!r} cannot be written to a Lite "
                         "calibration file (empty or contains whitespace)")
    array = np.asarray(array)
    header = " ".join([name, str(array.ndim), *map(str, array.shape)])
    return f"{header}\n{_format_values(array)}\n"


def _format_values(array: np.ndarray) -> str:
    flat = array.ravel()
    if flat.dtype.kind in "biu":
        return " ".join(str(int(v)) for v in flat.tolist())
    digits = 17 if flat.dtype == np.float64 else 9
    return " ".join(f"{v:.{digits}g}" for v in flat.tolist())


def write_calibration(path: str, tensors: list[tuple[str, np.ndarray]]) -> None:
    """Write ``(name, array)`` pairs as one Lite calibration text file."""
    with open(path, "w", encoding="utf-8") as f:
        for name, array in tensors:
            f.write(format_calibration(name, array))


def read_calibration(path: str) -> list[TensorRef]:
    """Tensors of a Lite calibration text file (values as float32, as Lite
    reads them)."""
    _require_file(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    tensors, k = [], 0
    while k < len(lines):
        if not lines[k].strip():
            k += 1
            continue
        name, shape = _calibration_header(path, k + 1, lines[k])
        values = lines[k + 1] if k + 1 < len(lines) else ""
        array = _calibration_values(path, k + 2, name, shape, values)
        tensors.append(TensorRef(name, None, f"{path}:{k + 1}",
                                 lambda a=array: a, shape, str(array.dtype)))
        k += 2
    if not tensors:
        raise ValueError(f"{path}: no tensors in this calibration file")
    return tensors


def _calibration_header(path: str, line_no: int, line: str):
    fields = line.split()
    try:
        ndims = int(fields[1])
        shape = tuple(int(d) for d in fields[2:])
    except (IndexError, ValueError):
        ndims, shape = -1, ()
    if ndims != len(shape) or any(d < 0 for d in shape):
        raise ValueError(f"{path}:{line_no}: expected a header "
                         f"'name ndims d0 d1 ...', got {line[:80]!r}")
    return fields[0], shape


def _calibration_values(path, line_no, name, shape, line) -> np.ndarray:
    try:
        values = np.array(line.split(), dtype=np.float32)
    except ValueError as exc:
        raise ValueError(f"{path}:{line_no}: values of {name!r} are not "
                         f"numbers ({exc})") from exc
    if values.size != math.prod(shape):
        raise ValueError(f"{path}:{line_no}: {name!r} has shape {list(shape)}"
                         f" ({math.prod(shape)} values), the line holds "
                         f"{values.size}")
    return values.reshape(shape)


# -- whole sources (file or directory) -------------------------------------

def read_tensors(path: str) -> list[TensorRef]:
    """The tensors in ``path``: a ``.npy`` or calibration ``.txt`` file, an
    archive's array (``ARCHIVE.npz:KEY``), a directory with a manifest, or a
    directory of ``.npy`` files."""
    if os.path.isdir(path):
        return _read_dir(path)
    archive, key = split_member(path)
    if key is not None:
        _require_file(archive)
        return [TensorRef(key, key, path, functools.partial(
            read_npz_member, archive, key), named=False)]
    _require_file(path)
    if path.endswith(".npy"):
        stem = _stem(path)
        return [TensorRef(stem, stem, path, functools.partial(read_npy, path),
                          named=False)]
    if path.endswith(".txt"):
        return read_calibration(path)
    raise ValueError(f"{path}: unknown tensor file type (expected .npy, "
                     "ARCHIVE.npz:KEY, a Lite calibration .txt, or a "
                     "directory; .bin files need "
                     f"a directory with a {MANIFEST})")


def _read_dir(path: str) -> list[TensorRef]:
    manifest = os.path.join(path, MANIFEST)
    if os.path.isfile(manifest):
        return read_manifest(manifest)
    names = sorted(os.listdir(path))
    npys = [n for n in names if n.endswith(".npy")]
    if npys:
        return read_tensors_list(os.path.join(path, n) for n in npys)
    if any(n.endswith(".bin") for n in names):
        raise ValueError(f"{path}: .bin files need a {MANIFEST} giving their "
                         "shapes and dtypes")
    raise ValueError(f"{path}: no tensors found (no {MANIFEST}, no .npy "
                     "files)")


def read_tensors_list(paths) -> list[TensorRef]:
    return [ref for p in paths for ref in read_tensors(p)]


def read_manifest(path: str) -> list[TensorRef]:
    """Tensors listed in a refinfer manifest (sections ``inputs``,
    ``outputs``, ``tensors``; entries with ``name``, ``shape``, ``dtype``,
    ``file`` (.npy) and/or ``raw_file`` (.bin))."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    folder = os.path.dirname(path)
    entries = [e for s in MANIFEST_SECTIONS for e in data.get(s) or []]
    refs = [_manifest_ref(path, folder, e) for e in entries]
    refs = [r for r in refs if r is not None]
    if not refs:
        raise ValueError(f"{path}: the manifest lists no tensor files")
    return refs


def _manifest_ref(path: str, folder: str, entry) -> TensorRef | None:
    if not isinstance(entry, dict) or "name" not in entry:
        raise ValueError(f"{path}: every entry needs a 'name': {entry!r:.80}")
    name, shape, dtype = entry["name"], entry.get("shape"), entry.get("dtype")
    file, raw = entry.get("file"), entry.get("raw_file")
    if file:
        full = _inside(path, folder, file)
        loader = functools.partial(read_npy, full)
    elif raw:
        if shape is None or dtype is None:
            raise ValueError(f"{path}: {name!r} has a raw_file but no shape "
                             "and dtype")
        full = _inside(path, folder, raw)
        loader = functools.partial(read_bin, full, shape, dtype)
    else:
        return None
    stem = _stem(full)
    return TensorRef(name, stem, full, loader,
                     None if shape is None else tuple(shape), dtype)


def _inside(manifest: str, folder: str, name: str) -> str:
    """``folder/name``, refusing names that leave the folder."""
    full = os.path.normpath(os.path.join(folder, name))
    if os.path.isabs(name) or not full.startswith(
            os.path.normpath(folder) + os.sep):
        raise ValueError(f"{manifest}: file {name!r} is outside its folder")
    return full


# -- helpers ----------------------------------------------------------------

def safe_stem(name: str, limit: int = MAX_STEM) -> str:
    """A file-name-safe rendering of a tensor name: runs of characters other
    than ASCII letters, digits, ``.``, ``_`` and ``-`` become ``_``; no
    leading dot. A longer stem than ``limit`` keeps its start (the module
    path) and its end (the op), joined by ``..`` around 8 hex digits of the
    full name's SHA-1, so two long names never share a stem."""
    stem = _UNSAFE.sub("_", name).lstrip(".") or "tensor"
    if len(stem) <= limit:
        return stem
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:_DIGEST]
    kept = limit - _DIGEST - 4
    head = kept // 2
    return f"{stem[:head]}..{digest}..{stem[len(stem) - (kept - head):]}"


def _key_list(keys) -> str:
    """An archive's keys for a message: the first few, then "..."."""
    shown = ", ".join(keys[:_LISTED_KEYS]) or "no arrays"
    return shown + (", ..." if len(keys) > _LISTED_KEYS else "")


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _require_file(path: str) -> None:
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file or directory")
    if not os.path.isfile(path):
        raise ValueError(f"{path}: not a regular file")


@contextlib.contextmanager
def staged_dir(destination: str, replace: bool = False) -> Iterator[str]:
    """A temporary directory next to ``destination`` that becomes it when
    the block ends without error; on error it is removed, so no partial
    ``destination`` is ever left. An existing non-empty ``destination`` is
    an error unless ``replace``."""
    destination = os.path.abspath(destination)
    _check_destination(destination, replace)
    parent = os.path.dirname(destination)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=f".{os.path.basename(destination)}.",
                               suffix=".partial", dir=parent)
    try:
        yield staging
        _publish(staging, destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _check_destination(destination: str, replace: bool) -> None:
    if not os.path.lexists(destination) or replace:
        return
    if not os.path.isdir(destination) or os.listdir(destination):
        raise FileExistsError(f"{destination}: already exists (remove it or "
                              "use --force)")


def _publish(staging: str, destination: str) -> None:
    """Rename ``staging`` to ``destination``, replacing what is there."""
    old = None
    if os.path.lexists(destination):
        old = f"{staging}.old"
        os.rename(destination, old)
    try:
        os.rename(staging, destination)
    except OSError:
        if old is not None:
            os.rename(old, destination)
        raise
    if old is not None:
        if os.path.isdir(old) and not os.path.islink(old):
            shutil.rmtree(old)
        else:
            os.remove(old)
