"""The statistical language identifier (py3langid), loaded once per process.

Script tells most languages apart (see :mod:`parallelcheck.script`); only languages that
share a script need a statistical guess, and py3langid gives it.  Its model ships in the
wheel as an LZMA-compressed archive of NumPy arrays (68 MB once decompressed), and reading it
is most of what the identifier costs a run:

* it is read on first use only, so runs that never need it (a Chinese–Japanese–Korean
  article, ``--version``) never pay for it;
* it is decompressed in memory (py3langid's own loader goes through a temporary file, which
  takes half as long again);
* :func:`read_ahead` starts decompressing it in a background thread (the decompressor runs
  outside the interpreter lock) while the command line imports the rules and finds the
  articles; the engine then loads it (:func:`load`) before forking worker processes when
  the run needs it, so that they share one copy instead of each reading their own, or drops
  the read (:func:`drop_read_ahead`) when it does not.
"""

from __future__ import annotations

import importlib.util
import io
import lzma
import threading
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The arrays of py3langid's model archive (layout of py3langid 0.4).
_MODEL_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
_TYPECODES = {2: "H", 4: "I", 8: "L"}


def _as_array(values: Any) -> array:
    """A NumPy array of unsigned integers as the ``array.array`` py3langid walks."""
    import numpy as np

    found = array(_TYPECODES[values.dtype.itemsize])
    found.frombytes(memoryview(np.ascontiguousarray(values)).cast("B"))
    return found


#: Where py3langid 0.4 keeps its model, inside its package.
_MODEL_FILE = ("data", "model.npz.xz")


def _model_path() -> Path | None:
    """The model archive's path, found without importing py3langid (which imports NumPy)."""
    spec = importlib.util.find_spec("py3langid")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder).joinpath(*_MODEL_FILE)
        if path.is_file():
            return path
    return None


def _decompress(stop: threading.Event | None = None) -> bytes | None:
    """The model archive decompressed, 1 MB of it at a time; ``None`` once *stop* is set, or
    when the archive is not where py3langid 0.4 keeps it.  Each step runs outside the
    interpreter lock; few, large steps keep the thread from waiting for it."""
    path = _model_path()
    if path is None:
        return None
    decompressor = lzma.LZMADecompressor()
    pieces = []
    with open(path, "rb") as packed:
        while chunk := packed.read(1 << 20):
            if stop is not None and stop.is_set():
                return None
            pieces.append(decompressor.decompress(chunk))
    return b"".join(pieces)


def _build(archive: io.BytesIO | None) -> Any:
    """py3langid's identifier with normalised probabilities from the decompressed archive
    (closed once its arrays are read, so that it is freed before they are converted); with
    py3langid's own loader when there is none or it has another layout than the one known
    here."""
    import numpy as np
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    if archive is None:
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    with archive, np.load(archive, allow_pickle=False) as data:
        if not set(_MODEL_ARRAYS) <= set(data.files):
            return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        arrays = {name: data[name] for name in _MODEL_ARRAYS}
    return LanguageIdentifier(
        arrays["ptc"],
        arrays["pc"],
        arrays["classes"].tolist(),
        _as_array(arrays.pop("nextmove")),
        arrays["out_feat"].tolist(),
        norm_probs=True,
        tk_row=_as_array(arrays["nextmove_row"]),
    )


class _Identifier:
    """One py3langid identifier per process, restricted to the languages asked about."""

    def __init__(self) -> None:
        self._identifier: Any = None
        self._reading: threading.Thread | None = None
        self._stop = threading.Event()
        self._raw: bytes | None = None
        self._restricted: tuple[str, ...] | None = None
        self._labels: frozenset[str] = frozenset()

    @property
    def loaded(self) -> bool:
        return self._identifier is not None

    def read_ahead(self) -> None:
        if self._identifier is None and self._reading is None:
            self._stop.clear()
            self._reading = threading.Thread(
                target=self._read_in_background, name="langid-model", daemon=True
            )
            self._reading.start()

    def _read_in_background(self) -> None:
        self._raw = _decompress(self._stop)

    @property
    def reading(self) -> bool:
        return self._reading is not None and self._reading.is_alive()

    def _join(self) -> bytes | None:
        if self._reading is not None:
            self._reading.join()
            self._reading = None
        raw, self._raw = self._raw, None
        return raw

    def drop_read_ahead(self, wait: bool) -> None:
        self._stop.set()
        if wait:
            self._join()

    def load(self) -> None:
        if self._identifier is None:
            raw = self._join()
            if raw is None:
                raw = _decompress()
            archive = io.BytesIO(raw) if raw is not None else None
            del raw  # the archive holds the only reference: _build frees it early
            self._identifier = _build(archive)
            self._labels = frozenset(self._identifier.labels)

    def classify(self, text: str, langs: Sequence[str]) -> tuple[str, float]:
        if self._identifier is None:
            self.load()
        wanted = tuple(sorted(lang for lang in set(langs) if lang in self._labels))
        if not wanted:
            return "und", 0.0
        if len(wanted) == 1:
            return wanted[0], 1.0
        if wanted != self._restricted:
            self._identifier.set_languages(list(wanted))
            self._restricted = wanted
        lang, confidence = self._identifier.classify(text)
        return str(lang), float(confidence)


_IDENTIFIER = _Identifier()


def identify(text: str, langs: Sequence[str]) -> tuple[str, float]:
    """py3langid's guess for *text* among *langs* (primary subtags), with its probability."""
    return _IDENTIFIER.classify(text, langs)


def is_loaded() -> bool:
    """Whether this process has read the model (for tests of lazy loading)."""
    return _IDENTIFIER.loaded


def read_ahead() -> None:
    """Start decompressing the model in a background thread (the decompressor runs outside
    the interpreter lock); the first guess, or :func:`load`, uses what it read."""
    _IDENTIFIER.read_ahead()


def reading_ahead() -> bool:
    """Whether a read started by :func:`read_ahead` is still decompressing."""
    return _IDENTIFIER.reading


def load() -> None:
    """Load the model now (before forking worker processes that are to share it)."""
    _IDENTIFIER.load()


def drop_read_ahead(wait: bool = False) -> None:
    """Stop a read started by :func:`read_ahead` that the run turned out not to need; with
    *wait*, until the thread has ended (no thread may run when worker processes fork)."""
    _IDENTIFIER.drop_read_ahead(wait)
