"""The one document model every reader produces and every later stage reads.

A :class:`Document` is one language version of an article: a flat list of :class:`Section`
objects in document order.  The first section is the *preamble* (level 0, no heading) holding
whatever comes before the first heading; it is always present, possibly empty.  Nesting is
implied by heading levels, as in the source.

Each section holds its :class:`Block` objects in order.  A block is a paragraph, list, table,
code block, quote, admonition or raw HTML block.  Lists hold their items and quotes/admonitions
their inner blocks as ``children``; tables hold their cell text as ``rows`` (the header row
first, when the table has one).  Links, images and inline code are kept as facts on the block
that contains them.  Every element records the 1-based line where it starts in the file as
stored, so a finding can point at it.

Readers build these objects; nothing after the readers changes them.  What later stages ask
of a container again and again is worked out when first asked for and kept on it: its links
and inline code gathered from its children (:meth:`Block.all_links`,
:meth:`Block.all_code_spans`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NoReturn

from parallelcheck.model.front_matter import FrontMatter


class BlockKind(StrEnum):
    """What a block is.  The string values appear in findings' evidence."""

    PARAGRAPH = "paragraph"
    LIST = "list"
    ITEM = "item"
    TABLE = "table"
    CODE = "code"
    QUOTE = "quote"
    ADMONITION = "admonition"
    HTML = "html"


