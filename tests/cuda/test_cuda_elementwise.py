"""The cuda kernels of the elementwise ops (refinfer/cuda/elementwise.py on
the device runner refinfer/cuda/program.py) equal their NumPy references
within the op tolerances of the Numba kernels (tests/numba/kernel_check.py):
small random shapes, broadcasts, Python numbers, parameters and special
values, in float32 and float64, and in float16 within 1 float16 ulp; the
declined cases run the reference; and every opcode of the device runner
against the CPU runner's.
Shapes stay small: the simulator takes ~100 us per element of a program."""
import importlib.util
import os

import numpy as np
import pytest
from numba.core import sigutils

from refinfer import registry
from refinfer.cuda import device, elementwise, program as device_program
from refinfer.ops._kernels import program as program_codes
from refinfer.ops._kernels.program import (OP_ADD, OP_EXP, OP_MUL,
                                           ProgramBuilder)

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "kernel_check", os.path.join(HERE, "..", "numba", "kernel_check.py"))
kernel_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_check)

FLOATS = (np.float32, np.float64)
OPS = sorted(elementwise.KERNELS)
rng = np.random.default_rng(13)

# Values for value arguments that are numbers or absent by default, and
# parameter sets beyond the defaults: (arguments after the first tensor).
ARGUMENTS = {
    "ClampScalar": [(-0.5, 0.5), (None, 1), (2.0, -2.0)],
    "Hardtanh": [(-1, 1), (0.0, 6.0)],
    "Round": [(0,), (2,), (-1,)],
    "CeLU": [(1.0,), (-0.7,)],
    "Elu": [(0.5,)],
    "GeluExt": [("none",), ("tanh",)],
    "HShrink": [(0.5,), (0.3,)],
    "LeakyReLUExt": [(0.01,), (-1.5,)],
    "SoftShrink": [(0.5,), (1.3,)],
    "SoftplusExt": [(1, 20), (2.0, 3.0), (0.5, -1.0)],
    "Logit": [(-1.0,), (0.1,)],
    "NanToNum": [(None, None, None), (1.0, 2.0, -3.0)],
    "AddExt": [(1,), (0.5,)],
    "SubExt": [(1,), (2.5,)],
}
# Shapes of the tensor values: same shape, a broadcast, a 0-d tensor.
SHAPES = {1: [((3, 5),), ((),)],
          2: [((3, 5), (3, 5)), ((2, 1, 4), (3, 1)), ((3, 4), ())],
          3: [((3, 4),) * 3, ((2, 3, 1), (3, 4), (1,))],
          4: [((3, 4),) * 4, ((2, 1), (4,), (2, 4), ())]}
SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5,
           -2.5, 0.3, 1e-30, 1e-40, 20.0, -20.0, 88.0, -100.0, 1e10, 3.0]


def _values(op: str, shape: tuple, dtype) -> np.ndarray:
    """Random values over the op's interesting range (a little outside its
    domain: both sides give NaN there)."""
    if op in ("ACos", "Asin", "Atanh", "Erfinv"):
        values = rng.uniform(-1.1, 1.1, shape)
    elif op == "Acosh":
        values = rng.uniform(0.9, 20.0, shape)
    elif op == "Logit":
        values = rng.uniform(-0.1, 1.1, shape)
    elif op in ("Round", "Sinc"):     # exact halves and integers
        values = rng.integers(-40, 40, shape) / 4
    elif op.startswith("Pow"):
        values = rng.uniform(0.1, 3.0, shape)
    else:
        values = rng.standard_normal(shape) * 3
    return np.asarray(values, dtype)     # (a 0-d array for shape ())


