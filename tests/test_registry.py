"""The registry's kernel protocol: a recipe is checked against the op's
signature when the op registers, a program kernel cannot exist without its
recipe on the op's definition, and a declining kernel runs the reference."""
import inspect
import subprocess
import sys

import numpy as np
import pytest

from refinfer import registry
from refinfer.ops._kernels import elementwise
from refinfer.ops._kernels.elementwise import ADDCMUL, Recipe, program_for, unary
from refinfer.ops._kernels.program import OP_NEG

F32 = np.dtype(np.float32)


@pytest.fixture
def throwaway():
    """register() for test ops, removed from the registry afterwards."""
    names = []

    def register(name, **options):
        names.append(name)
        return registry.register(name, family="elementwise", **options)
    yield register
    for name in names:
        registry._REGISTRY.pop(name, None)


def test_a_recipe_that_does_not_fit_the_signature_is_refused(throwaway):
    def two_values(input, other):
        return input
    with pytest.raises(TypeError, match="two_values"):
        throwaway("_TestUnaryOnTwo", recipe=unary(OP_NEG))(two_values)

    def too_few(input, tensor1, value=1):     # Addcmul's recipe takes 4 values
        return input
    with pytest.raises(TypeError, match="too_few"):
        throwaway("_TestAddcmulOnThree", recipe=ADDCMUL)(too_few)

    def fewer_params_than_values(input):
        return input
    wide = Recipe(2, lambda p, x: x)        # its emitter fits, its values do not
    with pytest.raises(TypeError, match="fewer_params_than_values"):
        throwaway("_TestTwoValuesOnOne", recipe=wide)(fewer_params_than_values)
    assert not {"_TestUnaryOnTwo", "_TestAddcmulOnThree",
                "_TestTwoValuesOnOne"} & set(registry._REGISTRY)


def _runs_programs(kernel) -> bool:
    """Whether a kernel runs the elementwise program runner: a recipe's own
    kernel, or a kernel of ops/_kernels/elementwise.py built on recipes."""
    return isinstance(getattr(kernel, "__self__", None), Recipe) \
        or getattr(kernel, "__module__", None) == elementwise.__name__


def test_every_program_kernel_has_its_recipe_on_the_op():
    program_ops = [op for op in registry.list_ops()
                   if _runs_programs(op.kernels.get("numba"))]
    assert len(program_ops) >= 88
    for op in program_ops:
        assert op.recipe is not None, op.name
        kernel = op.kernels["numba"]
        if isinstance(getattr(kernel, "__self__", None), Recipe):
            assert kernel.__self__ is op.recipe, op.name
    for op in registry.list_ops():
        if op.recipe is not None:
            assert "numba" in op.kernels, op.name


def test_every_recipe_writes_a_program_for_the_op_defaults():
    """What a name-keyed recipe table could not promise: each op's recipe
    writes its program from the op's own arguments."""
    for op in registry.list_ops():
        if op.recipe is None:
            continue
        values = ("tensor",) * op.recipe.values
        defaults = tuple(p.default for p in op.params[op.recipe.values:])
        assert inspect.Parameter.empty not in defaults, op.name
        params = elementwise.plain(defaults)
        assert program_for(op.recipe, F32, values, params) is not None, op.name


def test_a_declined_call_runs_the_reference(throwaway):
    calls = []

    def declines(input):
        calls.append(input)
        return None

    @throwaway("_TestDeclines", kernels={"numba": declines})
    def reference(input):
        return ("reference", input)

    fast = registry._REGISTRY["_TestDeclines"].kernel("numba")
    assert fast(3) == ("reference", 3) and calls == [3]


def test_a_recipe_declines_what_it_does_not_run(throwaway):
    @throwaway("_TestNeg", recipe=unary(OP_NEG))
    def neg(input):
        return ("reference", input)

    fast = registry._REGISTRY["_TestNeg"].kernel("numba")
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(fast(x), -x)      # float32: its program
    ints = np.array([1, 2], np.int32)
    assert fast(ints)[0] == "reference"             # int32: declined


