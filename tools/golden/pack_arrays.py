"""Pack each per-op golden case's .npy files into one ``arrays.npz`` (the layout change).

    python tools/golden/pack_arrays.py [ROOT ...]        # default: golden/ops

Before, a case folder held ``input_<i>.npy`` and ``output_<i>.npy``, each named by its
meta.json entry's ``file``; after, their bytes are members ``input_<i>``/``output_<i>`` of
``arrays.npz`` and each entry names ``"file": "arrays.npz", "key": ...``: what
``op_cases.py`` now writes (the same bytes, see case_files.py). Needs only NumPy (any
Python with it). Idempotent: a case already packed is left as it is, and a run cut short
is finished by the next one (meta.json is rewritten only after the archive is complete,
and the .npy files are removed last).
"""
import argparse
import json
import sys
from pathlib import Path

# Run as a script: its folder is on sys.path, so case_files imports directly.
from case_files import ARRAYS_FILE, packed_entry, to_json, write_npz

SECTIONS = ("inputs", "outputs")


def pack_case(case_dir: Path) -> bool:
    """Pack one case; False if it was packed already."""
    meta_path = case_dir / "meta.json"
    meta = json.loads(meta_path.read_text())
    entries = [e for section in SECTIONS for e in meta[section]]
    if all(e.get("file") == ARRAYS_FILE for e in entries):
        return False
    if any(not e.get("file", "").endswith(".npy") for e in entries):
        raise ValueError(f"{meta_path}: every input and output needs a .npy 'file' to "
                         "pack (a raw-only input stays a model case's)")
    files = [e["file"] for e in entries]
    keys = [Path(f).stem for f in files]
    write_npz(case_dir / ARRAYS_FILE,
              {key: (case_dir / f).read_bytes() for key, f in zip(keys, files)})
    for entry, key in zip(entries, keys):
        entry.update(packed_entry(key))     # "file" keeps its place, "key" follows it
    partial = meta_path.with_suffix(".json.partial")
    partial.write_text(to_json(meta) + "\n")
    partial.replace(meta_path)
    for f in files:
        (case_dir / f).unlink()
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["golden/ops"], metavar="ROOT",
                        help="folders of case folders (default: golden/ops)")
    args = parser.parse_args(argv)
    packed = kept = 0
    for root in args.roots:
        for meta_path in sorted(Path(root).glob("*/meta.json")):
            if pack_case(meta_path.parent):
                packed += 1
            else:
                kept += 1
    print(f"packed {packed} case(s); {kept} already packed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
