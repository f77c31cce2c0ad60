"""refinfer: a reference interpreter for MindSpore MindIR models.

``import refinfer as mslite`` gives MindSpore Lite's Python API on CPU.

Importing the package loads nothing else (PEP 562): each name below is
imported on first use, so that the ``refinfer`` command (refinfer/launch.py)
can prepare the process before NumPy loads.
"""
import importlib

__version__ = "0.1.0"

_WHERE = {"Context": ".api", "DataType": ".api", "Format": ".api", "Model": ".api",
          "ModelParallelRunner": ".api", "ModelType": ".api", "Tensor": ".api",
          "TensorMeta": ".api", "load_checkpoint": ".checkpoint"}

__all__ = sorted([*_WHERE, "__version__"])


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value     # later uses skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
