"""A version's front matter read as keys and values: what the reader found in the metadata
block at the top of the file (YAML between ``---`` lines, TOML between ``+++`` lines).

Plain data, made once per document by the reader (:mod:`parallelcheck.readers.front_matter`)
and read by the ``front-matter-mismatch`` rule.  Nested mappings and lists are flattened: each
scalar is one :class:`FrontMatterValue` named by its *path*, the keys from the top joined by
``.`` and a list item by its index (``title``, ``sidebar.label``, ``head.0.content``,
``tags.1``).  Every value and key records the 1-based line of the file where it stands (the
front matter's lines are the file's lines 2 to ``end_line - 1``).

A block that cannot be read (broken YAML or TOML, or not a mapping of keys) keeps no values;
``error`` says why and ``error_line`` where (a file line), so that the fault is reported as a
finding while the rest of the document is checked as usual.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FrontMatterValue:
    """One scalar of the front matter: its path, its text as written (unquoted; ``""`` for an
    empty value; ``true``/``false``, numbers and dates as written) and its file line."""

    path: str
    text: str
    line: int


@dataclass(frozen=True)
class FrontMatter:
    """The front matter of one version (see the module's docstring).

    ``syntax`` is ``yaml`` or ``toml``; ``line`` and ``end_line`` are the lines of its opening
    and closing delimiters; ``values`` its scalars in file order; ``keys`` its top-level keys
    with their lines, in file order (a key whose value is empty, an empty list or mapping, has
    a key and no value).
    """

    syntax: str
    line: int
    end_line: int
    values: tuple[FrontMatterValue, ...] = ()
    keys: tuple[tuple[str, int], ...] = ()
    error: str = ""
    error_line: int | None = None

    def value_map(self) -> dict[str, FrontMatterValue]:
        """Path → value (a path written twice: its last value, as YAML loaders keep it)."""
        return {value.path: value for value in self.values}

    def key_lines(self) -> dict[str, int]:
        """Top-level key → its line."""
        return dict(self.keys)


__all__ = ["FrontMatter", "FrontMatterValue"]
