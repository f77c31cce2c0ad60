"""Lite's ``ModelParallelRunner``: one model, ``workers_num`` workers, many client threads.

- One copy of the weights: the runner builds one ``Model``; every worker is a view of it
  that shares its loaded model (weights and compiled plan, read-only while running). Each
  request runs in fresh executor frames, so activations are the worker's own, and a
  request's outputs are exactly what ``Model.predict`` gives.
- Inputs are checked as ``Model.predict`` checks them (``model.check_input``): a request
  fits the model's declared input shapes, a dynamic dim (-1) taking any size. Lite's
  ``ModelWorker`` resizes a worker to whatever shape comes; the runner has no ``resize``,
  so a fixed dim stays fixed here as it does for ``Model.predict`` (issue 17).
- Workers are threads that take requests from one FIFO queue. ``predict`` blocks, so a
  client has one request in flight at a time and FIFO order serves clients in turn.
- A request that fails raises in its own caller; the worker goes on serving.
- Thread budget: Lite's defaults for ``workers_num`` and ``cpu.thread_num`` (0 = automatic,
  ``ModelPool`` in Lite's ``model_pool.cc``), then workers × threads per worker is kept within
  the usable cores: a user asking for more gets a warning and ``cores // workers`` threads
  per worker. The model is built with that thread count, which every predict applies
  (refinfer/threads.py: the worker count of refinfer's pool, per calling thread).
"""
from __future__ import annotations

import copy
import os
import queue
import threading
import warnings
import weakref
from concurrent.futures import Future

from ._checkparam import check_isinstance
from .config import merge
from .context import Context
from .enums import ModelType
from .model import Model, _input_impl, check_input
from .tensor import Tensor

MAX_WORKERS_PER_CORE = 5          # Lite refuses more workers than 5 × cores
PHYSICAL_CORE_THRESHOLD = 16      # Lite: up to 16 cores, half of them per worker by default
DEFAULT_THREADS_MANY_CORES = 8


class ModelParallelRunner:
    """Runs one model on ``context.parallel.workers_num`` workers; ``predict`` may be
    called from many threads at once."""

    def __init__(self):
        self.model_path_ = ""
        self._model: Model | None = None
        self._pool: _WorkerPool | None = None

    def __str__(self):
        return f"model_path: {self.model_path_}."

    def build_from_file(self, model_path, context=None, config_path="", config_dict=None):
        check_isinstance("model_path", model_path, str)
        if not os.path.exists(model_path):
            raise RuntimeError("ModelParallelRunner's build from file failed, model_path does "
                               "not exist!")
        context = Context() if context is None else context
        check_isinstance("context", context, Context)
        check_isinstance("config_path", config_path, str)
        self.model_path_ = model_path
        try:
            workers, threads = plan_workers(context.parallel.workers_num,
                                            context.cpu.thread_num, usable_cores())
            worker_context = copy.deepcopy(context)
            worker_context.cpu.thread_num = threads
            model = Model()
            model.build_from_file(model_path, ModelType.MINDIR, worker_context,
                                  config_path or context.parallel.config_path,
                                  merge(context.parallel._config_info, config_dict))
        except (RuntimeError, ValueError) as exc:
            raise RuntimeError(f"ModelParallelRunner's build from file failed! Error is "
                               f"{exc}") from exc
        if self._pool is not None:
            self._pool.close()
        self._model = model
        self._pool = _WorkerPool([_worker_view(model) for _ in range(workers)], threads)

    @property
    def workers(self) -> tuple[int, int]:
        """[refinfer] (number of workers, threads per worker); (0, 0) before a build."""
        return (len(self._pool.threads), self._pool.thread_num) if self._pool else (0, 0)

    def get_inputs(self) -> list[Tensor]:
        """New input tensors on every call (clients fill their own); [] before a build."""
        if self._model is None:
            return []
        return [Tensor(_input_impl(spec)) for spec in self._model._loaded.inputs]

    def get_outputs(self):
        """Output metadata (``TensorMeta``), as ``Model.get_outputs``."""
        if self._model is None:
            return ()
        return self._model.get_outputs()

    def predict(self, inputs, outputs=None) -> list[Tensor]:
        _check_predict_args(inputs, outputs)
        if self._pool is None:
            raise RuntimeError("predict failed!")
        count = len(self._model._loaded.inputs)
        if len(inputs) != count:
            raise RuntimeError(f"predict failed! Error is the model takes {count} input(s), "
                               f"got {len(inputs)}")
        for index, (expected, tensor) in enumerate(zip(self._model._inputs, inputs)):
            check_input(index, expected, tensor)
        return self._pool.submit(list(inputs), outputs)


