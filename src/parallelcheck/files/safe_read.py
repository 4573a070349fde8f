"""Bounded, confined reads of input files: the one function every input goes through.

Everything the tool reads from the file system — version files (:mod:`parallelcheck.readers`),
the configuration, glossaries, baselines, cache entries and the bytes a cache key hashes — is
read by :func:`read_capped`, which holds to these rules:

Only regular files
    A FIFO, a socket, a character or block device (``/dev/zero``, ``/dev/tty``) or a folder is
    refused *before* it is opened for reading (``os.stat`` and ``stat.S_ISREG``), with a
    sentence naming what it is.  The file is opened with ``O_NONBLOCK`` (so that a FIFO put in
    its place in the meantime cannot block the ``open``) and checked again on the open
    descriptor (``os.fstat``) before a byte is read.

At most *cap* bytes
    The size ``stat`` reports is not trusted to be small — ``/proc`` files and devices report
    0 — so the file is read in chunks, at most ``cap + 1`` bytes in all, and a file that gives
    more than *cap* bytes is refused as too large; its content is dropped.  A file ``stat``
    already reports as larger than *cap* is refused without reading it.  Memory stays bounded
    by *cap* whatever the file is (a 5 GB sparse file costs nothing).

Inside a boundary (*within*)
    With *within* (the real paths of the folders a run may read: see :class:`Boundary`), the
    file is read only when its real path (``os.path.realpath``: every symbolic link resolved)
    lies inside one of them with no hidden component (``.git``, ``.env``, ``.ssh`` …) below that
    folder, and not on a pseudo-filesystem (``/proc``, ``/sys``, ``/dev``).  Otherwise the read
    is refused ("symbolic link to a file outside the project; not read"); the message names the
    path as given — never where the link points, and never anything of its content.  The check
    is made right before the file is opened, and again on the open descriptor (on Linux,
    ``/proc/self/fd``), so a link swapped in between is refused too.
    Where that second check is made (Linux), a boundary resolves each folder once
    (:meth:`Boundary.real_path`) and then looks at a file's own name alone.

Every refusal and every failure is a :class:`ReadRefused` (an
:class:`~parallelcheck.errors.InputError`): ``kind`` says why, ``message`` is a sentence
without the file name, ``path`` the file as shown to the user.  Callers choose what a refusal
means for them: an ``unreadable-version`` finding, exit status 2, a cache miss.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

from parallelcheck.errors import InputError

#: Version files larger than this are not read (bytes).  A 50 MB article is checked (slowly);
#: nothing that size is a hand-written translation.
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
#: Folders of pseudo-filesystems: never walked by discovery, never read inside a boundary.
PSEUDO_FILESYSTEMS = ("/proc", "/sys", "/dev")
#: How much is read at a time once the size ``stat`` gave has been read.
_CHUNK = 1024 * 1024
#: Whether the path of an open descriptor can be read back (``/proc/self/fd``: Linux), for
#: :func:`read_capped`'s check of what it opened (and so :meth:`Boundary.real_path`).
_DESCRIPTOR_PATHS = os.path.isdir("/proc/self/fd")

_SPECIAL = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)

# Kinds of ReadRefused.
MISSING, DIRECTORY, SPECIAL, TOO_LARGE, OUTSIDE, DENIED, FAILED = (
    "missing",
    "directory",
    "special",
    "too-large",
    "outside",
    "denied",
    "failed",
)


class ReadRefused(InputError):
    """A file :func:`read_capped` would not or could not read.  ``kind`` is one of
    ``missing``, ``directory``, ``special`` (FIFO, socket, device), ``too-large``,
    ``outside`` (beyond the boundary), ``denied`` (permission) or ``failed`` (any other
    ``OSError``)."""

    def __init__(self, kind: str, message: str, path: str | None):
        self.kind = kind
        super().__init__(message, path)


@dataclass(frozen=True)
class Boundary:
    """The folders a run may read below: real paths (no symbolic link in them), absolute.

    :meth:`admits` says whether a real path lies inside one of them with no hidden component
    below it, and outside the pseudo-filesystems.  An empty boundary admits nothing.
    :meth:`real_path` resolves the paths it is asked about, each folder once."""

    roots: tuple[str, ...]
    #: Folder as given → its real path, for :meth:`real_path` (one run's boundary: one run's).
    _folders: dict[str, str] = field(
        default_factory=dict, init=False, compare=False, repr=False, hash=False
    )

    @classmethod
    def of(cls, folders: Iterable[str]) -> Boundary:
        """The boundary of *folders* (any paths: made absolute and resolved), sorted, each
        once.  A folder inside another is kept: a hidden folder passed on purpose
        (``check .drafts``) admits its own files, which its enclosing folder would not."""
        return cls(tuple(sorted({os.path.realpath(folder) for folder in folders})))

    def real_path(self, path: str) -> str:
        """``os.path.realpath(path)``, with the folder of *path* resolved once per boundary
        (see :meth:`resolve`)."""
        return self.resolve(path)[0]

    def resolve(self, path: str) -> tuple[str, os.stat_result | None]:
        """``os.path.realpath(path)``, with the folder of *path* resolved once per boundary,
        and the ``stat`` of that real path when the look at the file's own name gave it
        (else ``None``).

        ``realpath`` makes one ``lstat`` per component of a path, in Python: for the 1,612
        files of the FastAPI corpus, 28 ms of every run (a warm re-run, which hashes every
        version, included), nearly all of it resolving again the same 124 folders.  Here an
        absolute path's folder is resolved the first time it is asked about, and the file's
        own name is looked at with one ``lstat``: when it is no symbolic link, the real path
        is the folder's real path and that name — what ``realpath`` gives, component by
        component — and that ``lstat`` is the real path's ``stat`` (``lstat`` and ``stat``
        differ only for a link), which :func:`read_capped` then need not ask for again.  A
        link, a name that cannot be looked at, a relative path or a name such as ``..`` is
        resolved in full, as before, without a ``stat``.

        This is done only where :func:`read_capped` also checks the path of the descriptor
        it opened (:data:`_DESCRIPTOR_PATHS`: Linux).  That check, not this one, is what
        stops a folder turned into a link while the run reads (between any resolution and
        the ``open``): the kernel names the file actually opened, and it must be admitted.
        Elsewhere every path is resolved in full, right before its file is opened."""
        folder, name = os.path.split(path)
        if not _DESCRIPTOR_PATHS or not os.path.isabs(path) or name in ("", ".", ".."):
            return os.path.realpath(path), None
        real_folder = self._folders.get(folder)
        if real_folder is None:
            real_folder = self._folders[folder] = os.path.realpath(folder)
        candidate = os.path.join(real_folder, name)
        try:
            status = os.lstat(candidate)
            if not stat.S_ISLNK(status.st_mode):
                return candidate, status
        except OSError:
            pass
        return os.path.realpath(path), None

    def admits(self, real: str) -> bool:
        """Whether the real path *real* may be read (see the class documentation)."""
        if is_pseudo_filesystem(real):
            return False
        for root in self.roots:
            if _below(real, root):
                rest = real[len(root) :].lstrip(os.sep)
                if not any(part.startswith(".") for part in rest.split(os.sep) if part):
                    return True
        return False


def is_pseudo_filesystem(real: str) -> bool:
    """Whether the real path *real* is or lies in ``/proc``, ``/sys`` or ``/dev``."""
    return os.name == "posix" and any(_below(real, top) for top in PSEUDO_FILESYSTEMS)


def _below(path: str, folder: str) -> bool:
    """True when *path* is *folder* or lies below it (both absolute and normalised)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def refusal(path: str, within: Boundary | None, shown: str | None = None) -> ReadRefused | None:
    """Why *path* may not be read inside *within* (without opening it), or ``None``.

    This is the boundary check of :func:`read_capped` alone, for callers that must know before
    anything reads the file (the engine, before a cache key hashes a version's bytes)."""
    if within is None:
        return None
    real = within.real_path(path)
    if within.admits(real):
        return None
    return _outside(path, real, within, shown if shown is not None else path)


