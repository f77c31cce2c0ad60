"""One copy of a model's weights for several processes, through POSIX shared memory.

MindSpore Lite's four steps (docs/weight-sharing.md), on the CPU:

1. each worker process sends ``Model().get_model_info("current_pid")`` to the master;
2. the master builds with
   ``config_dict={"cpu_context": {"shareable_weight_pid_list": "pid1, pid2"}}``
   (Lite's section name ``ascend_context`` works too): :func:`publish` copies every weight into a
   new segment and the master's model then runs on views of that segment;
3. ``get_model_info("shareable_weight_mem_handle")`` gives the master's handle, a decimal uint64;
4. each worker builds the same model file with ``{"shareable_weight_mem_handle": handle}``:
   :func:`attach` maps the segment before the model is read, and the reader takes the
   segment's zero-copy views in place of the file's weights (it never reads them).

Segment layout: a fixed prefix (magic, owner pid, owner start time, data offset, table
length), a seal (16 random salt bytes, a 32-byte HMAC), the sealed JSON table (fingerprint,
whitelist, tensors with dtype, shape and offset), then the tensors, page-aligned as a block and
64-byte aligned each. A weight is published as the master's plan reads it: C or F order, or
packed for refinfer's own product (refinfer/stored.py; its entry names the tile, which a
worker's must match), so that every process's products read the segment's one copy. The
prefix is written first and the table last, so a half-written segment is recognisable.

Security (same-user processes are the threat model; other users are kept out by the kernel):

- the handle is 63 random bits, and the segment's name 128 other random bits: a directory
  listing of /dev/shm says nothing about any handle;
- the table is sealed with keys derived from the handle and the salt (SHA-256): encrypted
  (a SHAKE-256 key stream) and authenticated (HMAC-SHA256 over the prefix, salt and sealed
  table). A worker finds the segment of its handle as the one whose seal its handle opens;
  without the handle, a segment shows its owner and sizes, not its whitelist, tensors or
  handle (finding the handle from a seal means trying 2**63 of them);
- segments are created owner-only (0600) by ``multiprocessing.shared_memory``; an attaching
  process refuses the segment of its handle when another user owns it or others may open it,
  checks its own PID against the whitelist, and compares the SHA-256 of its model file with
  the master's (a different file is a clear error). A hostile process of the same user can
  still read the weights' bytes in the segment, and the model file itself: these checks keep
  honest processes from mistakes and unsealed tables from being read; they are no sandbox.

Lifetime: the master owns the segment. Its name is unlinked when the master's model is freed,
when the master exits (a ``multiprocessing.util.Finalize``, which also runs in multiprocessing
children), or, if the master is killed, by the master's resource tracker or the sweep of
segments of dead owners that runs when this module is imported and at every build. Workers
never register the segment with a resource tracker: they open it themselves instead of through
``SharedMemory``, whose attach registers it in Python < 3.13 so that the worker's tracker
unlinks it when the worker exits (cpython#82300). Mappings outlive the name: a worker keeps
running on its weights after the master is gone.

Mapping: every process (the master too) opens the segment read-only and maps it copy-on-write
(``MAP_PRIVATE``), so nothing written through a mapping can reach the segment or another
process; pages stay shared as long as nobody writes. Weights are flagged read-only, as parsed
weights are; derived constants keep the writeable flag of the arrays they replace, so Numba
kernels see the same array types as without sharing (Numba compiles read-only arrays as a
separate specialization).
"""
from __future__ import annotations

import ctypes
import gc
import hashlib
import hmac
import json
import mmap
import os
import secrets
import stat
import struct
import threading
import time
import weakref
from multiprocessing import resource_tracker, shared_memory, util

import numpy as np

from .ops._kernels import packed
from .stored import StoredWeight

