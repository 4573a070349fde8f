"""Decoding input files: encodings, line endings, unreadable and binary input."""

from __future__ import annotations

import codecs
import os
import random

import pytest

from parallelcheck.errors import InputError
from parallelcheck.model.document import BlockKind
from parallelcheck.readers import kind_for_path, parse_text, read_document
from parallelcheck.readers.decode import decode_bytes, normalise_newlines, read_text

SAMPLE = (
    "# Title { #top }\n"
    "\n"
    "Intro with a [link](https://example.com) and `code`.\n"
    "\n"
    "## 見出し\n"
    "\n"
    "- 項目一\n"
    "- 항목 둘\n"
    "\n"
    "| a | b |\n"
    "|---|---|\n"
    "| 1 | 2 |\n"
)


def _write(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _shape(document):
    """Everything a later stage sees, without the path."""
    return [
        (
            s.level,
            s.title,
            s.line,
            s.anchor,
            [(b.kind, b.text, b.line, b.end_line, b.rows, b.links) for b in s.blocks],
        )
        for s in document.sections
    ] + [document.line_count]


@pytest.mark.parametrize(
    "encoded",
    [
        pytest.param(SAMPLE.encode("utf-8"), id="utf-8"),
        pytest.param(codecs.BOM_UTF8 + SAMPLE.encode("utf-8"), id="utf-8-bom"),
        pytest.param(codecs.BOM_UTF16_LE + SAMPLE.encode("utf-16-le"), id="utf-16-le"),
        pytest.param(codecs.BOM_UTF16_BE + SAMPLE.encode("utf-16-be"), id="utf-16-be"),
        pytest.param(SAMPLE.replace("\n", "\r\n").encode("utf-8"), id="crlf"),
        pytest.param(SAMPLE.replace("\n", "\r").encode("utf-8"), id="lone-cr"),
        pytest.param(
            codecs.BOM_UTF16_LE + SAMPLE.replace("\n", "\r\n").encode("utf-16-le"),
            id="utf-16-crlf",
        ),
    ],
)
def test_encodings_and_line_endings_read_like_plain_utf8(tmp_path, encoded):
    reference = read_document(_write(tmp_path, "ref.md", SAMPLE.encode("utf-8")), "en")
    document = read_document(_write(tmp_path, "doc.md", encoded), "en")
    assert _shape(document) == _shape(reference)
    # and the lines really are the file's lines
    assert [s.line for s in document.sections] == [1, 1, 5]
    assert document.sections[2].blocks[1].line == 10


def test_decode_bytes_normalises_newlines_without_shifting_lines():
    text = decode_bytes(b"a\r\nb\rc\n\r\nd", "x.txt")
    assert text == "a\nb\nc\n\nd"
    assert text.split("\n")[4] == "d"  # line 5 in an editor, line 5 here


def test_normalise_newlines_drops_a_bom_character():
    assert normalise_newlines("\ufeffhello\r\n") == "hello\n"


def test_nul_bytes_mean_binary(tmp_path):
    path = _write(tmp_path, "a.md", b"# Title\n\x00\x01\x02binary")
    with pytest.raises(InputError) as caught:
        read_document(path, "en")
    assert "looks like a binary file, not text" in caught.value.message
    assert caught.value.path == path


def test_control_characters_mean_binary(tmp_path):
    path = _write(tmp_path, "a.txt", bytes(range(1, 9)) * 50)
    with pytest.raises(InputError, match="binary"):
        read_document(path, "en")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_without_bom_read_like_plain_utf8(tmp_path, codec):
    reference = read_document(_write(tmp_path, "ref.md", SAMPLE.encode("utf-8")), "en")
    document = read_document(_write(tmp_path, "doc.md", SAMPLE.encode(codec)), "en")
    assert _shape(document) == _shape(reference)
    assert document.sections[2].title == "見出し"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_mostly_non_ascii_text_without_bom_is_still_recognised(codec):
    text = "## Заголовок\n\nЭто обычный русский текст, 12 строк.\n\n日本語の本文です。\n" * 40
    crlf = text.replace("\n", "\r\n")
    assert decode_bytes(text.encode(codec), "a.md") == text
    assert decode_bytes(crlf.encode(codec), "a.md") == text


def test_tiny_utf16_without_bom_is_read():
    assert decode_bytes("hello".encode("utf-16-le"), "a.md") == "hello"
    assert decode_bytes("hi".encode("utf-16-be"), "a.md") == "hi"


def test_random_bytes_are_still_binary(tmp_path):
    data = random.Random(16).randbytes(4096)
    assert b"\x00" in data
    path = _write(tmp_path, "a.md", data)
    with pytest.raises(InputError) as caught:
        read_document(path, "en")
    assert caught.value.message == "looks like a binary file, not text"
    assert caught.value.line is None


def test_nul_bytes_of_no_wide_encoding_pattern_are_binary():
    # NULs on both sides of the code units, and a lone NUL in UTF-8 text
    for data in (b"\x00\x00\x00\x01Bud1\x00\x00\x10\x00", b"hello\x00world, again\n"):
        with pytest.raises(InputError, match="looks like a binary file, not text"):
            decode_bytes(data, "a.md")


def test_nul_separated_ascii_strings_are_binary():
    # NULs after strings of any length fall on both sides of UTF-16 code units
    words = [b"alpha", b"be", b"gamma", b"delta", b"epsilon", b"eta", b"theta", b"iota"] * 40
    with pytest.raises(InputError, match="looks like a binary file, not text"):
        decode_bytes(b"\x00".join(words) + b"\x00", "a.md")


def test_a_few_nul_padded_ascii_characters_in_random_bytes_are_binary():
    noise = bytearray(random.Random(9).randbytes(4096).replace(b"\x00", b"\x01"))
    for offset in (100, 900, 2000, 3000, 4000):
        noise[offset : offset + 2] = b"x\x00"  # five UTF-16-LE "x" among 2048 code units
    with pytest.raises(InputError, match="looks like a binary file, not text"):
        decode_bytes(bytes(noise), "a.md")


def test_invalid_utf16_without_bom_names_the_encoding_it_looks_like():
    data = "one\ntwo\nthree\n".encode("utf-16-le") + b"\x00\xdc" + "x\n".encode("utf-16-le")
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "a.md")
    error = caught.value
    assert "binary" not in error.message
    assert error.message.startswith(
        "looks like UTF-16 (little endian) text without a byte-order mark, but byte 0x00 is "
        "not valid UTF-16 (little endian)"
    )
    assert "save the file as UTF-8" in error.message
    assert (error.path, error.line) == ("a.md", 4)


