"""Weights shared across processes (refinfer/sharing.py, docs/weight-sharing.md).

Workers are separate Python processes (``subprocess``) speaking a line protocol on
stdin/stdout, every read with a timeout, every process killed at the end of its test. They
run the reference backend (no kernel compilation at build: faster tests); the in-process
tests use the default fast backend, whose derived constants are shared too. The module
checks that it leaves no segment behind in /dev/shm.
"""
from __future__ import annotations

import os
import select
import signal
import stat
import struct
import subprocess
import sys
import time

import numpy as np
import pytest

import refinfer as mslite
from refinfer import sharing
from refinfer.format import reader
from refinfer.ops._kernels import packed
from refinfer.stored import StoredWeight

from golden_cases import golden_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP = os.path.join(ROOT, "golden", "mlp", "model.mindir")
MLP_INPUT = os.path.join(ROOT, "golden", "mlp", "input_0.npy")
OTHER_MLP = os.path.join(ROOT, "golden", "mlp_update", "model.mindir")  # same net, weights differ
EXAMPLE = os.path.join(ROOT, "examples", "weight_sharing", "three_processes.py")
TIMEOUT = 60

pytestmark = pytest.mark.skipif(not os.path.isdir(sharing.SHM_DIR), reason="no /dev/shm")

# A worker: prints its PID, reads a handle, builds, then answers "predict" lines.
WORKER = r"""
import sys, numpy as np, refinfer as mslite
model_path, input_path = sys.argv[1:3]
model = mslite.Model()
print(model.get_model_info("current_pid"), flush=True)
handle = sys.stdin.readline().strip()
try:
    model.build_from_file(model_path, mslite.ModelType.MINDIR, config_dict={
        "cpu_context": {"shareable_weight_mem_handle": handle},
        "refinfer": {"backend": "reference"}})
except RuntimeError as exc:
    print("ERROR", str(exc).replace("\n", " "), flush=True)
    sys.exit(3)
print("BUILT", flush=True)
x = np.load(input_path)
for line in sys.stdin:
    if line.strip() != "predict":
        break
    print("OUT", model.predict([x])[0].get_data_to_numpy().tobytes().hex(), flush=True)
"""

# A master: publishes for the PIDs in argv, prints the handle, waits for a line, exits
# without freeing its model (the exit must unlink the segment).
MASTER = r"""
import sys, refinfer as mslite
model = mslite.Model()
model.build_from_file(sys.argv[1], mslite.ModelType.MINDIR, config_dict={
    "ascend_context": {"shareable_weight_pid_list": sys.argv[2]},
    "refinfer": {"backend": "reference"}})
print(model.get_model_info("shareable_weight_mem_handle"), flush=True)
sys.stdin.readline()
"""


class Proc:
    """A Python subprocess with line I/O and timeouts."""

    def __init__(self, code: str, *args, new_session=False):
        self.popen = subprocess.Popen([sys.executable, "-c", code, *map(str, args)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                      start_new_session=new_session)

    def line(self) -> str:
        ready, _, _ = select.select([self.popen.stdout], [], [], TIMEOUT)
        assert ready, "no answer from the subprocess in time"
        text = self.popen.stdout.readline()
        assert text, "subprocess ended: " + self.popen.stderr.read()[-2000:]
        return text.strip()

    def send(self, text: str) -> None:
        self.popen.stdin.write(text + "\n")
        self.popen.stdin.flush()

    def predict(self) -> np.ndarray:
        self.send("predict")
        kind, payload = self.line().split(" ", 1)
        assert kind == "OUT", payload
        return np.frombuffer(bytes.fromhex(payload), np.float32)

    def finish(self) -> int:
        """Wait for the exit (killing the process if it takes too long); the exit code."""
        try:
            return self.popen.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            return self.popen.wait(TIMEOUT)


@pytest.fixture
def procs():
    started = []

    def start(code, *args, **kwargs):
        started.append(Proc(code, *args, **kwargs))
        return started[-1]

    yield start
    for proc in started:
        proc.popen.kill()
        proc.popen.wait(TIMEOUT)
        for stream in (proc.popen.stdin, proc.popen.stdout, proc.popen.stderr):
            stream.close()


@pytest.fixture(autouse=True, scope="module")
def no_segment_left_behind():
    """New segments still there after the module must belong to a live process other than
    this one (another test run on the machine); this process's and dead ones' are leaks."""
    before = set(sharing.segment_names())
    yield
    leaked = [name for name in set(sharing.segment_names()) - before if _leaked(name)]
    assert not leaked, f"shared memory leaked: {leaked}"


def _leaked(name) -> bool:
    try:
        with open(os.path.join(sharing.SHM_DIR, name), "rb") as f:
            _, owner, start, _, _ = sharing.HEADER.unpack(f.read(sharing.HEADER.size))
    except (FileNotFoundError, struct.error):
        return False
    return owner == os.getpid() or not sharing._alive(owner, start)


def master(pids, path=MLP) -> mslite.Model:
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR, config_dict={
        "cpu_context": {"shareable_weight_pid_list": ", ".join(map(str, pids))}})
    return model


