"""Debug printing and the embedding cache: Print, SubAndFilter, UpdateCache.

UpdateCache writes its input in place; ``ops.depend(x, update)`` is x after
the write, which MindSpore runs and refinfer's graph builder follows."""
from op_cases import OpCase, fixed, t

UPDATE_CACHE = "ops.depend(x, ops.operations._embedding_cache_ops.UpdateCache()(x, y, z, 4))"


CASES = [
    OpCase("print", "Print", "ops.depend(x * 2, P.Print()('x is', x))",
           [t((2, 3))], "Print beside a product (its printed text is not compared)"),
    OpCase("sub_and_filter", "SubAndFilter",
           "ops.operations._embedding_cache_ops.SubAndFilter()(x, y, z)",
           [fixed([1, 5, 3, 9, 4, 2, 6], "int32"), fixed(5, "int32"), fixed(2, "int32")]),
    OpCase("update_cache", "UpdateCache", UPDATE_CACHE,
           [t((5, 3)), fixed([2, -1, 4, 0, 7, 2], "int32"), t((6, 3))],
           "UpdateCache of a 5-row cache with max_num 4: ids -1, 4 and 7 skipped, id 2 "
           "written twice (the last wins); the cache read after it through depend"),
    OpCase("update_cache_flat_runs", "UpdateCache", UPDATE_CACHE,
           [t((5, 3)), fixed([[2, -1], [4, 0], [7, 2]], "int32"), t((3, 2, 3))],
           "UpdateCache with 2-D indices and updates (3, 2, 3): MindSpore's CPU kernel "
           "copies updates.shape[1] = 2 elements per id, at id * 2 of the flat cache"),
]
