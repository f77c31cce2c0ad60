"""A kernel's arguments stored in memory, for threads that call it without
Python (threads.parallel_entry): :meth:`Entries.run` writes them into a
frame (an int64 array) as Numba holds them, and an entry point, a C function
compiled for their types (:func:`load` in a ``cfunc`` of signature ENTRY),
reads them back and calls the kernel.

The frame holds the arrays' data pointers, shapes and strides but not
their owners (Numba's meminfo and parent, stored as null): the caller
keeps the arrays alive while the job runs, and the entry points neither
count references nor free anything.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Callable

import numpy as np
from llvmlite import ir
from numba import typeof, types
from numba.core import cgutils
from numba.extending import intrinsic, typeof_impl

from . import threads
from .jit import kernel

WORDS = 512     # int64 words of a frame (an array takes 5 + 2 x its ndim)
ENTRY = types.void(types.int64, types.int64)     # entry(frame, seat)


def kind_of(arguments: tuple) -> types.BaseTuple:
    """The Numba type of ``arguments`` as a kernel receives them."""
    return _plain([types.unliteral(typeof(a)) for a in arguments])


def _plain(items) -> types.BaseTuple:
    """A tuple type of ``items`` (a kernel's ``*arguments`` are typed as
    another class of tuple, laid out alike)."""
    return types.Tuple.from_types(list(items))


def kind_key(kind: types.Type) -> int:
    """A number naming ``kind`` (the same in every process)."""
    return int(hashlib.sha256(str(kind).encode()).hexdigest()[:15], 16)


def _without_owners(context, builder, kind, value):
    """``value`` of Numba type ``kind`` with every array's meminfo and
    parent null (tuples of arrays included)."""
    if isinstance(kind, types.Array):
        array = context.make_array(kind)(context, builder, value)
        array.meminfo = cgutils.get_null_value(array.meminfo.type)
        array.parent = cgutils.get_null_value(array.parent.type)
        return array._getvalue()
    if isinstance(kind, types.BaseTuple):
        for k, item in enumerate(kind):
            part = _without_owners(context, builder, item,
                                   builder.extract_value(value, k))
            value = builder.insert_value(value, part, k)
    return value


@intrinsic
def _store(typingctx, frame, arguments):
    """Writes the tuple ``arguments`` into ``frame`` (int64, 1-D) if it
    fits; its key (:func:`kind_key`), or -1 where it does not fit."""
    def codegen(context, builder, signature, args):
        model = context.data_model_manager[arguments]
        data = model.as_data(builder, _without_owners(
            context, builder, arguments, args[1]))
        array = context.make_array(frame)(context, builder, args[0])
        words = -(-context.get_abi_sizeof(data.type) // 8)
        fits = builder.icmp_signed("<=", ir.Constant(ir.IntType(64), words),
                                   builder.extract_value(array.shape, 0))
        with builder.if_then(fits):
            builder.store(data, builder.bitcast(array.data,
                                                data.type.as_pointer()))
        return builder.select(fits, ir.Constant(ir.IntType(64),
                                                kind_key(_plain(arguments))),
                              ir.Constant(ir.IntType(64), -1))
    return types.int64(frame, arguments), codegen


@intrinsic
def load(typingctx, address, kind):
    """The arguments the frame at ``address`` holds, of the tuple type
    ``kind`` (a type reference) that :func:`store` wrote them with."""
    arguments = kind.instance_type

    def codegen(context, builder, signature, args):
        model = context.data_model_manager[arguments]
        where = builder.inttoptr(args[0], model.get_data_type().as_pointer())
        return model.from_data(builder, builder.load(where))
    return arguments(types.int64, kind), codegen


@kernel
def _store_arguments(frame, *arguments):
    return _store(frame, arguments)


class _Kind:
    """A tuple type for an entry point's closure, typed as a reference to
    it and pickled as its name. Numba keys a cached closure by its pickled
    values, and a type pickles with the number of its creation, which
    differs between processes: the entry points would be compiled again in
    each."""

    def __init__(self, kind: types.BaseTuple):
        self.kind = kind

    def __reduce__(self):
        return str, (str(self.kind),)


@typeof_impl.register(_Kind)
def _typeof_kind(value, context):
    return types.TypeRef(value.kind)


class Entries:
    """A kernel's entry points, one per kind of arguments, made by
    ``make(kind)`` (a ``cfunc`` of signature ENTRY calling the kernel with
    ``load(frame, kind)`` and the seat; ``kind`` a closure's reference to
    the arguments' type) when first needed."""

    def __init__(self, make: Callable[[types.BaseTuple], object]):
        self.make, self.by_key = make, {}

    def run(self, seats: int, arguments: tuple) -> None:
        """The kernel on ``arguments`` (each thread adding its seat) on up
        to ``seats`` threads at once (threads.parallel_entry); the
        arguments are kept alive here until all are done."""
        frame, address = _frame()
        key = _store_arguments(frame, *arguments)
        if key < 0:
            raise ValueError("frames: the arguments overflow the frame")
        entry = self.by_key.get(key)
        if entry is None:   # (kept: the address is its compiled code's)
            kind = kind_of(arguments)
            assert kind_key(kind) == key, kind
            entry = self.by_key[key] = self.make(_Kind(kind))
        threads.parallel_entry(seats, entry.address, address)


_local = threading.local()


def _frame() -> tuple[np.ndarray, int]:
    """This thread's frame (a caller's: the entry points only read it)
    and its address."""
    frame = getattr(_local, "frame", None)
    if frame is None:
        array = np.zeros(WORDS, np.int64)
        frame = _local.frame = array, array.ctypes.data
    return frame