class _NoItems(list):
    """The empty list of a block that has none of something (most blocks have no children,
    rows, links or recorded lines): :data:`NO_ITEMS`, one read-only instance shared by them
    all, in place of the several empty lists each block would otherwise hold (about 400,000
    for the FastAPI corpus, each one more object for the garbage collector to walk).  It is a
    list (it compares equal to ``[]``, prints as ``[]`` and concatenates as one); anything
    that would change it raises :class:`TypeError`: a reader gives a block whose list it
    fills a list of its own."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("NO_ITEMS is shared by every block without items: it cannot change")

    append = extend = insert = pop = remove = clear = sort = reverse = _read_only
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only

    def __hash__(self) -> int:  # immutable, so hashable (and a dataclass field's default)
        return hash(())

    def __reduce__(self) -> str:
        return "NO_ITEMS"  # pickled and copied as the one shared instance


#: The shared empty list of the fields of :class:`Block` (see :class:`_NoItems`).
NO_ITEMS: list = _NoItems()


@dataclass(frozen=True)
class Link:
    """A link or image target found in a block."""

    target: str
    line: int
    is_image: bool = False
    text: str = ""


@dataclass(slots=True)
class Block:
    """One block of a section.

    ``text`` is the block's readable text with markup removed (for a code block, the code
    itself; for a table, the cells joined by tabs and rows by newlines; for a list or quote,
    the text of its children).  ``info`` is a code block's info string or an admonition's type
    and title.  ``children`` are a list's items or a quote's / admonition's inner blocks.
    ``rows`` is a table's cells row by row, header first when the table has one
    (``header`` says whether it does).  ``text_lines`` is the file line of each line of
    ``text`` (a list item, a table row, a paragraph's line after a soft break), one per line;
    empty when the reader did not record them or when they are the consecutive lines from
    ``line`` (a table's skipping the separator row under its header).

    The fields are slots, not a per-instance dictionary: a corpus is read into hundreds of
    thousands of blocks (about 130,000 for the FastAPI docs), each made once by a reader, so
    a block costs less memory and less time to make, and no stage can hang an undeclared
    attribute on one.
    """

    kind: BlockKind
    text: str
    line: int
    end_line: int
    info: str = ""
    children: list[Block] = NO_ITEMS
    rows: list[list[str]] = NO_ITEMS
    header: bool = False
    ordered: bool = False
    links: list[Link] = NO_ITEMS
    code_spans: list[str] = NO_ITEMS
    text_lines: list[int] = NO_ITEMS
    # A container's lists gathered when first asked for and kept (``None`` until then): no
    # field readers give, nor one that tells blocks apart.
    #: :meth:`all_links` once gathered.
    _all_links: list[Link] | None = field(default=None, init=False, repr=False, compare=False)
    #: :meth:`all_code_spans` once gathered.
    _all_code_spans: list[str] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def body_rows(self) -> int:
        """A table's row count without its header row."""
        return len(self.rows) - (1 if self.header and self.rows else 0)

    @property
    def columns(self) -> int:
        """A table's column count (the widest row)."""
        return max((len(r) for r in self.rows), default=0)

    def file_lines(self) -> list[int]:
        """The file line of each line of ``text``: ``text_lines`` when it has one per line,
        else the consecutive lines from ``line`` (a table's skipping its separator row), none
        past ``end_line``."""
        text, recorded = self.text, self.text_lines
        if not recorded and "\n" not in text:  # the commonest: one line, or none
            return [self.line] if text else []
        count = text.count("\n") + 1 if text else 0
        if len(recorded) == count:
            return recorded
        first = self.line
        skip = self.kind is BlockKind.TABLE and self.header
        last = self.end_line if self.end_line >= first else first + count
        return [min(first + i + (skip and i > 0), last) for i in range(count)]

    def all_links(self) -> list[Link]:
        """Links of this block and of every block nested in it, in order (see
        :func:`_gathered`: read them, do not change them)."""
        if not self.children:
            return self.links
        found = self._all_links
        if found is None:
            found = self._all_links = _gathered(self.links, [c.all_links() for c in self.children])
        return found

    def prose_text(self) -> str:
        """``text`` without the text of the code and HTML blocks nested in it, at any depth
        (a command in a tab inside a list item): what is written in the version's language.
        A container's ``text`` is its own text, then each child's, one per line
        (:func:`parallelcheck.readers._common.container_text`)."""
        if not self.holds_code():
            return self.text
        tail = "\n".join(c.text for c in self.children if c.text)
        own = self.text[: -len(tail) - 1] if tail and self.text.endswith("\n" + tail) else ""
        if not own and tail and self.text != tail:
            return self.text  # not a container's text: nothing to take away
        parts = [own] if own else []
        parts.extend(c.prose_text() for c in self.children if c.text and c.kind not in _NOT_PROSE)
        return "\n".join(parts)

    def holds_code(self) -> bool:
        """Whether a code or HTML block is nested in this one, at any depth."""
        return any(c.kind in _NOT_PROSE or c.holds_code() for c in self.children)

    def all_code_spans(self) -> list[str]:
        """Inline code of this block and of every block nested in it, in order (see
        :func:`_gathered`: read it, do not change it)."""
        if not self.children:
            return self.code_spans
        found = self._all_code_spans
        if found is None:
            found = self._all_code_spans = _gathered(
                self.code_spans, [c.all_code_spans() for c in self.children]
            )
        return found


def _gathered(own: list, nested: list[list]) -> list:
    """A container's list of something (links, inline code): its *own*, then its children's
    gathered ones (*nested*, in order).  It is gathered when first asked for and kept on the
    block (alignment, facts and rules ask several times per container); a block without
    children gives its own list, not a copy: the lists are read, never changed."""
    found = list(own)
    for lists in nested:
        found.extend(lists)
    return found


_NOT_PROSE = frozenset({BlockKind.CODE, BlockKind.HTML})


@dataclass
class Section:
    """A heading and the blocks up to the next heading (of any level).

    ``level`` is 1–6 for a heading, 0 for the preamble.  ``anchor`` is an explicit id
    (``{ #id }`` in Markdown, ``id=`` in HTML), else ``None``.  ``line`` is the heading's line
    (for the preamble, the first block's line, or 1).
    """

    level: int
    title: str
    line: int
    anchor: str | None = None
    blocks: list[Block] = field(default_factory=list)
    links: list[Link] = NO_ITEMS
    code_spans: list[str] = NO_ITEMS


@dataclass(frozen=True)
class Directive:
    """An inline suppression comment (docs/suppression.md) found in a version.

    ``action`` is ``disable``, ``enable`` or ``disable-next-block``; ``rules`` is empty when the
    comment names none (meaning every rule).
    """

    action: str
    rules: tuple[str, ...]
    line: int


@dataclass
class Document:
    """One language version of an article, as read from ``path``.  ``front_matter`` is the
    body of its metadata block as written, ``front_matter_data`` the same read as keys and
    values (:mod:`parallelcheck.model.front_matter`); both ``None`` when it has none."""

    path: str
    lang: str
    sections: list[Section]
    line_count: int = 0
    front_matter: str | None = None
    front_matter_data: FrontMatter | None = None
    directives: list[Directive] = field(default_factory=list)

    @property
    def preamble(self) -> Section:
        return self.sections[0]

    def iter_blocks(self):
        """Every top-level block of every section, in document order."""
        for section in self.sections:
            yield from section.blocks
