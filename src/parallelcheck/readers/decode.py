"""Turn the bytes of an input file into text the readers can parse.

Accepted encodings:

* UTF-8, with or without a byte-order mark;
* UTF-16 and UTF-32 (little or big endian) with a byte-order mark;
* UTF-16 and UTF-32 (little or big endian) *without* one, when the NUL bytes say so: in such
  text every character below U+0100 — line breaks, spaces, ASCII markup — has NUL high bytes,
  so at least one in twenty characters of the first 8 KiB (and at least four, or two making
  half of a tiny file) must be printable ASCII in that encoding, and the byte position of a
  character's low byte must hold under a quarter as many NUL bytes as each other position.
  At most one encoding fits that pattern; the file is read in it if the whole file decodes
  strictly and holds no control character other than tab, line feed, carriage return and
  form feed.

Line endings are normalised to ``\\n``: a ``\\r\\n`` pair and a lone ``\\r`` each become one
``\\n``, so line *n* of the returned text is line *n* of the file as an editor shows it.

Anything else stops the run with an :class:`~parallelcheck.errors.InputError` that names the
file (and, for undecodable bytes, the line of the first bad byte):

* a NUL byte, or a high share of control characters, means the file "looks like a binary
  file, not text" — unless the NUL bytes fit UTF-16/32 text without a byte-order mark, when
  the message names that encoding ("looks like UTF-16 (little endian) text without a
  byte-order mark, but …") and the line of the first bad byte or character;
* bytes that are not valid UTF-8 (or not valid UTF-16/32 after a BOM);
* a missing file, a directory, or a file that cannot be opened;
* a FIFO, socket or device (refused before it is opened), a file over
  :data:`~parallelcheck.files.safe_read.MAX_DOCUMENT_BYTES`, and — when the caller gives a boundary
  —
  a file whose real path lies outside it (see :mod:`parallelcheck.files.safe_read`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import MAX_DOCUMENT_BYTES, Boundary, read_capped
from parallelcheck.text.regexes import compile_pattern

# Control characters other than tab, newline, carriage return and form feed.
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13)) + b"\x7f"
_SAMPLE = 8192

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # UTF-32 first: its little-endian BOM starts with the UTF-16 LE one.
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32 (little endian)"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32 (big endian)"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 (little endian)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 (big endian)"),
)

# Encodings recognised without a BOM: codec, label, code unit size, index of the low byte.
_WIDE: tuple[tuple[str, str, int, int], ...] = (
    ("utf-32-le", "UTF-32 (little endian)", 4, 0),
    ("utf-32-be", "UTF-32 (big endian)", 4, 3),
    ("utf-16-le", "UTF-16 (little endian)", 2, 0),
    ("utf-16-be", "UTF-16 (big endian)", 2, 1),
)
_TEXT_ASCII = frozenset("\t\n\f\r" + "".join(map(chr, range(32, 127))))
_CONTROL_CHAR = compile_pattern("[" + re.escape(_CONTROL_BYTES.decode("ascii")) + "]")


def read_text(path: str) -> str:
    """Read ``path`` and return its text, decoded and with ``\\n`` line endings."""
    return decode_bytes(read_bytes(path), path)


def read_bytes(path: str, within: Boundary | None = None) -> bytes:
    """The raw bytes of ``path``; any failure becomes an :class:`InputError` sentence.

    The read is :func:`~parallelcheck.files.safe_read.read_capped`'s: only a regular file (a FIFO,
    socket or device is refused before it is opened: "is a named pipe (FIFO), not a regular
    file; not read"), at most :data:`~parallelcheck.files.safe_read.MAX_DOCUMENT_BYTES` ("too large
    (N bytes; at most M are read)", checked while reading, so a file whose size ``stat`` does
    not tell is bounded too), and — with *within* — only when the file's real path lies inside
    that boundary ("symbolic link to a file outside the project; not read")."""
    return read_capped(path, MAX_DOCUMENT_BYTES, within=within)


def decode_bytes(data: bytes, path: str) -> str:
    """Decode ``data`` (the content of ``path``) and normalise its line endings."""
    return normalise_newlines(decode_as_written(data, path).text)


@dataclass(frozen=True)
class Decoded:
    """A file's text with its line endings as written, and how to write it back the same
    way: ``bom + text.encode(codec)`` gives the very bytes it was decoded from."""

    text: str
    codec: str
    bom: bytes

    def encode(self, text: str) -> bytes:
        """*text* written as this file is: the same encoding and byte-order mark."""
        return self.bom + text.encode(self.codec)


def decode_as_written(data: bytes, path: str) -> Decoded:
    """Decode ``data`` (the content of ``path``) keeping its line endings (see the module's
    documentation for what is accepted)."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            text = _decode(body, codec, label, path)
            if "\x00" in text:
                raise InputError("looks like a binary file, not text", path)
            return Decoded(text, codec, bom)
    if b"\x00" in data:
        wide = _wide_encoding(data)
        if wide is None:
            raise InputError("looks like a binary file, not text", path)
        return Decoded(_decode_wide(data, wide[0], wide[1], path), wide[0], b"")
    if _mostly_control(data):
        raise InputError("looks like a binary file, not text", path)
    return Decoded(_decode(data, "utf-8", "UTF-8", path), "utf-8", b"")


