"""The fuzzer's parts, in this process: the field tree, the mutators, the
cases a seed makes and the classifier of outcomes (tools/fuzzer/)."""
import os
import random
from types import SimpleNamespace

import numpy as np
import pytest

import refinfer
from fuzzer import mutate, pool, worker
from fuzzer import protowire as pw
from refinfer.format import names, schema
from refinfer.step import KernelStep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LENET = os.path.join(ROOT, "golden", "lenet5", "model.mindir")
MLP = os.path.join(ROOT, "golden", "mlp", "model.mindir")
SPLIT = os.path.join(ROOT, "golden", "mlp_split", "model_graph.mindir")
CTRL_IF = os.path.join(ROOT, "golden", "ctrl_if", "model.mindir")
CTRL_RETURN = os.path.join(ROOT, "golden", "ctrl_return_end", "model.mindir")


def _read(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _raised(call, *args) -> BaseException:
    try:
        call(*args)
    except BaseException as exc:    # noqa: BLE001  the exception is the result
        return exc
    raise AssertionError(f"{call.__name__} raised nothing")


def _build(path, **kwargs):
    model = refinfer.Model()
    model.build_from_file(path, refinfer.ModelType.MINDIR, **kwargs)
    return model


# -- the field tree --------------------------------------------------------------

@pytest.mark.parametrize("path", [LENET, SPLIT, CTRL_IF])
def test_an_unmutated_tree_encodes_to_the_same_bytes(path):
    data = _read(path)
    assert pw.encode(pw.decode(data)) == data


def test_the_tree_is_typed_by_refinfers_schema():
    tree = pw.decode(_read(CTRL_IF))
    graph = next(f for f in tree.fields if f.name == "graph")
    assert graph.value.type_name == "GraphProto"
    node = next(f.value for f in graph.value.fields if f.name == "node")
    op_type = next(f for f in node.fields if f.name == "op_type")
    assert op_type.kind == "string" and isinstance(op_type.value, bytes)


def test_negative_ints_are_written_as_int64_varints():
    tree = pw.decode(_read(MLP))
    version = next(f for f in tree.fields if f.name == "mind_ir_version")
    version.value = -1
    proto = schema.ModelProto()
    proto.ParseFromString(pw.encode(tree))
    assert proto.mind_ir_version == -1


# -- mutators and cases -------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(mutate.STRUCT_MUTATORS))
def test_every_structure_mutator_changes_a_model(name):
    """On split weights, or on a model with float attributes and sequence
    attributes."""
    for path in (SPLIT, CTRL_RETURN):
        original = _read(path)
        for seed in range(30):
            tree = pw.decode(original)
            note = mutate.STRUCT_MUTATORS[name](tree, random.Random(seed))
            if note and pw.encode(tree) != original:
                return
    raise AssertionError(f"{name} never changed a model")


@pytest.mark.parametrize("name", sorted(mutate.BYTE_MUTATORS))
def test_every_byte_mutator_changes_a_model(name):
    original = _read(MLP)
    buf = bytearray(original)
    mutate.BYTE_MUTATORS[name](buf, random.Random(1))
    assert bytes(buf) != original


def test_strings_become_invalid_utf8():
    found = False
    for seed in range(40):
        tree = pw.decode(_read(CTRL_IF))
        mutate.string_bad(tree, random.Random(seed))
        for _, _, f in pw.walk(pw.decode(pw.encode(tree))):
            if f.kind == "string":
                try:
                    f.value.decode()
                except UnicodeDecodeError:
                    found = True
    assert found


def test_embedded_weights_can_become_hostile_external_data():
    locations = set()
    for seed in range(40):
        tree = pw.decode(_read(LENET))
        mutate.external_data(tree, random.Random(seed))
        locations |= {f.value for _, _, f in pw.walk(tree) if f.name == "location"}
    assert b"../../etc/passwd" in locations and b"/etc/passwd" in locations


def test_a_graph_can_be_made_to_call_itself():
    tree = pw.decode(_read(MLP))
    mutate.self_call(tree, random.Random(0))
    graph = next(f.value for f in tree.fields if f.name == "graph")
    name = next(f.value for f in graph.fields if f.name == "name")
    op_types = [f.value for _, _, f in pw.walk(graph) if f.name == "op_type"]
    assert b"REF::" + name in op_types


def test_a_case_is_the_same_for_the_same_seed():
    sources = [[mutate.load_source(p) for p in (MLP, SPLIT, CTRL_IF)]]
    first = [mutate.mutated_bytes(mutate.make_case(k, 7, sources, ("numba",)))
             for k in range(20)]
    again = [mutate.mutated_bytes(mutate.make_case(k, 7, sources, ("numba",)))
             for k in range(20)]
    other = [mutate.mutated_bytes(mutate.make_case(k, 8, sources, ("numba",)))
             for k in range(20)]
    assert first == again and first != other


def test_split_weights_come_with_their_data_files():
    source = mutate.load_source(SPLIT)
    assert list(source.companions) == ["model_variables/data_0"]


# -- the classifier ----------------------------------------------------------------

def test_a_case_without_exception_is_ok():
    assert worker.classify(None)[:2] == ("ok", "")


def test_a_truncated_file_is_a_clean_error(tmp_path):
    path = tmp_path / "model.mindir"
    path.write_bytes(_read(LENET)[:5000])
    exc = _raised(_build, str(path))
    assert worker.classify(exc)[0] == "clean"


def test_a_missing_file_is_a_clean_error(tmp_path):
    exc = _raised(_build, str(tmp_path / "nothing.mindir"))
    assert worker.classify(exc)[0] == "clean"


def test_an_exception_escaping_refinfer_is_raw():
    exc = _raised(names.applied_target, None)
    outcome, signature, culprit = worker.classify(exc)
    assert (outcome, culprit) == ("raw", exc)
    assert signature == "raw:AttributeError@refinfer/format/names.py:applied_target"


def test_a_wrapped_programming_error_is_raw(monkeypatch):
    """predict wraps a TypeError as Lite's ``predict failed!``; the root is
    still a TypeError refinfer did not mean to raise."""
    model = _build(MLP, config_dict={"refinfer": {"backend": "reference"}})
    monkeypatch.setattr(model._loaded, "run",
                        lambda *args, **kwargs: names.applied_target(b"bytes"))
    exc = _raised(model.predict, [np.zeros((2, 4), np.float32)])
    assert str(exc).startswith("predict failed!")
    outcome, signature, _ = worker.classify(exc)
    assert outcome == "raw"
    assert signature == "raw:TypeError@refinfer/format/names.py:applied_target"


def test_a_librarys_own_handled_exception_is_not_the_culprit():
    """NumPy's split raises IndexError while handling a TypeError of its
    own; the kernel step wraps the IndexError, which is the culprit."""
    node = SimpleNamespace(scope="n", name="n", op_name="Split", op=None)
    step = KernelStep(node=node, fn=np.split, template=[np.zeros(2), 2, 3],
                      places=(), reads=(), out=0)
    exc = _raised(step.run, [])
    assert isinstance(exc.__cause__.__context__, TypeError)
    outcome, signature, culprit = worker.classify(exc)
    assert (outcome, culprit) == ("raw", exc.__cause__)
    assert signature == "raw:IndexError@refinfer/step.py:run"


def test_a_worker_classifies_without_parsing_once_started(tmp_path,
                                                         monkeypatch):
    """The raise lines of every refinfer file are read when the worker
    starts, so classifying needs no parsing later (at a case that finds
    the worker's address space nearly used up, parsing raised MemoryError)."""
    worker._raise_lines.cache_clear()
    worker._read_raise_lines()

    def no_memory(source):
        raise MemoryError
    monkeypatch.setattr(worker, "ast", SimpleNamespace(parse=no_memory))
    path = tmp_path / "model.mindir"
    path.write_bytes(_read(LENET)[:5000])
    assert worker.classify(_raised(_build, str(path)))[0] == "clean"


def test_a_memory_error_is_memory():
    exc = _raised(np.zeros, (1 << 43,))
    assert worker.classify(exc)[0] == "memory"


def test_inputs_are_skipped_when_shapes_are_not_static():
    model = _build(MLP, config_dict={"refinfer": {"backend": "reference"}})
    tensors = model.get_inputs()
    assert [a.shape for a in worker.input_arrays(tensors, 1)] == [(2, 4)]
    tensors[0]._tensor.shape = [-1, 4]
    assert worker.input_arrays(tensors, 1) is None


def test_a_hang_is_placed_from_faulthandlers_dump():
    log = ('Timeout (0:00:05)!\nThread 0x1 (most recent call first):\n'
           '  File "/x/numba/core/dispatcher.py", line 9 in compile\n'
           '  File "/x/refinfer/executor.py", line 75 in _run_steps\n'
           '  File "/x/refinfer/runtime.py", line 73 in run\n')
    assert pool._innermost_frame(log) == "refinfer/executor.py:_run_steps"



def test_boundscheck_workers_compile_checked_kernels_in_their_own_cache(monkeypatch):
    """``--boundscheck``: the workers inherit NUMBA_BOUNDSCHECK=1 and a cache
    of their own (Numba's cache key ignores the flag: an unchecked kernel
    from the usual cache would be loaded instead)."""
    import fuzz
    from refinfer.process import default_cache_dir, numba_cache_dir

    # a copy of the environment stands in for it: the real one, which every
    # later test's subprocesses inherit, never sees the two variables
    monkeypatch.setattr(os, "environ", {k: v for k, v in os.environ.items()
                                        if k not in ("NUMBA_BOUNDSCHECK",
                                                     "NUMBA_CACHE_DIR")})
    fresh = numba_cache_dir.__wrapped__     # what a new worker process finds
    usual = fresh()
    fuzz._check_bounds_in_workers()
    assert os.environ["NUMBA_BOUNDSCHECK"] == "1"
    assert os.environ["NUMBA_CACHE_DIR"].startswith(default_cache_dir())
    assert fresh() != usual