def worker(handle, path=MLP, section="cpu_context") -> mslite.Model:
    model = mslite.Model()
    model.build_from_file(path, mslite.ModelType.MINDIR, config_dict={
        section: {"shareable_weight_mem_handle": str(handle)}})
    return model


def output(model) -> np.ndarray:
    return model.predict([np.load(MLP_INPUT)])[0].get_data_to_numpy().reshape(-1)


def segment_path(model) -> str:
    return os.path.join(sharing.SHM_DIR, model._shared.name)


# -- in one process -----------------------------------------------------------------------------
def test_worker_runs_on_the_masters_pages_without_a_copy():
    own = master([os.getpid()])
    handle = own.get_model_info("shareable_weight_mem_handle")
    assert handle.isdigit() and 0 < int(handle) < 2 ** 63      # fits Lite's C int64 Value
    assert stat.S_IMODE(os.stat(segment_path(own)).st_mode) == 0o600
    other = worker(handle, section="ascend_context")
    expected = np.load(os.path.join(ROOT, "golden", "mlp", "output_0.npy")).reshape(-1)
    np.testing.assert_allclose(output(other), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(output(other), output(own))
    mapped = _mapped_ranges(segment_path(own))
    for name, array in other._loaded.parameters().items():
        address = array.__array_interface__["data"][0]
        assert not array.flags.writeable, name
        assert any(lo <= address < hi for lo, hi in mapped), f"{name} is a copy"
    del own
    assert other.predict([np.load(MLP_INPUT)])      # the mapping outlives the name


def test_a_worker_never_reads_the_weights_of_its_model_file(monkeypatch):
    """No second parse: the reader takes the segment's views in place of the file's bytes."""
    own = master([os.getpid()])
    handle = own.get_model_info("shareable_weight_mem_handle")
    reads, original = [], reader._WeightFiles._embedded
    monkeypatch.setattr(reader._WeightFiles, "_embedded",
                        lambda self, t, *span: reads.append(t.name) or original(self, t, *span))
    other = worker(handle)
    assert reads == []
    np.testing.assert_array_equal(output(other), output(own))
    mslite.Model().build_from_file(MLP, mslite.ModelType.MINDIR)    # the spy itself works
    assert len(reads) == len(other._loaded.parameters())


@pytest.mark.parametrize("name, inside", [("lenet5", None), ("resnet18_narrow", True),
                                          ("mobilenetv2", True)])
def test_constants_the_fast_plan_derives_are_shared_too(name, inside):
    """The default (fast) backend: folded and packed weights live in the plan, some inside
    the objects fused kernels take (packed weights, MobileNetV2's blocks); the worker's
    copies of them must be the master's pages as well. (LeNet-5's are inside objects
    where its convolutions' small planes take the channels as lanes.)"""
    if inside is None:
        inside = packed.channels_columns(np.float32, 100) > 0
    path = os.path.join(ROOT, "golden", name, "model.mindir")
    own = master([os.getpid()], path)
    other = worker(own.get_model_info("shareable_weight_mem_handle"), path)
    mapped = _mapped_ranges(segment_path(own))
    big = [(place, a) for place, a in sharing._plan_constants(other._loaded.program)
           if a.nbytes >= sharing.MIN_DERIVED_BYTES]
    assert big and any(sharing.INSIDE in place for place, _ in big) is inside
    for place, array in big:
        address = array.__array_interface__["data"][0]
        assert any(lo <= address < hi for lo, hi in mapped), f"{place} is a private copy"
    x = np.random.default_rng(5).standard_normal(own.get_inputs()[0].shape, np.float32)
    np.testing.assert_array_equal(other.predict([x])[0].get_data_to_numpy(),
                                  own.predict([x])[0].get_data_to_numpy())


@pytest.mark.parametrize("layout", ["packed", "transposed"])
def test_a_transformers_segment_holds_its_weights_once(layout, monkeypatch):
    """The fast plan reads a product's weight (Dense, MatMul) as it was stored at load
    (passes/gemm.py): packed for our own product (forced here, as on AMD and AVX2 CPUs;
    refinfer/stored.py), or W^T contiguous for BLAS. The segment holds it once, in that
    layout, and the worker's products read the segment's copy as the master's do."""
    monkeypatch.setattr(packed, "serves", lambda dtype: layout == "packed"
                        and dtype == np.float32)
    path = os.path.join(ROOT, "golden", "bert_tiny", "model.mindir")
    own = master([os.getpid()], path)
    other = worker(own.get_model_info("shareable_weight_mem_handle"), path)
    mine, theirs = (m._loaded.parameters(unpack=False) for m in (own, other))
    size = sum(value.nbytes for value in mine.values())
    assert os.path.getsize(segment_path(own)) < 1.2 * size      # was 1.93x
    mapped = _mapped_ranges(segment_path(own))
    stored = [n for n, value in theirs.items() if isinstance(value, StoredWeight)]
    transposed = [n for n, value in theirs.items() if isinstance(value, np.ndarray)
                  and value.ndim == 2 and value.T.flags.c_contiguous]
    assert len(stored if layout == "packed" else transposed) >= 4
    for name in stored:
        address = theirs[name].layout.slivers.__array_interface__["data"][0]
        assert any(lo <= address < hi for lo, hi in mapped), name
        assert isinstance(mine[name], StoredWeight), name
    for name in stored + transposed:
        np.testing.assert_array_equal(other._loaded.parameters()[name],
                                      own._loaded.parameters()[name])
    inputs = golden_case("bert_tiny").inputs()
    np.testing.assert_array_equal(other.predict(inputs)[0].get_data_to_numpy(),
                                  own.predict(inputs)[0].get_data_to_numpy())


def test_a_worker_refuses_weights_packed_for_another_tile():
    """Packed slivers are laid out for one register tile (REFINFER_PACKED_TILE)."""
    entry = {"name": "w", "shape": [4, 8], "offset": 0,
             "packed": {"tile": [1, 2], "transposed": True, "size": 64}}
    with pytest.raises(sharing.SharingError, match=r"weight 'w' is packed for a 1 x 2 "
                       r"tile, this process's products use \d+ x \d+: run the master "
                       r"and the workers with the same REFINFER_PACKED_TILE"):
        sharing._packed_view(None, 0, entry)


def _mapped_ranges(path) -> list[tuple[int, int]]:
    with open("/proc/self/maps") as f:
        return [tuple(int(v, 16) for v in line.split()[0].split("-"))
                for line in f if line.rstrip().endswith(path)]


def test_the_segment_goes_with_the_masters_model():
    model = master([1])
    path = segment_path(model)
    assert os.path.exists(path)
    del model
    assert not os.path.exists(path)


@pytest.mark.parametrize("config, message", [
    ({"cpu_context": {"shareable_weight_pid_list": "1", "shareable_weight_mem_handle": "5"}},
     "cannot both be set"),
    ({"ascend_context": {"shareable_weight_pid_list": "12, abc"}},
     "must list process ids separated by commas"),
    ({"cpu_context": {"shareable_weight_mem_handle": "0x12"}}, "must be the number"),
])
def test_config_errors(config, message):
    with pytest.raises(RuntimeError, match="build_from_file failed! Error is .*" + message):
        mslite.Model().build_from_file(MLP, mslite.ModelType.MINDIR, config_dict=config)


def test_unknown_handle():
    model = master([os.getpid()])
    handle = int(model.get_model_info("shareable_weight_mem_handle"))
    for other in (12345, handle ^ 1, handle + 2 ** 63):
        with pytest.raises(RuntimeError, match="no shared weights have handle"):
            worker(other)


@pytest.mark.parametrize("path", [OTHER_MLP, os.path.join(ROOT, "golden", "lenet5",
                                                           "model.mindir")])
def test_a_worker_built_from_another_model_file_is_told_so(path):
    model = master([os.getpid()])          # alive: its segment stays
    handle = model.get_model_info("shareable_weight_mem_handle")
    with pytest.raises(RuntimeError, match="belong to another model file"):
        worker(handle, path)


def test_segments_others_could_open_are_refused():
    model = master([os.getpid()])
    os.chmod(segment_path(model), 0o644)
    with pytest.raises(RuntimeError, match="must belong to this user and be private"):
        worker(model.get_model_info("shareable_weight_mem_handle"))


# -- the handle and the segment's name and table (issue 17) ---------------------------------
def test_a_directory_listing_tells_nothing_about_the_handle():
    """The name is random, not the handle: /dev/shm/refinfer_w_<hex(handle)> was."""
    models = [master([os.getpid()]) for _ in range(2)]
    for model in models:
        handle = int(model.get_model_info("shareable_weight_mem_handle"))
        name = model._shared.name
        assert name.startswith(sharing.PREFIX) and len(name) == len(sharing.PREFIX) + 32
        assert f"{handle:x}" not in name and str(handle) not in name
        assert sharing.find(handle)[0] == name
    assert models[0]._shared.name != models[1]._shared.name


def test_the_table_is_sealed_with_the_handle():
    """Without the handle, the header shows neither whitelist, fingerprint nor tensors."""
    model = master([4242424])
    with open(segment_path(model), "rb") as f:
        header = f.read(sharing.find(model._shared.handle)[2])
    assert header.startswith(sharing.MAGIC)
    for secret in (b"4242424", b"whitelist", b"fingerprint", b"fc1",
                   sharing.model_fingerprint(MLP).hex().encode()):
        assert secret not in header, secret


def test_a_tampered_table_opens_for_no_handle():
    model = master([os.getpid()])
    handle = model.get_model_info("shareable_weight_mem_handle")
    with open(segment_path(model), "r+b") as f:
        f.seek(sharing.HEADER.size + sharing.SEAL.size + 5)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 1]))
    with pytest.raises(RuntimeError, match="no shared weights have handle"):
        worker(handle)