def test_truncated_utf32_without_bom_names_the_encoding():
    data = "# T\n\nbody\n".encode("utf-32-be")[:-2]
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "a.md")
    assert "looks like UTF-32 (big endian) text without a byte-order mark" in caught.value.message
    assert caught.value.line == 3


def test_utf16_without_bom_holding_control_characters_names_the_encoding():
    data = "# Title\n\nsome text\n\x01\x02 more\n".encode("utf-16-be")
    with pytest.raises(InputError) as caught:
        decode_bytes(data, "a.md")
    message = caught.value.message
    assert message.startswith("looks like UTF-16 (big endian) text without a byte-order mark")
    assert "control character U+0001" in message
    assert caught.value.line == 4


def test_undecodable_utf8_names_the_line_and_the_expected_encoding(tmp_path):
    path = _write(tmp_path, "ja.md", b"# ok\r\n\r\nline three \xff here\n")
    with pytest.raises(InputError) as caught:
        read_document(path, "ja")
    error = caught.value
    assert error.path == path
    assert error.line == 3
    assert "UTF-8" in error.message
    assert "0xff" in error.message
    assert error.describe().startswith(f"{path}:3: ")


def test_undecodable_utf16_names_the_line(tmp_path):
    body = "one\ntwo\n".encode("utf-16-le") + b"\x00\xdc" + "x".encode("utf-16-le")
    path = _write(tmp_path, "a.md", codecs.BOM_UTF16_LE + body)
    with pytest.raises(InputError) as caught:
        read_document(path, "en")
    assert caught.value.line == 3
    assert "UTF-16" in caught.value.message


def test_missing_file(tmp_path):
    path = str(tmp_path / "nope.md")
    with pytest.raises(InputError) as caught:
        read_document(path, "en")
    assert caught.value.message == "file not found"
    assert caught.value.path == path


def test_directory(tmp_path):
    folder = tmp_path / "dir.md"
    folder.mkdir()
    with pytest.raises(InputError, match="is a directory, not a file"):
        read_document(str(folder), "en")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can read anything")
def test_unreadable_file(tmp_path):
    path = _write(tmp_path, "a.md", b"text")
    os.chmod(path, 0)
    try:
        with pytest.raises(InputError, match="cannot be read"):
            read_document(path, "en")
    finally:
        os.chmod(path, 0o644)


def test_read_text_returns_decoded_text(tmp_path):
    path = _write(tmp_path, "a.txt", codecs.BOM_UTF8 + "café\r\n".encode())
    assert read_text(path) == "café\n"


@pytest.mark.parametrize("name", ["empty.md", "empty.txt", "empty.html"])
def test_empty_file_is_a_document_with_an_empty_preamble(tmp_path, name):
    document = read_document(_write(tmp_path, name, b""), "en")
    assert len(document.sections) == 1
    preamble = document.preamble
    assert (preamble.level, preamble.title, preamble.line, preamble.blocks) == (0, "", 1, [])
    assert document.line_count == 0
    assert document.directives == []


def test_whitespace_only_file_is_empty_too(tmp_path):
    document = read_document(_write(tmp_path, "a.md", b"\n  \n\n"), "en")
    assert len(document.sections) == 1 and not document.preamble.blocks
    assert document.line_count == 3


def test_unknown_extension_is_an_input_error(tmp_path):
    path = _write(tmp_path, "a.rst", b"Title\n=====\n")
    with pytest.raises(InputError, match=r"'\.rst'"):
        read_document(path, "en")


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.md", "markdown"),
        ("A.MARKDOWN", "markdown"),
        ("a.txt", "plaintext"),
        ("a.html", "html"),
        ("b.HTM", "html"),
    ],
)
def test_kind_for_path(name, kind):
    assert kind_for_path(name) == kind


def test_dispatch_on_extension(tmp_path):
    text = b"<h1>Title</h1>\n<p>Body.</p>\n"
    as_html = read_document(_write(tmp_path, "a.html", text), "en")
    as_text = read_document(_write(tmp_path, "a.txt", text), "en")
    assert as_html.sections[1].title == "Title"
    assert as_text.sections[0].blocks[0].text.startswith("<h1>")


def test_parse_text_accepts_kind_aliases_and_rejects_unknown_ones():
    assert parse_text("# A\r\n", "a", "en", "md").sections[1].title == "A"
    assert parse_text("A\n\nBody text here.\n", "a", "en", "txt").sections[1].title == "A"
    assert parse_text("<p>x</p>", "a", "en", "htm").preamble.blocks[0].kind is BlockKind.PARAGRAPH
    with pytest.raises(InputError, match="unknown document kind"):
        parse_text("x", "a", "en", "docx")