def _outside(path: str, real: str, within: Boundary, shown: str) -> ReadRefused:
    """The refusal of a path whose real path *real* the boundary does not admit."""
    lexical = os.path.abspath(path)
    through_link = lexical != real
    if not through_link:
        what = "lies outside the checked folders and the project"
    elif is_pseudo_filesystem(real):
        what = "symbolic link to a file of the operating system"
    elif any(_below(real, root) for root in within.roots):
        what = "symbolic link to a hidden file or a file in a hidden folder (such as .git)"
    else:
        what = "symbolic link to a file outside the project"
    return ReadRefused(OUTSIDE, f"{what}; not read", shown)


def read_capped(
    path: str,
    cap: int,
    shown: str | None = None,
    *,
    within: Boundary | None = None,
    what: str = "",
) -> bytes:
    """The bytes of the regular file *path*, at most *cap* of them (see the module docs).

    *shown* is the path as the user should see it (default *path*); *within*, when given,
    confines the read to a boundary; *what* names the file in the too-large message
    (``"configuration file"`` → "configuration file is too large (…)").  Raises
    :class:`ReadRefused` for anything that is not read."""
    shown = path if shown is None else shown
    real, before = within.resolve(path) if within is not None else (path, None)
    if within is not None and not within.admits(real):
        raise _outside(path, real, within, shown)
    if before is None:  # else the boundary's look at the real path gave its stat
        try:
            before = os.stat(real)
        except OSError as exc:
            raise _os_refusal(exc, shown) from None
    _check_kind(before.st_mode, shown)
    if before.st_size > cap:
        raise _too_large(what, cap, shown, before.st_size)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if within is not None:
        flags |= getattr(os, "O_NOFOLLOW", 0)  # *real* has no link: one put in its place fails
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and within is not None:
            raise ReadRefused(
                OUTSIDE, "changed into a symbolic link while being read; not read", shown
            ) from None
        raise _os_refusal(exc, shown) from None
    try:
        opened = os.fstat(fd)
        _check_kind(opened.st_mode, shown)
        if within is not None:
            _check_opened(fd, opened, before, path, real, within, shown)
        return _read_fd(fd, cap, opened.st_size, what, shown)
    except OSError as exc:
        raise _os_refusal(exc, shown) from None
    finally:
        os.close(fd)


