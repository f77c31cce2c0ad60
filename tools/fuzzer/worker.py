"""The fuzz worker: builds and runs one case after another, in its own
process, and classifies what happened.

Run as a script by ``pool.Worker``: it limits its address space, then reads
one JSON request a line on stdin and answers one JSON line on its protocol
stream (the original stdout; anything refinfer prints goes to stderr). A
request names a model file; the worker builds it with ``refinfer.Model``
and, when the declared input shapes are known and small, predicts on
seeded inputs of those shapes and reads the outputs. ``faulthandler``
dumps the stacks and ends the process when a case runs past its time
limit, so the parent learns where it hung.

Outcomes (``classify``):

- ``ok``: built and predicted (or built, when the inputs are not static).
- ``clean``: refinfer refused the file on purpose. The outermost exception
  was raised by a ``raise`` statement in refinfer (its own classes, Lite's
  ``RuntimeError("build_from_file failed! ...")`` / ``predict failed!``),
  and so was the innermost exception of its cause chain, or that innermost
  one is a data error refinfer wraps by design (``ValueError``,
  ``OSError``, protobuf's ``DecodeError``: the message it wraps says what is
  wrong with the data).
- ``raw``: anything else: an exception escaping unwrapped from refinfer,
  NumPy or protobuf, or a wrapped one whose root is a programming error
  (``TypeError``, ``IndexError``, ``KeyError``, ``RecursionError``, ...).
- ``memory``: a ``MemoryError`` not raised by refinfer itself, anywhere
  in the chain.

The pool adds ``crash`` (the worker died) and ``hang`` (time limit).
"""
from __future__ import annotations

import ast
import faulthandler
import functools
import glob
import json
import os
import resource
import sys
import threading
import traceback

MAX_PREDICT_ELEMENTS = 1 << 24
TRACEBACK_CHARS = 6000


@functools.lru_cache(maxsize=None)
def _refinfer_dir() -> str:
    """The refinfer package's folder."""
    import refinfer
    return os.path.dirname(os.path.abspath(refinfer.__file__))


def _data_errors() -> tuple[type, ...]:
    from google.protobuf.message import DecodeError
    return (ValueError, OSError, DecodeError)


# -- classification ------------------------------------------------------------

def chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes, outermost first: explicit ``from`` causes,
    and the exception being handled when refinfer raised one of its own
    (the one a library handled inside itself is not refinfer's doing)."""
    found = []
    while exc is not None and exc not in found:
        found.append(exc)
        if exc.__cause__ is not None:
            exc = exc.__cause__
        elif deliberate(exc) and not exc.__suppress_context__:
            exc = exc.__context__
        else:
            break
    return found


def _frames(exc: BaseException) -> list[tuple[str, int, str]]:
    """(file, line, function) of each frame of ``exc``'s traceback,
    outermost first."""
    return [(f.filename, f.lineno, f.name)
            for f in traceback.extract_tb(exc.__traceback__)]


def _in_refinfer(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_refinfer_dir() + os.sep)


@functools.lru_cache(maxsize=None)
def _raise_lines(filename: str) -> frozenset[int]:
    """The lines of ``filename`` that belong to a ``raise`` statement."""
    with open(filename) as f:
        tree = ast.parse(f.read())
    return frozenset(line for node in ast.walk(tree) if isinstance(node, ast.Raise)
                     for line in range(node.lineno, node.end_lineno + 1))


def _read_raise_lines() -> None:
    """Every refinfer file's raise lines, read before the first case (1 s):
    classifying the error of a case that came after cases which used up most
    of the worker's address space must not need memory for parsing (seed 36
    found a MemoryError in ast.parse that way, reported as refinfer's)."""
    for filename in glob.glob(os.path.join(_refinfer_dir(), "**", "*.py"),
                              recursive=True):
        _raise_lines(filename)


def deliberate(exc: BaseException) -> bool:
    """Whether refinfer raised ``exc`` itself: its innermost frame is a
    ``raise`` statement in refinfer."""
    frames = _frames(exc)
    if not frames:
        return False
    filename, line, _ = frames[-1]
    return _in_refinfer(filename) \
        and line in _raise_lines(os.path.abspath(filename))


def where(exc: BaseException) -> str:
    """The innermost refinfer frame of ``exc`` (``refinfer/x.py:function``),
    else its innermost frame."""
    frames = _frames(exc)
    inside = [f for f in frames if _in_refinfer(f[0])] or frames
    if not inside:
        return "?"
    filename, _, function = inside[-1]
    return f"{_short_path(filename)}:{function}"


def _short_path(filename: str) -> str:
    path = os.path.abspath(filename)
    if path.startswith(_refinfer_dir() + os.sep):
        return "refinfer/" + os.path.relpath(path, _refinfer_dir())
    return os.path.basename(path)


def classify(exc: BaseException | None) -> tuple[str, str, BaseException | None]:
    """(outcome, signature, the exception the signature describes) of a
    case that raised ``exc`` (None: it did not)."""
    if exc is None:
        return "ok", "", None
    links = chain(exc)
    memory = [e for e in links if isinstance(e, MemoryError) and not deliberate(e)]
    if memory:
        return "memory", _signature("memory", memory[-1]), memory[-1]
    root = links[-1]
    if not deliberate(links[0]):
        culprit = next((e for e in links if not deliberate(e)), root)
        return "raw", _signature("raw", culprit), culprit
    if deliberate(root) or isinstance(root, _data_errors()):
        return "clean", "", links[0]
    return "raw", _signature("raw", root), root


def _signature(outcome: str, exc: BaseException) -> str:
    return f"{outcome}:{type(exc).__name__}@{where(exc)}"


def describe(exc: BaseException | None) -> str:
    """The first line of ``exc``'s message, shortened."""
    if exc is None:
        return ""
    lines = str(exc).splitlines() or [""]
    return f"{type(exc).__name__}: {lines[0][:300]}"


# -- running a case --------------------------------------------------------------

def input_arrays(tensors, seed: int):
    """Seeded inputs of the declared shapes and dtypes (zeros for half the
    seeds); None when a shape is not static or too big to be worth it."""
    import numpy as np
    from refinfer.api.enums import numpy_type
    rng = np.random.default_rng(seed)
    arrays = []
    for tensor in tensors:
        shape, np_type = list(tensor.shape), numpy_type(tensor.dtype)
        if np_type is None or any(d < 0 for d in shape) or \
                np.prod(shape, dtype=float) > MAX_PREDICT_ELEMENTS:
            return None
        array = np.zeros(shape, np_type)
        if seed % 2:
            array[...] = rng.standard_normal(shape).astype(np_type)
        arrays.append(array)
    return arrays


def run_case(request: dict, notify) -> dict:
    """Build and predict the case in ``request``; ``notify(stage)`` is
    called as each stage starts, so a hang can be placed."""
    import refinfer
    stage, exc = "build", None
    notify(stage)
    try:
        model = refinfer.Model()
        key = request.get("dec_key")
        model.build_from_file(
            request["model"], refinfer.ModelType.MINDIR,
            config_dict={"refinfer": {"backend": request["backend"]}},
            dec_key=bytes.fromhex(key) if key else None,
            dec_mode=request.get("dec_mode", "AES-GCM"))
        stage = "predict"
        notify(stage)
        arrays = input_arrays(model.get_inputs(), request["input_seed"])
        if arrays is not None:
            for output in model.predict(arrays):
                output.get_data_to_numpy()
        else:
            stage = "build only"
    except BaseException as caught:    # noqa: BLE001  classifying is the job
        exc = caught
    outcome, signature, culprit = classify(exc)
    return {"outcome": outcome, "signature": signature, "stage": stage,
            "error": describe(culprit),
            "traceback": _traceback_text(exc)}


def _traceback_text(exc: BaseException | None) -> str:
    if exc is None:
        return ""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return text[-TRACEBACK_CHARS:]


def _serve(memory_limit: int) -> None:
    """Answer requests until stdin closes."""
    if memory_limit:
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)           # refinfer's prints must not reach the protocol
    faulthandler.enable(all_threads=True)

    lock = threading.Lock()     # kernels may compile on refinfer's threads

    def send(message: dict) -> None:
        with lock:
            protocol.write(json.dumps(message) + "\n")
            protocol.flush()

    timer = _CompileAwareTimer(send)
    _read_raise_lines()
    send({"ready": True})
    for line in sys.stdin:
        request = json.loads(line)
        timer.start(request["timeout"])
        result = run_case(request, lambda stage: send({"stage": stage}))
        timer.stop()
        send(dict(result, address_space=_address_space()))


def _address_space() -> int:
    """Bytes of this process's address space (what RLIMIT_AS caps); 0
    where /proc does not tell."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


class _CompileAwareTimer:
    """The case's time limit (faulthandler dumps the stacks and ends the
    process), paused while Numba compiles a kernel: a first compile takes
    seconds on a busy machine and is not a hang. The parent hears of each
    pause so it waits too."""

    def __init__(self, send):
        from numba.core import event
        self.send, self.timeout, self.depth = send, 0.0, 0
        event.register("numba:compile", self._Listener(self))

    def start(self, timeout: float) -> None:
        self.timeout = timeout
        faulthandler.dump_traceback_later(timeout, exit=True)

    def stop(self) -> None:
        faulthandler.cancel_dump_traceback_later()

    def compiling(self, starts: bool) -> None:
        self.depth += 1 if starts else -1
        if self.depth == (1 if starts else 0):
            self.stop() if starts else self.start(self.timeout)
            self.send({"compiling": starts})

    @staticmethod
    def _Listener(timer):
        from numba.core import event

        class Listener(event.Listener):
            def on_start(self, ev):
                timer.compiling(True)

            def on_end(self, ev):
                timer.compiling(False)
        return Listener()


if __name__ == "__main__":
    _serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
