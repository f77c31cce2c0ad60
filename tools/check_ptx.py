"""Compile every kernel of refinfer/cuda for a GPU architecture, without a
GPU: what the CUDA simulator runs but the compiler rejects (Python lists,
``str()``, a dtype the device has no instruction for) fails here.

    python tools/check_ptx.py [--cc 9.0]

Needs NVIDIA's NVVM, not a driver: ``pip install "numba-cuda[cu12]"``, or
for numba's built-in numba.cuda only the compiler wheel and its folder,
``pip install nvidia-cuda-nvcc-cu12`` and
``CUDA_HOME=<site-packages>/nvidia/cuda_nvcc``. Prints each kernel's compile
time and PTX size; exit status 1 names the kernels that do not compile.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
import traceback
from types import SimpleNamespace

import numpy as np

import refinfer.cuda
from refinfer.cuda import program
from refinfer.cuda.device import SIMULATED, cuda


def kernels() -> list[tuple[str, object, tuple]]:
    """(name, Python function, argument types) of every cuda kernel: the
    elementwise runners, and the kernels each module of refinfer/cuda lists:
    its ``PTX`` (name, kernel, signature), or what its ``ptx_kernels()``
    returns where the signatures are made per dtype."""
    found = [(f"elementwise program runner, {np.dtype(dtype).name}",
              program.runner(np.dtype(dtype)).py_func,
              program.runner_signature(np.dtype(dtype)))
             for dtype in program.DTYPES]
    for info in pkgutil.iter_modules(refinfer.cuda.__path__):
        module = importlib.import_module(f"refinfer.cuda.{info.name}")
        listed = module.ptx_kernels() if hasattr(module, "ptx_kernels") \
            else getattr(module, "PTX", ())
        found += [(f"{info.name}: {name}", getattr(kernel, "py_func", kernel),
                   signature) for name, kernel, signature in listed]
    return found


def _without_a_driver(cc: tuple[int, int]) -> None:
    """numba's built-in numba.cuda (0.68) asks the current device for the
    compute capability of the device functions a kernel calls: with no
    driver, answer ``cc`` (NVIDIA's numba-cuda takes it from compile_ptx)."""
    from numba.cuda import dispatcher
    if getattr(cuda, "implementation", "") == "Built-in":
        dispatcher.get_current_device = lambda: SimpleNamespace(compute_capability=cc)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cc", default="9.0",
                        help="compute capability, major.minor (default 9.0: H100)")
    args = parser.parse_args(argv)
    if SIMULATED:
        parser.error("NUMBA_ENABLE_CUDASIM is set: the simulator compiles nothing")
    cc = tuple(int(part) for part in args.cc.split("."))
    _without_a_driver(cc)
    failed, total = [], time.perf_counter()
    for name, function, signature in kernels():
        start = time.perf_counter()
        try:
            ptx, _ = cuda.compile_ptx(function, signature, cc=cc)
        except Exception:   # noqa: BLE001  each kernel's failure is reported
            failed.append(name)
            print(f"FAILED {name}:\n{traceback.format_exc()}", file=sys.stderr)
            continue
        print(f"ok  {name}: {time.perf_counter() - start:.1f} s, "
              f"{len(ptx.splitlines())} PTX lines, sm_{cc[0]}{cc[1]}")
    print(f"{len(kernels()) - len(failed)} kernels compiled in "
          f"{time.perf_counter() - total:.0f} s")
    if failed:
        print(f"{len(failed)} kernel(s) do not compile: {', '.join(failed)}",
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
