"""The fast path's plumbing: backend selection, thread control, the Numba
cache directory, compile progress, ``refinfer warmup`` and the command's
OPENBLAS_CORETYPE launcher."""
import io
import json
import os
import subprocess
import sys
import threading
import time

import numba
import numpy as np
import pytest
from threadpoolctl import threadpool_info

import refinfer as mslite
from refinfer import launch
from refinfer import frames, jit, process, threads, warmup
from refinfer.cli import main as cli_main
from refinfer.ops._kernels import conv, program
from refinfer.plan import GraphPlan, Program
from refinfer.runtime import IOSpec

from golden_cases import golden_case


def build(config_dict=None, context=None, config_path=""):
    model = mslite.Model()
    model.build_from_file(golden_case("mlp").model_path, mslite.ModelType.MINDIR,
                          context, config_path=config_path, config_dict=config_dict)
    return model


def test_numba_is_the_default_backend_and_reference_is_selectable(tmp_path):
    assert build()._loaded.backend == "numba"
    chosen = build({"refinfer": {"backend": "reference"}})
    assert chosen._loaded.backend == "reference"
    config = tmp_path / "model.cfg"
    config.write_text("[refinfer]\nbackend=Reference\n")
    assert build(config_path=str(config))._loaded.backend == "reference"
    oracle = build({"refinfer": {"precision": "float64"}})
    assert oracle._loaded.backend == "reference"


def test_unknown_backend_is_refused():
    with pytest.raises(RuntimeError, match=r"backend='cuda'.*numba, reference"):
        build({"refinfer": {"backend": "cuda"}})


def test_backends_agree_through_the_api():
    case = golden_case("mlp")
    results = []
    for backend in ("numba", "reference"):
        model = build({"refinfer": {"backend": backend}})
        results.append(model.predict(case.inputs())[0].get_data_to_numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6, atol=1e-7)


def _blas_threads():
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_thread_num_goes_to_the_workers_or_to_blas():
    """Fast backend: refinfer's workers split the GEMMs, BLAS runs one
    thread; reference backend: BLAS gets the threads. Each predict applies
    its model's settings."""
    context = mslite.Context()
    context.cpu.thread_num = 2
    fast = build(context=context)
    assert threads.current_threads() == 2 and _blas_threads() == {1}
    context.cpu.thread_num = 3
    reference = build({"refinfer": {"backend": "reference"}}, context)
    assert _blas_threads() == {3}
    fast.predict(golden_case("mlp").inputs())
    assert threads.current_threads() == 2 and _blas_threads() == {1}
    reference.predict(golden_case("mlp").inputs())
    assert _blas_threads() == {3}
    default = threads.configure(0)
    assert default.threads == len(threads.available_cores())


def test_parallel_for_covers_the_range_once_and_reraises():
    threads.configure(3)
    seen = []
    threads.parallel_for(10, lambda lo, hi: seen.extend(range(lo, hi)))
    assert sorted(seen) == list(range(10))

    def fail(lo, hi):
        if lo > 0:
            raise ValueError("piece failed")
    with pytest.raises(ValueError, match="piece failed"):
        threads.parallel_for(9, fail)
    threads.configure(1)
    calls = []
    threads.parallel_for(10, lambda lo, hi: calls.append((lo, hi)))
    assert calls == [(0, 10)]


@jit.kernel
def _entry_sums(grid, column, pair, scale, flag, slow, sums, claims, seat):
    """Item k: sums[k] = scale * (grid's row k + column[k] + the pair's
    k-th elements) + flag, and sums[k, 1] = the seat that took it; a pool
    thread's items take ``slow`` rounds of work more each."""
    k = threads.claim(claims)
    while k < sums.shape[0]:
        late = 0.0
        for _ in range(slow if seat else 0):
            late += grid[k].sum() * 1e-30
        sums[k, 0] = scale * (grid[k].sum() + column[k] + pair[0][k]
                              + pair[1][k]) + flag + late * 0.0
        sums[k, 1] = seat
        k = threads.claim(claims)


