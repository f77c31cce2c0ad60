"""``mslite.Context``: defaults, Lite's validation rules and exact messages
(lite-api.md §2, §4)."""
import pytest

import refinfer as mslite


@pytest.fixture
def context():
    return mslite.Context()


def raises(exc_type, message, fn, *args):
    with pytest.raises(exc_type) as info:
        fn(*args)
    assert str(info.value) == message
    return info.value


# -- defaults --------------------------------------------------------------------
def test_defaults(context):
    assert context.target == ["cpu"]
    assert context.cpu.precision_mode == "enforce_fp32"
    assert context.cpu.thread_num == 0
    assert context.cpu.inter_op_parallel_num == 0
    assert context.cpu.thread_affinity_mode == 0
    assert context.cpu.thread_affinity_core_list == []
    assert context.gpu.precision_mode == "enforce_fp32"
    assert context.gpu.device_id == 0
    assert context.gpu.rank_id == 0
    assert context.gpu.group_size == 1
    assert context.ascend.device_id == 0
    assert context.ascend.rank_id == 0
    assert context.ascend.precision_mode == ""
    assert context.ascend.provider == ""
    assert context.parallel.workers_num == 0
    assert context.group_info_file == ""


def test_contexts_are_independent():
    a, b = mslite.Context(), mslite.Context()
    a.cpu.thread_num = 3
    a.target = ["gpu"]
    assert b.cpu.thread_num == 0
    assert b.target == ["cpu"]


def test_str(context):
    assert str(context) == "target: ['cpu']."
    context.target = ["GPU", "cpu"]
    assert str(context) == "target: ['GPU', 'cpu']."


# -- target ------------------------------------------------------------------------
@pytest.mark.parametrize("value", [None, []])
def test_target_falsy_means_cpu(context, value):
    context.target = ["gpu"]
    context.target = value
    assert context.target == ["cpu"]


@pytest.mark.parametrize("value", [["cpu"], ["gpu"], ["ascend"], ["CPU"],
                                   ["Ascend", "GPU", "cpu"], ["gpu", "gpu"]])
def test_target_valid_kept_as_given(context, value):
    context.target = value
    assert context.target == value


@pytest.mark.parametrize("value", [("cpu",), "cpu", {"cpu"}])
def test_target_not_list(context, value):
    raises(TypeError, f"target must be list, but got {type(value)}.",
           setattr, context, "target", value)
    assert context.target == ["cpu"]


def test_target_element_not_str(context):
    raises(TypeError, "target element must be str, but got <class 'int'> at "
           "index 1.", setattr, context, "target", ["cpu", 1])


@pytest.mark.parametrize("value,shown", [(["npu"], "npu"), (["cpu", "NPU"], "npu"),
                                         (["Cuda"], "cuda"), ([""], "")])
def test_target_unknown(context, value, shown):
    raises(ValueError, "target elements must be in ['cpu', 'gpu', 'ascend'], "
           f"but got {shown}.", setattr, context, "target", value)
    assert context.target == ["cpu"]          # unchanged on error


# -- cpu ------------------------------------------------------------------------------
@pytest.mark.parametrize("attr,name", [("thread_num", "cpu_thread_num"),
                                       ("inter_op_parallel_num",
                                        "cpu_inter_op_parallel_num")])
class TestCpuCounts:
    def test_accepts_non_negative(self, context, attr, name):
        setattr(context.cpu, attr, 4)
        assert getattr(context.cpu, attr) == 4
        setattr(context.cpu, attr, 0)
        assert getattr(context.cpu, attr) == 0

    def test_negative(self, context, attr, name):
        raises(ValueError, f"{name} must be a non-negative int.",
               setattr, context.cpu, attr, -1)
        assert getattr(context.cpu, attr) == 0

    @pytest.mark.parametrize("value", [2.0, "2", None])
    def test_not_int(self, context, attr, name, value):
        raises(TypeError, f"{name} must be int, but got {type(value)}.",
               setattr, context.cpu, attr, value)

    def test_bool_accepted(self, context, attr, name):
        setattr(context.cpu, attr, True)      # isinstance(True, int)
        assert getattr(context.cpu, attr) == 1


@pytest.mark.parametrize("mode", ["enforce_fp32", "preferred_fp16"])
def test_cpu_precision_mode(context, mode):
    context.cpu.precision_mode = mode
    assert context.cpu.precision_mode == mode


@pytest.mark.parametrize("mode", ["fp16", "ENFORCE_FP32", "preferred_fp32", ""])
def test_cpu_precision_mode_invalid(context, mode):
    raises(ValueError, "cpu_precision_mode must be in [enforce_fp32, "
           f"preferred_fp16], but got {mode}.",
           setattr, context.cpu, "precision_mode", mode)
    assert context.cpu.precision_mode == "enforce_fp32"