SECTIONS = ("cpu_context", "ascend_context")     # where the two keys are read, in order
PID_LIST_KEY = "shareable_weight_pid_list"
HANDLE_KEY = "shareable_weight_mem_handle"
SHM_DIR = "/dev/shm"
PREFIX = "refinfer_w_"
MAGIC = b"RFWSHM02"
HEADER = struct.Struct("<8sQQQQ")   # magic, owner pid, owner start, data offset, table length
SALT_BYTES = 16
SEAL = struct.Struct(f"<{SALT_BYTES}s32s")   # salt, HMAC-SHA256(prefix + salt + sealed table)
ALIGN = 64
HANDLE_LIMIT = 2 ** 63              # handles fit the C int64 Lite's example uses
NAME_BYTES = 16                     # random bytes of a segment's name
STALE_AFTER_S = 60                  # a segment without a header is abandoned after this


class SharingError(RuntimeError):
    """Weights cannot be published or attached: says why and what to do."""


class Published:
    """The master's segment; unlinked by :meth:`release`, when garbage-collected or at exit."""

    def __init__(self, handle: int, shm: shared_memory.SharedMemory):
        self.handle = handle
        self.name = shm.name
        self._finalizer = util.Finalize(self, _unlink, args=(shm, os.getpid()),
                                        exitpriority=10)

    def release(self) -> None:
        self._finalizer()


class Attached:
    """A worker's view of the master's segment: the weights by name, and the constants the
    master's plan derived from them, by their place in the plan."""

    def __init__(self, weights: dict, derived: dict, table: list):
        self.weights, self.derived, self.table = weights, derived, table


def attach_for(path: str, config: dict) -> Attached | None:
    """The master's segment, when ``config`` makes this process a worker (checked: whitelist,
    model fingerprint); to be read before the model, whose weights it replaces. Every
    build calls it: it sweeps segments of dead owners first."""
    sweep()
    handle = _setting(config, HANDLE_KEY)
    if handle is None:
        return None
    if _setting(config, PID_LIST_KEY) is not None:
        raise SharingError(f"{PID_LIST_KEY} (master) and {HANDLE_KEY} (worker) cannot both "
                           "be set")
    return attach(path, parse_handle(handle))


def setup(loaded, config: dict, attached: Attached | None = None) -> Published | None:
    """Publish the weights of ``loaded`` (a master), or make ``loaded`` (a worker built on
    ``attached.weights``) adopt the master's derived constants too."""
    pid_list = _setting(config, PID_LIST_KEY)
    published = None
    if pid_list is not None:
        published = publish(loaded, parse_pid_list(pid_list))
    elif attached is not None:
        _check_same_weights(loaded.parameters(unpack=False), attached.table)
        _adopt_derived(loaded.program, attached.derived)
    if pid_list is not None or attached is not None:
        _return_freed_memory()
    return published


def requested(config: dict) -> bool:
    """Whether ``config`` asks to publish weights or to attach to published ones."""
    return any(_setting(config, key) is not None for key in (PID_LIST_KEY, HANDLE_KEY))


def _setting(config: dict, key: str) -> str | None:
    return next((config[s][key] for s in SECTIONS if key in config.get(s, {})), None)


def parse_pid_list(text: str) -> set[int]:
    """``"pid1, pid2"`` -> {pid1, pid2}; 0 entries (unfilled slots) are ignored."""
    items = text.replace(",", " ").split()
    if not all(item.isdigit() for item in items):
        raise SharingError(f"{PID_LIST_KEY} must list process ids separated by commas, "
                           f"got {text!r}")
    return {int(item) for item in items} - {0}


def parse_handle(text: str) -> int:
    text = text.strip()
    if not text.isdigit() or not 0 < int(text) < 2 ** 64:
        raise SharingError(f"{HANDLE_KEY} must be the number get_model_info("
                           f"'{HANDLE_KEY}') returned in the master, got {text!r}")
    return int(text)


