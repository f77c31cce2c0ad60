"""Lite's ``Context``: target devices and per-device settings."""
from __future__ import annotations

import os

from .. import distributed
from ._checkparam import (check_isinstance, check_list_of_element,
                          check_non_negative_int, check_section_dict)

TARGETS = ("cpu", "gpu", "ascend")
PRECISION_MODES = ("enforce_fp32", "preferred_fp16")
ASCEND_PRECISION_MODES = ("enforce_fp32", "preferred_fp32", "enforce_fp16",
                          "enforce_origin", "preferred_optimal")


def _check_precision(arg_name, value, allowed):
    check_isinstance(arg_name, value, str)
    if value not in allowed:
        raise ValueError(f"{arg_name} must be in [{', '.join(allowed)}], "
                         f"but got {value}.")


def _setting(attr: str, check):
    """A property whose setter runs ``check(value)`` first; ``check`` may
    return a replacement value."""
    def get(self):
        return getattr(self, attr)

    def set(self, value):
        checked = check(value)
        setattr(self, attr, value if checked is None else checked)
    return property(get, set)


def _non_negative(arg_name: str):
    return lambda value: check_non_negative_int(arg_name, value)


def _precision(arg_name: str, allowed=PRECISION_MODES):
    return lambda value: _check_precision(arg_name, value, allowed)


def _affinity_mode(value):
    check_isinstance("cpu_thread_affinity_mode", value, int)
    # Lite replaces out-of-range modes by 0 (with a warning only).
    return value if value in (0, 1, 2) else 0


def _core_list(value):
    check_list_of_element("cpu_thread_affinity_core_list", value, int)
    return list(value)


def _rank_reader(index: int):
    """Read-only ``rank_id`` (0) / ``group_size`` (1) of this rank's job: from
    MPI under mpirun, from the in-process run, else 0 / 1
    (docs/distributed.md)."""
    return property(lambda self: distributed.rank_and_size()[index])


class _CPU:
    precision_mode = _setting("_precision_mode", _precision("cpu_precision_mode"))
    thread_num = _setting("_thread_num", _non_negative("cpu_thread_num"))
    inter_op_parallel_num = _setting(
        "_inter_op_parallel_num", _non_negative("cpu_inter_op_parallel_num"))
    thread_affinity_mode = _setting("_thread_affinity_mode", _affinity_mode)
    thread_affinity_core_list = _setting("_thread_affinity_core_list",
                                         _core_list)

    rank_id = _rank_reader(0)       # [refinfer] distributed runs on the CPU
    group_size = _rank_reader(1)

    def __init__(self):
        self._precision_mode = "enforce_fp32"
        self._thread_num = 0
        self._inter_op_parallel_num = 0
        self._thread_affinity_mode = 0
        self._thread_affinity_core_list = []

    def __str__(self):
        return (f"device_type: DeviceType.kCPU,\n"
                f"precision_mode: {self.precision_mode},\n"
                f"thread_num: {self.thread_num},\n"
                f"inter_op_parallel_num: {self.inter_op_parallel_num},\n"
                f"thread_affinity_mode: {self.thread_affinity_mode},\n"
                f"thread_affinity_core_list: {self.thread_affinity_core_list}.")


class _GPU:
    precision_mode = _setting("_precision_mode", _precision("gpu_precision_mode"))

    def __init__(self):
        self._precision_mode = "enforce_fp32"
        self._device_id = None      # not set: 0, or a distributed rank's local rank

    @property
    def device_id(self):
        return 0 if self._device_id is None else self._device_id

    @device_id.setter
    def device_id(self, value):
        check_non_negative_int("gpu_device_id", value)
        self._device_id = value

    @property
    def explicit_device_id(self):
        """[refinfer] ``device_id`` where it was set, else None: a rank of a
        distributed run then uses the GPU of its local rank (refinfer/gpu.py,
        :func:`rank_device`)."""
        return self._device_id

    rank_id = _rank_reader(0)
    group_size = _rank_reader(1)

    def __str__(self):
        return (f"device_type: DeviceType.kGPU,\n"
                f"precision_mode: {self.precision_mode},\n"
                f"device_id: {self.device_id},\n"
                f"rank_id: {self.rank_id},\n"
                f"group_size: {self.group_size}.")


class _Ascend:
    precision_mode = _setting("_precision_mode", _precision(
        "ascend_precision_mode", ASCEND_PRECISION_MODES))
    device_id = _setting("_device_id", _non_negative("ascend_device_id"))
    rank_id = _setting("_rank_id", _non_negative("ascend_rank_id"))
    provider = _setting("_provider", lambda value: check_isinstance(
        "ascend_provider", value, str))

    def __init__(self):
        self._precision_mode = ""
        self._device_id = 0
        self._rank_id = 0
        self._provider = ""

    def __str__(self):
        return (f"device_type: DeviceType.kAscend,\n"
                f"precision_mode: {self.precision_mode},\n"
                f"device_id: {self.device_id}.provider: {self.provider}."
                f"rank_id: {self.rank_id}.")


class _Parallel:
    """Settings of ``ModelParallelRunner``."""

    def __init__(self):
        self._workers_num = 0
        self._config_info = {}
        self._config_path = ""
        self._device_ids = []

    @property
    def workers_num(self):
        return self._workers_num

    @workers_num.setter
    def workers_num(self, value):
        check_non_negative_int(
            "workers_num", value,
            "Set parallel failed, workers_num must be a non-negative int.")
        self._workers_num = value

    @property
    def config_info(self):
        lines = [f"{section}: {key} {value}"
                 for section, entries in self._config_info.items()
                 for key, value in entries.items()]
        return "\n".join(lines)

    @config_info.setter
    def config_info(self, value):
        check_section_dict("config_info", value)
        # Lite stores each section separately: later sections replace
        # earlier ones of the same name, others stay.
        self._config_info.update({k: dict(v) for k, v in value.items()})

    @property
    def config_path(self):
        return self._config_path

    @config_path.setter
    def config_path(self, value):
        check_isinstance("config_path", value, str)
        if not value:
            return  # Lite ignores an empty path
        if not os.path.exists(value):
            raise ValueError("Set parallel failed, config_path does not exist!")
        self._config_path = value

    @property
    def device_ids(self):
        return self._device_ids

    @device_ids.setter
    def device_ids(self, value):
        check_list_of_element("device_ids", value, int)
        if any(v < 0 for v in value):
            raise ValueError("Set parallel failed, device_ids contain a "
                             "negative number.")
        self._device_ids = list(value)

    def __str__(self):
        return (f"workers num: {self.workers_num},\n"
                f"config info: {self.config_info},\n"
                f"config file: {self.config_path}.")


class Context:
    """Where and how a model runs. ``target`` lists devices by preference;
    refinfer runs on ``"cpu"``."""

    def __init__(self):
        self.cpu = _CPU()
        self.gpu = _GPU()
        self.ascend = _Ascend()
        self.parallel = _Parallel()
        self._group_info_file = ""
        self.target = ["cpu"]

    @property
    def target(self):
        return self._target

    @target.setter
    def target(self, target):
        if not target:
            target = ["cpu"]
        check_list_of_element("target", target, str)
        for element in target:
            if element.lower() not in TARGETS:
                raise ValueError(f"target elements must be in ['cpu', 'gpu', "
                                 f"'ascend'], but got {element.lower()}.")
        self._target = target

    @property
    def group_info_file(self):
        return self._group_info_file

    @group_info_file.setter
    def group_info_file(self, value):
        check_isinstance("group_info_file", value, str)
        self._group_info_file = value

    def __str__(self):
        return f"target: {self.target}."
