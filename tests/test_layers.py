"""The import rules that keep the layers visible (docs/architecture.md):
op files never import op files; kernel modules never import op files;
passes import kernels, not ops; the API never imports the tools; no import
cycle anywhere. Read from the sources (every import, also those inside
functions), so a rule breaks here before it breaks anything at run time."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "refinfer"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


MODULES = _modules()


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> set[str]:
    """The refinfer modules ``module`` imports anywhere in it (a name
    imported from a package counts as its sub-module where it is one)."""
    path = MODULES[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, path.name == "__init__.py", node)
            for alias in node.names:
                child = f"{source}.{alias.name}"
                found.add(child if child in MODULES else source)
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: _imports(module) for module in MODULES}


def _is_op_file(module: str) -> bool:
    parts = module.split(".")
    return parts[:2] == ["refinfer", "ops"] and len(parts) == 3 \
        and not parts[2].startswith("_")


def _offenders(importers, imported) -> list[str]:
    return sorted(f"{a} imports {b}" for a in GRAPH if importers(a)
                  for b in GRAPH[a] if imported(b))


def test_op_files_never_import_op_files():
    assert _offenders(_is_op_file, _is_op_file) == []


def test_kernel_modules_never_import_op_files():
    assert _offenders(lambda m: m.startswith("refinfer.ops._kernels"),
                      _is_op_file) == []


def test_passes_import_kernels_not_ops():
    assert _offenders(lambda m: m.startswith("refinfer.passes"),
                      _is_op_file) == []


def test_the_api_never_imports_the_tools():
    assert _offenders(lambda m: m.startswith("refinfer.api"),
                      lambda m: m.startswith("refinfer.tools")) == []


# Outside refinfer/cuda, only these may import it: `refinfer ops` lists the
# ops with a cuda kernel.
CUDA_LISTERS = {"refinfer.cli.ops"}


def test_the_cpu_path_never_imports_the_cuda_backend():
    """refinfer/cuda is imported by a GPU run only (numba.cuda costs 0.6 s)."""
    assert _offenders(lambda m: not m.startswith("refinfer.cuda")
                      and m not in CUDA_LISTERS,
                      lambda m: m.startswith("refinfer.cuda")) == []
    assert all(any(b.startswith("refinfer.cuda") for b in GRAPH[m])
               for m in CUDA_LISTERS)


def _imports_numba_cuda(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import) and any(
                alias.name.startswith("numba.cuda") for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (
                (node.module or "").startswith("numba.cuda") or node.module == "numba"
                and any(alias.name == "cuda" for alias in node.names)):
            return True
    return False


def test_one_module_imports_numba_cuda():
    """A switch to numba-cuda-mlir (another import) is one line."""
    assert sorted(m for m, path in MODULES.items()
                  if _imports_numba_cuda(path)) == ["refinfer.cuda.device"]


def _cycles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return groups


def test_no_import_cycles():
    assert _cycles() == []


@pytest.mark.parametrize("module", ["refinfer.ops.add", "refinfer.api.model",
                                    "refinfer.cuda.elementwise"])
def test_the_rules_see_real_imports(module):
    """The checker finds imports at all (a checker that reads nothing
    would pass every rule)."""
    assert GRAPH[module]