def special_kind(mode: int) -> str:
    """What a file of ``st_mode`` *mode* that is neither a regular file nor a folder is, for a
    message: "a named pipe (FIFO)", "a socket", "a character device", "a block device"."""
    return next((label for test, label in _SPECIAL if test(mode)), "a special file")


def _check_kind(mode: int, shown: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ReadRefused(DIRECTORY, "is a directory, not a file", shown)
    raise ReadRefused(SPECIAL, f"is {special_kind(mode)}, not a regular file; not read", shown)


def _check_opened(
    fd: int,
    opened: os.stat_result,
    before: os.stat_result,
    path: str,
    real: str,
    within: Boundary,
    shown: str,
) -> None:
    """Refuse an open file that is not the one checked: where the system can tell the open
    descriptor's path (Linux: ``/proc/self/fd``), that path must be admitted (it is when it
    is *real*, the real path admitted before the ``open``: :meth:`Boundary.admits` looks at
    the path alone); elsewhere the file opened must be the file checked (same device and
    inode)."""
    try:
        actual: str | None = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        actual = None
    if actual is not None and os.path.isabs(actual):
        if actual != real and not within.admits(actual):
            raise _outside(path, actual, within, shown)
    elif (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino):
        raise ReadRefused(OUTSIDE, "was replaced while being read; not read", shown)


def _read_fd(fd: int, cap: int, size_hint: int, what: str, shown: str) -> bytes:
    """At most ``cap + 1`` bytes from *fd*, first as many as ``stat`` said, then in chunks."""
    limit = cap + 1
    parts: list[bytes] = []
    total = 0
    want = min(size_hint + 1, limit)
    while total < limit:
        chunk = os.read(fd, max(1, min(want, limit - total)))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
        want = _CHUNK
    if total > cap:
        raise _too_large(what, cap, shown, None)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _too_large(what: str, cap: int, shown: str, size: int | None) -> ReadRefused:
    said = f"{size:,} bytes" if size is not None else f"more than {cap:,} bytes"
    subject = f"{what} is too large" if what else "too large"
    return ReadRefused(TOO_LARGE, f"{subject} ({said}; at most {cap:,} are read)", shown)


def _os_refusal(exc: OSError, shown: str) -> ReadRefused:
    if isinstance(exc, FileNotFoundError):
        return ReadRefused(MISSING, "file not found", shown)
    if isinstance(exc, IsADirectoryError):
        return ReadRefused(DIRECTORY, "is a directory, not a file", shown)
    if isinstance(exc, PermissionError):
        return ReadRefused(DENIED, "cannot be read: permission denied", shown)
    if isinstance(exc, NotADirectoryError):
        return ReadRefused(MISSING, "file not found (a folder on its path is a file)", shown)
    reason = exc.strerror or exc.__class__.__name__
    return ReadRefused(FAILED, f"cannot be read: {reason}", shown)


__all__ = [
    "MAX_DOCUMENT_BYTES",
    "Boundary",
    "ReadRefused",
    "is_pseudo_filesystem",
    "read_capped",
    "refusal",
    "special_kind",
]