def model_fingerprint(path: str) -> bytes:
    """SHA-256 of the model file (for split weights: of the graph file)."""
    with open(path, "rb") as f:
        if hasattr(hashlib, "file_digest"):      # Python 3.11+: reads in blocks
            return hashlib.file_digest(f, "sha256").digest()
        return hashlib.sha256(f.read()).digest()


# -- master ------------------------------------------------------------------------------
def publish(loaded, whitelist: set[int]) -> Published:
    """Copy the weights of ``loaded`` into a new segment and make ``loaded`` run on it."""
    fingerprint = model_fingerprint(loaded.path)
    weights = loaded.parameters(unpack=False)   # (stored weights as they are held)
    derived, places = _derived_constants(loaded.program, _held_arrays(weights))
    arrays = {**weights, **derived}
    table, size = _layout(arrays, places)
    meta = json.dumps({"fingerprint": fingerprint.hex(), "whitelist": sorted(whitelist),
                       "model": os.path.basename(loaded.path), "tensors": table}).encode()
    data_offset = _round_up(HEADER.size + SEAL.size + len(meta), mmap.PAGESIZE)
    handle, shm = _create(data_offset + max(size, 1))
    try:
        _fill(shm.buf, arrays, table, data_offset, _Sealer(handle), meta)
    finally:
        shm.close()
    published = Published(handle, shm)
    mapping = _map_private(published.name)
    _run_on(loaded, _attached(_views(mapping, data_offset, table), table))
    return published


def _layout(arrays: dict, places: dict) -> tuple[list[dict], int]:
    """Offsets (from the data offset) of ``arrays``; derived constants also list the
    ``places`` in the plan where they sit."""
    table, offset = [], 0
    for name, array in arrays.items():
        entry = {"name": name, "dtype": array.dtype.name, "shape": list(array.shape),
                 "offset": offset}
        if isinstance(array, StoredWeight):
            entry["packed"] = {"tile": [packed.TILE_ROWS, packed.TILE_COLUMNS],
                               "transposed": array.transposed,
                               "size": array.layout.slivers.size}
        elif _fortran(array):
            entry["order"] = "F"
        if name in places:
            entry["places"] = places[name]
        table.append(entry)
        offset = _round_up(offset + _published(array).nbytes, ALIGN)
    return table, offset


def _create(size: int) -> tuple[int, shared_memory.SharedMemory]:
    """A new segment with a random name, and a random handle unrelated to it."""
    handle = 1 + secrets.randbelow(HANDLE_LIMIT - 1)
    while True:
        name = PREFIX + secrets.token_hex(NAME_BYTES)
        try:   # O_CREAT | O_EXCL, mode 0600
            return handle, shared_memory.SharedMemory(name, create=True, size=size)
        except FileExistsError:
            continue


class _Sealer:
    """The keys a handle gives for one salt: the table's key stream and its HMAC."""

    def __init__(self, handle: int, salt: bytes | None = None):
        self.salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
        key = hashlib.sha256(b"refinfer shared weights\0" + self.salt
                             + handle.to_bytes(8, "little")).digest()
        self._stream_key, self._mac_key = (hashlib.sha256(key + label).digest()
                                           for label in (b"stream", b"mac"))

    def crypt(self, data: bytes) -> bytes:
        """Encrypt or decrypt (XOR with the key stream)."""
        stream = hashlib.shake_256(self._stream_key).digest(len(data))
        return (int.from_bytes(data, "little")
                ^ int.from_bytes(stream, "little")).to_bytes(len(data), "little")

    def mac(self, prefix: bytes, sealed: bytes) -> bytes:
        return hmac.new(self._mac_key, prefix + self.salt + sealed, "sha256").digest()


