"""Lite's model configuration: an INI-like file plus ``config_dict``.

The file parser follows Lite's C++ rules, which differ from configparser:
lines are trimmed, lines of two characters or fewer and ``#`` comments are
skipped, keys before any section are ignored, and the *first* occurrence of
a section or key wins. ``config_dict`` entries are applied afterwards and
override the file.
"""
from __future__ import annotations

MAX_LINES = 100_100        # Lite stops at this line number
MAX_VALID_LINES = 100_000  # section headers and key=value lines


def parse_config_file(path: str) -> dict[str, dict[str, str]]:
    """Sections of ``path``. As in Lite, each ``[section]`` block is kept
    only if it has keys and no earlier block had the same name."""
    sections: dict[str, dict[str, str]] = {}
    name, block, valid = None, {}, 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if number >= MAX_LINES:
                raise ValueError(f"{path}: {MAX_LINES} lines or more")
            line = line.strip()
            if len(line) <= 2 or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                _close_block(sections, name, block)
                name, block = line[1:-1].strip(), {}
                valid += 1
            elif "=" in line and name is not None:
                key, value = (part.strip() for part in line.split("=", 1))
                block.setdefault(key, value)
                valid += 1
            if valid > MAX_VALID_LINES:
                raise ValueError(f"{path}: more than {MAX_VALID_LINES} "
                                 "section and key lines")
    _close_block(sections, name, block)
    return sections


def _close_block(sections: dict, name, block: dict) -> None:
    if name is not None and block and name not in sections:
        sections[name] = block


def merge(base: dict, overrides: dict | None) -> dict:
    merged = {name: dict(keys) for name, keys in base.items()}
    for name, keys in (overrides or {}).items():
        merged.setdefault(name, {}).update(keys)
    return merged
