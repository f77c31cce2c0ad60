"""Argument checks with MindSpore Lite's exact rules and messages.

Lite checks with ``isinstance``, so ``bool`` passes where ``int`` is
required; we keep that.
"""


def check_isinstance(arg_name, value, classes, enable_none=False):
    if value is None and enable_none:
        return
    if not isinstance(value, classes):
        raise TypeError(f"{arg_name} must be {classes.__name__}, "
                        f"but got {type(value)}.")


def check_list_of_element(arg_name, value, ele_classes, enable_none=False):
    if value is None and enable_none:
        return
    if not isinstance(value, list):
        raise TypeError(f"{arg_name} must be list, but got {type(value)}.")
    for i, element in enumerate(value):
        if not isinstance(element, ele_classes):
            raise TypeError(f"{arg_name} element must be "
                            f"{ele_classes.__name__}, but got "
                            f"{type(element)} at index {i}.")


def check_non_negative_int(arg_name, value, message=None):
    check_isinstance(arg_name, value, int)
    if value < 0:
        raise ValueError(message or f"{arg_name} must be a non-negative int.")


def check_config_info(arg_name, value, enable_none=False):
    """dict[str, str], Lite's messages."""
    if value is None and enable_none:
        return
    if not isinstance(value, dict):
        raise TypeError(f"{arg_name} must be dict, but got {type(value)}.")
    for key, val in value.items():
        if not isinstance(key, str):
            raise TypeError(f"{arg_name} key must be str, but got "
                            f"{type(key)} at key {key}.")
        if not isinstance(val, str):
            raise TypeError(f"{arg_name} val must be str, but got "
                            f"{type(val)} at key {key}.")


def check_input_shape(arg_name, value, enable_none=False):
    """dict[str, list[int]], Lite's messages (Converter.input_shape)."""
    if value is None and enable_none:
        return
    if not isinstance(value, dict):
        raise TypeError(f"{arg_name} must be dict, but got {type(value)}.")
    for key, shape in value.items():
        if not isinstance(key, str):
            raise TypeError(f"{arg_name} key must be str, but got {type(key)}.")
        if not isinstance(shape, list):
            raise TypeError(f"{arg_name} value must be list, but got {type(shape)} at "
                            f"key {key}.")
        for j, dim in enumerate(shape):
            if not isinstance(dim, int):
                raise TypeError(f"{arg_name} value's element must be int, but got "
                                f"{type(dim)} at index {j}.")


def check_section_dict(arg_name, value):
    """dict[str, dict[str, str]] (config_dict, config_info)."""
    if not isinstance(value, dict):
        raise TypeError(f"{arg_name} must be dict, but got {type(value)}.")
    for key, section in value.items():
        check_isinstance(f"{arg_name}_key", key, str)
        check_isinstance(f"{arg_name}_value", section, dict)
        for inner_key, inner_value in section.items():
            check_isinstance(f"{arg_name}_value_key", inner_key, str)
            check_isinstance(f"{arg_name}_value_value", inner_value, str)


def check_shape(shape):
    """A list or tuple of ints, Lite's messages."""
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"shape must be list or tuple, but got {type(shape)}.")
    for i, element in enumerate(shape):
        if not isinstance(element, int):
            raise TypeError(f"shape element must be int, but got "
                            f"{type(element)} at index {i}.")


def check_tensor_input_param(shape=None, device=None):
    if shape is not None:
        check_shape(shape)
    if device is not None:
        check_isinstance("device", device, str)
        parts = device.split(":")
        if len(parts) > 2:
            raise TypeError("device must be 'ascend:index', eg: 'ascend:0'")
        if parts[0] != "ascend":
            raise TypeError("now only support ascend device.")
        if len(parts) == 2 and not parts[1].isdigit():
            raise TypeError("device id should >= 0.")