def _fill(buf, weights: dict, table: list, data_offset: int, sealer: _Sealer,
          meta: bytes) -> None:
    """Prefix first, tensors, then the sealed table and its length: readers see complete
    data."""
    HEADER.pack_into(buf, 0, MAGIC, os.getpid(), _start_time(os.getpid()),
                     data_offset, 0)
    for entry in table:
        source = _published(weights[entry["name"]]).reshape(-1).view(np.uint8)
        target = np.frombuffer(buf, np.uint8, source.size, data_offset + entry["offset"])
        target[:] = source
        del target          # no view may outlive shm.close()
    prefix = HEADER.pack(MAGIC, os.getpid(), _start_time(os.getpid()), data_offset,
                         len(meta))
    sealed = sealer.crypt(meta)
    start = HEADER.size + SEAL.size
    buf[start:start + len(sealed)] = sealed
    SEAL.pack_into(buf, HEADER.size, sealer.salt, sealer.mac(prefix, sealed))
    buf[:HEADER.size] = prefix


def _fortran(array: np.ndarray) -> bool:
    """Whether ``array`` is stored transposed (a weight its products read so:
    passes/gemm.py), and is published so, for the workers' plans to read it as
    the master's does."""
    return array.flags.f_contiguous and not array.flags.c_contiguous


def _published(array) -> np.ndarray:
    """The elements of ``array`` as they are published: C or F order (:func:`_fortran`);
    a weight stored packed (refinfer/stored.py) as its packed slivers, which the
    processes' products read as they are."""
    if isinstance(array, StoredWeight):
        return array.layout.slivers
    return array.T if _fortran(array) else np.ascontiguousarray(array)


def _unlink(shm: shared_memory.SharedMemory, owner_pid: int) -> None:
    if os.getpid() != owner_pid:       # a forked child inherited the finalizer
        return
    try:
        shm.unlink()                   # also unregisters it from the resource tracker
    except FileNotFoundError:          # already swept: only the tracker entry is left
        resource_tracker.unregister(shm._name, "shared_memory")


# -- worker ------------------------------------------------------------------------------
def attach(path: str, handle: int) -> Attached:
    """Map the master's segment of ``handle`` for the model file ``path``, after checking
    that this process may and that the file is the master's."""
    name, meta, data_offset = find(handle)
    mapping = _map_private(name)
    if os.getpid() not in meta["whitelist"] and os.getpid() != meta["owner"]:
        raise SharingError(f"process {os.getpid()} is not in the master's {PID_LIST_KEY} "
                           f"({', '.join(map(str, meta['whitelist'])) or 'empty'})")
    if meta["fingerprint"] != model_fingerprint(path).hex():
        raise SharingError(f"the weights of handle {handle} belong to another model file "
                           f"than {path!r} (the fingerprints differ): build every worker "
                           "from the master's model file")
    return _attached(_views(mapping, data_offset, meta["tensors"]), meta["tensors"])


