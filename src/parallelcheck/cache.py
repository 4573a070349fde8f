"""A content-hash cache of checked articles, so that a re-run with nothing changed is cheap.

The key of an article is a SHA-256 over everything its result depends on: the tool's version,
the run's settings (configuration, rules, severities, source and language filter), the
glossary's content, the article's id and, for every version, its language, path and the bytes
of its file, and — when a rule reads git history — the repository's HEAD.  Any change to any
of them is a different key, so a stale entry is never used; old entries are left for
``parallelcheck cache clear`` to remove (``--older-than DAYS`` keeps those used more
recently: a hit marks its entry as used).  ``parallelcheck cache info`` tells where the
entries are and how much room they take.

Entries are pickles in ``<cache dir>/v1/<first two hex digits>/<key>.pickle`` (see
:func:`default_dir`: never inside the checked repository), written to a
temporary file in the same folder and renamed into place, so concurrent runs never see half an
entry and a run killed mid-write leaves at most a stray temporary file, which is ignored.  An
entry that cannot be read (truncated, from another Python) counts as a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from parallelcheck.safe_read import MAX_DOCUMENT_BYTES, ReadRefused, read_capped


def default_dir() -> Path:
    """Where entries go: ``$PARALLELCHECK_CACHE_DIR``, else the user's cache folder
    (``$XDG_CACHE_HOME/parallelcheck`` or ``~/.cache/parallelcheck``).  Never inside the
    checked repository: entries are pickles, and a repository (a pull request) must not be
    able to ship one for the tool to load."""
    configured = os.environ.get("PARALLELCHECK_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "parallelcheck"


LAYOUT = "v1"
#: An entry larger than this is not read (a miss): entries hold outlines, not text.
MAX_ENTRY_BYTES = 256 * 1024 * 1024


def article_key(settings: bytes, article_id: str, versions: dict[str, str]) -> str | None:
    """The key of one article, or ``None`` when a version cannot be read (no caching then:
    the engine reports the file as ``unreadable-version`` on every run, until it can be read).

    A file that can be read but not decoded (binary, not UTF-8) has a key like any other: its
    bytes decide its fault as they decide any finding, so its result is cached too."""
    digest = hashlib.sha256(settings)
    # surrogateescape: file and folder names that are not UTF-8 (their bytes, as on disk)
    digest.update(b"\0" + article_id.encode("utf-8", "surrogateescape"))
    for lang in sorted(versions):
        path = versions[lang]
        try:  # bounded like the engine's read: a FIFO, a device or a huge file is no key
            data = read_capped(path, MAX_DOCUMENT_BYTES)
        except ReadRefused:
            return None
        name = path.encode("utf-8", "surrogateescape")
        digest.update(b"\0" + lang.encode("utf-8") + b"\0" + name + b"\0")
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def settings_digest(*parts: Any) -> bytes:
    """A stable digest of the run's settings (anything with a deterministic ``repr``)."""
    return hashlib.sha256(repr(parts).encode("utf-8")).digest()


class Cache:
    """Get and put results by key in one cache folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.root = Path(folder if folder is not None else default_dir()) / LAYOUT

    def is_empty(self) -> bool:
        """Whether the folder holds no entry at all (a first run, or a cleared cache)."""
        try:
            with os.scandir(self.root) as entries:
                return next(entries, None) is None
        except OSError:
            return True

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.pickle"

    def get(self, key: str) -> Any | None:
        path = self._path(key)
        try:  # a regular file of bounded size: a FIFO or a huge file put there is a miss
            value = pickle.loads(read_capped(str(path), MAX_ENTRY_BYTES))
        except ReadRefused:
            return None
        except Exception:  # a damaged or foreign entry is a miss, never an error
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: `cache clear --older-than` keeps it
        return value

    def put(self, key: str, value: Any) -> None:
        target = self._path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        except OSError:
            return  # a read-only or full disk only costs the cache
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, target)
        except Exception:
            with contextlib.suppress(OSError):
                os.unlink(temporary)

    def files(self) -> Iterator[os.DirEntry[str]]:
        """Every file in the cache folder: entries, and temporary files of runs that were
        writing one (or were killed while writing)."""
        try:
            with os.scandir(self.root) as shards:
                folders = sorted(entry.path for entry in shards if entry.is_dir())
        except FileNotFoundError:
            return
        for folder in folders:
            with contextlib.suppress(FileNotFoundError), os.scandir(folder) as entries:
                yield from (entry for entry in entries if entry.is_file(follow_symlinks=False))

    def usage(self) -> tuple[int, int]:
        """(number of files, bytes they hold)."""
        count = size = 0
        for entry in self.files():
            with contextlib.suppress(FileNotFoundError):
                size += entry.stat(follow_symlinks=False).st_size
                count += 1
        return count, size

    def clear(self, older_than_days: float | None = None) -> tuple[int, int]:
        """Remove entries (only those not used for *older_than_days* days, when given) and
        leftover temporary files; returns (files removed, bytes freed).  A run writing an
        entry meanwhile only loses that entry."""
        cutoff = None if older_than_days is None else time.time() - older_than_days * 86400
        removed = freed = 0
        for entry in self.files():
            try:
                info = entry.stat(follow_symlinks=False)
                if cutoff is not None and info.st_mtime >= cutoff:
                    continue
                os.unlink(entry.path)
            except FileNotFoundError:
                continue
            removed += 1
            freed += info.st_size
        if cutoff is None:
            with contextlib.suppress(OSError), os.scandir(self.root) as shards:
                for folder in shards:
                    with contextlib.suppress(OSError):
                        os.rmdir(folder.path)  # only an empty one goes
        return removed, freed
