"""``refinfer.__version__``: the installed package's version, read lazily."""
import subprocess
import sys
from importlib import metadata

import pytest

import refinfer


def test_version_is_the_package_metadata():
    assert refinfer.__version__ == metadata.version("refinfer")
    assert "__version__" in dir(refinfer)


def test_version_without_metadata_is_marked_unknown(monkeypatch):
    def not_installed(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", not_installed)
    assert refinfer._installed_version() == "0+unknown"


@pytest.mark.slow     # a fresh process
def test_reading_the_version_loads_no_numpy():
    code = ("import sys, refinfer; v = refinfer.__version__; "
            "print(v, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [metadata.version("refinfer"), "False"]


def test_every_lite_api_name_is_exported_from_the_package():
    from refinfer import api
    lite_names = {"Context", "Converter", "DataType", "FmkType", "Format", "LiteInfer",
                  "Model", "ModelExecutor", "ModelGroup", "ModelGroupFlag",
                  "ModelParallelRunner", "ModelType", "MultiModelRunner", "Tensor",
                  "TensorMeta"}
    assert set(api.__all__) == lite_names
    assert lite_names | {"__version__", "load_checkpoint"} == set(refinfer.__all__)
    for name in lite_names:
        assert getattr(refinfer, name) is getattr(api, name)
