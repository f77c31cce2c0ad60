"""Thread control: refinfer's worker threads, the BLAS thread count and CPU
affinity (the last two process-wide, set through refinfer/process.py).

``context.cpu.thread_num`` (0 = one thread per usable core) is the number of
threads a predict may use. The fast backend runs every parallel part of a
predict on one pool of its own: a kernel splits its work into ranges (rows,
channels, output columns of a GEMM) and :func:`parallel_for` runs them on
the calling thread plus ``thread_num - 1`` pool threads. The kernels are
GIL-free (Numba ``nogil``, NumPy's BLAS calls), so the pieces run at once.
BLAS itself then runs single-threaded: a second pool (OpenBLAS's, or Numba's
OpenMP one) would fight this one for the cores. Measured on the project's
2-core machine: alternating a Numba ``parallel=True`` kernel with an
OpenBLAS GEMM, each with two threads, took over 60 s for 100 pairs instead
of 50 ms, because each pool spin-waits on the core the other needs. The
reference backend keeps BLAS's own threading (its GEMMs are not split).

A kernel whose threads share its items (:func:`claim`) can run as a
native job instead (:func:`parallel_entry`, refinfer/frames.py): pool
threads polling for work join it without the GIL, by the address of a C
entry point and a frame of arguments, and a thread that joins late takes
fewer items. A Python range starts on a pool thread 25-37 us after the
caller's, once the thread has had the GIL for its piece's Python glue
(longer where the OS is slow to wake it), a native job's a few
microseconds after.

BLAS is reached through threadpoolctl, the well-kept way to talk to
whichever BLAS NumPy loaded (OpenBLAS, MKL, ...); its thread count is
process-wide, so each predict applies its own (a comparison when nothing
changed). The worker count is per calling thread (ModelParallelRunner
workers each have their own budget). ``context.cpu.thread_affinity_core_list``
pins the process's threads to those cores (``os.sched_setaffinity``).

Importing this module starts no thread and registers nothing with the
process: the pool starts its threads at the first run that splits work, and
only then asks to be replaced in forked children.
"""
from __future__ import annotations

import functools
import os
import queue
import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .jit import inlined, kernel
from .process import available_cores, pin_threads, set_blas_threads

_local = threading.local()          # .threads: this thread's worker budget


@dataclass(frozen=True)
class ThreadSettings:
    threads: int                   # resolved: >= 1
    cores: tuple[int, ...] = ()    # () = the affinity was left alone
    blas_threads: int = 1          # 1 when refinfer's pool splits the GEMMs

    def apply(self) -> None:
        """Give the calling thread ``threads`` workers and the process's
        BLAS ``blas_threads`` threads."""
        _local.threads = self.threads
        set_blas_threads(self.blas_threads)


def configure(thread_num: int = 0, core_list=(), split_gemm: bool = True
              ) -> ThreadSettings:
    """Pin to ``core_list`` (if any) now and apply the thread count;
    returns the settings for later predicts. ``thread_num`` 0 means one
    thread per usable core (the cores of ``core_list`` when given).
    ``split_gemm=False`` (the reference backend) leaves the threads to
    BLAS instead."""
    cores = tuple(int(c) for c in core_list)
    if cores:
        pin_threads(cores)
    usable = len(cores) if cores else len(available_cores())
    count = thread_num if thread_num > 0 else usable
    settings = ThreadSettings(count, cores, 1 if split_gemm else count)
    settings.apply()
    return settings


def current_threads() -> int:
    """The calling thread's worker budget (1 until settings are applied)."""
    return getattr(_local, "threads", 1)


