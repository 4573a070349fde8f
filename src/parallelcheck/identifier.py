"""The statistical language identifier (py3langid), loaded once per process.

Script tells most languages apart (see :mod:`parallelcheck.script`); only languages that
share a script need a statistical guess, and py3langid gives it.  Its model ships in the
wheel as an LZMA-compressed archive of NumPy arrays (68 MB once decompressed), and reading it
is most of what the identifier costs a run:

* it is read on first use only, so runs that never need it (a Chinese–Japanese–Korean
  article, ``--version``) never pay for it;
* it is decompressed in memory (py3langid's own loader goes through a temporary file, which
  takes half as long again);
* :func:`load_ahead` starts reading it in a background thread (decompression runs outside
  the interpreter lock) while the command line imports the rules, so that worker processes
  forked afterwards share one copy instead of each reading their own.
"""

from __future__ import annotations

import io
import lzma
import threading
from array import array
from collections.abc import Sequence
from typing import Any

#: The arrays of py3langid's model archive (layout of py3langid 0.4).
_MODEL_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
_TYPECODES = {2: "H", 4: "I", 8: "L"}


def _as_array(values: Any) -> array:
    """A NumPy array of unsigned integers as the ``array.array`` py3langid walks."""
    import numpy as np

    found = array(_TYPECODES[values.dtype.itemsize])
    found.frombytes(np.ascontiguousarray(values).tobytes())
    return found


def _read_model() -> Any:
    """py3langid's identifier with normalised probabilities, its model read in memory; with
    py3langid's own loader when the archive has another layout than the one known here."""
    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    with lzma.open(MODEL_DIR / MODEL_FILE) as packed:
        raw = packed.read()
    with np.load(io.BytesIO(raw), allow_pickle=False) as data:
        if not set(_MODEL_ARRAYS) <= set(data.files):
            return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        return LanguageIdentifier(
            np.asarray(data["ptc"]),
            np.asarray(data["pc"]),
            data["classes"].tolist(),
            _as_array(data["nextmove"]),
            data["out_feat"].tolist(),
            norm_probs=True,
            tk_row=_as_array(data["nextmove_row"]),
        )


class _Identifier:
    """One py3langid identifier per process, restricted to the languages asked about."""

    def __init__(self) -> None:
        self._identifier: Any = None
        self._loading: threading.Thread | None = None
        self._restricted: tuple[str, ...] | None = None
        self._labels: frozenset[str] = frozenset()

    @property
    def loaded(self) -> bool:
        return self._identifier is not None

    def _load(self) -> None:
        identifier = _read_model()
        self._labels = frozenset(identifier.labels)
        self._identifier = identifier

    def load_ahead(self) -> None:
        if self._identifier is None and self._loading is None:
            self._loading = threading.Thread(target=self._load, name="langid-model", daemon=True)
            self._loading.start()

    def wait(self) -> None:
        """Wait for a load started by :meth:`load_ahead`, or load now."""
        if self._loading is not None:
            self._loading.join()
            self._loading = None
        if self._identifier is None:
            self._load()

    def classify(self, text: str, langs: Sequence[str]) -> tuple[str, float]:
        if self._identifier is None:
            self.wait()
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


def load_ahead() -> None:
    """Start reading the model in a background thread; the first guess waits for it."""
    _IDENTIFIER.load_ahead()


def finish_loading() -> None:
    """Wait until the model is read (call before forking worker processes that share it)."""
    _IDENTIFIER.wait()
