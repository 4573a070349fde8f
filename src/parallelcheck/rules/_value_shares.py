"""The values of an article's blocks as the value rules compare them: keys first, values
when asked (:class:`Share`), a block's worked out once (:class:`BlockValues`), and the pools
of a section's values that excuse a value an aligned block lacks (:class:`SectionPools`).

The procedure that compares them is :mod:`parallelcheck.rules._values`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from parallelcheck.model.aligned import AlignedBlock, own_text
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.rules._lines import TextLines

if TYPE_CHECKING:
    from parallelcheck.rules._values import ValueComparison

V = TypeVar("V")

#: ``BlockKind.CODE``, read once (an enum member looked up on its class is ten times slower
#: than a name, and every block's values ask whether it is code).
_CODE = BlockKind.CODE


@dataclass
class ValuePool(Generic[V]):
    """Values and the set of their keys, for telling quickly whether one is among them."""

    values: list[V]
    keys: set[Hashable]


class Share:
    """The values of one version in a row (or in an item of one): the keys of those that
    decide (:meth:`ValueComparison.decisive_keys`), known at once, and the (value, place)
    pairs, made by *make* the first time they are asked for."""

    __slots__ = ("_make", "_pairs", "keys")

    def __init__(self, keys: frozenset[Hashable], make: Callable[[], list]):
        self.keys = keys
        self._make = make
        self._pairs: list | None = None

    @property
    def pairs(self) -> list:
        """The (value, place) pairs, in order (shared: callers never change them)."""
        found = self._pairs
        if found is None:
            found = self._pairs = self._make()
        return found

    @classmethod
    def of(cls, comparison: ValueComparison, pairs: list) -> Share:
        """The share of some pairs already made."""
        share = cls(comparison.keys_of(pairs), list)
        share._pairs = pairs
        return share


NO_KEYS: frozenset[Hashable] = frozenset()


def joined(shares: list[Share]) -> Share:
    """Several shares as one: their keys, and their pairs one after the other."""
    if len(shares) == 1:
        return shares[0]
    return Share(
        NO_KEYS.union(*(share.keys for share in shares)),
        lambda: [pair for share in shares for pair in share.pairs],
    )


class LazyPools:
    """Per version, a pool of values built the first time it is asked for (:meth:`gather`
    says which values)."""

    def __init__(self, comparison: ValueComparison):
        self.comparison = comparison
        self.built: dict[str, ValuePool] = {}

    def of(self, lang: str) -> Callable[[], ValuePool]:
        """Version *lang*'s pool, when called."""
        return lambda: self.pool(lang)

    def pool(self, lang: str) -> ValuePool:
        found = self.built.get(lang)
        if found is None:
            found = self.built[lang] = self.comparison.pool(self.gather(lang))
        return found

    def gather(self, lang: str) -> list:
        raise NotImplementedError


class SectionPools(LazyPools):
    """Each version's pool of the values of one aligned section (its heading's and all its
    blocks'), built the first time a row asks for it.

    A pool only excuses a value its version's aligned block lacks (see
    :meth:`ValueComparison.unmatched_lazy`): a row whose versions' values all share keys with
    each other never asks, and in versions kept in sync that is nearly every row, so most
    sections never build one.
    """

    def __init__(
        self, comparison: ValueComparison, sections: dict[str, Section], values: BlockValues
    ):
        super().__init__(comparison)
        self.sections = sections
        self.values = values

    def gather(self, lang: str) -> list:
        section = self.sections[lang]
        return self.values.of_blocks(section.blocks, lang) + [
            v for v, _ in self.values.heading(section, lang).pairs
        ]


def _heading_values(comparison: ValueComparison, section: Section, lang: str) -> list:
    """(value, line) of each value of a section's heading: the heading's line."""
    return [(v, section.line) for v, _ in comparison.values(section, lang)]


def _block_values(comparison: ValueComparison, block: Block, lang: str) -> list:
    """(value, place) of each value of one block (see :func:`block_values`)."""
    return block_values(comparison, [block], lang)


def _own_values(comparison: ValueComparison, block: Block, lang: str, size: int) -> list:
    """(value, place) of each value of a container's own text, its first *size* characters
    (see :meth:`BlockValues.own`)."""
    pairs = comparison.values(block, lang)
    if not pairs:
        return []
    lines = TextLines(block)
    return [(value, (lines, offset)) for value, offset in pairs if offset < size]