def _cases(op: str):
    """(args, ...) of the op's cases for one dtype, as functions of it."""
    definition = registry.get_op(op)
    n_values = definition.recipe.values
    params = definition.params[n_values:]
    defaults = tuple(p.default for p in params)
    extra = ARGUMENTS.get(op, [defaults])
    if op in ("ClampScalar", "Hardtanh"):       # bounds are numbers
        return [lambda dtype, e=e: (_values(op, (3, 5), dtype), *e) for e in extra]
    if op == "PReLU":                           # one slope per channel
        return [lambda dtype, s=s: (_values(op, (2, 3, 4), dtype),
                                    _values(op, s, dtype)) for s in [(3,), (1,)]]
    cases = [lambda dtype, shapes=shapes, e=e: (
        *(_values(op, s, dtype) for s in shapes), *e)
        for shapes in SHAPES[n_values] for e in extra[:1]]
    cases += [lambda dtype, e=e: (_values(op, (4, 3), dtype),
                                  *(_values(op, (3,), dtype)
                                    for _ in range(n_values - 1)), *e)
              for e in extra[1:]]
    if n_values > 1:        # the last value a Python number
        cases.append(lambda dtype: (*(_values(op, (2, 3), dtype)
                                      for _ in range(n_values - 1)), 0.75,
                                    *defaults))
    return cases


def on_device(args) -> tuple:
    """``args`` as a plan gives them to a cuda kernel: every tensor a
    device array, everything else as it is."""
    return tuple(device.to_device(a) if isinstance(a, np.ndarray) else a
                 for a in args)


def on_host(result):
    """A cuda kernel's result (a device array, a tuple of them, or None)
    copied to the host."""
    if isinstance(result, tuple):
        return tuple(map(on_host, result))
    assert result is None or device.is_device_array(result), type(result)
    return None if result is None else device.to_host(result)


def check(op: str, *args) -> None:
    """The cuda kernel's result, given device arrays, equals the
    reference's (or both raise the same exception type)."""
    definition = registry.get_op(op)
    with np.errstate(all="ignore"):
        try:
            expected = definition.reference(*args)
        except Exception as exc:   # noqa: BLE001  the kernel must refuse it too
            with pytest.raises(type(exc)):
                definition.kernel("cuda")(*args)
            return
        got = on_host(definition.kernels["cuda"](*on_device(args)))
    assert got is not None, f"{op}: the cuda kernel declined {args!r:.200}"
    kernel_check.assert_same(op, got, expected)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", OPS)
def test_kernel_equals_reference(op, dtype):
    for case in _cases(op):
        check(op, *case(dtype))


@pytest.mark.parametrize("op", [op for op in OPS
                                if registry.get_op(op).recipe.values == 1])
def test_special_values(op):
    """NaN, infinities, signed zeros, subnormals and large values, float32
    (the parameters at their defaults)."""
    definition = registry.get_op(op)
    defaults = [p.default for p in definition.params[1:]]
    check(op, np.array(SPECIAL, np.float32), *defaults)


@pytest.mark.parametrize("op", [op for op in OPS
                                if registry.get_op(op).recipe.values == 2
                                and op != "PReLU"])
def test_special_values_binary(op):
    """Every pair of the special values (NaN propagation of Maximum and
    Minimum, inf - inf, 0 / 0, ...), float32."""
    definition = registry.get_op(op)
    defaults = [p.default for p in definition.params[2:]]
    values = np.array(SPECIAL, np.float32)
    check(op, values[:, None], values[None, :], *defaults)


def assert_within_one_half_ulp(op: str, got, expected) -> None:
    """float16 results of the reference's dtype and shape, NaN where it
    has NaN, else within 1 float16 ulp of it (the reference's float32 math
    and the GPU's may differ in the last float32 bit, which can move the
    rounding to float16 by one ulp)."""
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            assert_within_one_half_ulp(op, g, e)
        return
    assert got.dtype == expected.dtype == np.float16, (op, got.dtype, expected.dtype)
    assert got.shape == expected.shape, (op, got.shape, expected.shape)
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=op)
    want, have = expected[~nan].astype(np.float64), got[~nan].astype(np.float64)
    ulp = np.spacing(np.abs(expected[~nan])).astype(np.float64)
    assert np.all((have == want) | (np.abs(have - want) <= ulp)), \
        (op, have[have != want][:4], want[have != want][:4])


def check_half(op: str, *args) -> None:
    """The cuda kernel's float16 result equals the reference's within 1
    float16 ulp (or both raise the same exception type)."""
    definition = registry.get_op(op)
    with np.errstate(all="ignore"):
        try:
            expected = definition.reference(*args)
        except Exception as exc:   # noqa: BLE001  the kernel must refuse it too
            with pytest.raises(type(exc)):
                definition.kernel("cuda")(*args)
            return
        got = on_host(definition.kernels["cuda"](*on_device(args)))
    assert got is not None, f"{op}: the cuda kernel declined float16 {args!r:.200}"
    assert_within_one_half_ulp(op, got, expected)