def test_a_backend_slots_in_from_a_family_table():
    """A new backend's kernels come from a table in its kernel module, so
    no op file changes; names are checked when the table is declared."""
    def gather(input_params, input_indices, axis, batch_dims=0):
        return None if batch_dims else ("test backend", axis)

    registry.declare_kernels("_test", {"Gather": gather})
    try:
        kernel = registry.get_op("Gather").kernel("_test")
        x, i = np.arange(6.0).reshape(2, 3), np.array([[1], [2]])
        assert kernel(x, i, 1, 0) == ("test backend", 1)
        np.testing.assert_array_equal(kernel(x, i, 1, 1), [[1.0], [5.0]])
        with pytest.raises(ValueError, match="declared twice"):
            registry.declare_kernels("_test", {"Gather": gather})
    finally:
        registry.get_op("Gather").kernels.pop("_test")
    with pytest.raises(ValueError, match="NoSuchOp"):
        registry.declare_kernels("_test", {"NoSuchOp": gather})
    assert "_test" not in registry.get_op("Gather").kernels


def test_operands_are_the_required_unconverted_arguments(throwaway):
    # A corrupt graph hands an op a tuple or a monad where a tensor belongs;
    # the op's own error ("'tuple' object has no attribute 'ndim'") would
    # name neither the argument nor what it got (issue 17).
    def lerp(input, other, weight, scale=1.0):
        return input
    throwaway("_TestLerp", convert={"weight": float})(lerp)
    op = registry.get_op("_TestLerp")
    assert op.operands == (0, 1)
    x = np.zeros(2, np.float32)
    op.check_operands([x, 2.5, "anything", ("not", "checked")])
    with pytest.raises(TypeError, match=r"_TestLerp: other must be a tensor "
                                        r"or a number, got \(float32\[2\], 1\)"):
        op.check_operands([x, (x, 1), 0.5])
    op.check_operands([x, (x, 1), 0.5], skip={1})     # not known at build


def test_sequences_name_operands_that_take_tuples(throwaway):
    def join(tensors, axis=0):
        return tensors[0]
    throwaway("_TestJoin", sequences=("tensors",))(join)
    assert registry.get_op("_TestJoin").operands == ()
    with pytest.raises(TypeError, match="no parameter 'inputs'"):
        throwaway("_TestJoin2", sequences=("inputs",))(join)


def test_only_an_optional_parameter_takes_none_as_a_scalar(throwaway):
    """``args.scalar`` lets None through (an absent optional argument);
    for a parameter with a value by default, or none, the registry makes
    it ``args.number``: None there is a corrupt file's (issue 17), refused
    by the converter instead of failing inside the kernel."""
    from refinfer import args

    def scaled(input, axis, scale=1.0, shift=None):
        return input
    throwaway("_TestScaled", convert={"scale": args.scalar, "shift": args.scalar,
                                      "axis": args.scalar})(scaled)
    convert = registry.get_op("_TestScaled").convert
    assert convert["shift"] is args.scalar and convert["shift"](None) is None
    for name in ("scale", "axis"):
        assert convert[name](np.float32(2.5)) == 2.5
        with pytest.raises(TypeError, match="expected a number, got None"):
            convert[name](None)


def test_the_op_index_is_current():
    """refinfer/ops/_index.py names the module registering every op (a
    build imports only those): regenerate it with ``refinfer ops --index >
    refinfer/ops/_index.py`` when an op is added, renamed or moved."""
    from refinfer.ops._index import OP_MODULES
    assert registry.module_index() == OP_MODULES


def test_a_lookup_imports_only_the_module_of_its_op():
    """A fresh process's first lookups import the op files they need (all
    450 took 0.7 s); a name the index does not know loads them all."""
    script = """
import sys
from refinfer import registry
loaded = lambda: sorted(m for m in sys.modules if m.startswith("refinfer.ops.")
                        and not m.startswith("refinfer.ops._"))
assert registry.get_op("Add").name == "Add" and loaded() == ["refinfer.ops.add"]
assert registry.has_op("InplaceMul")        # a variant: its base op's module
assert loaded() == ["refinfer.ops.add", "refinfer.ops.mul"], loaded()
assert not registry.has_op("NoSuchPrimitive")     # unknown: every module, then no
assert len(loaded()) > 400
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
