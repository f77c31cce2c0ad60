"""What every family of device runners owes the rest (refinfer/cuda/*.py
beside the elementwise one): its table declared in the registry for
registered ops only, and every kernel it defines listed, with one type
per argument, for tools/check_ptx.py's sm_90 compile check (the
simulator runs code the compiler rejects: ``max()`` of two array sizes
was one)."""
import importlib
import pkgutil

import pytest
from numba.core import sigutils

import refinfer.cuda
from refinfer import registry
from refinfer.cuda import composite, elementwise, gemm, load_kernels


def _families() -> list:
    """Every module of refinfer/cuda with a kernel table, but the
    elementwise one (its kernels run program.py's runners)."""
    modules = [importlib.import_module(f"refinfer.cuda.{info.name}")
               for info in pkgutil.iter_modules(refinfer.cuda.__path__)]
    return [m for m in modules if hasattr(m, "KERNELS") and m is not elementwise]


FAMILIES = _families()


def _listed(family) -> list:
    """(name, Python function, argument types) of the kernels ``family``
    lists for tools/check_ptx.py (its PTX, or its ptx_kernels())."""
    listed = family.ptx_kernels() if hasattr(family, "ptx_kernels") else family.PTX
    return [(name, getattr(kernel, "py_func", kernel),
             sigutils.normalize_signature(signature)[0])
            for name, kernel, signature in listed]


def _module_kernels(module) -> set:
    """The kernels (not device functions) defined at module level."""
    return {value.py_func for name, value in vars(module).items()
            if hasattr(value, "py_func") and not getattr(value, "_device", False)
            and getattr(value.py_func, "__module__", "") == module.__name__
            and "device" not in type(value).__name__.lower()}


@pytest.mark.parametrize("family", FAMILIES, ids=lambda m: m.__name__)
def test_every_kernel_is_listed_for_the_compile_check(family):
    listed = _listed(family)
    functions = {function for _, function, _ in listed}
    # (gemm's kernels: one per dtype; composite runs the other families')
    assert family in (gemm, composite) or _module_kernels(family)
    assert _module_kernels(family) <= functions
    for name, function, signature in listed:
        assert len(signature) == function.__code__.co_argcount, name


@pytest.mark.parametrize("family", FAMILIES, ids=lambda m: m.__name__)
def test_every_table_entry_is_declared(family):
    assert family.KERNELS
    for op, kernel in family.KERNELS.items():
        assert registry.get_op(op).kernels["cuda"] is kernel


def test_load_kernels_declares_every_family():
    load_kernels()
    declared = {op.name for op in registry.list_ops() if "cuda" in op.kernels}
    tables = [elementwise.KERNELS] + [family.KERNELS for family in FAMILIES]
    tabled = set().union(*tables)
    assert len(tabled) == sum(map(len, tables))     # no op in two tables
    # the rest: variants, their base ops' kernels inherited (cuda/inplace.py)
    inherited = {name for of, name in registry.variants() if of in tabled}
    assert inherited and not inherited & tabled
    assert declared == tabled | inherited