def _entry_of_sums(kind):
    @numba.cfunc(frames.ENTRY, cache=True)
    def entry(frame, seat):
        _entry_sums(*frames.load(frame, kind), seat)
    return entry


_SUMS = frames.Entries(_entry_of_sums)


def _sums_arguments(rows, rng, slow=0):
    grid = rng.standard_normal((rows, 2, 3))
    column = rng.standard_normal((rows, 2))[:, 1]     # a strided view
    pair = (rng.standard_normal(rows).astype(np.float32),
            rng.standard_normal(rows).astype(np.float32))
    want = 0.5 * (grid.sum(axis=(1, 2)) + column + pair[0] + pair[1]) + 1
    return (grid, column, pair, 0.5, True, slow, np.zeros((rows, 2)),
            np.zeros(1, np.int64)), want


def test_an_entry_point_reads_the_arguments_its_frame_holds():
    """Arrays of any rank and strides, a tuple of arrays, a float and a
    bool reach the kernel through the frame as they were given, on every
    seat; the caller returns once the pool threads that joined are done
    (theirs the slower items); arguments that do not fit in a frame are
    refused."""
    rng = np.random.default_rng(5)
    threads.configure(3)
    seats = set()
    try:
        for round_ in range(50):
            arguments, want = _sums_arguments(97, rng, 20_000 * (round_ % 2))
            _SUMS.run(3, arguments)
            sums = arguments[-2]
            np.testing.assert_allclose(sums[:, 0], want, rtol=1e-12)
            seats.update(sums[:, 1].astype(int).tolist())
    finally:
        threads.configure(1)
    assert 0 in seats and seats <= {0, 1, 2} and len(seats) > 1
    with pytest.raises(ValueError, match="overflow the frame"):
        _SUMS.run(1, (np.zeros((1, 1, 1)),) * 50)


@numba.cfunc(frames.ENTRY, cache=True)
def _does_nothing(frame, seat):
    pass


def test_no_thread_joins_a_job_while_it_is_being_published():
    """A new pool's slot is closed: a thread polling while the first job
    is set up (its seats written, its word not yet) does not join it
    (it would run twice and be counted once: the caller would wait for
    ever)."""
    pool = threads._Pool()
    pool.submitted[threads._SEATS] = 2
    pool.submitted[threads._ENTRY] = _does_nothing.address
    joined = np.full(1, -1, np.int64)
    assert not threads._join(pool.submitted, joined)
    assert pool.submitted[threads._DONE] == 0


def test_native_jobs_of_concurrent_callers_run_alone_or_shared():
    """Two threads calling at once: one job holds the pool's slot, the
    other runs on its caller alone; both give every item once."""
    threads.configure(2)
    failures = []

    def calls(seed):
        threads.configure(2)
        rng = np.random.default_rng(seed)
        for _ in range(200):
            arguments, want = _sums_arguments(64, rng)
            _SUMS.run(2, arguments)
            if not np.allclose(arguments[-2][:, 0], want, rtol=1e-12):
                failures.append(seed)
    callers = [threading.Thread(target=calls, args=(k,), daemon=True)
               for k in range(2)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=60)
    threads.configure(1)
    assert not any(caller.is_alive() for caller in callers) and not failures


