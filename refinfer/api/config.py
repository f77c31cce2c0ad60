"""Lite's model configuration: an INI-like file plus ``config_dict``.

The file parser follows Lite's C++ rules, which differ from configparser:
lines are trimmed, lines of two characters or fewer and ``#`` comments are
skipped, keys before any section are ignored, and the *first* occurrence of
a section or key wins. ``config_dict`` entries are applied afterwards and
override the file.
"""
from __future__ import annotations

MAX_LINES = 100_100


def parse_config_file(path: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if number > MAX_LINES:
                raise ValueError(f"{path}: more than {MAX_LINES} lines")
            line = line.strip()
            if len(line) <= 2 or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                current = sections.setdefault(line[1:-1].strip(), {})
            elif "=" in line and current is not None:
                key, value = (part.strip() for part in line.split("=", 1))
                current.setdefault(key, value)
    return {name: keys for name, keys in sections.items() if keys}


def merge(base: dict, overrides: dict | None) -> dict:
    merged = {name: dict(keys) for name, keys in base.items()}
    for name, keys in (overrides or {}).items():
        merged.setdefault(name, {}).update(keys)
    return merged
