"""Arrays a plan derives from the weights and keeps inside an object that a
fused kernel takes (a packed weight, a Winograd filter, an inverted
residual block): :class:`Holder` lets weight sharing (refinfer/sharing.py)
find them and put equal arrays from shared memory in their place, as it
does for the arrays a step takes directly."""
from __future__ import annotations

import numpy as np


class Holder:
    """Lists the arrays in the attributes named by SHARED (an attribute may
    hold another Holder: its arrays are named ``attribute.name``, or None)
    and takes equal ones in their place, before any run."""

    SHARED: tuple[str, ...] = ()

    def shared_arrays(self) -> dict:
        found = {}
        for name in self.SHARED:
            value = getattr(self, name)
            if isinstance(value, np.ndarray):
                found[name] = value
            elif value is not None:
                found.update({f"{name}.{inner}": array for inner, array
                              in value.shared_arrays().items()})
        return found

    def adopt_arrays(self, arrays: dict) -> None:
        inside = {}
        for name, array in arrays.items():
            attribute, dot, inner = name.partition(".")
            if dot:
                inside.setdefault(attribute, {})[inner] = array
            else:
                setattr(self, name, array)
        for attribute, named in inside.items():
            getattr(self, attribute).adopt_arrays(named)
