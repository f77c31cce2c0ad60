"""refinfer: a reference interpreter for MindSpore MindIR models.

``import refinfer as mslite`` gives MindSpore Lite's Python API on CPU.

Importing the package loads nothing else (PEP 562): each name below is
imported on first use, so that the ``refinfer`` command (refinfer/launch.py)
can prepare the process before NumPy loads.
"""
import importlib

UNKNOWN_VERSION = "0+unknown"   # a source tree that was never installed

_WHERE = {"Context": ".api", "Converter": ".api", "DataType": ".api", "FmkType": ".api",
          "Format": ".api", "LiteInfer": ".api", "Model": ".api", "ModelExecutor": ".api",
          "ModelGroup": ".api", "ModelGroupFlag": ".api", "ModelParallelRunner": ".api",
          "ModelType": ".api", "MultiModelRunner": ".api", "Tensor": ".api",
          "TensorMeta": ".api", "load_checkpoint": ".checkpoint"}

__all__ = sorted([*_WHERE, "__version__"])


def __getattr__(name: str):
    if name == "__version__":
        value = globals()["__version__"] = _installed_version()
        return value
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value     # later uses skip this function
    return value


def _installed_version() -> str:
    """The version pip installed (package metadata, setup.cfg's ``version``),
    read on first use: the metadata lookup scans sys.path, which
    ``import refinfer`` should not pay for."""
    from importlib import metadata
    try:
        return metadata.version(__name__)
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
