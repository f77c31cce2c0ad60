"""Explicit SIMD vectors in LLVM IR, for the few kernels that Numba's
loops over scalars do not keep in registers (that needs LLVM's SLP
vectoriser, which Numba leaves off): helpers for the Numba intrinsics that
emit them (packed.py's micro-kernel, separable.py's depthwise rows), the
light activations on a vector, as program.activate_light computes them,
and the largest of a run of elements (:func:`greatest`: Softmax's rows).
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from . import program

# Bytes of the vectors the kernels compute with, where the register count
# matters more than the width (AVX2's ymm; AVX-512 CPUs run them as well).
VECTOR_BYTES = 32


def float_vector(dtype: types.Float, lanes: int) -> ir.VectorType:
    """The IR vector of ``lanes`` floats of a Numba float type."""
    scalar = ir.FloatType() if dtype == types.float32 else ir.DoubleType()
    return ir.VectorType(scalar, lanes)


def index(value: int) -> ir.Constant:
    return ir.Constant(ir.IntType(64), value)


def signed(builder, op: str, value, constant: int):
    """value <op> constant, signed."""
    return builder.icmp_signed(op, value, ir.Constant(value.type, constant))


def data(context, builder, array_type, array, offset):
    """A pointer to element ``offset`` (an IR integer) of an array's data."""
    start = context.make_array(array_type)(context, builder, array).data
    return builder.gep(start, [offset])


def vector_at(builder, pointer, offset, vector: ir.VectorType):
    """A pointer to the vector that starts ``offset`` elements (an int or
    an IR integer) after ``pointer``."""
    if isinstance(offset, int):
        offset = index(offset)
    return builder.bitcast(builder.gep(pointer, [offset]), vector.as_pointer())


def broadcast(builder, scalar, vector: ir.VectorType):
    """A vector of ``scalar`` in every lane."""
    one = builder.insert_element(ir.Constant(vector, ir.Undefined), scalar,
                                 ir.Constant(ir.IntType(32), 0))
    lanes = ir.VectorType(ir.IntType(32), vector.count)
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined),
                                  ir.Constant(lanes, [0] * vector.count))


def fma(builder, vector: ir.VectorType):
    """LLVM's fused multiply-add on ``vector``: call it with (a, b, c)."""
    bits = 32 if isinstance(vector.element, ir.FloatType) else 64
    return cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(vector, [vector] * 3),
        f"llvm.fma.v{vector.count}f{bits}")


def transpose(builder, rows: list) -> list:
    """The n vectors of n lanes ``rows`` transposed (lane c of result r is
    lane r of rows[c]): log2(n) stages of butterflies, each pairing rows
    s apart and swapping the lanes whose bit s differs from their row's."""
    rows, n = list(rows), len(rows)
    lanes = ir.VectorType(ir.IntType(32), n)
    s = n // 2
    while s:
        low = ir.Constant(lanes, [l if not l & s else l - s + n for l in range(n)])
        high = ir.Constant(lanes, [l + s if not l & s else l + n for l in range(n)])
        for i in range(n):
            if not i & s:
                a, b = rows[i], rows[i + s]
                rows[i] = builder.shuffle_vector(a, b, low)
                rows[i + s] = builder.shuffle_vector(a, b, high)
        s //= 2
    return rows


def where(builder, condition, compute, values: list) -> list:
    """compute(values) where ``condition`` holds, else ``values``: IR
    values, one branch for them all (the other side may read memory that
    is not there). A branch per value multiplies the IR's blocks, and the
    compile time follows them."""
    slots = [cgutils.alloca_once_value(builder, v) for v in values]
    with builder.if_then(condition):
        for slot, value in zip(slots, compute(values)):
            builder.store(value, slot)
    return [builder.load(slot) for slot in slots]


