"""A version's bytes, read once: the document parsed from them, and their digest.

The result cache (:mod:`parallelcheck.run.cache`) keys an article by the SHA-256 of each version
file's bytes.  A key is only honest if the result stored under it was computed from those very
bytes: a file edited while a run checks it must not leave the old bytes' key holding the new
bytes' findings (or the other way round).  So every document the engine checks is read here,
by :func:`read_version`, which reads the file's bytes once, records their digest and parses
*those* bytes; the engine takes the digests of the versions it checked
(:func:`take_digests`) and keys the entry it stores by them, never by a second read of the
file.

The steps are those of :func:`parallelcheck.readers.read_document` — the reader kind from the
extension first (an unknown extension is refused before anything is read), then the bounded
read (:func:`parallelcheck.readers.decode.read_bytes`, confined to the article set's
boundary), the decoding and the parsing — so a document read here is the document
``read_document`` would give for the same bytes (``tests/test_red_team_cache.py`` holds them
to that).

Digests are recorded per process, by file and language, at the moment of the read; a
document read ahead by :mod:`parallelcheck.run.workers` in the main process carries its digest
into the forked workers the same way.  The record of a file that could not be read at all is
dropped, so its version has no digest and its article's result is not stored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from parallelcheck import readers
from parallelcheck.files.safe_read import Boundary
from parallelcheck.model.document import Document
from parallelcheck.readers import kind_for_path
from parallelcheck.readers.decode import decode_bytes, read_bytes

#: (path, language) → SHA-256 of the bytes its last read gave, until the engine takes it.
_DIGESTS: dict[tuple[str, str], bytes] = {}


def read_version(path: str, lang: str, within: Boundary | None = None) -> Document:
    """The document of ``path`` (language ``lang``), parsed from bytes read once, whose digest
    is recorded for :func:`take_digests`.  Raises :class:`~parallelcheck.errors.InputError`
    exactly as :func:`~parallelcheck.readers.read_document` does.  A file that is read but
    cannot be decoded keeps its digest: its bytes decide its fault as any file's decide its
    findings."""
    kind = kind_for_path(path)
    _DIGESTS.pop((path, lang), None)
    data = read_bytes(path, within)
    _DIGESTS[(path, lang)] = hashlib.sha256(data).digest()
    # The parser read_document uses, given the text as read_document gives it (parse_text
    # would normalise it once more: a second leading U+FEFF would be dropped).
    return readers.READERS[kind][0](decode_bytes(data, path), path, lang)


def take_digests(versions: Mapping[str, str]) -> dict[str, bytes | None]:
    """Language → digest of the bytes the last read of each of ``versions`` (language → path)
    gave, ``None`` for one whose file could not be read; the records are dropped."""
    return {lang: _DIGESTS.pop((path, lang), None) for lang, path in versions.items()}


def forget() -> None:
    """Drop every record (they are small; for a long-lived process)."""
    _DIGESTS.clear()


__all__ = ["forget", "read_version", "take_digests"]