def block_values(comparison: ValueComparison, blocks: Sequence[Block], lang: str) -> list:
    """(value, place) for every value of some blocks; code blocks have none (code is another
    rule's business).  A place is the block's :class:`TextLines` and the value's offset: its
    line (:func:`line_of`) is looked up only when a finding points at it."""
    found = []
    for block in blocks:
        if block.kind is _CODE:
            continue
        pairs = comparison.values(block, lang)
        if pairs:
            lines = TextLines(block)
            found.extend((value, (lines, offset)) for value, offset in pairs)
    return found


def line_of(place) -> int:
    """The line of a value's place: a heading's line, or a block's (:class:`TextLines`,
    offset) looked up now (most values are never reported: their lines are never needed)."""
    return place if isinstance(place, int) else place[0].line(place[1])


class OutsidePools:
    """Each version's values of one aligned section without those of one block row (its
    blocks at the top level), and :meth:`item`'s pools of them with one item's added: what
    excuses a value an item of that row lacks."""

    def __init__(self, pools: SectionPools, row: AlignedBlock):
        self.pools = pools
        self.row = row
        self.values: dict[str, list] = {}

    def outside(self, lang: str) -> list:
        found = self.values.get(lang)
        if found is None:
            pools = self.pools
            inside = {id(block) for block in self.row.blocks(lang)}
            blocks = [block for block in pools.sections[lang].blocks if id(block) not in inside]
            heading = pools.values.heading(pools.sections[lang], lang)
            found = self.values[lang] = pools.values.of_blocks(blocks, lang) + [
                v for v, _ in heading.pairs
            ]
        return found

    def item(self, cells: dict) -> ItemPools:
        """The pools for comparing one item (its cells as :func:`_compare_row` takes them)."""
        return ItemPools(self, cells)


class ItemPools(LazyPools):
    """Per version, a pool of one item's values and those outside its block row, built when
    :func:`_compare_row` first asks for it (the item's own values: the pool must hold them,
    see :meth:`ValueComparison.unmatched_lazy`)."""

    def __init__(self, outside: OutsidePools, cells: dict):
        super().__init__(outside.pools.comparison)
        self.outside = outside
        self.cells = cells

    def gather(self, lang: str) -> list:
        return [v for v, _ in self.cells[lang][1].pairs] + self.outside.outside(lang)


def left_out(row: AlignedBlock) -> Iterator[AlignedBlock]:
    """The nested rows :meth:`BlockValues.of_row` leaves out of ``row``'s comparison (some
    versions lack them), at any depth, in order."""
    for nested in row.rows:
        if _lacked(nested):
            yield nested
        else:
            yield from left_out(nested)


def _lacked(row: AlignedBlock) -> bool:
    """Whether some versions lack a nested row that a block rule reports (not a list item)."""
    return bool(row.absent()) and not any(
        c is not None and c.kind is BlockKind.ITEM for c in row.cells.values()
    )


_CONTAINER_KINDS = frozenset(
    {BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION}
)
EMPTY = Share(NO_KEYS, list)


