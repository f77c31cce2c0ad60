"""refinfer/ops/_kernels/packed.py's register tiles: which one a process
compiles, and the one that is not the CPU's own forced, computing what
tests/numba/test_packed.py checks with the CPU's own (a module of its own,
run once: its subprocess runs those checks at both thread counts)."""
import os
import subprocess
import sys

import pytest

from refinfer.ops._kernels import packed

AVX2 = frozenset({"avx", "avx2", "fma"})
AVX512 = AVX2 | {"avx512f"}


@pytest.mark.parametrize("setting, flags, expected", [
    ("", AVX2, "avx2"), ("", AVX512, "avx512"), ("avx512", AVX2, "avx512"),
    ("avx2", AVX512, "avx2")])
def test_the_tile_is_the_cpus_unless_set(setting, flags, expected):
    assert packed.tile_name(setting, flags) == expected


def test_the_other_tile_computes_the_same_products(tmp_path):
    """The tile that is not the CPU's own, forced (the 12 x 32 one on a CPU
    without AVX-512: LLVM splits its 16-float vectors in two; the 6 x 16
    one on a CPU with it): test_packed.py's product checks in a process of
    their own, whose kernels go to a cache folder of their own."""
    other = "avx2" if packed.TILE_COLUMNS == packed.TILES["avx512"][1] else "avx512"
    env = {**os.environ, "REFINFER_PACKED_TILE": other,
           "NUMBA_CACHE_DIR": str(tmp_path)}
    shape = subprocess.run(
        [sys.executable, "-c", "from refinfer.ops._kernels import packed; "
         "print(packed.TILE_ROWS, packed.TILE_COLUMNS)"],
        env=env, capture_output=True, text=True, timeout=120)
    assert shape.stdout.split() == [str(n) for n in packed.TILES[other][:2]], \
        shape.stderr[-2000:]
    checks = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         os.path.join(os.path.dirname(__file__), "test_packed.py"), "-k",
         "equal or range or nan"],
        env=env, capture_output=True, text=True, timeout=600,
        cwd=os.path.dirname(__file__))
    assert checks.returncode == 0 and " passed" in checks.stdout, \
        checks.stdout[-3000:]


def test_an_unknown_tile_is_refused_by_name():
    with pytest.raises(ValueError, match=r"REFINFER_PACKED_TILE='sse': "
                                         r"expected one of avx2, avx512"):
        packed.tile_name("sse", AVX2)
