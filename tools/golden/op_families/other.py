"""Debug printing and the embedding-cache id filter: Print, SubAndFilter.

UpdateCache has no case and no op: MindSpore 2.7.1 exports it writing into a
TensorMove copy of the cache that the graph returns through Depend, an
aliasing that refinfer's functional graph builder does not model."""
from op_cases import OpCase, fixed, t


CASES = [
    OpCase("print", "Print", "ops.depend(x * 2, P.Print()('x is', x))",
           [t((2, 3))], "Print beside a product (its printed text is not compared)"),
    OpCase("sub_and_filter", "SubAndFilter",
           "ops.operations._embedding_cache_ops.SubAndFilter()(x, y, z)",
           [fixed([1, 5, 3, 9, 4, 2, 6], "int32"), fixed(5, "int32"), fixed(2, "int32")]),
]