class Activation:
    """IR of a light activation (``act``, a program.ACT_* code known at
    run time) on a list of vectors, as program.activate_light computes it,
    NaN included; other codes (ACT_NONE, a heavy one) leave them alone."""

    def __init__(self, builder, vector: ir.VectorType, act):
        self.builder, self.vector, self.act = builder, vector, act

    def __call__(self, values: list) -> list:
        for code, activation in ((program.ACT_RELU, self._relu),
                                 (program.ACT_RELU6, self._relu6),
                                 (program.ACT_HSWISH, self._hswish),
                                 (program.ACT_HSIGMOID, self._hsigmoid)):
            values = where(self.builder, signed(self.builder, "==", self.act, code),
                           lambda vs, f=activation: [f(v) for v in vs], values)
        return values

    def _constant(self, number: float):
        return ir.Constant(self.vector, [number] * self.vector.count)

    def _less(self, value, number, compute_if, otherwise):
        """compute_if where value < number (ordered: not for NaN)."""
        return self.builder.select(self.builder.fcmp_ordered(
            "<", value, self._constant(number)), compute_if, otherwise)

    def _relu(self, v):         # (0 if v < 0 else v) + 0
        return self.builder.fadd(self._less(v, 0.0, self._constant(0.0), v),
                                 self._constant(0.0))

    def _relu6(self, v):        # NaN -> 0, as activate_light
        builder = self.builder
        v = builder.select(builder.fcmp_ordered(">=", v, self._constant(0.0)),
                           v, self._constant(0.0))
        return builder.select(builder.fcmp_ordered(">", v, self._constant(6.0)),
                              self._constant(6.0), v)

    def _clamped(self, v):      # min(max(v + 3, 0), 6), NaN kept
        builder = self.builder
        c = builder.fadd(v, self._constant(3.0))
        c = self._less(c, 0.0, self._constant(0.0), c)
        return builder.select(builder.fcmp_ordered(">", c, self._constant(6.0)),
                              self._constant(6.0), c)

    def _hswish(self, v):
        return self.builder.fdiv(self.builder.fmul(v, self._clamped(v)),
                                 self._constant(6.0))

    def _hsigmoid(self, v):
        return self.builder.fdiv(self._clamped(v), self._constant(6.0))


@intrinsic
def greatest(typingctx, array, start, count):
    """The largest of the ``count`` >= 1 elements of a C-contiguous float
    array from its element ``start`` on, a vector of them at a time
    (Numba's loops leave a maximum scalar: LLVM vectorises that reduction
    only for functions marked free of NaN). A NaN is passed over unless it
    comes first."""
    if not isinstance(array, types.Array) or array.layout != "C" \
            or not isinstance(array.dtype, types.Float):
        return None     # (a typing error: flat offsets need C order)

    def codegen(context, builder, signature, args):
        array, start, count = args
        first = data(context, builder, signature.args[0], array, start)
        dtype = signature.return_type
        lanes = VECTOR_BYTES * 8 // dtype.bitwidth
        vector = float_vector(dtype, lanes)
        best = cgutils.alloca_once_value(builder, broadcast(
            builder, builder.load(first), vector))
        full = builder.mul(builder.sdiv(count, index(lanes)), index(lanes))
        with cgutils.for_range_slice(builder, index(0), full,
                                     index(lanes)) as (at, _):
            _keep_greater(builder, best, builder.load(vector_at(
                builder, first, at, vector), align=dtype.bitwidth // 8))
        top = cgutils.alloca_once_value(builder, builder.extract_element(
            builder.load(best), ir.Constant(ir.IntType(32), 0)))
        for lane in range(1, lanes):
            _keep_greater(builder, top, builder.extract_element(
                builder.load(best), ir.Constant(ir.IntType(32), lane)))
        with cgutils.for_range_slice(builder, full, count, index(1)) as (at, _):
            _keep_greater(builder, top, builder.load(builder.gep(first, [at])))
        return builder.load(top)
    return array.dtype(array, types.intp, types.intp), codegen


def _keep_greater(builder, slot, value) -> None:
    """slot = value where value > slot (ordered; lane by lane for
    vectors)."""
    now = builder.load(slot)
    builder.store(builder.select(builder.fcmp_ordered(">", value, now),
                                 value, now), slot)
