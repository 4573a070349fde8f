"""The aligned article: every version's sections and blocks in aligned rows.

Plain data that alignment produces and rules and formats read; it carries no run state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from parallelcheck.model.document import Block, Document, Section


@dataclass
class AlignedBlock:
    """One row of aligned blocks: each version's block, or ``None`` where it has none.

    ``extra`` holds, per version, further blocks that belong to this row because that version
    split one paragraph of the others in two, or continued a sentence after a code block
    (see :mod:`parallelcheck.align.splits`).
    """

    cells: dict[str, Block | None]
    extra: dict[str, list[Block]] = field(default_factory=dict)
    #: The rows of the blocks inside this row's containers (a list's items, an item's, a
    #: quote's or an admonition's inner blocks), aligned as a section's blocks are (see
    #: :mod:`parallelcheck.align.containers`); their cells are the versions whose cell here is
    #: a container, and those of ``unwrapped``.  Empty when the row holds no containers.
    rows: list[AlignedBlock] = field(default_factory=list)
    #: Per version whose content of this row stands without the container (admonition, quote,
    #: component) the other versions wrap it in: those blocks, in order.  Such a version's
    #: cell is ``None`` but it is not :meth:`absent`; its blocks are in the nested ``rows``.
    unwrapped: dict[str, list[Block]] = field(default_factory=dict)

    def present(self) -> list[str]:
        return [lang for lang, block in self.cells.items() if block is not None]

    def absent(self) -> list[str]:
        """The versions lacking this row's content (not those holding it unwrapped)."""
        unwrapped = self.unwrapped
        return [
            lang for lang, block in self.cells.items() if block is None and lang not in unwrapped
        ]

    def blocks(self, lang: str) -> list[Block]:
        """The blocks of version ``lang`` in this row: its cell and the blocks it was split
        into, or the blocks it holds unwrapped; empty where it has none."""
        block = self.cells.get(lang)
        if block is None:
            return list(self.unwrapped.get(lang, ()))
        return [block, *self.extra.get(lang, ())]

    def walk(self) -> Iterator[AlignedBlock]:
        """This row, then every row nested in it, depth first in document order."""
        stack = [self]
        while stack:
            row = stack.pop()
            yield row
            stack.extend(reversed(row.rows))

    def holds(self, row: AlignedBlock) -> bool:
        """Whether ``row`` is this row or one nested in it (by identity)."""
        return any(found is row for found in self.walk())


def own_text(block: Block) -> str:
    """A container's own text, before its children's (a list item's first paragraph, an
    admonition's title; see :func:`parallelcheck.readers._common.container_text`): what its
    row compares once its children have rows of their own.  A block without children is all
    its own text; a text that does not end with its children's (as the readers write it)
    gives none."""
    tail = "\n".join(child.text for child in block.children if child.text)
    if not tail:
        return block.text
    text = block.text
    if text.endswith("\n" + tail):
        return text[: -len(tail) - 1]
    return ""


@dataclass
class AlignedSection:
    """One row of aligned sections and the aligned blocks inside them."""

    cells: dict[str, Section | None]
    rows: list[AlignedBlock] = field(default_factory=list)

    def present(self) -> list[str]:
        return [lang for lang, section in self.cells.items() if section is not None]

    def absent(self) -> list[str]:
        return [lang for lang, section in self.cells.items() if section is None]


@dataclass(frozen=True, eq=False)
class BlockMove:
    """A block that ``langs`` hold at another place of the article than ``reference`` do: in
    row ``to`` of section ``to_section`` rather than in row ``at`` of ``at_section`` (found by
    :mod:`parallelcheck.align.moves`); neither row is then missing a block in those versions.
    A row nested in a container has that container's row as its parent (``at_parent``,
    ``to_parent``); a top-level row has none."""

    langs: tuple[str, ...]
    reference: tuple[str, ...]
    at_section: AlignedSection
    at: AlignedBlock
    to_section: AlignedSection
    to: AlignedBlock
    at_parent: AlignedBlock | None = None
    to_parent: AlignedBlock | None = None


@dataclass(frozen=True)
class UnreadableVersion:
    """A version file the engine could not turn into a document: not found (it vanished after
    discovery), not openable, binary, or not decodable.  ``reason`` is the reader's sentence
    (without the file name), ``line`` the line of the first bad byte when the decoder gives
    one.  Plain data, so that it travels back from worker processes and into the cache."""

    lang: str
    path: str
    reason: str
    line: int | None = None


@dataclass(frozen=True)
class SuppressionUse:
    """What the suppression comments of an article did in one check (the engine records it
    once the other rules have run; the ``suppression-unused`` rule reads it).

    ``ran`` are the rules that ran; ``used`` holds, per version file, ``(line, rule)`` for
    each comment at that line that silenced a finding of that rule (``rule`` empty for a
    comment naming no rule, which silences every rule)."""

    ran: frozenset[str]
    used: Mapping[str, frozenset[tuple[int, str]]]


@dataclass
class AlignedArticle:
    """Every version of one article, aligned.

    ``langs`` are the versions that exist and could be read, source first then by tag;
    ``expected`` the languages the configuration asks for (a superset of ``langs`` when
    versions are missing).  ``unreadable`` are the versions whose file exists but could not be
    read (the engine fills it; they are in neither ``langs`` nor ``expected``, and the
    ``unreadable-version`` rule reports them).  ``moves`` are the blocks some versions hold
    at another place (the ``moved-block`` rule reports them).  ``suppression_use`` is what
    the suppression comments silenced (the engine fills it when ``suppression-unused`` runs).
    """

    id: str
    source: str
    langs: tuple[str, ...]
    expected: tuple[str, ...]
    paths: dict[str, str]
    documents: dict[str, Document]
    sections: list[AlignedSection]
    link_prefixes: tuple[str, ...]
    unreadable: tuple[UnreadableVersion, ...] = ()
    moves: list[BlockMove] = field(default_factory=list)
    suppression_use: SuppressionUse | None = None

    def section_title(self, row: AlignedSection) -> str:
        """The aligned row's heading as the source (or the first version that has it) writes it."""
        return first_title(self.langs, row.cells)


def first_title(langs: Iterable[str], cells: Mapping[str, Any]) -> str:
    """The title of the first of *langs* whose cell in a row of sections (a
    :class:`~parallelcheck.model.document.Section` or an outline's heading) is not empty."""
    for lang in langs:
        section = cells.get(lang)
        if section is not None:
            return section.title
    return ""