@pytest.mark.parametrize("op", OPS)
def test_float16_within_one_ulp_of_the_reference(op):
    """float16 tensors (computed in float32 registers, rounded as the
    reference rounds), random values and for the one- and two-value ops
    the special values too (parameters at their defaults)."""
    for case in _cases(op):
        check_half(op, *case(np.float16))
    definition = registry.get_op(op)
    special = np.array(SPECIAL, np.float16)
    if definition.recipe.values == 1:
        check_half(op, special, *[p.default for p in definition.params[1:]])
    elif definition.recipe.values == 2 and op != "PReLU":
        check_half(op, special[:, None], special[None, :],
                   *[p.default for p in definition.params[2:]])


def test_float16_rounding_follows_the_reference():
    """Addcmul's reference rounds each product and the sum to float16 (the
    kernel rounds each row), Lerp's computes in float32 and rounds once
    (the kernel too): both exact here, where the other rounding differs;
    NanToNum's default bounds are float16's."""
    a = np.array([-2.14, -2.49, 5.47, -2.66], np.float16)
    t1 = np.array([2.57, 0.47, -3.3, -1.19], np.float16)
    t2 = np.array([1.57, 1.51, 1.27, -1.85], np.float16)
    addcmul = registry.get_op("Addcmul")
    once = (a.astype(np.float32) + t1.astype(np.float32) * t2).astype(np.float16)
    expected = addcmul.reference(a, t1, t2, 1)
    assert not np.any(once == expected)
    got = on_host(addcmul.kernels["cuda"](*on_device((a, t1, t2, 1))))
    np.testing.assert_array_equal(got, expected)
    lerp = registry.get_op("Lerp")
    start = np.array([-0.53, 2.56, -2.14, -2.81], np.float16)
    end = np.array([0.66, -0.23, 2.57, 3.32], np.float16)
    weight = np.array(0.3, np.float16)
    steps = start + weight * (end - start)
    expected = lerp.reference(start, end, weight)
    assert not np.any(steps == expected)
    got = on_host(lerp.kernels["cuda"](*on_device((start, end, weight))))
    np.testing.assert_array_equal(got, expected)
    infinities = np.array([np.inf, -np.inf, np.nan], np.float16)
    got = registry.get_op("NanToNum").kernels["cuda"](device.to_device(infinities),
                                                      None, None, None)
    np.testing.assert_array_equal(on_host(got), [65504, -65504, 0])


def _integer_case(args, dtype):
    """``args`` (a float case) with integer or bool tensors of ``dtype``."""
    def convert(value):
        if not isinstance(value, np.ndarray):
            return value
        if dtype is np.bool_:
            return rng.integers(0, 2, value.shape).astype(bool)
        return rng.integers(-100, 100, value.shape).astype(dtype)
    return tuple(map(convert, args))


# Ops whose references convert integer tensors to float32 first (their
# float32 program runs on the tensors cast on the device), or compute them
# in a float dtype and truncate the result back (HSwish, HSigmoid, Inv).
AS_FLOAT = {"Sqrt", "Exp", "Log", "Reciprocal", "Rsqrt", "Sin", "Erf", "Sinc",
            "Floor", "Atan2", "Softplus", "GeLU", "HSwish", "HSigmoid", "Inv"}


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", OPS)
def test_integer_tensors(op, dtype):
    """Integer and bool tensors: the integer form's exact result
    (refinfer/cuda/integer.py, tested there), the float32 program of the
    tensors cast to float32 where the reference's result is float32 (or
    in float64 and truncated back, HSwish), or a decline (the reference's
    integer semantics differ: SeLU's trunc(scale * max(x, 0))); the ops
    of AS_FLOAT never decline integers."""
    for case in _cases(op):
        args = _integer_case(case(np.float32), dtype)
        definition = registry.get_op(op)
        with np.errstate(all="ignore"):
            try:
                expected = definition.reference(*args)
            except Exception as exc:   # noqa: BLE001  the kernel must refuse it too
                with pytest.raises(type(exc)):
                    definition.kernel("cuda")(*args)
                continue
            got = on_host(definition.kernels["cuda"](*on_device(args)))
        if got is not None:
            kernel_check.assert_same(op, got, expected)
        else:
            assert op not in AS_FLOAT or dtype is np.bool_, f"{op} declined {dtype}"


