"""Readers: turn one language version's file into a :class:`~parallelcheck.model.document.Document`.

:func:`read_document` reads the bytes, decodes them (:mod:`.decode`) and picks the reader by
the file's extension:

==========================  =====================================
``.md``, ``.markdown``      :mod:`.markdown` (CommonMark + GFM, MkDocs admonitions)
``.mdx``                    :mod:`.mdx` (the Markdown reader, with JSX components and ESM)
``.txt``                    :mod:`.plaintext` (structure inferred)
``.html``, ``.htm``         :mod:`.html`
==========================  =====================================

Template directives (Hugo shortcodes, Liquid / Jinja tags, MkDocs includes and snippets) are
read the same way by every reader that meets them (:mod:`.directives`).

Any other extension, and any file that cannot be read or decoded, raises
:class:`~parallelcheck.errors.InputError`.  Readers know nothing of alignment, rules, the
engine or reports.
"""

from __future__ import annotations

import os

from parallelcheck.errors import InputError
from parallelcheck.files.safe_read import Boundary
from parallelcheck.model.document import Document
from parallelcheck.readers.decode import decode_bytes, normalise_newlines, read_bytes
from parallelcheck.readers.html import parse_html
from parallelcheck.readers.markdown import parse_markdown
from parallelcheck.readers.mdx import parse_mdx
from parallelcheck.readers.plaintext import parse_plaintext

#: File extension (lower case, with the dot) → reader kind.
EXTENSIONS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "mdx",
    ".txt": "plaintext",
    ".html": "html",
    ".htm": "html",
}

_KINDS = {
    "markdown": parse_markdown,
    "md": parse_markdown,
    "mdx": parse_mdx,
    "plaintext": parse_plaintext,
    "text": parse_plaintext,
    "txt": parse_plaintext,
    "html": parse_html,
    "htm": parse_html,
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
    return _KINDS[kind](text, path, lang)


def parse_text(text: str, path: str, lang: str, kind: str) -> Document:
    """Parse already-decoded ``text`` as ``kind`` (``markdown``, ``mdx``, ``plaintext`` or ``html``;
    ``md``, ``txt``, ``text`` and ``htm`` are accepted too).  Line endings are normalised."""
    parser = _KINDS.get(kind.lower().lstrip("."))
    if parser is None:
        raise InputError(f"unknown document kind '{kind}'", path)
    return parser(normalise_newlines(text), path, lang)


__all__ = ["EXTENSIONS", "kind_for_path", "parse_text", "read_document"]