def test_cpu_precision_mode_not_str(context):
    raises(TypeError, "cpu_precision_mode must be str, but got <class 'int'>.",
           setattr, context.cpu, "precision_mode", 16)


@pytest.mark.parametrize("mode,stored", [(0, 0), (1, 1), (2, 2), (3, 0), (-1, 0)])
def test_cpu_thread_affinity_mode(context, mode, stored):
    context.cpu.thread_affinity_mode = mode   # out of range: 0 (warning only)
    assert context.cpu.thread_affinity_mode == stored


def test_cpu_thread_affinity_mode_not_int(context):
    raises(TypeError, "cpu_thread_affinity_mode must be int, but got "
           "<class 'str'>.", setattr, context.cpu, "thread_affinity_mode", "1")


def test_cpu_thread_affinity_core_list(context):
    context.cpu.thread_affinity_core_list = [0, 2, 4]
    assert context.cpu.thread_affinity_core_list == [0, 2, 4]
    context.cpu.thread_affinity_core_list = []
    assert context.cpu.thread_affinity_core_list == []


@pytest.mark.parametrize("value,message", [
    ((0, 1), "cpu_thread_affinity_core_list must be list, but got <class 'tuple'>."),
    (0, "cpu_thread_affinity_core_list must be list, but got <class 'int'>."),
    ([0, "1"], "cpu_thread_affinity_core_list element must be int, but got "
               "<class 'str'> at index 1."),
    ([1.0], "cpu_thread_affinity_core_list element must be int, but got "
            "<class 'float'> at index 0."),
])
def test_cpu_thread_affinity_core_list_invalid(context, value, message):
    raises(TypeError, message, setattr, context.cpu,
           "thread_affinity_core_list", value)


def test_cpu_str(context):
    context.cpu.thread_num = 2
    context.cpu.inter_op_parallel_num = 1
    context.cpu.thread_affinity_mode = 1
    context.cpu.thread_affinity_core_list = [0, 1]
    context.cpu.precision_mode = "preferred_fp16"
    assert str(context.cpu) == (
        "device_type: DeviceType.kCPU,\nprecision_mode: preferred_fp16,\n"
        "thread_num: 2,\ninter_op_parallel_num: 1,\nthread_affinity_mode: 1,\n"
        "thread_affinity_core_list: [0, 1].")


# -- gpu ----------------------------------------------------------------------------
def test_gpu_device_id(context):
    context.gpu.device_id = 3
    assert context.gpu.device_id == 3
    raises(ValueError, "gpu_device_id must be a non-negative int.",
           setattr, context.gpu, "device_id", -1)
    raises(TypeError, "gpu_device_id must be int, but got <class 'str'>.",
           setattr, context.gpu, "device_id", "0")
    assert context.gpu.device_id == 3


def test_gpu_precision_mode(context):
    context.gpu.precision_mode = "preferred_fp16"
    assert context.gpu.precision_mode == "preferred_fp16"
    raises(ValueError, "gpu_precision_mode must be in [enforce_fp32, "
           "preferred_fp16], but got fp32.",
           setattr, context.gpu, "precision_mode", "fp32")
    raises(TypeError, "gpu_precision_mode must be str, but got <class 'NoneType'>.",
           setattr, context.gpu, "precision_mode", None)


@pytest.mark.parametrize("attr", ["rank_id", "group_size"])
def test_gpu_read_only(context, attr):
    with pytest.raises(AttributeError):
        setattr(context.gpu, attr, 1)


def test_gpu_str(context):
    context.gpu.device_id = 1
    assert str(context.gpu) == (
        "device_type: DeviceType.kGPU,\nprecision_mode: enforce_fp32,\n"
        "device_id: 1,\nrank_id: 0,\ngroup_size: 1.")


# -- ascend --------------------------------------------------------------------------
ASCEND_MODES = ["enforce_fp32", "preferred_fp32", "enforce_fp16",
                "enforce_origin", "preferred_optimal"]


@pytest.mark.parametrize("mode", ASCEND_MODES)
def test_ascend_precision_mode(context, mode):
    context.ascend.precision_mode = mode
    assert context.ascend.precision_mode == mode


def test_ascend_precision_mode_invalid(context):
    raises(ValueError, f"ascend_precision_mode must be in [{', '.join(ASCEND_MODES)}]"
           ", but got preferred_fp16.",
           setattr, context.ascend, "precision_mode", "preferred_fp16")


@pytest.mark.parametrize("attr", ["device_id", "rank_id"])
def test_ascend_ids(context, attr):
    setattr(context.ascend, attr, 2)
    assert getattr(context.ascend, attr) == 2
    raises(ValueError, f"ascend_{attr} must be a non-negative int.",
           setattr, context.ascend, attr, -2)
    raises(TypeError, f"ascend_{attr} must be int, but got <class 'float'>.",
           setattr, context.ascend, attr, 1.0)