def dead_owners_segment() -> str:
    """A segment whose owner is gone (this PID with another start time: a reused PID)."""
    path = os.path.join(sharing.SHM_DIR, f"{sharing.PREFIX}test_{os.getpid()}_{time.time_ns()}")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, sharing.HEADER.pack(sharing.MAGIC, os.getpid(), 1, 4096, 0))
    os.close(fd)
    return path


def test_every_build_sweeps_segments_of_dead_owners():
    """A plain build (no sharing configured) sweeps too: before, only a master or worker
    did, once per process."""
    for _ in range(2):
        path = dead_owners_segment()
        mslite.Model().build_from_file(MLP, mslite.ModelType.MINDIR)
        assert not os.path.exists(path)


@pytest.mark.slow     # fresh processes
def test_importing_the_sharing_module_sweeps_but_importing_refinfer_does_not():
    path = dead_owners_segment()
    try:
        subprocess.run([sys.executable, "-c", "import refinfer"], check=True, cwd=ROOT,
                       timeout=TIMEOUT)
        assert os.path.exists(path)
        subprocess.run([sys.executable, "-c", "import refinfer.sharing"], check=True,
                       cwd=ROOT, timeout=TIMEOUT)
        assert not os.path.exists(path)
    finally:
        if os.path.exists(path):
            os.unlink(path)


