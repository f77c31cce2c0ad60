"""The MindIR fuzzer behind tools/fuzz.py (issue 17).

- ``protowire``: a MindIR file as a tree of protobuf fields, typed by
  refinfer's own schema (refinfer/format/schema.py), and back to bytes.
- ``mutate``: structure-aware and byte-level mutations, a case per seed.
- ``worker``: the subprocess that builds and runs cases and classifies
  what happened (ok / clean / raw / memory); ``pool`` drives it with an
  address-space limit and a time limit (crash / hang).
- ``minimise``: the smallest file that keeps a failure's signature.
"""