def _check_predict_args(inputs, outputs) -> None:
    """Lite's checks and messages (including its "bug got" typo for outputs)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"inputs must be list or tuple, but got {type(inputs)}.")
    for i, element in enumerate(inputs):
        if not isinstance(element, Tensor):
            raise TypeError(f"inputs element must be Tensor, but got {type(element)} at "
                            f"index {i}.")
    if outputs is None:
        return
    if not isinstance(outputs, list):
        raise TypeError(f"outputs must be list, bug got {type(outputs)}.")
    for i, element in enumerate(outputs):
        if not isinstance(element, Tensor):
            raise TypeError(f"outputs element must be Tensor, bug got {type(element)} at "
                            f"index {i}.")


def _worker_view(model: Model) -> Model:
    """A ``Model`` sharing ``model``'s loaded model and input tensors (which a predict
    only reads), with its own record of the last output shapes."""
    return copy.copy(model)


# -- thread budget ---------------------------------------------------------------------------
def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def plan_workers(workers_num: int, thread_num: int, cores: int) -> tuple[int, int]:
    """(workers, threads per worker): Lite's defaults for 0, then never more threads than
    ``cores`` in total (a warning when the user asked for more)."""
    threads = thread_num or _default_threads(workers_num, cores)
    workers = workers_num or max(1, cores // threads)
    if workers > MAX_WORKERS_PER_CORE * cores:
        raise ValueError(f"workers_num {workers} is invalid: at most "
                         f"{MAX_WORKERS_PER_CORE} per usable CPU core ({cores})")
    if workers * threads > cores:
        budget = max(1, cores // workers)
        warnings.warn(f"ModelParallelRunner: {workers} worker(s) × {threads} thread(s) "
                      f"exceed the {cores} usable CPU core(s); each worker gets {budget} "
                      "thread(s)" + (" and the workers still share cores" if workers > cores
                                     else ""), RuntimeWarning, stacklevel=3)
        threads = budget
    return workers, threads


def _default_threads(workers_num: int, cores: int) -> int:
    """Lite's ``ModelPool::GetDefaultThreadNum``, but at least one thread and never more
    than ``cores // workers``."""
    if cores > PHYSICAL_CORE_THRESHOLD:
        threads = DEFAULT_THREADS_MANY_CORES
    else:
        threads = cores // 2 if cores >= 2 else cores
    if workers_num and workers_num * threads > cores:
        threads = cores // workers_num
    return max(1, threads)


# -- workers ---------------------------------------------------------------------------------
class _WorkerPool:
    """One thread per worker state, all taking requests from one FIFO queue. The threads
    hold no reference to the pool: when it is closed or collected they get a stop marker."""

    def __init__(self, states: list, thread_num: int, serve=Model.predict):
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self.thread_num = thread_num       # what each worker's model applies
        self.threads = [threading.Thread(target=_work, args=(self._requests, serve, state),
                                         name=f"refinfer-worker-{k}", daemon=True)
                        for k, state in enumerate(states)]
        for thread in self.threads:
            thread.start()
        self._stop = weakref.finalize(self, _stop_workers, self._requests, len(states))

    def submit(self, *args):
        """Queue one request and wait for its result (or its exception)."""
        future: Future = Future()
        self._requests.put((future, args))
        return future.result()

    def close(self) -> None:
        self._stop()


def _work(requests: queue.SimpleQueue, serve, state) -> None:
    while True:
        item = requests.get()
        if item is None:
            return
        future, args = item
        try:
            future.set_result(serve(state, *args))
        except BaseException as exc:  # delivered to the caller; the worker lives on
            future.set_exception(exc)


def _stop_workers(requests: queue.SimpleQueue, count: int) -> None:
    for _ in range(count):
        requests.put(None)
