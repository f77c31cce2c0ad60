"""Group names -> ranks: world names, group_rank_ids, config groups, and the
automatic-slicing hash names."""
import ctypes
import ctypes.util
import itertools

import pytest

from refinfer.distributed import DistributedError, GroupTable, hashed_group_name, std_hash
from refinfer.distributed.groups import parse_config_groups

# std::hash<std::string> of these strings, printed by a C++ program built with
# g++ 12 / libstdc++ on x86-64 Linux.
KNOWN_HASHES = {"0-1": 5004544844489628105, "2-3": 3358271254418797552,
                "0-1-2-3": 6301172352641561019, "0-2": 5208665662337742843,
                "": 6142509188972423790, "0123456789-12": 8690712899346896759}


def test_std_hash_matches_libstdcxx_values():
    assert {text: std_hash(text) for text in KNOWN_HASHES} == KNOWN_HASHES


def test_std_hash_matches_the_loaded_libstdcxx():
    """Every length 0..40 (all tail sizes), through libstdc++'s own
    _Hash_bytes, when the library is there."""
    name = ctypes.util.find_library("stdc++")
    if name is None:
        pytest.skip("libstdc++ not found")
    hash_bytes = ctypes.CDLL(name)._ZSt11_Hash_bytesPKvmm
    hash_bytes.restype = ctypes.c_size_t
    hash_bytes.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t]
    for length in range(41):
        text = "-".join(str(r) for r in range(64))[:length]
        assert std_hash(text) == hash_bytes(text.encode(), length, 0xC70F6907), text


def test_hashed_names_resolve_to_their_ranks():
    table = GroupTable(8)
    for ranks in [(0, 1), (2, 3), (0, 4), (1, 3, 5, 7), tuple(range(8)), (6,)]:
        assert table.ranks(hashed_group_name(ranks)) == ranks


def test_hashed_names_of_a_large_job_use_regular_layouts():
    """64 ranks: too many combinations of 8, but blocks and strides resolve."""
    table = GroupTable(64)
    for ranks in [tuple(range(8, 16)), tuple(range(3, 64, 8))]:
        assert table.ranks(hashed_group_name(ranks)) == ranks


def test_world_names_of_every_backend_mean_all_ranks():
    table = GroupTable(3)
    for name in ("hccl_world_group", "nccl_world_group", "mccl_world_group"):
        assert table.ranks(name) == (0, 1, 2)


def test_group_rank_ids_win_over_the_name():
    table = GroupTable(4, {"tp": (0, 1)})
    assert table.ranks("tp", (3, 2)) == (3, 2)
    assert table.ranks("hccl_world_group", [1, 2]) == (1, 2)


def test_config_groups():
    config = {"distributed": {"groups": '{"tp": [0, 1], "dp": [1, 3]}'}}
    table = GroupTable(4, parse_config_groups(config))
    assert table.ranks("tp") == (0, 1)
    assert table.ranks("dp") == (1, 3)


@pytest.mark.parametrize("text, problem", [
    ('[0, 1]', "not a JSON object"),
    ('{"tp": [0, "1"]}', "is not a list of rank numbers"),
    ('{"tp": []}', "is not a list of rank numbers"),
    ('{"tp": [1, 1]}', "repeats a rank"),
    ('{"tp": [0, 1]', "Expecting"),
])
def test_bad_config_groups(text, problem):
    with pytest.raises(DistributedError, match=problem):
        parse_config_groups({"distributed": {"groups": text}})


def test_unknown_group_says_how_to_name_it():
    with pytest.raises(DistributedError, match=r'unknown communication group .tp.*'
                       r'\[distributed\] groups = \{"tp": \[0, 1\]\}'):
        GroupTable(2).ranks("tp")


def test_hash_name_of_ranks_outside_the_job_is_unknown():
    with pytest.raises(DistributedError, match="unknown communication group"):
        GroupTable(2).ranks(hashed_group_name((2, 3)))


def test_ranks_outside_the_job():
    with pytest.raises(DistributedError, match=r"names rank\(s\) \[2\], but the job has 2"):
        GroupTable(2, {"tp": (1, 2)}).ranks("tp")


def test_every_pair_of_a_small_job_is_found():
    table = GroupTable(6)
    for pair in itertools.combinations(range(6), 2):
        assert table.ranks(hashed_group_name(pair)) == pair