def find(handle: int) -> tuple[str, dict, int]:
    """The name, table and data offset of the segment whose seal ``handle`` opens."""
    for name in segment_names():
        try:
            fd = os.open(os.path.join(SHM_DIR, name),
                         os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue            # gone meanwhile, or another user's
        try:
            found = _unseal(fd, handle)
        finally:
            os.close(fd)
        if found is not None:
            return name, *found
    raise SharingError(f"no shared weights have handle {handle}: the master's model was "
                       "freed, the master exited, or the handle is wrong")


def _unseal(fd: int, handle: int) -> tuple[dict, int] | None:
    """(table, data offset) of the segment open as ``fd`` if ``handle`` is its handle;
    None for another handle's segment, a half-written one or another user's."""
    info = os.fstat(fd)
    if info.st_uid != os.getuid():
        return None
    head = os.pread(fd, HEADER.size + SEAL.size, 0)
    if len(head) < HEADER.size + SEAL.size or head[:len(MAGIC)] != MAGIC:
        return None
    _, owner, _, data_offset, length = HEADER.unpack_from(head)
    if len(head) + length > info.st_size:
        return None
    salt, mac = SEAL.unpack_from(head, HEADER.size)
    sealed = os.pread(fd, length, len(head)) if length else b""
    sealer = _Sealer(handle, salt)
    if not sealed or not hmac.compare_digest(mac, sealer.mac(head[:HEADER.size], sealed)):
        return None
    meta = json.loads(sealer.crypt(sealed))
    meta["owner"] = owner
    return meta, data_offset


def _attached(views: dict, table: list) -> Attached:
    return Attached({e["name"]: views[e["name"]] for e in table if "places" not in e},
                    {place: views[e["name"]] for e in table
                     for place in e.get("places", ())}, table)


def _run_on(loaded, attached: Attached) -> None:
    """Make ``loaded`` use the segment's weights, then its derived constants."""
    loaded.replace_parameters(attached.weights, copy=False)
    _adopt_derived(loaded.program, attached.derived)


def _map_private(name: str) -> mmap.mmap:
    """Map segment ``name`` copy-on-write from a read-only descriptor, after checking it is
    ours alone (no resource tracker involved)."""
    fd = os.open(os.path.join(SHM_DIR, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if info.st_uid != os.getuid() or info.st_mode & 0o077 \
                or not stat.S_ISREG(info.st_mode):
            raise SharingError(f"refusing shared memory {name!r}: it must belong to this "
                               "user and be private to it (mode 0600)")
        return mmap.mmap(fd, info.st_size, access=mmap.ACCESS_COPY)
    finally:
        os.close(fd)


def _check_same_weights(own: dict, table: list) -> None:
    theirs = {e["name"]: (np.dtype(e["dtype"]), tuple(e["shape"])) for e in table
              if "places" not in e}
    mine = {name: (a.dtype, a.shape) for name, a in own.items()}
    if theirs != mine:
        differ = sorted(set(theirs.items()) ^ set(mine.items()), key=str)
        raise SharingError("the shared weights do not match this model's: "
                           + ", ".join(str(d) for d in differ[:5]))


def _views(mapping: mmap.mmap, data_offset: int, table: list) -> dict[str, np.ndarray]:
    """Zero-copy arrays (writeable: the mapping is copy-on-write); each keeps the mapping
    alive (it is never closed explicitly)."""
    views = {}
    for e in table:
        if "packed" in e:
            views[e["name"]] = _packed_view(mapping, data_offset, e)
            continue
        count = int(np.prod(e["shape"], dtype=np.int64))
        flat = np.frombuffer(mapping, np.dtype(e["dtype"]), count, data_offset + e["offset"])
        views[e["name"]] = flat.reshape(e["shape"][::-1]).T if e.get("order") == "F" \
            else flat.reshape(e["shape"])
    return views


def _packed_view(mapping: mmap.mmap, data_offset: int, entry: dict) -> StoredWeight:
    """A weight the master stored packed, on the segment's slivers: this process's
    products must use the master's tile."""
    layout = entry["packed"]
    tile = [packed.TILE_ROWS, packed.TILE_COLUMNS]
    if layout["tile"] != tile:
        raise SharingError(f"weight {entry['name']!r} is packed for a {layout['tile'][0]} "
                           f"x {layout['tile'][1]} tile, this process's products use "
                           f"{tile[0]} x {tile[1]}: run the master and the workers with "
                           "the same REFINFER_PACKED_TILE")
    slivers = np.frombuffer(mapping, np.float32, layout["size"],
                            data_offset + entry["offset"])
    shape = entry["shape"][::-1] if layout["transposed"] else entry["shape"]
    return StoredWeight(packed.PackedRight.of(slivers, shape), layout["transposed"])


# -- constants the plan derived from the weights ------------------------------------------
# A fast plan computes new arrays from the weights once, at build: BatchNorm folded into
# convolution weights, packed layouts, float64 copies. Each process would hold its own, so
# the master publishes them too, with the places where they sit in its plan; a process
# adopts a shared copy only where its own plan holds an equal array at the same place.
MIN_DERIVED_BYTES = 4096


def _derived_constants(program, weights: list) -> tuple[dict, dict]:
    """``({name: array}, {name: [place, ...]})`` for the plan's array constants that are not
    ``weights`` nor views of them (a transposed weight: a worker's plan views its own shared
    weight the same way), one entry per array object."""
    own = {id(_owner(a)) for a in weights}
    arrays, places, names = {}, {}, {}
    for place, array in _plan_constants(program):
        if id(_owner(array)) in own or array.nbytes < MIN_DERIVED_BYTES:
            continue
        name = names.setdefault(id(array), f"derived/{len(names)}")
        arrays[name] = array
        places.setdefault(name, []).append(place)
    return arrays, places


def _held_arrays(weights: dict) -> list:
    """The arrays that hold ``weights``: each array, and the packed slivers of a weight
    stored in its products' layout (refinfer/stored.py), published as the weight."""
    return [array for value in weights.values()
            for array in (value.layout.shared_arrays().values()
                          if isinstance(value, StoredWeight) else (value,))]


def _owner(array: np.ndarray):
    """What holds ``array``'s memory: itself, or the object it views (NumPy points a view
    of a view at the first)."""
    return array if array.base is None else array.base


# A fused kernel's argument may hold its derived arrays inside an object (a packed weight,
# a Winograd filter, an inverted residual block: ops/_kernels/constants.Holder), which lists
# them by name and takes equal ones in their place. Such an array's place is the object's,
# "#", its name.
INSIDE = "#"


def _plan_constants(program):
    """(place, array) for every array constant in the plan (``Program.constants``: slot
    templates and kernel arguments, fused kernels' derived weights included, and the
    arrays inside objects that list theirs)."""
    found = []
    for place, value in program.constants():
        if isinstance(value, np.ndarray):
            found.append((place, value))
        elif hasattr(value, "shared_arrays"):
            found.extend((f"{place}{INSIDE}{name}", array)
                         for name, array in value.shared_arrays().items())
    return found


def _replace_constants(program, arrays: dict) -> None:
    """``program.replace_constants(arrays)``, places inside objects included."""
    top, inside = {}, {}
    for place, array in arrays.items():
        holder, nested, name = place.partition(INSIDE)
        if nested:
            inside.setdefault(holder, {})[name] = array
        else:
            top[place] = array
    if inside:
        holders = dict(program.constants())
        for holder, named in inside.items():
            holders[holder].adopt_arrays(named)
    program.replace_constants(top)


def _adopt_derived(program, shared: dict) -> None:
    """Put the shared arrays in the places of equal ones of ``program`` (at build, before
    any run)."""
    adopted = {}
    for place, value in _plan_constants(program):
        view = shared.get(place)
        if view is not None and value.dtype == view.dtype and np.array_equal(value, view):
            view.flags.writeable = value.flags.writeable
            adopted[place] = view
    _replace_constants(program, adopted)


# -- one copy for several models of one process (ModelGroup SHARE_WEIGHT) ------------------
class WeightPool:
    """The arrays that the models of one ``ModelGroup`` share in this process, found by
    content: a model's weight or derived constant that equals (dtype, shape, values) one the
    pool holds is replaced by it, and its own copy is freed. Matching by content, not by
    name, means that two models share exactly what they have in common (one file built
    twice shares everything, a fine-tuned copy shares its frozen layers) and never a weight
    that merely has the same name. Entries are weak: an array leaves the pool when no model
    uses it any more."""

    def __init__(self):
        self._arrays = weakref.WeakValueDictionary()
        self._lock = threading.Lock()     # models of a group may build in several threads

    def adopt(self, loaded) -> int:
        """Make ``loaded`` (just built) run on the pool's equal arrays, and add its other
        arrays to the pool; returns the bytes its own copies held that are now freed."""
        with self._lock:
            updates = self._shared(loaded.parameters(unpack=False).items())
            if updates:
                loaded.replace_parameters(updates, copy=False)
            adopted = self._shared((place, array) for place, array
                                   in _plan_constants(loaded.program)
                                   if array.nbytes >= MIN_DERIVED_BYTES)
            _replace_constants(loaded.program, adopted)
        if updates or adopted:
            _return_freed_memory()
        return sum(a.nbytes for a in [*updates.values(), *adopted.values()])

    def _shared(self, items) -> dict:
        """``{key: pool's array}`` for the ``(key, array)`` items whose array equals one
        the pool already holds; the others join the pool."""
        found = {}
        for key, array in items:
            kept = self._intern(array)
            if kept is not array:
                found[key] = kept
        return found

    def _intern(self, array):
        """The pool's array equal to ``array``, or ``array`` itself, now in the pool.
        By value, whatever the layout: a weight its products read is stored in their
        layout (passes/gemm.py: packed, a :class:`StoredWeight`, or transposed), the
        same file's weights mapped from a weight file are not."""
        if isinstance(array, StoredWeight):
            values, writeable = np.ascontiguousarray(array.array()), False
        elif array.dtype.hasobject or not (array.flags.c_contiguous
                                           or array.flags.f_contiguous):
            return array
        else:
            values, writeable = np.ascontiguousarray(array), array.flags.writeable
        key = (values.dtype.str, values.shape, writeable,
               hashlib.blake2b(values.data, digest_size=32).digest())
        kept = self._arrays.get(key)
        if kept is None:
            self._arrays[key] = kept = array
        return kept


# -- sweeping segments of dead owners ------------------------------------------------------
# At import of this module (the Lite API imports it; ``import refinfer`` alone does not) and
# at every build (:func:`attach_for`): a master killed with its whole process group, resource
# tracker included, leaves its segment until then.
def sweep() -> list[str]:
    """Unlink this user's segments whose owner process is gone; returns their names.
    Never fails: a segment it cannot read is left alone."""
    removed = []
    for name in segment_names():
        path = os.path.join(SHM_DIR, name)
        try:
            if _abandoned(path):
                os.unlink(path)
                removed.append(name)
        except OSError:
            continue           # gone meanwhile, or not ours
    return removed


def segment_names() -> list[str]:
    """Names of refinfer weight segments in /dev/shm (any owner)."""
    try:
        return sorted(n for n in os.listdir(SHM_DIR) if n.startswith(PREFIX))
    except FileNotFoundError:
        return []


def _abandoned(path: str) -> bool:
    """Whether a segment's owner is gone (or it never got a header, long ago)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if os.fstat(fd).st_uid != os.getuid():
            return False
        prefix = os.read(fd, HEADER.size)
    finally:
        os.close(fd)
    if len(prefix) < HEADER.size or prefix[:len(MAGIC)] != MAGIC:
        return time.time() - os.stat(path).st_mtime > STALE_AFTER_S
    _, owner, start, _, _ = HEADER.unpack(prefix)
    return not _alive(owner, start)


def _alive(pid: int, start: int) -> bool:
    """Whether process ``pid`` runs and is the one that started at ``start`` (PIDs are
    reused); a zombie counts as dead."""
    stat_fields = _proc_stat(pid)
    if stat_fields is not None:
        state, started = stat_fields
        return state != "Z" and (start == 0 or started == start)
    try:                       # no /proc entry: gone, or no /proc at all
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _start_time(pid: int) -> int:
    stat_fields = _proc_stat(pid)
    return stat_fields[1] if stat_fields else 0


def _proc_stat(pid: int) -> tuple[str, int] | None:
    """State (field 3) and start time in clock ticks since boot (field 22) of
    /proc/PID/stat, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2:].split()
    return fields[0].decode(), int(fields[19])


def _return_freed_memory() -> None:
    """Give the parsed weights, now replaced by views of the segment, back to the OS. The
    replaced graph holds them in reference cycles, and glibc keeps freed heap memory in the
    process: without both calls a MobileNetV2 worker kept its own 13.5 MB copy resident."""
    gc.collect()
    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    if trim is not None:
        trim(0)


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


sweep()