# -- across processes -------------------------------------------------------------------------
def start_workers(procs, count: int) -> list[tuple[Proc, int]]:
    """Workers started together (imports take a while), with their PIDs."""
    started = [procs(WORKER, MLP, MLP_INPUT) for _ in range(count)]
    return [(proc, int(proc.line())) for proc in started]


@pytest.mark.slow     # worker processes
def test_a_process_outside_the_whitelist_is_refused(procs):
    (outsider, _), = start_workers(procs, 1)
    model = master([os.getpid() + 100_000])
    outsider.send(model.get_model_info("shareable_weight_mem_handle"))
    answer = outsider.line()
    assert answer.startswith("ERROR") and "is not in the master's shareable_weight_pid_list" \
        in answer
    assert outsider.finish() == 3


@pytest.mark.slow     # worker processes
def test_a_killed_worker_breaks_neither_master_nor_other_worker(procs):
    (first, pid1), (second, pid2) = start_workers(procs, 2)
    model = master([0, pid1, pid2])
    path = segment_path(model)
    for proc in (first, second):
        proc.send(model.get_model_info("shareable_weight_mem_handle"))
        assert proc.line() == "BUILT"
    expected = output(model)
    np.testing.assert_array_equal(first.predict(), expected)
    first.popen.send_signal(signal.SIGKILL)
    assert first.finish() == -signal.SIGKILL
    np.testing.assert_array_equal(output(model), expected)
    np.testing.assert_array_equal(second.predict(), expected)
    del model                                    # the master frees its model
    assert not os.path.exists(path)
    np.testing.assert_array_equal(second.predict(), expected)