# A task should have at least this much work: a pool thread starts its piece
# ~30-40 us after the caller on the project's VM (it takes the GIL for the
# piece's Python glue once the caller's kernel has let it go), so smaller
# pieces run on the calling thread. Measured with two threads (alternating
# processes): MobileNetV2 14.0 -> 11.9 ms against four times these sizes,
# BERT-base 4 % faster, ResNet-50 level; half these sizes made MobileNetV2
# 10.9 or 14.8 ms by process.
ELEMENT_WORK = 1 << 16     # elements of a memory-bound kernel
GEMM_WORK = 1 << 22        # multiply-adds of a GEMM
STREAM_BYTES = 1 << 20     # bytes a GEMM piece streams (a shallow product is bandwidth-bound)


def min_items(work_per_item: int, work: int = ELEMENT_WORK) -> int:
    """Items per task so that a task holds at least ``work``."""
    return max(1, work // max(int(work_per_item), 1))


def gemm_items(macs_per_item: int, bytes_per_item: int) -> int:
    """Items per piece of a GEMM: enough multiply-adds, or enough bytes
    read and written, whichever comes first. A product with few
    multiply-adds per byte (a few rows by a large weight, a 1x1 convolution
    of few channels on a large plane) is bound by memory bandwidth, which
    a second core adds to."""
    return min(min_items(macs_per_item, GEMM_WORK),
               min_items(bytes_per_item, STREAM_BYTES))


def parallel_for(count: int, fn: Callable[[int, int], None],
                 grain: int = 1) -> None:
    """fn(start, stop) over [0, count), split into up to current_threads()
    contiguous ranges of at least ``grain`` items each, run at once (the
    calling thread takes a share). ``fn`` must release the GIL for its
    work (Numba nogil kernels, BLAS) and touch only its own range."""
    pieces = seats(count, grain)
    if pieces == 1:
        fn(0, count)
        return
    bounds = [(count * k // pieces, count * (k + 1) // pieces)
              for k in range(pieces)]
    _pool(pieces - 1).run(fn, bounds)


def seats(count: int, grain: int = 1) -> int:
    """How many threads may share ``count`` items, one per ``grain`` at
    most (:func:`parallel_entry`)."""
    return max(1, min(current_threads(), count // max(grain, 1)))


def parallel_entry(seats: int, entry: int, frame: int) -> None:
    """entry(frame, seat) on up to ``seats`` threads at once: the calling
    thread (seat 0) and pool threads that join without the GIL (seats 1,
    2, ...). ``entry`` is the address of a C function void(int64 frame,
    int64 seat) (refinfer/frames.py) whose threads share the frame's
    items (as :func:`claim` does), each in its seat's scratch: a thread
    may join late or not at all. A pool thread starts its part a few
    microseconds after the caller's, where a Python call waits for the
    GIL (:func:`parallel_for`)."""
    if seats <= 1:
        _run_alone(entry, frame)
    else:
        _pool(seats - 1).run_native(entry, frame, seats)


# The slots of a batch's ``state`` array, shared with its GIL-free waits.
_LEFT, _ASLEEP = 0, 1

# The pool's shared array: the count of batches submitted, then the slot
# of the native job (:meth:`_Pool.run_native`): its word (the job's number
# << _NUMBER, _CLOSED, and how many pool threads joined it), its entry
# point, frame and seats, how many of the threads that joined are done,
# and whether a caller owns the slot.
(_SUBMITTED, _WORD, _ENTRY, _FRAME, _SEATS, _DONE, _OWNER, _SLOTS) = range(8)
_NUMBER, _CLOSED, _JOINED = 16, 1 << 15, (1 << 15) - 1


class _Batch:
    """The ranges of one parallel_for call, claimed one by one by the
    caller and the pool threads that join it. ``state[_LEFT]`` counts the
    ranges not finished yet; the caller waits for it to reach 0."""

    def __init__(self, fn, bounds):
        self.fn, self.bounds = fn, bounds
        self.next = 0
        self.lock = threading.Lock()
        self.state = np.array([len(bounds), 0], np.int64)
        # Held until the range that ends last releases it, if the caller
        # sleeps (a lock is 50x cheaper to make than an Event: 0.1 us).
        self.asleep = threading.Lock()
        self.asleep.acquire()
        self.error: BaseException | None = None

    def claim(self) -> int | None:
        with self.lock:
            if self.next == len(self.bounds):
                return None
            self.next += 1
            return self.next - 1

    def run(self, k: int) -> None:
        try:
            self.fn(*self.bounds[k])
        except BaseException as exc:   # re-raised by the caller
            self.error = exc

    def work(self) -> int:
        """Run ranges until none is left unclaimed; how many ran."""
        ran = 0
        k = self.claim()
        while k is not None:
            self.run(k)
            ran += 1
            k = self.claim()
        return ran

    def wait(self, ran: int) -> None:
        """The caller, having run ``ran`` ranges: until every range is
        done, polled GIL-free for about 2 ms, then asleep until the thread
        that ends the last range wakes it."""
        if _finish_then_wait(self.state, ran, SPIN_ROUNDS):
            self.asleep.acquire()

    def leave(self, ran: int, seen: int, submitted, joined) -> None:
        """A pool thread, having run ``ran`` ranges: count them done and
        poll for the next batch (``submitted`` changing from ``seen``),
        both without the GIL, so that a polling caller resumes with the
        GIL free; or wake the caller if it sleeps."""
        if ran and _finish_then_spin(self.state, ran, submitted, seen,
                                     SPIN_ROUNDS, SETTLE_ROUNDS, joined):
            self.asleep.release()


def _pointer(context, builder, array_type, array, index):
    array = context.make_array(array_type)(context, builder, array)
    return builder.gep(array.data, [index])


@intrinsic
def _atomic_load(typingctx, flags, index):
    """flags[index], read from memory every time (an atomic load: a plain
    read could be hoisted out of a spin loop)."""
    def codegen(context, builder, signature, args):
        where = _pointer(context, builder, signature.args[0], *args)
        return builder.load_atomic(where, "seq_cst", 8)
    return types.int64(flags, types.intp), codegen


@intrinsic
def _atomic_add(typingctx, flags, index, value):
    """flags[index] += value as one atomic step; the old value."""
    def codegen(context, builder, signature, args):
        where = _pointer(context, builder, signature.args[0], *args[:2])
        return builder.atomic_rmw("add", where, args[2], "seq_cst")
    return types.int64(flags, types.intp, types.int64), codegen


@intrinsic
def _atomic_store(typingctx, flags, index, value):
    """flags[index] = value, seen by other threads in program order."""
    def codegen(context, builder, signature, args):
        where = _pointer(context, builder, signature.args[0], *args[:2])
        builder.store_atomic(args[2], where, "seq_cst", 8)
    return types.void(flags, types.intp, types.int64), codegen


@intrinsic
def _compare_swap(typingctx, flags, index, expected, value):
    """flags[index] = value if it is ``expected``, as one atomic step;
    the value it had."""
    def codegen(context, builder, signature, args):
        where = _pointer(context, builder, signature.args[0], *args[:2])
        old = builder.cmpxchg(where, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(old, 0)
    return types.int64(flags, types.intp, types.int64, types.int64), codegen


@intrinsic
def _call_entry(typingctx, entry, frame, seat):
    """The C function at address ``entry``: void(int64 frame, int64 seat)."""
    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        kind = ir.FunctionType(ir.VoidType(), [word, word])
        builder.call(builder.inttoptr(args[0], kind.as_pointer()), args[1:])
    return types.void(types.int64, types.int64, types.int64), codegen


@kernel
def _publish(flags, entry, frame, seats):
    """Takes the native job's slot and opens a job there; False where
    another caller owns it."""
    if _compare_swap(flags, _OWNER, 0, 1) != 0:
        return False
    flags[_ENTRY], flags[_FRAME], flags[_SEATS] = entry, frame, seats
    _atomic_store(flags, _DONE, 0)
    number = (_atomic_load(flags, _WORD) >> _NUMBER) + 1
    _atomic_store(flags, _WORD, number << _NUMBER)    # open, none joined
    return True


@inlined
def _join(flags, joined):
    """A pool thread: runs the open native job's entry if it has not run
    it yet (``joined``: the number of the last it joined) and a seat is
    free; whether it did. Joining is one compare-and-swap on the job's
    word, so the job cannot close or change in between: the caller then
    waits for the thread (:func:`_run_then_close`)."""
    word = _atomic_load(flags, _WORD)
    number, taken = word >> _NUMBER, word & _JOINED
    if number == joined[0] or word & _CLOSED \
            or taken + 1 >= _atomic_load(flags, _SEATS):
        return False
    if _compare_swap(flags, _WORD, word, word + 1) != word:
        return False
    joined[0] = number
    _call_entry(flags[_ENTRY], flags[_FRAME], taken + 1)
    _atomic_add(flags, _DONE, 1)
    return True


@kernel
def _run_then_close(flags, entry, frame):
    """The caller: runs its seat of the job, closes it to more threads,
    waits for those that joined and frees the slot."""
    _call_entry(entry, frame, 0)
    word = _atomic_load(flags, _WORD)
    while _compare_swap(flags, _WORD, word, word | _CLOSED) != word:
        word = _atomic_load(flags, _WORD)
    while _atomic_load(flags, _DONE) != word & _JOINED:
        pass
    _atomic_store(flags, _OWNER, 0)


@kernel
def _run_alone(entry, frame):
    _call_entry(entry, frame, 0)


@kernel
def _spin(flags, seen, rounds, settle, joined):
    """Whether flags[_SUBMITTED] changes from ``seen`` within ``rounds``
    reads (GIL-free, so Python code in other threads keeps running); once
    it has, ``settle`` reads more (of it again) before returning. Native
    jobs published meanwhile are joined (:func:`_join`), and the rounds
    start again after each."""
    left = rounds
    while left > 0:
        left -= 1
        if _atomic_load(flags, _SUBMITTED) != seen:
            for _ in range(settle):
                _atomic_load(flags, _SUBMITTED)
            return True
        if _join(flags, joined):
            left = rounds
    return False


@kernel
def _finish_then_spin(state, ran, submitted, seen, rounds, settle, joined):
    """Count ``ran`` ranges of a batch done; whether they were its last
    while the caller sleeps (it then needs waking), else :func:`_spin`."""
    last = _atomic_add(state, _LEFT, -ran) == ran
    if last and _atomic_load(state, _ASLEEP) != 0:
        return True
    _spin(submitted, seen, rounds, settle, joined)
    return False


@kernel
def _finish_then_wait(state, ran, rounds):
    """Count the caller's ``ran`` ranges done and poll until the others'
    are; whether the caller must sleep, having marked itself asleep. Both
    sides' steps are sequentially consistent: either the thread ending the
    last range sees the mark, or the caller sees the batch done."""
    if _atomic_add(state, _LEFT, -ran) == ran:
        return False
    for _ in range(rounds):
        if _atomic_load(state, _LEFT) == 0:
            return False
    _atomic_add(state, _ASLEEP, 1)
    return _atomic_load(state, _LEFT) != 0


@inlined
def claim(claims):
    """The next of the items that the threads of a job share (a kernel's
    counter, from 0; :func:`parallel_entry`)."""
    return _atomic_add(claims, 0, 1)


SPIN_ROUNDS = 6_000_000  # about 2 ms of polling before a thread sleeps
# About 10 us: how long a pool thread that sees a new batch keeps polling
# before it asks for the GIL (see _Pool).
SETTLE_ROUNDS = 100_000


class _Pool:
    """Daemon threads taking batches from one queue (shared by every
    caller: concurrent predicts interleave their batches safely).

    A thread that runs out of work polls a counter for about 2 ms before it
    blocks, as ONNX Runtime's threads spin: waking a sleeping thread (and
    its idle core) took ~70-90 us on the project's VM, longer than many
    kernels, while the next parallel kernel of a predict follows within a
    millisecond or two. Measured on ResNet-50 with two threads: 0.2 ms of
    polling gave no speed-up over one thread, 2 ms gave 1.78x. The caller
    polls for its batch's end the same way.

    A thread that sees a new batch polls on for about 10 us
    (SETTLE_ROUNDS) before it asks for the GIL: the caller holds the GIL
    for its own range's Python glue, 5-10 us from the submission to its
    kernel, and a thread that asks for a held GIL sleeps until it is let
    go and wakes ~15 us after (Zen 4 VM: the pool thread had the GIL 25
    us after the submission, 15 us after the caller's kernel had started;
    its ranges began 25-37 us after the caller's, 11-14 us having polled
    on). Two threads, against no settling (tools/bench_ab.py, two runs):
    MobileNetV2 0.87-0.94 of the time, GPT-2-tiny 0.75-0.86, BERT-tiny
    0.57-0.96, ResNet-50-narrow 0.98-0.99; full-size ResNet-50 0.93-0.99
    in one process."""

    def __init__(self):
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.size = 0
        self.sleeping = 0
        self.lock = threading.Lock()
        # [_SUBMITTED] counts batches; the rest is the native job's slot,
        # closed until the first job (a job's word is written last: a
        # thread must not join a number 0 while it is being set up)
        self.submitted = np.zeros(_SLOTS, np.int64)
        self.submitted[_WORD] = _CLOSED

    def grow(self, size: int) -> None:
        with self.lock:
            _renew_pool_in_forked_children()
            for k in range(self.size, size):
                threading.Thread(target=self._serve, daemon=True,
                                 name=f"refinfer-pool-{k}").start()
            self.size = max(self.size, size)

    def _serve(self) -> None:
        joined = np.full(1, -1, np.int64)    # the last native job joined
        while True:
            seen = int(self.submitted[_SUBMITTED])
            try:
                batch = self.queue.get_nowait()
            except queue.Empty:
                if _spin(self.submitted, seen, SPIN_ROUNDS, SETTLE_ROUNDS,
                         joined):
                    continue
                self.sleeping += 1
                batch = self.queue.get()
                self.sleeping -= 1
            if batch is not None:   # (None: woken for a native job)
                batch.leave(batch.work(), seen, self.submitted, joined)

    def run_native(self, entry: int, frame: int, seats: int) -> None:
        """entry(frame, seat) on the calling thread (seat 0) and up to
        ``seats - 1`` pool threads that join it without the GIL; the
        calling thread alone while another caller's native job runs."""
        if not _publish(self.submitted, entry, frame, seats):
            _run_alone(entry, frame)
            return
        for _ in range(min(self.sleeping, seats - 1)):
            self.queue.put(None)
        _run_then_close(self.submitted, entry, frame)

    def run(self, fn, bounds) -> None:
        batch = _Batch(fn, bounds)
        for _ in range(len(bounds) - 1):
            self.queue.put(batch)
        self.submitted[_SUBMITTED] += 1   # (after the puts: a thread polling it
        batch.wait(batch.work())    # then finds the batch in the queue)
        if batch.error is not None:
            raise batch.error


_POOL = _Pool()


def _new_pool_after_fork() -> None:
    """A forked child has none of the parent's pool threads (and maybe a
    queue locked by one of them): it starts a pool of its own."""
    global _POOL
    _POOL = _Pool()


@functools.cache
def _renew_pool_in_forked_children() -> None:
    """Registered once, when the pool starts its first thread: before that,
    a forked child has nothing to replace."""
    os.register_at_fork(after_in_child=_new_pool_after_fork)


def _pool(helpers: int) -> _Pool:
    if _POOL.size < helpers:
        _POOL.grow(helpers)
    return _POOL