def test_numpy_numbers_are_numbers():
    """A NumPy number beside a tensor (a host scalar op's result) is
    promoted as a Python number by the references: the tensor's dtype."""
    x = _values("Muls", (2, 3), np.float32)
    for number in (np.float32(2.5), np.float64(0.1), np.int64(3)):
        for op in ("Muls", "Add", "Maximum"):
            assert on_host(registry.get_op(op).kernels["cuda"](
                device.to_device(x), number)) is not None, (op, number)
            check(op, x, number)
    check_half("Muls", x.astype(np.float16), np.float64(0.1))
    check("Muls", np.arange(4, dtype=np.int32), np.int64(3))


def test_every_recipe_op_has_its_cuda_kernel():
    """The table is the recipes: every op that declares one (fusable or
    prepared, as PReLU) has a cuda kernel, declared by this table and no
    other (the other modules of refinfer/cuda declare ops without recipes)."""
    with_recipe = {op.name for op in registry.list_ops() if op.recipe is not None}
    with_cuda = {op.name for op in registry.list_ops() if "cuda" in op.kernels}
    assert with_recipe == set(elementwise.KERNELS)
    assert with_recipe <= with_cuda
    assert all(registry.get_op(name).kernels["cuda"] is kernel
               for name, kernel in elementwise.KERNELS.items())
    assert {op.name for op in registry.list_ops()
            if op.recipe is not None and op.recipe.fusable} <= with_cuda


def test_declined_arguments_run_the_reference():
    """uint64 tensors, mixed dtypes and shapes that do not broadcast are
    declined (None); the op's wrapped kernel then gives the reference's
    result or its exception."""
    add = registry.get_op("Add")
    ints = np.arange(6, dtype=np.uint64).reshape(2, 3)
    assert add.kernels["cuda"](*on_device((ints, ints))) is None
    np.testing.assert_array_equal(add.kernel("cuda")(ints, ints), ints * 2)
    mixed = (np.ones(3, np.float32), np.ones(3, np.float64))
    assert add.kernels["cuda"](*on_device(mixed)) is None
    assert add.kernels["cuda"](*on_device((np.ones(3, np.float32),
                                           np.ones(4, np.float32)))) is None
    with pytest.raises(ValueError):
        add.kernel("cuda")(np.ones(3, np.float32), np.ones(4, np.float32))


def test_fused_program_runs_with_general_broadcasting():
    """A chain of rows (exp(a + b) * 2) over operands broadcast along
    different axes, with an empty result and a transposed operand (made
    contiguous on its way to the device)."""
    for dtype in FLOATS:
        p = ProgramBuilder(dtype)
        total = p.op(OP_ADD, p.input(0), p.input(1))
        chain = p.build(p.op(OP_MUL, p.op(OP_EXP, total), p.const(2.0)))
        a = _values("Add", (2, 3, 1), dtype)
        b = _values("Add", (4, 3), dtype)[::2].T[None]      # (1, 3, 2), strided
        expected = np.exp(a + b) * dtype(2)
        got = on_host(device_program.run(chain, on_device((a, b))))
        assert got.shape == (2, 3, 2) and got.dtype == dtype
        np.testing.assert_allclose(got, expected, rtol=1e-6 if dtype is np.float32
                                   else 1e-14)
        assert device_program.run(chain, on_device((a[:0], b))).shape == (0, 3, 2)


