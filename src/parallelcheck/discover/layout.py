"""Article layouts: the three found without configuration, and patterns a configuration names.

Default layouts (used when the configuration has no ``layout:``)

``folder``
    folder per article, ``<root>/<article>/<lang>.<ext>``;
``suffix``
    language suffix, ``<root>/<article>.<lang>.<ext>``, where an unsuffixed
    ``<article>.<ext>`` beside suffixed siblings is the source-language version
    (``README.md`` beside ``README.ja.md``; Hugo's and MkDocs' i18n convention);
``tree``
    tree per language, ``<root>/<lang>/<path>.<ext>``.

Named patterns
    A ``layout:`` entry that is not one of those names is a path pattern relative to the root,
    with ``{lang}`` where the language tag stands and ``{path}`` where the page's path stands
    (one or more folders and the file name)::

        layout:
          - "{lang}/{path}"                          # the tree per language, spelled out
          - pattern: "pages.{lang}/{path}"           # tldr-pages: pages.ja/common/tar.md …
            source: "pages/{path}"                   # … beside the untagged source pages/
          - pattern: "i18n/{lang}/docusaurus-plugin-content-docs/current/{path}"
            source: "docs/{path}"                    # Docusaurus

    The file's extension (``.md``, ``.mdx`` …) is not part of the match; a pattern may end in
    one to say so, which changes nothing.  ``source`` is a pattern without ``{lang}``: the file
    it matches is the version in the source language (the configuration's ``source:``, else
    ``en``).  A file that matches a translation pattern with a tag is a translation, even when
    a source pattern matches it too.  When ``layout:`` is given, only the layouts it lists are
    used; the default names may be listed among the patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parallelcheck.readers import EXTENSIONS
from parallelcheck.text.regexes import compile_pattern

DEFAULT_LAYOUTS = ("folder", "suffix", "tree")
LAYOUT_TITLES = {
    "folder": "folder per article",
    "suffix": "language suffix",
    "tree": "tree per language",
}
_PLACEHOLDER = compile_pattern(r"\{(lang|path)\}")


class LayoutError(ValueError):
    """A pattern that cannot be used; the message says why."""


@dataclass(frozen=True)
class PatternLayout:
    """One named pattern: where translations lie, and optionally where the source lies."""

    pattern: str
    source: str | None = None
    _translation: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _source: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_translation", _compile(self.pattern, needs_lang=True))
        source = None if self.source is None else _compile(self.source, needs_lang=False)
        object.__setattr__(self, "_source", source)

    @property
    def name(self) -> str:
        """How the layout is shown (``ls``, the report header)."""
        return self.pattern if self.source is None else f"{self.pattern} (source {self.source})"

    def match(self, relative: str) -> tuple[str, str | None] | None:
        """``(page, tag text)`` for a translation, ``(page, None)`` for the source, else None.

        *relative* is a file's POSIX path below the root without its extension.
        """
        found = self._translation.fullmatch(relative)
        if found is not None:
            return found["path"], found["lang"]
        if self._source is not None:
            found = self._source.fullmatch(relative)
            if found is not None:
                return found["path"], None
        return None


def strip_extension(pattern: str, extensions: tuple[str, ...]) -> str:
    """*pattern* without a trailing document extension: ``{path}.{lang}.md`` → ``{path}.{lang}``."""
    stem, dot, ext = pattern.rpartition(".")
    return stem if dot and ext.lower() in extensions and "/" not in ext else pattern


def _compile(pattern: str, *, needs_lang: bool) -> re.Pattern[str]:
    """The regular expression of *pattern*; :class:`LayoutError` when it cannot be one."""
    names = _PLACEHOLDER.findall(pattern)
    if names.count("path") != 1:
        raise LayoutError(f"pattern '{pattern}' must contain {{path}} exactly once")
    if needs_lang and names.count("lang") != 1:
        raise LayoutError(f"pattern '{pattern}' must contain {{lang}} exactly once")
    if not needs_lang and "lang" in names:
        raise LayoutError(f"source pattern '{pattern}' must not contain {{lang}}")
    if pattern.startswith("/") or ".." in pattern.split("/"):
        raise LayoutError(f"pattern '{pattern}' must be a path below the root")
    body = strip_extension(pattern, tuple(ext.lstrip(".") for ext in EXTENSIONS))
    parts = []
    position = 0
    for placeholder in _PLACEHOLDER.finditer(body):
        parts.append(re.escape(body[position : placeholder.start()]))
        parts.append(r"(?P<lang>[^/.]+)" if placeholder[1] == "lang" else r"(?P<path>.+)")
        position = placeholder.end()
    parts.append(re.escape(body[position:]))
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    return re.compile("".join(parts))