def test_ascend_provider(context):
    context.ascend.provider = "ge"
    assert context.ascend.provider == "ge"
    raises(TypeError, "ascend_provider must be str, but got <class 'int'>.",
           setattr, context.ascend, "provider", 1)


def test_ascend_str(context):
    context.ascend.device_id = 1
    context.ascend.provider = "ge"
    context.ascend.rank_id = 2
    context.ascend.precision_mode = "enforce_fp16"
    assert str(context.ascend) == (
        "device_type: DeviceType.kAscend,\nprecision_mode: enforce_fp16,\n"
        "device_id: 1.provider: ge.rank_id: 2.")


def test_group_info_file(context):
    context.group_info_file = "group.json"
    assert context.group_info_file == "group.json"
    raises(TypeError, "group_info_file must be str, but got <class 'int'>.",
           setattr, context, "group_info_file", 1)


# -- parallel -------------------------------------------------------------------------
def test_parallel_workers_num(context):
    context.parallel.workers_num = 4
    assert context.parallel.workers_num == 4
    raises(ValueError, "Set parallel failed, workers_num must be a non-negative int.",
           setattr, context.parallel, "workers_num", -1)
    raises(TypeError, "workers_num must be int, but got <class 'str'>.",
           setattr, context.parallel, "workers_num", "4")
    assert context.parallel.workers_num == 4


def test_parallel_config_info(context):
    context.parallel.config_info = {"shared_thread_pool": {
        "enable_shared_thread_pool": "true", "thread_num_limit_per_worker": "4"}}
    assert context.parallel.config_info == (
        "shared_thread_pool: enable_shared_thread_pool true\n"
        "shared_thread_pool: thread_num_limit_per_worker 4")


def test_parallel_config_info_accumulates_by_section(context):
    """Lite's setter calls RunnerConfig::SetConfigInfo(section, map) for
    each section: a later assignment replaces the sections it names and
    keeps the others."""
    context.parallel.config_info = {"a": {"k1": "1", "k2": "2"}}
    context.parallel.config_info = {"b": {"k": "3"}}
    assert context.parallel.config_info == "a: k1 1\na: k2 2\nb: k 3"
    context.parallel.config_info = {"a": {"k3": "4"}}
    assert context.parallel.config_info == "a: k3 4\nb: k 3"


@pytest.mark.parametrize("value,message", [
    ([], "config_info must be dict, but got <class 'list'>."),
    ({1: {}}, "config_info_key must be str, but got <class 'int'>."),
    ({"s": "k=v"}, "config_info_value must be dict, but got <class 'str'>."),
    ({"s": {1: "v"}}, "config_info_value_key must be str, but got <class 'int'>."),
    ({"s": {"k": 1}}, "config_info_value_value must be str, but got <class 'int'>."),
])
def test_parallel_config_info_invalid(context, value, message):
    raises(TypeError, message, setattr, context.parallel, "config_info", value)


def test_parallel_config_path(context, tmp_path):
    config = tmp_path / "runner.cfg"
    config.write_text("[shared_thread_pool]\nenable_shared_thread_pool=true\n")
    context.parallel.config_path = ""
    assert context.parallel.config_path == ""
    context.parallel.config_path = str(config)
    assert context.parallel.config_path == str(config)
    context.parallel.config_path = ""          # Lite: "" is ignored
    assert context.parallel.config_path == str(config)
    raises(ValueError, "Set parallel failed, config_path does not exist!",
           setattr, context.parallel, "config_path", str(tmp_path / "missing.cfg"))
    raises(TypeError, "config_path must be str, but got <class 'int'>.",
           setattr, context.parallel, "config_path", 0)


def test_parallel_device_ids(context):
    context.parallel.device_ids = [0, 1]
    assert context.parallel.device_ids == [0, 1]
    raises(ValueError, "Set parallel failed, device_ids contain a negative number.",
           setattr, context.parallel, "device_ids", [0, -1])
    raises(TypeError, "device_ids must be list, but got <class 'tuple'>.",
           setattr, context.parallel, "device_ids", (0,))


def test_parallel_str(context, tmp_path):
    assert str(context.parallel) == "workers num: 0,\nconfig info: ,\nconfig file: ."
    config = tmp_path / "p.cfg"
    config.write_text("")
    context.parallel.workers_num = 2
    context.parallel.config_info = {"a": {"b": "c"}}
    context.parallel.config_path = str(config)
    assert str(context.parallel) == (
        f"workers num: 2,\nconfig info: a: b c,\nconfig file: {config}.")