def test_runner_declines_long_programs_and_other_dtypes():
    """More registers than a thread holds (33 constants), integer operands,
    or a program of another dtype than the operands' (a float64 one over
    float16): None, and the CPU kernel or the reference runs instead."""
    p = ProgramBuilder(np.float32)
    total = p.input(0)
    for k in range(device_program.MAX_REGISTERS + 1):
        total = p.op(OP_ADD, total, p.const(k + 0.5))
    long_program = p.build(total)
    assert long_program.n_regs > device_program.MAX_REGISTERS
    assert device_program.run(long_program,
                              on_device((np.ones(3, np.float32),))) is None
    p = ProgramBuilder(np.int32)
    ints = p.build(p.op(OP_ADD, p.input(0), p.input(0)))
    assert device_program.run(ints, on_device((np.ones(3, np.int32),))) is None
    p = ProgramBuilder(np.float64)
    wide = p.build(p.op(OP_EXP, p.input(0)))
    assert device_program.run(wide, on_device((np.ones(3, np.float16),))) is None
    assert device_program.run(wide, on_device((np.ones(3, np.float16),
                                               np.ones(3, np.float64)))) is None


def test_launch_shape_caps_the_simulated_grid():
    """Under the simulator one block of at most 32 threads; on a GPU one
    thread per item up to 1024 blocks of 128."""
    if device.SIMULATED:
        assert device.launch_shape(1) == (1, 1)
        assert device.launch_shape(10**6) == (1, device.SIMULATED_THREADS)
    else:
        assert device.launch_shape(1) == (1, device.THREADS)
        assert device.launch_shape(10**9) == (device.MAX_BLOCKS, device.THREADS)


def _one_row(opcode: int, dtype) -> program_codes.Program:
    """A program of the one row ``opcode`` over operands 0 (and 1), with
    parameters 0.7, 1.5, -2 where it takes them."""
    p = ProgramBuilder(dtype)
    if program_codes.is_binary(opcode):
        return p.build(p.op(opcode, p.input(0), p.input(1)))
    if program_codes.FIRST_PARAM <= opcode < program_codes.FIRST_ROUNDING:
        return p.build(p.op(opcode, p.input(0), p.params(0.7, 1.5, -2.0)))
    return p.build(p.op(opcode, p.input(0)))


@pytest.mark.parametrize("opcode", range(program_codes.OP_SINC + 1))
def test_every_opcode_equals_the_cpu_runner(opcode):
    """Every opcode (those only fused chains use included: the activations
    after OP_COPY, OP_POW, OP_SQUARE) gives the CPU runner's values, float64,
    random and special values."""
    program = _one_row(opcode, np.float64)
    x = np.concatenate([rng.standard_normal(24) * 3, SPECIAL])
    y = np.concatenate([rng.standard_normal(24) * 3, SPECIAL[::-1]])
    operands = (x, y)[:program.n_inputs]
    with np.errstate(all="ignore"):
        expected = program_codes.run(program.rows, program.n_regs, program.out_reg,
                                     operands, program.consts)
    got = on_host(device_program.run(program, on_device(operands)))
    np.testing.assert_allclose(got, expected,
                               rtol=1e-12, atol=1e-300, equal_nan=True,
                               err_msg=f"opcode {opcode}")


def _check_ptx_tool():
    spec = importlib.util.spec_from_file_location(
        "check_ptx", os.path.join(HERE, "..", "..", "tools", "check_ptx.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_ptx_compiles_every_runner_with_its_signature(capsys):
    """tools/check_ptx.py (the sm_90 compile check, run where NVVM is
    installed) lists the runner of each dtype, then every kernel the other
    modules list in their PTX, each with one type per kernel argument;
    under the simulator it refuses to run (usage error, 2)."""
    tool = _check_ptx_tool()
    listed = tool.kernels()
    assert [name for name, _, _ in listed[:3]] == [
        "elementwise program runner, float32", "elementwise program runner, float64",
        "elementwise program runner, float16"]
    for _, function, signature in listed[:3]:
        assert len(signature) == function.__code__.co_argcount == 10
    from refinfer.cuda import fill
    assert {name for name, _, _ in listed} >= {
        f"fill: {name}" for name, _, _ in fill.PTX}
    for _, function, signature in listed[3:]:
        arguments, _ = sigutils.normalize_signature(signature)
        assert len(arguments) == function.__code__.co_argcount
    if device.SIMULATED:
        with pytest.raises(SystemExit) as exit_info:
            tool.main([])
        assert exit_info.value.code == 2
        assert "NUMBA_ENABLE_CUDASIM" in capsys.readouterr().err
