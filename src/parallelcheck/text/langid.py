"""The statistical language identifier (py3langid), loaded once per process.

Script tells most languages apart (see :mod:`parallelcheck.text.script`); only languages that
share a script need a statistical guess, and py3langid gives it.  Its model ships in the
wheel as an LZMA-compressed archive of NumPy arrays (68 MB once decompressed), and reading it
is most of what the identifier costs a run:

* it is read on first use only, so runs that never need it (a Chinese–Japanese–Korean
  article, ``--version``) never pay for it;
* it is decompressed in memory, and its arrays are views into the decompressed bytes
  (py3langid's own loader goes through a temporary file and copies every array, which takes
  half as long again and twice the memory);
* :func:`read_ahead` reads it in a background thread (the decompressor runs outside the
  interpreter lock), started by a run once it knows that an article to check needs it (its
  plan: a rule that asks and an article with two Latin-script languages), not before: a
  run that cannot ask never decompresses it (0.35 s of processor time).  Meanwhile the run
  prepares what its workers share and imports py3langid itself (:func:`import_library`);
  it then waits for the model (:func:`load`) before forking worker processes, so that they
  share one copy instead of each reading their own.  A read the run turns out not to need
  after all is stopped (:func:`drop_read_ahead`);
* a run keeps the decompressed archive between runs (a :class:`ModelStore`, which
  :mod:`parallelcheck.run.model_store` provides, in the cache folder): the first run that
  needs the model decompresses it and stores it, later runs map the stored archive, which
  costs a tenth as much.  The stored archive is named by the digest of the compressed one,
  so another model (another py3langid) is decompressed afresh; one that is not a well-formed
  archive of the model's arrays is decompressed afresh too, and stored in its place.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import lzma
import mmap
import os
import struct
import threading
import zipfile
from collections.abc import Sequence
from io import BytesIO
from math import prod
from pathlib import Path
from typing import Any, Protocol

#: The arrays of py3langid's model archive (layout of py3langid 0.4).
_MODEL_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
#: Where py3langid 0.4 keeps its model, inside its package.
_MODEL_FILE = ("data", "model.npz.xz")
_TYPECODES = {2: "H", 4: "I"}  # unsigned integers as the tables py3langid walks
#: Sets of languages an identifier is kept restricted to (each about 0.2 MB a language).
RESTRICTED_KEPT = 8
#: The environment variables that set how many threads NumPy's BLAS starts when it loads.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _one_blas_thread() -> None:
    """Have NumPy's BLAS library start no threads of its own when it loads (unless the user
    set how many it may start): the identifier multiplies one short vector by a narrow
    matrix per guess, which one thread does as fast, and the threads OpenBLAS starts for
    every core cost 25-30 ms of processor time at import.  Guesses are the same either way.
    Called before anything here imports NumPy or py3langid."""
    if not any(name in os.environ for name in _BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def _model_path() -> Path | None:
    """The model archive's path, found without importing py3langid (which imports NumPy)."""
    spec = importlib.util.find_spec("py3langid")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder).joinpath(*_MODEL_FILE)
        if path.is_file():
            return path
    return None


class ModelStore(Protocol):
    """Where a run keeps the decompressed model archive from one run to the next."""

    def get(self, name: str) -> bytes | mmap.mmap | None:
        """The archive stored as *name*, or ``None`` (none, or not to be trusted)."""

    def put(self, name: str, archive: bytes) -> None:
        """Store *archive* as *name* (or nothing, when it cannot be stored)."""


def _stored_name(packed: bytes) -> str:
    """The name a store keeps the archive decompressed from *packed* under: the digest of
    the compressed bytes (4.5 MB: 3 ms to hash), so that another model is never taken for it."""
    return f"py3langid-{hashlib.sha256(packed).hexdigest()[:32]}.npz"


def _packed() -> bytes | None:
    """The model archive as py3langid ships it (compressed), or ``None`` when it is not
    where py3langid 0.4 keeps it."""
    path = _model_path()
    if path is None:
        return None
    with open(path, "rb") as shipped:
        return shipped.read()


def _decompress(packed: bytes, stop: threading.Event | None = None) -> bytes | None:
    """The archive *packed* decompressed; ``None`` when *stop* is set (before or after).
    One step, outside the interpreter lock: the decompressor makes the 68 MB once (read in
    pieces and joined, they were copied a second time: 0.36-0.39 s of processor time
    against 0.34 s).  A run starts the read only when it will use the model, so there is
    little to stop."""
    if stop is not None and stop.is_set():
        return None
    raw = lzma.LZMADecompressor().decompress(packed)
    return None if stop is not None and stop.is_set() else raw