def normalise_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` become ``\\n``; a leading BOM character is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _mostly_control(data: bytes) -> bool:
    sample = data[:_SAMPLE]
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls * 10 > len(sample)


def _wide_encoding(data: bytes) -> tuple[str, str] | None:
    """The (codec, label) of UTF-16/32 without a BOM whose NUL-byte pattern ``data`` has."""
    for codec, label, unit, low in _WIDE:
        sample = data[:_SAMPLE]
        sample = sample[: len(sample) - len(sample) % unit]
        units = len(sample) // unit
        if not units:
            continue
        low_nuls = sample[low::unit].count(0)
        high_nuls = (sample.count(0) - low_nuls) / (unit - 1)  # per other byte position
        if not high_nuls or low_nuls * 4 > high_nuls:
            continue
        text = sample.decode(codec, errors="replace")
        ascii_chars = sum(1 for char in text if char in _TEXT_ASCII)
        # at least one in twenty, and four (or two making half of a tiny file): random bytes
        # hardly ever have that many NUL-padded ASCII characters
        enough = ascii_chars >= 4 or (ascii_chars >= 2 and ascii_chars * 2 >= units)
        if enough and ascii_chars * 20 >= units:
            return codec, label
    return None


def _decode_wide(data: bytes, codec: str, label: str, path: str) -> str:
    """``data`` as ``codec`` text without a BOM, or an error naming the encoding it looks like."""
    looks = f"looks like {label} text without a byte-order mark, but"
    advice = f"save the file as UTF-8, or as {label} with a byte-order mark"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1]
        what = f"byte 0x{bad.hex()}" if bad else "the end of the file"
        raise InputError(
            f"{looks} {what} is not valid {label} ({advice})",
            path,
            _line_of_offset(data, exc.start, codec),
        ) from None
    control = _CONTROL_CHAR.search(text)
    if control is not None:
        raise InputError(
            f"{looks} it holds the control character U+{ord(control.group()):04X}, so it may "
            f"be a binary file ({advice})",
            path,
            normalise_newlines(text[: control.start()]).count("\n") + 1,
        )
    return text


def _decode(body: bytes, codec: str, label: str, path: str) -> str:
    try:
        return body.decode(codec)
    except UnicodeDecodeError as exc:
        line = _line_of_offset(body, exc.start, codec)
        bad = body[exc.start : exc.start + 1]
        what = f"byte 0x{bad.hex()}" if bad else "the end of the file"
        raise InputError(
            f"cannot be decoded: {what} is not valid {label} "
            f"(expected {label} text; save the file as UTF-8)",
            path,
            line,
        ) from None


def _line_of_offset(body: bytes, offset: int, codec: str) -> int:
    """1-based line of byte ``offset`` in ``body``, counting CRLF, LF and lone CR as breaks."""
    prefix = body[:offset]
    if codec == "utf-8":
        return prefix.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
    unit = 4 if "32" in codec else 2
    prefix = prefix[: len(prefix) - len(prefix) % unit]
    text = prefix.decode(codec, errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
