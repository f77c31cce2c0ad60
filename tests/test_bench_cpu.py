"""tools/bench.py on the CPU: the header names the CPU's instruction-set
extensions, and a one-round smoke run on a golden MLP fills refinfer's
column and says why the peers without an ONNX file (ONNX Runtime,
OpenVINO, onnx.reference) are missing. The speed itself is measured by
running the tool, never asserted."""
import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from golden_cases import as_bench_model
from refinfer.cpu import cpu_field
from refinfer.ops._kernels.blas import _mkl_library

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_bench():
    """tools/bench.py as a module (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        "bench", os.path.join(ROOT, "tools", "bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


def test_the_header_names_the_cpus_extensions():
    with open("/proc/cpuinfo") as f:
        flags = set(next(line for line in f if line.startswith("flags"))
                    .split(":", 1)[1].split())
    found = bench.cpu_flags()
    assert found == [flag for flag in bench.CPU_FLAGS if flag in flags]
    assert "avx2" in found or "avx2" not in flags
    assert f"({', '.join(found) or 'no AVX2'})" in bench.machine()
    family, model = cpu_field("cpu family"), cpu_field("model")
    assert f", family {family} model {model} (" in bench.machine() or not family


@pytest.mark.slow
@pytest.mark.parametrize("variant", [["--blas-mkl"],
                                     ["--setting", "REFINFER_CONV_GEMM=blas"]])
def test_a_cpu_run_on_a_small_model(tmp_path, variant):
    as_bench_model("mlp", tmp_path, "2")
    report = tmp_path / "report.md"
    done = subprocess.run(
        [sys.executable, bench.__file__, "--models", "mlp", "--batches", "2",
         "--threads", "1", "--rounds", "1", "--skip-cold", "--skip-dispatch",
         "--msenv", "", "--markdown", str(report)] + variant,
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**os.environ, "PYTHONPATH": ROOT, "REFINFER_BENCH_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    text = report.read_text()
    header = text.splitlines()[2]
    row = next(line for line in text.splitlines() if line.startswith("| mlp | 2 | 1 |"))
    cells = [c.strip() for c in row.split("|")]
    setting = variant[-1] if variant[0] == "--setting" else "REFINFER_BLAS=mkl"
    if variant == ["--blas-mkl"] and _mkl_library() is None:   # says why no column
        assert f"- refinfer@{setting}: the mkl extra is not installed" in text, text
    else:                           # its column beside refinfer's, then the peers
        assert header.split("|")[5:7] == [f" refinfer, {setting} ms ", " ratio "]
        assert float(cells[5]) > 0 and float(cells[6]) > 0, row
        del cells[5:7]
    assert header.replace(f" refinfer, {setting} ms | ratio |", "").split("|")[4:10] == [
        " refinfer ms ", " ORT ms ", " ratio ", " OpenVINO ms ", " ratio ",
        " MindSpore ms "]
    assert float(cells[4]) > 0 and cells[5] == cells[7] == "-", row
    for engine, module in (("ort", "onnxruntime"), ("openvino", "openvino")):
        assert re.search(rf"- ({engine}: {module} not installed|mlp b2 t1: {engine} "
                         rf"skipped)", text), text


def test_a_setting_is_name_equals_value_and_one_at_a_time():
    for argv, message in ((["--setting", "packed"], "not NAME=VALUE: 'packed'"),
                          (["--setting", "A=1", "--blas-mkl"], "not allowed with")):
        done = subprocess.run([sys.executable, bench.__file__] + argv,
                              capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env={**os.environ, "PYTHONPATH": ROOT})
        assert done.returncode == 2 and message in done.stderr, done.stderr


@pytest.mark.slow
def test_the_cold_start_names_its_slowest_compiles(tmp_path, monkeypatch):
    """A fresh process on an empty kernel cache compiles, and says which
    kernels took longest; on the warm cache that follows it compiles none."""
    as_bench_model("mlp", tmp_path, "1")
    monkeypatch.setattr(bench, "BENCH_DIR", str(tmp_path))
    cold = bench.cold_start("mlp")
    empty, warm = cold["empty_cache"], cold["warm_cache"]
    slowest = empty["slowest_compiles_s"]
    assert empty["kernels_compiled"] >= 1
    assert 1 <= len(slowest) <= bench.SLOWEST_SHOWN
    assert all(0 < s <= empty["in_process_s"] for s in slowest.values()), slowest
    assert warm["kernels_compiled"] == 0 and warm["slowest_compiles_s"] == {}
    line = bench.markdown([], cold, None, [], "")
    shown = ", ".join(f"{k} {v:.1f} s" for k, v in slowest.items())
    assert f"(slowest: {shown})" in line, line


def test_openvino_multiplies_in_float32(tmp_path):
    """OpenVINO's default on CPUs with AVX512_BF16 or AMX is bfloat16
    (about 3 significant digits): the benchmark asks for float32, as it
    runs every other engine."""
    ov = pytest.importorskip("openvino")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    w = rng.standard_normal((256, 64)).astype(np.float32)
    x = rng.standard_normal((8, 256)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "matmul",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, (8, 64))],
        [numpy_helper.from_array(w, "w")])
    path = tmp_path / "matmul.onnx"
    onnx.save(helper.make_model(graph), path)
    compiled = ov.Core().compile_model(str(path), "CPU", bench.openvino_config(1))
    assert compiled.get_property("INFERENCE_PRECISION_HINT") == ov.Type.f32
    y = compiled.create_infer_request().infer({0: x})[0]
    np.testing.assert_allclose(y, x.astype(np.float64) @ w, rtol=1e-4, atol=1e-4)