@pytest.mark.parametrize("shape, pieces", [
    ((16, 32, 112), 2),     # 6.4M multiply-adds, 2.4 MB moved: by its bytes
    ((64, 64, 16), 1),      # 1M multiply-adds, 0.1 MB: not worth a hand-off
    ((256, 256, 28), 2),    # 51M multiply-adds: by its multiply-adds
])
def test_a_convolution_gemm_splits_for_its_work_or_its_bytes(monkeypatch, shape,
                                                              pieces):
    """A 1x1 convolution's GEMM goes to both threads when each piece gets
    4M multiply-adds or 1 MB of memory traffic, and the pieces give the
    whole product."""
    channels, depth, side = shape
    rng = np.random.default_rng(3)
    weight = rng.standard_normal((channels, depth)).astype(np.float32)
    columns = rng.standard_normal((depth, side * side)).astype(np.float32)
    y = np.empty((channels, side, side), np.float32)
    ranges = []
    run = threads.parallel_for
    monkeypatch.setattr(conv, "parallel_for", lambda count, fn, grain: run(
        count, lambda lo, hi: (ranges.append((lo, hi)), fn(lo, hi)), grain))
    threads.configure(2)
    try:
        conv.Gemm(weight, columns, y, side, np.empty(0, np.float32), None,
                  program.ACT_NONE).run()
    finally:
        threads.configure(1)
    assert len(ranges) == pieces
    np.testing.assert_allclose(y.reshape(channels, -1), weight @ columns,
                               rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("poll_rounds", [threads.SPIN_ROUNDS, 1])
def test_the_caller_waits_for_ranges_that_end_after_it(monkeypatch,
                                                       poll_rounds):
    """The caller's range ends first, then it waits for a pool thread's
    slower one: by polling (the default), or asleep until that thread wakes
    it (one round of polling: it has to sleep). Run in a thread of its
    own, so that a lost wake-up fails the test instead of hanging it."""
    monkeypatch.setattr(threads, "SPIN_ROUNDS", poll_rounds)
    runners, done = [], []

    def piece(lo, hi):
        runners.append(threading.get_ident())
        time.sleep(0.02 if lo == 0 else 0.06)

    def calls():
        threads.configure(2)
        for _ in range(5):
            threads.parallel_for(2, piece)
            done.append(True)
    caller = threading.Thread(target=calls, daemon=True)
    caller.start()
    caller.join(timeout=30)
    assert not caller.is_alive() and len(done) == 5 and len(runners) == 10
    assert len(set(runners)) > 1     # the pool took ranges


def test_affinity_pins_every_thread_and_bad_cores_are_refused():
    before = os.sched_getaffinity(0)
    core = min(before)
    try:
        settings = threads.configure(0, [core])
        assert settings.threads == 1 and os.sched_getaffinity(0) == {core}
        for task in os.listdir("/proc/self/task"):
            assert os.sched_getaffinity(int(task)) == {core}
    finally:
        for task in os.listdir("/proc/self/task"):
            os.sched_setaffinity(int(task), before)
        threads.configure(0)
    with pytest.raises(ValueError, match="do not exist"):
        threads.configure(0, [os.cpu_count() + 5])


def _cache_dir_in(env: dict) -> str:
    code = "from refinfer import jit; print(jit.CACHE_DIR)"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


@pytest.mark.slow     # a fresh process per setting
def test_cache_dir_default_and_user_setting(tmp_path):
    """A folder per version of the kernel sources, under refinfer's default or the user's
    NUMBA_CACHE_DIR; a child process that inherits the folder keeps it."""
    key = process.sources_key()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    assert _cache_dir_in(env) == str(tmp_path / "xdg" / "refinfer" / "numba" / key)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    assert _cache_dir_in(env) == str(tmp_path / "mine" / key)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine" / key)
    assert _cache_dir_in(env) == str(tmp_path / "mine" / key)


def test_the_cache_key_follows_every_kernel_source(tmp_path, monkeypatch):
    """Numba checks a cached kernel against its own file only: a change in a helper it
    compiled in (ops/_fast.py) must give another cache folder."""
    ops = tmp_path / "ops"
    ops.mkdir()
    (ops / "_fast.py").write_text("A = 1\n")
    spec = type("Spec", (), {"submodule_search_locations": [str(ops)]})
    monkeypatch.setattr(process.importlib.util, "find_spec", lambda name: spec)
    before = process.sources_key()
    (ops / "_fast.py").write_text("A = 2\n")
    assert process.sources_key() != before


def test_the_cache_key_follows_the_compiled_settings(monkeypatch):
    """REFINFER_PACKED_TILE changes constants compiled into the kernels:
    each value gets its own cache folder."""
    monkeypatch.delenv("REFINFER_PACKED_TILE", raising=False)
    keys = {process.sources_key()}
    for tile in ("avx2", "avx512"):
        monkeypatch.setenv("REFINFER_PACKED_TILE", tile)
        keys.add(process.sources_key())
    assert len(keys) == 3


@jit.kernel
def _scaled(a, k):
    return a[0] * k


@jit.kernel
def _three_scales(a):
    return _scaled(a, 1) + _scaled(a, 2) + _scaled(a, 3)


def test_a_kernel_called_with_constants_compiles_once_for_their_type():
    """Numba types a constant argument by its value (Literal[int](2)) and
    compiled a helper once per constant; refinfer's kernels type it int64."""
    a = np.array([2.0])
    assert _three_scales(a) == 12.0
    _, _, typed, _ = _scaled.get_call_template(
        (numba.typeof(a), numba.types.literal(2)), {})
    assert typed == (numba.typeof(a), numba.types.int64)
    assert [tuple(sig) for sig in _scaled.signatures] == [typed]


_SIGNATURES_OF_A_RUN = """
import sys
from numba.core.registry import CPUDispatcher
sys.path.insert(0, "tests")
from golden_cases import golden_case
from refinfer.runtime import LoadedModel
for name in sys.argv[1:]:
    case = golden_case(name)
    LoadedModel(case.model_path, backend="numba").run(case.inputs())
for module in list(sys.modules.values()):
    if getattr(module, "__name__", "").startswith("refinfer"):
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and len(value.signatures) > 1:
                print(value.py_func.__qualname__, *value.signatures, sep="\\n  ")
"""


@pytest.mark.slow     # a fresh process compiling four models' kernels
def test_float32_models_compile_each_kernel_once(tmp_path):
    """Compile time is user time: each kernel a float32 model runs is
    compiled for one signature. Arrays of another layout ('A' for a strided
    view, 'C' for a contiguous one), an index of another integer type or an
    argument left to its default compile the whole kernel again (Winograd's
    products as strided views made a second ``packed.multiply``, 1.3 s of
    ResNet-50's cold start). A fresh kernel cache: a kernel loaded from it
    does not type its callees. Our own product forced on, where the CPU
    has it, to run its callers."""
    done = subprocess.run(
        [sys.executable, "-c", _SIGNATURES_OF_A_RUN, "mobilenetv2",
         "resnet50_narrow", "bert_tiny", "efficientnet_style"],
        cwd=os.path.dirname(os.path.dirname(__file__)), capture_output=True,
        text=True, timeout=600,
        env=dict(os.environ, REFINFER_CONV_GEMM="packed",
                 NUMBA_CACHE_DIR=str(tmp_path)))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == ""


_ONE_ACTIVATION = """
import json
import numpy as np
from refinfer.ops._kernels import program
y = np.linspace(-4, 4, 64, dtype=np.float32).reshape(2, 32)
program.columns_kernel(program.ACT_GELU)(y, np.ones(32, np.float32), 0, 32)
print(json.dumps(y.tolist()))
print(json.dumps([name for name in dir(program) if name.endswith("_span")
                  and getattr(getattr(program, name), "signatures", None)]))
"""


def test_a_fused_activation_compiles_that_activation_alone(tmp_path):
    """A product's bias and GeLU compile GeLU's loop, not every heavy
    activation's (4 s of a transformer's first predict): the activation code
    is a constant of the kernel, and Numba prunes the others before typing
    them. A fresh cache, so that the kernel is compiled, not loaded."""
    done = subprocess.run([sys.executable, "-c", _ONE_ACTIVATION],
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    values, compiled = map(json.loads, done.stdout.splitlines())
    x = np.linspace(-4, 4, 64).reshape(2, 32) + 1
    want = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(values, want, rtol=2e-6, atol=2e-6)
    assert compiled == ["_gelu_span"]


def test_progress_reports_compilations_not_cache_loads(capsys):
    """Issue 16, friction 9: the first run printed each kernel's Numba
    signature (internal names included), with no count and no hint."""
    @numba.njit
    def twice(x):
        return x * 2

    with jit.progress(model="m.mindir") as listener:
        twice(np.float32(1))
        twice(np.float32(2))    # compiled already: nothing more
    err = capsys.readouterr().err
    assert listener.count == 1
    lines = err.splitlines()
    assert len(lines) == 2 and "twice" not in err and "float32" not in err
    assert lines[0].startswith("refinfer: compiling the fast kernels of "
                               "m.mindir once") and "`refinfer warmup" in lines[0]
    assert lines[1].startswith("refinfer: 1 kernel(s) compiled in ")
    with jit.progress() as listener:
        twice(np.float32(3))    # a cache hit: silent
    assert listener.count == 0 and capsys.readouterr().err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_counts_steps_on_a_terminal():
    @numba.njit
    def thrice(x):
        return x * 3

    stream = _Terminal()
    with jit.progress(stream, total=4) as listener:
        listener.step()
        thrice(np.float32(1))       # the bar starts here, at step 1 of 4
        for _ in range(3):
            listener.step()
    bar = listener.bar      # tqdm draws at most every 0.1 s: read the bar
    assert (bar.desc, bar.n, bar.total) == ("compiling kernels", 4, 4)
    assert bar.postfix == "1 compiled" and "thrice" not in stream.getvalue()


class _Recorded:
    """A stand-in for runtime.LoadedModel recording the warm-up's run."""
    def __init__(self):
        plan = GraphPlan("main", 1, ["x"], [None], {}, {"x": 0}, [], 0)
        self.path, self.program = "m.mindir", Program({"main": plan}, "main", "numba")
        self.inputs = [IOSpec("x", (2, 3), np.float32)]
        self.runs = []

    def run(self, arrays, hooks=None, **options):
        self.runs.append(([a.shape for a in arrays], hooks, options))
        return []


def test_warmup_steps_a_progress_bar_only_on_a_terminal():
    for stream, hooked in ((io.StringIO(), False), (_Terminal(), True)):
        loaded = _Recorded()
        assert warmup.compile_kernels(loaded, stream) == (0, "")
        [(shapes, hooks, options)] = loaded.runs
        assert shapes == [(2, 3)] and options == {
            "fused": True, "max_calls": warmup.WARMUP_CALLS}
        assert (hooks is not None) == hooked
        if hooked:
            assert hooks.before is None and hooks.after.__name__ == "step"


def test_warmup_command(capsys):
    path = golden_case("lenet5").model_path
    assert cli_main(["warmup", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: ready; ") and "cache: " in out
    assert cli_main(["warmup", "no/such/model.mindir"]) == 3     # a model error


@pytest.mark.parametrize("environ, flags, expected", [
    ({}, launch.SKYLAKEX_FLAGS | {"avx2"}, "SKYLAKEX"),
    ({}, frozenset({"avx2", "fma", "avx512f"}), None),
    ({"OPENBLAS_CORETYPE": "HASWELL"}, launch.SKYLAKEX_FLAGS, None),
])
def test_openblas_coretype_only_where_it_pays_and_never_over_the_user(environ, flags,
                                                                       expected):
    assert launch.openblas_coretype(environ, flags) == expected


def test_cpu_flags_are_read_from_cpuinfo(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f\n")
    assert launch.cpu_flags(str(info)) == {"fpu", "avx2", "avx512f"}
    assert launch.cpu_flags(str(tmp_path / "missing")) == frozenset()