class BlockValues:
    """The values of an article's blocks at any depth, as :class:`Share`s of one version:
    a block's as a whole, a container's own text's apart (see
    :func:`~parallelcheck.model.aligned.own_text`), and those of a row's cells; each block's
    worked out once."""

    def __init__(self, comparison: ValueComparison):
        self.comparison = comparison
        self.known: dict[int, frozenset[Hashable]] = {}
        self.blocks: dict[int, Share] = {}

    def heading(self, section: Section, lang: str) -> Share:
        """The values of a section's heading, each at the heading's line."""
        return self._share(section, lang, _heading_values)

    def keys(self, where: Block | Section, lang: str) -> frozenset[Hashable]:
        """The decisive keys of a heading or of a block as a whole (none in code: another
        rule's business)."""
        found = self.known.get(id(where))
        if found is None:
            found = self.known[id(where)] = (
                NO_KEYS
                if isinstance(where, Block) and where.kind is _CODE
                else self.comparison.decisive_keys(where, lang)
            )
        return found

    @staticmethod
    def parts(row: AlignedBlock) -> Iterator[tuple[str, Block, list[Block]]]:
        """Each version's cell of a row with the blocks it was split into (as :meth:`cells`
        takes them)."""
        extra = row.extra
        return (
            (lang, block, extra.get(lang, ()))
            for lang, block in row.cells.items()
            if block is not None
        )

    def agree(self, cells: Iterable[tuple[str, Block | Section, Sequence[Block]]]) -> bool:
        """Whether some versions' headings or blocks (each with the blocks it was split
        into) hold the same decisive keys, or fewer than two versions are given: what
        :func:`_compare_row` tells of their shares, without making them."""
        keys_of = self.keys
        first = None
        for lang, where, extra in cells:
            keys = keys_of(where, lang)
            if extra:
                keys = keys.union(*(keys_of(part, lang) for part in extra))
            if first is None:
                first = keys
            elif keys != first:
                return False
        return True

    def whole(self, block: Block, lang: str) -> Share:
        """The values of a block as a whole (none in code: another rule's business)."""
        return self._share(block, lang, _block_values)

    def _share(
        self,
        where: Block | Section,
        lang: str,
        values: Callable[[ValueComparison, Any, str], list],
    ) -> Share:
        """The share of a heading or block, made once: its keys, and ``values(comparison,
        where, lang)`` when asked for.  What makes the values holds the comparison, not
        these block values: a share kept here that led back to them would make a reference
        cycle, and every article's values would wait for the garbage collector."""
        found = self.blocks.get(id(where))
        if found is None:
            found = self.blocks[id(where)] = Share(
                self.keys(where, lang), partial(values, self.comparison, where, lang)
            )
        return found

    def of_blocks(self, blocks: Iterable[Block], lang: str) -> list:
        """The values (without their places) of some blocks, in order."""
        return [v for block in blocks for v, _ in self.whole(block, lang).pairs]

    def own(self, block: Block, lang: str) -> Share:
        """The values of a container's own text (those of the block standing before its
        children's text), their keys known at once and the values made when asked for
        (:meth:`ValueComparison.keys_before`)."""
        if block.kind not in _CONTAINER_KINDS:
            return EMPTY  # a block beside a container in its row: one of the nested rows
        size = len(own_text(block))
        if not size:
            return EMPTY
        comparison = self.comparison
        return Share(
            comparison.keys_before(block, lang, size),
            partial(_own_values, comparison, block, lang, size),
        )

    def cells(self, row: AlignedBlock) -> dict:
        """Per version of ``row``: (line, share, blocks) of its blocks as a whole."""
        return self._per_cell(row, self.whole)

    def own_cells(self, row: AlignedBlock) -> dict:
        """Per version with a cell in ``row``: (line, share, blocks) of its containers' own
        text alone."""
        return self._per_cell(row, self.own)

    @staticmethod
    def _per_cell(row: AlignedBlock, share_of: Callable[[Block, str], Share]) -> dict:
        return {
            lang: (block.line, joined([share_of(part, lang) for part in parts]), parts)
            for lang, block in row.cells.items()
            if block is not None
            for parts in [(block, *row.extra.get(lang, []))]
        }

    def nested_cells(self, row: AlignedBlock) -> dict:
        """Per version of ``row`` (those holding its content unwrapped too): (line, share,
        blocks) of what :func:`_compare_block_row` compares on nested rows."""
        found = {}
        for lang in row.cells:
            parts = row.blocks(lang)
            if parts:
                found[lang] = (parts[0].line, self.of_row(row, lang), tuple(parts))
        return found

    def of_row(self, row: AlignedBlock, lang: str) -> Share:
        """The values of version ``lang`` in ``row``: of its blocks as a whole when the
        row has no nested rows it takes part in, else its containers' own text and what it
        holds in each nested row that every version of that row has (or that is a list
        item), recursively.  The own text of a container some versions do without (its
        title) is left out: that difference is ``wrapper-mismatch``'s (the titles are
        compared among the versions that have the container, see :meth:`own_cells`)."""
        if not row.rows or lang not in row.rows[0].cells:
            return joined([self.whole(part, lang) for part in row.blocks(lang)])
        shares = []
        if row.cells.get(lang) is not None and not row.unwrapped:  # a box's title is the box's
            shares = [self.own(part, lang) for part in row.blocks(lang)]
        for nested in row.rows:
            if nested.blocks(lang) and not _lacked(nested):  # else missing-paragraph's
                shares.append(self.of_row(nested, lang))
        return joined(shares)
