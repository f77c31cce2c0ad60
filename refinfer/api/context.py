"""Lite's ``Context``: target devices and per-device settings."""
from __future__ import annotations

import os

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


class _CPU:
    def __init__(self):
        self._precision_mode = "enforce_fp32"
        self._thread_num = 0
        self._inter_op_parallel_num = 0
        self._thread_affinity_mode = 0
        self._thread_affinity_core_list = []

    @property
    def precision_mode(self):
        return self._precision_mode

    @precision_mode.setter
    def precision_mode(self, value):
        _check_precision("cpu_precision_mode", value, PRECISION_MODES)
        self._precision_mode = value

    @property
    def thread_num(self):
        return self._thread_num

    @thread_num.setter
    def thread_num(self, value):
        check_non_negative_int("cpu_thread_num", value)
        self._thread_num = value

    @property
    def inter_op_parallel_num(self):
        return self._inter_op_parallel_num

    @inter_op_parallel_num.setter
    def inter_op_parallel_num(self, value):
        check_non_negative_int("cpu_inter_op_parallel_num", value)
        self._inter_op_parallel_num = value

    @property
    def thread_affinity_mode(self):
        return self._thread_affinity_mode

    @thread_affinity_mode.setter
    def thread_affinity_mode(self, value):
        check_isinstance("cpu_thread_affinity_mode", value, int)
        # Lite replaces out-of-range modes by 0 (with a warning only).
        self._thread_affinity_mode = value if value in (0, 1, 2) else 0

    @property
    def thread_affinity_core_list(self):
        return self._thread_affinity_core_list

    @thread_affinity_core_list.setter
    def thread_affinity_core_list(self, value):
        check_list_of_element("cpu_thread_affinity_core_list", value, int)
        self._thread_affinity_core_list = list(value)

    def __str__(self):
        return (f"device_type: DeviceType.kCPU,\n"
                f"precision_mode: {self.precision_mode},\n"
                f"thread_num: {self.thread_num},\n"
                f"inter_op_parallel_num: {self.inter_op_parallel_num},\n"
                f"thread_affinity_mode: {self.thread_affinity_mode},\n"
                f"thread_affinity_core_list: {self.thread_affinity_core_list}.")


class _GPU:
    def __init__(self):
        self._precision_mode = "enforce_fp32"
        self._device_id = 0

    @property
    def precision_mode(self):
        return self._precision_mode

    @precision_mode.setter
    def precision_mode(self, value):
        _check_precision("gpu_precision_mode", value, PRECISION_MODES)
        self._precision_mode = value

    @property
    def device_id(self):
        return self._device_id

    @device_id.setter
    def device_id(self, value):
        check_non_negative_int("gpu_device_id", value)
        self._device_id = value

    @property
    def rank_id(self):
        return 0

    @property
    def group_size(self):
        return 1

    def __str__(self):
        return (f"device_type: DeviceType.kGPU,\n"
                f"precision_mode: {self.precision_mode},\n"
                f"device_id: {self.device_id},\n"
                f"rank_id: {self.rank_id},\n"
                f"group_size: {self.group_size}.")


class _Ascend:
    def __init__(self):
        self._precision_mode = ""
        self._device_id = 0
        self._rank_id = 0
        self._provider = ""

    @property
    def precision_mode(self):
        return self._precision_mode

    @precision_mode.setter
    def precision_mode(self, value):
        _check_precision("ascend_precision_mode", value, ASCEND_PRECISION_MODES)
        self._precision_mode = value

    @property
    def device_id(self):
        return self._device_id

    @device_id.setter
    def device_id(self, value):
        check_non_negative_int("ascend_device_id", value)
        self._device_id = value

    @property
    def rank_id(self):
        return self._rank_id

    @rank_id.setter
    def rank_id(self, value):
        check_non_negative_int("ascend_rank_id", value)
        self._rank_id = value

    @property
    def provider(self):
        return self._provider

    @provider.setter
    def provider(self, value):
        check_isinstance("ascend_provider", value, str)
        self._provider = value

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