def _load(store: ModelStore | None, stop: threading.Event | None = None) -> Any:
    """The identifier, built from the archive *store* keeps under the shipped archive's name
    when it keeps a well-formed one, else from the archive decompressed now (and then
    stored); ``None`` when *stop* is set meanwhile.  With no archive to build from (not
    where py3langid 0.4 keeps it, or laid out otherwise) it is py3langid's own loader's."""
    packed = _packed()
    if packed is None:
        return _own_loader()
    name = _stored_name(packed)
    kept = store.get(name) if store is not None else None
    built = _build(kept) if kept is not None else None
    if built is not None:
        return built
    raw = _decompress(packed, stop)
    if raw is None:
        return None
    built = _build(raw)
    if built is None:
        return _own_loader()
    if store is not None:
        store.put(name, raw)
    return built


def _views(raw: bytes | mmap.mmap) -> dict[str, Any] | None:
    """The model's arrays as views into the decompressed archive, copying nothing: an
    ``.npz`` file is a ZIP archive of stored ``.npy`` files, each a small header and then
    the array's bytes.  ``None`` when the archive is laid out otherwise, or is no archive
    at all (a stored file cut short or overwritten: every error reading it says so).
    Called by :func:`_build` alone, after it has kept NumPy's BLAS to one thread."""
    try:
        return _arrays(raw)
    except (zipfile.BadZipFile, struct.error, ValueError, SyntaxError, TypeError, KeyError):
        return None


def _arrays(raw: bytes | mmap.mmap) -> dict[str, Any] | None:
    """The arrays of :func:`_views`; raises when *raw* is not a well-formed archive."""
    import numpy as np

    # A mapped archive is read through the mapping (an mmap is a file of its own: BytesIO
    # would copy all 68 MB, 55 ms of processor time); bytes are shared by BytesIO, not copied.
    with zipfile.ZipFile(raw if isinstance(raw, mmap.mmap) else BytesIO(raw)) as archive:
        members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
    views: dict[str, Any] = {}
    for name in _MODEL_ARRAYS:
        info = members.get(name)
        if info is None or info.compress_type != zipfile.ZIP_STORED:
            return None
        # A local file header is 30 bytes, then the file name and an extra field.
        name_length, extra_length = struct.unpack_from("<HH", raw, info.header_offset + 26)
        start = info.header_offset + 30 + name_length + extra_length
        if raw[start : start + 6] != b"\x93NUMPY":
            return None
        if raw[start + 6] == 1:
            (length,) = struct.unpack_from("<H", raw, start + 8)
            header_start = start + 10
        else:
            (length,) = struct.unpack_from("<I", raw, start + 8)
            header_start = start + 12
        header = ast.literal_eval(raw[header_start : header_start + length].decode("latin-1"))
        dtype = np.dtype(header["descr"])
        if dtype.hasobject or header["fortran_order"]:
            return None
        shape = tuple(header["shape"])
        views[name] = np.frombuffer(
            raw, dtype=dtype, count=prod(shape), offset=header_start + length
        ).reshape(shape)
    return views


def _table(values: Any) -> memoryview | None:
    """A little-endian unsigned integer array as a flat table of ints (no copy)."""
    code = _TYPECODES.get(values.dtype.itemsize)
    if code is None or values.dtype.kind != "u" or values.dtype.byteorder == ">":
        return None
    return memoryview(values).cast("B").cast(code)


def _build(raw: bytes | mmap.mmap) -> Any:
    """py3langid's identifier with normalised probabilities, its arrays views into the
    decompressed archive *raw*; ``None`` when *raw* is laid out otherwise than py3langid
    0.4 lays it out."""
    _one_blas_thread()
    from py3langid.langid import LanguageIdentifier

    views = _views(raw)
    if views is None:
        return None
    nextmove, row = _table(views["nextmove"]), _table(views["nextmove_row"])
    if nextmove is None or row is None:
        return None
    return LanguageIdentifier(
        views["ptc"],
        views["pc"],
        views["classes"].tolist(),
        nextmove,
        views["out_feat"].tolist(),
        norm_probs=True,
        tk_row=row,
    )


def _own_loader() -> Any:
    """py3langid's identifier with normalised probabilities, read by py3langid's own loader
    (through a temporary file, every array copied)."""
    _one_blas_thread()
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


