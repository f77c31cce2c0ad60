"""What the CPU is, from /proc/cpuinfo (the first processor's fields; empty
where unknown). Standard library only: refinfer/launch.py asks before NumPy
loads."""
from __future__ import annotations


def cpu_field(name: str, path: str = "/proc/cpuinfo") -> str:
    """The value of the first ``name`` line (``flags``, ``vendor_id``...)."""
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == name:
                    return value.strip()
    except OSError:
        pass
    return ""


def cpu_flags(path: str = "/proc/cpuinfo") -> frozenset[str]:
    """The first processor's feature flags."""
    return frozenset(cpu_field("flags", path).split())
