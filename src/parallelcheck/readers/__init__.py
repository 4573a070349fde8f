"""Readers: turn one language version's file into a :class:`~parallelcheck.model.document.Document`.

:func:`read_document` reads the bytes, decodes them (:mod:`.decode`) and picks the reader by
the file's extension from :data:`READERS` — Markdown (CommonMark + GFM, MkDocs admonitions),
MDX (the Markdown reader with JSX components and ESM), plain text (structure inferred) and
HTML.

Template directives (Hugo shortcodes, Liquid / Jinja tags, MkDocs includes and snippets) are
read the same way by every reader that meets them (:mod:`.directives`).

Any other extension, and any file that cannot be read or decoded, raises
:class:`~parallelcheck.errors.InputError`.  Readers know nothing of alignment, rules, the
engine or reports.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import Boundary
from parallelcheck.model.document import Document
from parallelcheck.readers.decode import decode_bytes, normalise_newlines, read_bytes
from parallelcheck.readers.html_pages import parse_html
from parallelcheck.readers.markdown import parse_markdown
from parallelcheck.readers.mdx import parse_mdx
from parallelcheck.readers.plaintext import parse_plaintext

#: Every reader: its kind, the function that parses a decoded text, and the file extensions
#: (lower case, with the dot) it reads.  The one table of extensions: discovery and the
#: layouts take theirs from :data:`EXTENSIONS`.
READERS: dict[str, tuple[Callable[[str, str, str], Document], tuple[str, ...]]] = {
    "markdown": (parse_markdown, (".md", ".markdown")),
    "mdx": (parse_mdx, (".mdx",)),
    "plaintext": (parse_plaintext, (".txt",)),
    "html": (parse_html, (".html", ".htm")),
}

#: File extension → reader kind.
EXTENSIONS = {ext: kind for kind, (_, exts) in READERS.items() for ext in exts}

#: A kind by its name, by one of its extensions without the dot, or ``text``.
_PARSERS = {
    **{kind: parse for kind, (parse, _) in READERS.items()},
    **{ext.lstrip("."): READERS[kind][0] for ext, kind in EXTENSIONS.items()},
    "text": parse_plaintext,
}


def kind_for_path(path: str) -> str:
    """The reader kind for ``path``'s extension; :class:`InputError` when there is none."""
    extension = os.path.splitext(path)[1].lower()
    kind = EXTENSIONS.get(extension)
    if kind is None:
        known = ", ".join(sorted(EXTENSIONS))
        shown = f"'{extension}'" if extension else "no extension"
        raise InputError(f"cannot read a file with {shown}: expected one of {known}", path)
    return kind


def read_document(path: str, lang: str, within: Boundary | None = None) -> Document:
    """Read the file at ``path`` (language ``lang``) into a :class:`Document`.  With
    ``within``, only a file whose real path lies inside that boundary is read (see
    :func:`~parallelcheck.readers.decode.read_bytes`)."""
    kind = kind_for_path(path)
    text = decode_bytes(read_bytes(path, within), path)
    return READERS[kind][0](text, path, lang)


def parse_text(text: str, path: str, lang: str, kind: str) -> Document:
    """Parse already-decoded ``text`` as ``kind`` (``markdown``, ``mdx``, ``plaintext`` or ``html``;
    ``md``, ``txt``, ``text`` and ``htm`` are accepted too).  Line endings are normalised."""
    parser = _PARSERS.get(kind.lower().lstrip("."))
    if parser is None:
        raise InputError(f"unknown document kind '{kind}'", path)
    return parser(normalise_newlines(text), path, lang)


__all__ = ["EXTENSIONS", "READERS", "kind_for_path", "parse_text", "read_document"]
