"""The ``cuda`` kernels of the lookups in a table: Embedding (rows of a
weight) and DataFormatDimMap (axis numbers of one data format in
another): one thread per output element. Importing this module declares
them."""
from __future__ import annotations

import numpy as np

from refinfer import registry

from . import device
from .device import cuda
from .fill import filled


@device.jit
def _rows(indices, weight, out, bad):
    """out[n, k] = weight[indices[n], k]; an index outside the table's rows
    sets bad[0] and writes 0 instead of reading past the table."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    width = weight.shape[1]
    for i in range(start, out.size, stride):
        n, k = i // width, i % width
        row = indices[n]
        if 0 <= row < weight.shape[0]:
            out[n, k] = weight[row, k]
        else:
            bad[0] = 1
            out[n, k] = 0


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Embedding's rows on the device. Declines (the CPU kernel then gives
    the result or the reference's error) max_norm's renormalisation,
    indices that are not integers, a table that is not 2-D, and indices
    out of range: those are found on the device, and the one flag read
    back (4 bytes) is the kernel's only wait for the device."""
    if (max_norm is not None or input.dtype.kind not in "iu" or weight.ndim != 2):
        return None
    out = device.empty(tuple(input.shape) + (weight.shape[1],), weight.dtype)
    if not out.size:
        return out
    bad = filled((1,), np.zeros((), np.int32))
    device.launch(_rows, out.size, input.reshape(-1), weight,
                  out.reshape(input.size, weight.shape[1]), bad)
    return None if device.to_host(bad)[0] else out


@device.jit
def _entries(x, table, out, bad):
    """out[i] = table[x[i] mod len(table)]; an x outside [-len, len) sets
    bad[0]."""
    length = table.size
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        entry = np.int64(x[i])
        if entry < -length or entry >= length:
            bad[0] = 1
        out[i] = table[(entry % length + length) % length]


def data_format_dim_map(input_x, src_format="NHWC", dst_format="NCHW"):
    """DataFormatDimMap: the table src_format.index(letter) for each letter
    of dst_format, looked up at input_x mod 4. Declines formats the
    reference refuses and (found on the device, the flag read back)
    entries outside [-4, 4)."""
    src, dst = str(src_format), str(dst_format)
    if sorted(src) != sorted(dst) or len(src) != 4 or input_x.dtype.kind not in "iu":
        return None
    out = device.empty(tuple(input_x.shape), input_x.dtype)
    if not out.size:
        return out
    table = device.to_device(np.array([src.index(letter) for letter in dst],
                                      input_x.dtype))
    bad = filled((1,), np.zeros((), np.int32))
    device.launch(_entries, out.size, input_x.reshape(input_x.size), table,
                  out.reshape(out.size), bad)
    return None if device.to_host(bad)[0] else out


KERNELS = {"Embedding": embedding, "DataFormatDimMap": data_format_dim_map}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("embedding rows, int32 indices, float32", _rows,
        "void(int32[::1], float32[:, ::1], float32[:, ::1], int32[::1])"),
       ("format entries, int32", _entries,
        "void(int32[::1], int32[::1], int32[::1], int32[::1])")]