@pytest.mark.slow     # worker processes
def test_a_worker_exiting_does_not_unlink_the_segment(procs):
    """Python 3.11's resource tracker unlinks segments an attaching process registered
    (cpython#82300); workers must not register them."""
    (first, pid1), (second, pid2) = start_workers(procs, 2)
    model = master([pid1, pid2])
    handle = model.get_model_info("shareable_weight_mem_handle")
    first.send(handle)
    assert first.line() == "BUILT"
    first.send("exit")
    assert first.finish() == 0
    time.sleep(0.2)                              # a tracker would unlink right after the exit
    assert os.path.exists(segment_path(model))
    second.send(handle)
    assert second.line() == "BUILT"
    np.testing.assert_array_equal(second.predict(), output(model))


@pytest.mark.slow     # worker processes
def test_segments_go_when_masters_exit_or_are_swept_when_killed(procs):
    """A master that exits unlinks its segment. Killing a master's whole process group
    kills its resource tracker too: that segment stays until the next sweep."""
    exiting = procs(MASTER, MLP, "1")
    killed = procs(MASTER, MLP, "1", new_session=True)
    exiting_name, killed_name = (sharing.find(int(p.line()))[0] for p in (exiting, killed))
    assert {exiting_name, killed_name} <= set(sharing.segment_names())
    exiting.send("exit")
    assert exiting.finish() == 0
    assert exiting_name not in sharing.segment_names()
    os.killpg(killed.popen.pid, signal.SIGKILL)
    killed.finish()
    assert killed_name in sharing.segment_names()
    assert killed_name in sharing.sweep()
    assert killed_name not in sharing.segment_names()


WHOLE_WRITES = ("import io, runpy, sys; sys.stdout = io.TextIOWrapper(io.BufferedWriter("
                "io.FileIO(1, 'w', closefd=False), 1 << 20)); "
                "runpy.run_path(sys.argv[1], run_name='__main__')")


@pytest.mark.slow     # worker processes
def test_the_reference_pages_three_process_program(tmp_path):
    """examples/weight_sharing/three_processes.py (Lite's page, MobileNetV2, 1 master and 2
    workers with multiprocessing): every process predicts, nothing stays in /dev/shm.
    The three processes print at once: their output goes to a file opened for appending,
    where each write lands whole (a pipe interleaves writes over 4 KiB), and the script
    runs with a 1 MiB stdout buffer that its forked processes inherit, so that each
    writes its ~13 KB once, at its exit: with Python's 8 KiB buffer a process's last
    line could be cut in two by another's write (twice in CI: a process's "spend time"
    line missing, exit codes 0, stderr empty)."""
    with open(tmp_path / "stdout.txt", "ab") as out:
        done = subprocess.run([sys.executable, "-c", WHOLE_WRITES,
                               os.path.basename(EXAMPLE)], stdout=out,
                              stderr=subprocess.PIPE, text=True, timeout=240,
                              cwd=os.path.dirname(EXAMPLE),
                              env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    stdout = (tmp_path / "stdout.txt").read_text()
    assert done.returncode == 0, done.stderr[-3000:]
    for index in range(3):      # (a worker's failure shows only on stderr)
        assert f"share  {index} spend time:" in stdout, \
            f"stdout:\n{stdout[-6000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert "shareable handle:" in stdout and "Traceback" not in done.stderr
