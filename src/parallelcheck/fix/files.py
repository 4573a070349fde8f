"""The files a fix edits or copies from, read as the check read them, lines as written.

A file is read inside its article set's boundary and only when its bytes are those the check
read (the SHA-256 the check recorded): a file edited since is refused, so every line number a
finding gives is that file's.  Its text keeps its line endings (``\\r\\n``, ``\\n``, lone
``\\r``: each one line break, as the readers count them), its encoding and byte-order mark, so
that the lines a fix does not touch are written back byte for byte.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import Boundary
from parallelcheck.readers.decode import Decoded, decode_as_written, read_bytes

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class CannotFix(Exception):
    """A fix that cannot be applied as it stands; the message says why, in a sentence."""


@dataclass(frozen=True)
class Checked:
    """What the check knew of one version's file: the digest of the bytes it read (``None``
    when it could not read it), the article set's boundary, and whether it is its article's
    source (never edited)."""

    digest: bytes | None
    boundary: Boundary | None = None
    source: bool = False


@dataclass
class FileText:
    """A file's bytes, its text with line endings as written, and each line's offsets."""

    path: str
    data: bytes
    decoded: Decoded
    #: ``(start, end of content, end with the line break)`` of each line, in the text.
    lines: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.decoded.text

    def content(self, number: int) -> str:
        """Line ``number`` (1-based) without its line break."""
        start, end, _ = self.line(number)
        return self.text[start:end]

    def line(self, number: int) -> tuple[int, int, int]:
        if not 1 <= number <= len(self.lines):
            raise CannotFix(f"{self.path} has no line {number}")
        return self.lines[number - 1]

    def ending(self, number: int | None = None) -> str:
        """The line break of line ``number`` (by default the first line's), ``\\n`` when it
        has none (the last line of a file without a final line break)."""
        if not self.lines:
            return "\n"
        _, end, full = self.lines[(number or 1) - 1]
        return self.text[end:full] or (self.ending(1) if number not in (None, 1) else "\n")


def read_checked(path: str, checked: Checked) -> FileText:
    """The file at ``path`` if its bytes are the ones the check read; :class:`CannotFix`
    otherwise (changed since, unreadable, or the check could not read it)."""
    if checked.digest is None:
        raise CannotFix(f"{path} could not be read when it was checked")
    try:
        data = read_bytes(path, checked.boundary)
    except InputError as error:
        raise CannotFix(error.describe()) from None
    if hashlib.sha256(data).digest() != checked.digest:
        raise CannotFix(f"{path} changed since it was checked; run the check again")
    try:
        decoded = decode_as_written(data, path)
    except InputError as error:  # pragma: no cover - the check decoded these very bytes
        raise CannotFix(error.describe()) from None
    lines = [
        (m.start(), m.start() + len(m.group().rstrip("\r\n")), m.end())
        for m in _LINE.finditer(decoded.text)
    ]
    return FileText(path, data, decoded, lines)


def split_lines(text: str) -> list[str]:
    """``text``'s lines, each with its line break (``\\r\\n``, ``\\n`` or a lone ``\\r``: the
    breaks the readers count; not the others :meth:`str.splitlines` knows)."""
    return _LINE.findall(text)