class _Identifier:
    """One py3langid identifier per process, restricted to the languages asked about."""

    def __init__(self) -> None:
        self._identifier: Any = None
        self._reading: threading.Thread | None = None
        self._stop = threading.Event()
        self._built: Any = None
        #: An identifier restricted to each set of languages asked about lately (a shallow
        #: copy sharing the model; restricting one copies a column of the model's largest
        #: table for each language, 2 ms): a run over articles of several sets of
        #: languages restricts to each set once instead of at every change.
        self._restricted: dict[tuple[str, ...], Any] = {}
        self._labels: frozenset[str] = frozenset()
        #: Where a load that is given no store reads the model from (:func:`keep_model_in`).
        self.store: ModelStore | None = None

    @property
    def loaded(self) -> bool:
        return self._identifier is not None

    def read_ahead(self, store: ModelStore | None) -> None:
        if self._identifier is None and self._reading is None:
            self._stop.clear()
            self._reading = threading.Thread(
                target=self._read_in_background,
                args=(store,),
                name="langid-model",
                daemon=True,
            )
            self._reading.start()

    def _read_in_background(self, store: ModelStore | None) -> None:
        try:
            self._built = _load(store, self._stop)
        except Exception:  # the first guess loads it again, and reports why it cannot
            self._built = None

    @property
    def reading(self) -> bool:
        return self._reading is not None and self._reading.is_alive()

    def _join(self) -> Any:
        if self._reading is not None:
            self._reading.join()
            self._reading = None
        built, self._built = self._built, None
        return built

    def drop_read_ahead(self, wait: bool) -> None:
        self._stop.set()
        if wait:
            self._join()

    def load(self, store: ModelStore | None = None) -> None:
        if self._identifier is None:
            built = self._join()
            self._identifier = built if built is not None else _load(store or self.store)
            self._labels = frozenset(self._identifier.labels)

    def classify(self, text: str, langs: Sequence[str]) -> tuple[str, float]:
        if self._identifier is None:
            self.load()
        wanted = tuple(sorted(lang for lang in set(langs) if lang in self._labels))
        if not wanted:
            return "und", 0.0
        if len(wanted) == 1:
            return wanted[0], 1.0
        lang, confidence = self._restricted_to(wanted).classify(text)
        return str(lang), float(confidence)

    def _restricted_to(self, wanted: tuple[str, ...]) -> Any:
        """The identifier restricted to *wanted*, made on first use and kept while it is
        among the :data:`RESTRICTED_KEPT` sets asked about last."""
        restricted = self._restricted.pop(wanted, None)
        if restricted is None:
            restricted = copy.copy(self._identifier)
            restricted.set_languages(list(wanted))
            if len(self._restricted) >= RESTRICTED_KEPT:
                del self._restricted[next(iter(self._restricted))]  # the least recently asked
        self._restricted[wanted] = restricted  # now the most recently asked
        return restricted


_IDENTIFIER = _Identifier()


def identify(text: str, langs: Sequence[str]) -> tuple[str, float]:
    """py3langid's guess for *text* among *langs* (primary subtags), with its probability."""
    return _IDENTIFIER.classify(text, langs)


def is_loaded() -> bool:
    """Whether this process has read the model (for tests of lazy loading)."""
    return _IDENTIFIER.loaded


def read_ahead(store: ModelStore | None = None) -> None:
    """Start reading the model in a background thread (from *store* when it keeps it, else
    decompressed — the decompressor runs outside the interpreter lock — and then kept in
    *store*); the first guess, or :func:`load`, uses what it read."""
    _IDENTIFIER.read_ahead(store)


def reading_ahead() -> bool:
    """Whether a read started by :func:`read_ahead` is still going on."""
    return _IDENTIFIER.reading


def keep_model_in(store: ModelStore) -> None:
    """Read the model from *store* (and store it there) whenever this process loads it
    without being given a store: on its first guess (a worker process that did not inherit
    the model reads it so)."""
    _IDENTIFIER.store = store


def load(store: ModelStore | None = None) -> None:
    """Load the model now (before forking worker processes that are to share it), from
    *store* when it keeps it (unless a read started by :func:`read_ahead` holds it)."""
    _IDENTIFIER.load(store)


def import_library() -> None:
    """Import py3langid (and NumPy, which it imports) in the calling thread.

    A process that reads the model ahead calls this while the background thread
    decompresses: the import then runs beside the decompression, which holds no interpreter
    lock, instead of after it, when it would hold up :func:`load` by about 0.1 s."""
    _one_blas_thread()
    import py3langid.langid  # noqa: F401


def drop_read_ahead(wait: bool = False) -> None:
    """Stop a read started by :func:`read_ahead` that the run turned out not to need; with
    *wait*, until the thread has ended (no thread may run when worker processes fork)."""
    _IDENTIFIER.drop_read_ahead(wait)
