"""Communication group names -> world ranks.

A MindIR file stores only a group's *name*. It is resolved, in this order:

1. the primitive's ``group_rank_ids`` attribute, when present (automatic
   slicing writes it on some primitives);
2. a world-group name of any backend (``hccl_world_group``,
   ``nccl_world_group``, ``mccl_world_group``): every rank;
3. a user group from the model config, ``[distributed] groups =
   {"tp": [0, 1]}`` (groups made with ``create_group("tp", [0, 1])``);
4. an automatic-slicing name ``"<n>-<hash>"``: MindSpore names the group of
   sorted ranks r0 < r1 < ... after ``std::hash`` of ``"r0-r1-..."``
   (libstdc++'s ``_Hash_bytes``, reproduced by :func:`std_hash`), so the
   ranks are found by hashing candidate rank lists of that size.
"""
from __future__ import annotations

import itertools
import json
import math
import re
from typing import Iterable, Sequence

from .communicator import DistributedError

WORLD_GROUPS = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
CONFIG_SECTION, CONFIG_KEY = "distributed", "groups"
HASHED_NAME = re.compile(r"^(\d+)-(\d+)$")
MAX_COMBINATIONS = 1_000_000   # beyond: try regular layouts only

_MASK = (1 << 64) - 1
_MUL = (0xC6A4A793 << 32) + 0x5BD1E995
_SEED = 0xC70F6907


def std_hash(text: str) -> int:
    """libstdc++'s ``std::hash<std::string>`` on 64-bit Linux:
    ``_Hash_bytes(data, len, 0xc70f6907)``, a MurmurHash2 variant that
    reads 8 bytes at a time (little-endian), then the 1-7 remaining ones."""
    data = text.encode()
    whole = len(data) & ~7
    value = (_SEED ^ (len(data) * _MUL)) & _MASK
    for start in range(0, whole, 8):
        word = int.from_bytes(data[start:start + 8], "little")
        value = ((value ^ (_shift_mix(word * _MUL & _MASK) * _MUL)) * _MUL) & _MASK
    if len(data) & 7:
        value = ((value ^ int.from_bytes(data[whole:], "little")) * _MUL) & _MASK
    return _shift_mix(_shift_mix(value) * _MUL & _MASK)


def _shift_mix(value: int) -> int:
    return value ^ (value >> 47)


def hashed_group_name(ranks: Iterable[int]) -> str:
    """The name automatic slicing gives the group of ``ranks``."""
    ranks = sorted(ranks)
    return f"{len(ranks)}-{std_hash('-'.join(map(str, ranks)))}"


def parse_config_groups(config: dict | None) -> dict[str, tuple[int, ...]]:
    """User groups from a model config (``{section: {key: value}}``)."""
    text = (config or {}).get(CONFIG_SECTION, {}).get(CONFIG_KEY)
    if not text:
        return {}
    try:
        groups = json.loads(text)
        if not isinstance(groups, dict):
            raise ValueError("not a JSON object")
        return {str(name): _rank_list(ranks) for name, ranks in groups.items()}
    except ValueError as exc:
        raise DistributedError(
            f"config [{CONFIG_SECTION}] {CONFIG_KEY} must be a JSON object of "
            f'rank lists, like {{"tp": [0, 1]}}: {exc}') from exc


def _rank_list(value) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or not all(
            isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in value):
        raise ValueError(f"{value!r} is not a list of rank numbers")
    if len(set(value)) != len(value):
        raise ValueError(f"{value!r} repeats a rank")
    return tuple(value)


class GroupTable:
    """Resolves group names for a job of ``world_size`` ranks; results are
    cached (hash names can take a search)."""

    def __init__(self, world_size: int, user_groups: dict | None = None):
        self.world_size = world_size
        self.user_groups = dict(user_groups or {})
        self._resolved: dict[str, tuple[int, ...]] = {}

    def ranks(self, name: str, rank_ids: Sequence[int] | None = None) -> tuple[int, ...]:
        """The world ranks of group ``name``, in group rank order."""
        if rank_ids:
            return self._checked(name, tuple(int(r) for r in rank_ids))
        if name not in self._resolved:
            self._resolved[name] = self._checked(name, self._resolve(name))
        return self._resolved[name]

    def _resolve(self, name: str) -> tuple[int, ...]:
        if name in WORLD_GROUPS:
            return tuple(range(self.world_size))
        if name in self.user_groups:
            return self.user_groups[name]
        match = HASHED_NAME.match(name)
        if match:
            found = self._unhash(int(match.group(1)), int(match.group(2)))
            if found is not None:
                return found
        raise DistributedError(
            f"unknown communication group {name!r}: not a world group "
            f"({', '.join(WORLD_GROUPS)}), not in the model config, and not an "
            f"automatic-slicing name of {self.world_size} ranks; name its ranks "
            f'in the config: [{CONFIG_SECTION}] {CONFIG_KEY} = {{"{name}": [0, 1]}}')

    def _checked(self, name: str, ranks: tuple[int, ...]) -> tuple[int, ...]:
        outside = [r for r in ranks if not 0 <= r < self.world_size]
        if outside:
            raise DistributedError(
                f"group {name!r} names rank(s) {outside}, but the job has "
                f"{self.world_size} rank(s) (launch with mpirun -n "
                f"{max(ranks) + 1} or more?)")
        return ranks

    def _unhash(self, size: int, digest: int) -> tuple[int, ...] | None:
        """The sorted rank list of ``size`` ranks whose name hashes to
        ``digest``: every combination when there are few, else regular
        layouts (blocks and strides), which is what slicing produces."""
        for ranks in self._candidates(size):
            if std_hash("-".join(map(str, ranks))) == digest:
                return ranks
        return None

    def _candidates(self, size: int) -> Iterable[tuple[int, ...]]:
        n = self.world_size
        if not 0 < size <= n:
            return ()
        if math.comb(n, size) <= MAX_COMBINATIONS:
            return itertools.combinations(range(n), size)
        return (tuple(range(start, start + stride * size, stride))
                for stride in range(1, n // size + 1)
                for start in range(n - stride * (size - 1)))
