"""Comparing the values (numbers, tokens) that aligned blocks state.

Both ``number-mismatch`` and ``token-mismatch`` follow one procedure, written here once:

1. For every aligned block row (and every aligned heading), each version that has the row
   contributes its values — from the block itself and from blocks it was split into.
2. Each version is compared with the *reference version* of the row: the source when it has
   the row, else the first version in the article's order.  A value of one side that the other
   side cannot match is a difference.  A value that the other version states elsewhere in the
   same aligned section does not count as missing (the sentence was moved, or block alignment
   was unsure), but a value that version states nowhere in the section is always reported.
3. Each finding points at the line of the first differing value in every version involved
   (the table row, list item or paragraph line it stands on, not the block's first line); a
   version lacking the value is pointed at where it belongs — the same row or item of its
   aligned block when the two blocks have the same rows or items, else the block's first
   line (:mod:`parallelcheck.rules._lines`).
4. Versions with the same differences form one finding; the versions agreeing with the
   reference are its ``reference_langs``.  The source is the reference because translations
   follow the source: when the source changed, every translation is named as deviating and
   the source's line is given beside theirs.

Keys first, values when they differ: a row whose versions hold values with the same keys
(:meth:`ValueComparison.decisive_keys`) has nothing to report, whatever the values, and in
versions kept in sync that is nearly every row.  So each block's keys are read from the facts
first, and its values — with their offsets, and the values never reported that only excuse
others (``token-mismatch``'s code-like words of running text) — are worked out only for a row
whose keys differ, and for the section pools such a row asks for (:class:`_Share`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from parallelcheck.model.aligned import AlignedBlock, AlignedSection, own_text
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs
from parallelcheck.rules._lines import TextLines, counterpart_in
from parallelcheck.rules.base import RuleContext

V = TypeVar("V")


@dataclass(frozen=True)
class Difference:
    """What a version states that the reference does not (``extra``) and what it lacks."""

    extra: tuple[str, ...]
    lacking: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.extra or self.lacking)


class ValueComparison(Generic[V]):
    """How one rule reads values from text and tells whether two values match.

    Subclasses give ``values(where, lang)`` returning (value, offset in the text) pairs of a
    block or heading (its section) of version *lang*, read from the article's facts
    (``ctx.facts``), ``matches(a, b)`` and ``show(value)``; ``prune(...)`` may drop unmatched
    values that are not worth reporting on their own.
    """

    def values(self, where: Block | Section, lang: str) -> list[tuple[V, int]]:
        raise NotImplementedError

    def matches(self, a: V, b: V) -> bool:
        return a == b

    #: Whether two values match exactly when they share a key (else sharing a key is enough
    #: for a match, and values that share none are compared with :meth:`matches`).
    keys_decide = False

    #: Whether a block that agrees as a whole, and whose items every version has, is compared
    #: item by item as well (see :func:`_compare_items`): a value changed in one list item or
    #: table row is reported even when the same value stands in another item of the block.
    #: (A block that differs as a whole gives its findings as before: one per difference.)
    itemwise = False

    def occurrences(self, block: Block, lang: str) -> list[tuple[V, int]] | None:
        """Every (value, offset) at which a block's values stand, each value as often as it
        occurs, for comparing a table row by row; ``None`` when the comparison cannot tell
        (the table is then compared as a whole)."""
        return None

    def keys(self, value: V) -> Iterable[Hashable]:
        """Keys of a value: two values sharing one match (the values themselves by default;
        never none)."""
        return (value,)

    def decides(self, value: V) -> bool:
        """Whether a value left unmatched may be reported (every value by default; one that
        is never reported only matches others)."""
        return True

    def decisive_keys(self, where: Block | Section, lang: str) -> frozenset[Hashable]:
        """The keys of the values of a block or heading that :meth:`decides`: two versions
        of a row holding the same ones have nothing to report (see :func:`_compare_row`).
        Read from :meth:`values` here; a subclass reads them from the facts, without making
        the values (a test compares the two)."""
        return self.keys_of(self.values(where, lang))

    def keys_of(self, pairs: Iterable[tuple[V, object]]) -> frozenset[Hashable]:
        """The keys of the (value, place) pairs that :meth:`decides`."""
        return frozenset(
            key for value, _ in pairs if self.decides(value) for key in self.keys(value)
        )

    def show(self, value: V) -> str:
        return str(value)

    def prune(self, extra: list, lacking: list, ours: list, theirs: list) -> tuple[list, list]:
        """Drop unmatched values not worth reporting (none by default); ``ours`` and
        ``theirs`` are all the (value, line) pairs of the two sides."""
        return extra, lacking

    def pool(self, values: Iterable[V]) -> ValuePool[V]:
        """Some values gathered for matching against (a version's whole section)."""
        values = list(values)
        return ValuePool(values, {key for value in values for key in self.keys(value)})

    def in_pool(self, value: V, pool: ValuePool[V]) -> bool:
        """Whether some value of ``pool`` matches ``value``: a shared key, else (unless keys
        decide) :meth:`matches_any`."""
        if not pool.keys.isdisjoint(self.keys(value)):
            return True
        return not self.keys_decide and self.matches_any(value, pool)

    def matches_any(self, value: V, pool: ValuePool[V]) -> bool:
        """Whether :meth:`matches` holds for ``value`` and some value of ``pool`` (one by one
        here; a subclass with many values to match may index its pools instead)."""
        return any(self.matches(value, other) for other in pool.values)

    def unmatched(self, ours: list, theirs: list, section_theirs: ValuePool[V]) -> list:
        """The (value, line) pairs of ``ours`` that nothing in ``section_theirs`` (the other
        version's whole section, which holds ``theirs``, the pairs of its aligned block)
        matches."""
        return self.unmatched_lazy(ours, theirs, lambda: section_theirs)

    def unmatched_lazy(
        self, ours: list, theirs: list, section_theirs: Callable[[], ValuePool[V]]
    ) -> list:
        """:meth:`unmatched`, with the section's pool built by ``section_theirs()`` only if
        some value needs it (see :class:`SectionPools`), and without the unmatched values
        that are not worth reporting (:meth:`reportable`).

        A value sharing a key with one of ``theirs`` shares it with the section's pool, which
        holds ``theirs``, so those values are settled by the keys of ``theirs`` alone; only
        the values left (when any) are looked for in the pool.  The same pairs, in the same
        order, as asking the pool about every value.
        """
        their_keys = {key for value, _ in theirs for key in self.keys(value)}
        left = [pair for pair in ours if their_keys.isdisjoint(self.keys(pair[0]))]
        if left:
            left = self.reportable(left, ours, theirs)
        if not left:
            return left
        pool = section_theirs()
        return [(value, line) for value, line in left if not self.in_pool(value, pool)]

    def reportable(self, left: list, ours: list, theirs: list) -> list:
        """Of the (value, line) pairs of ``ours`` that ``theirs`` leaves unmatched, those worth
        reporting if the section does not match them either (all by default).  Each pair is
        judged on its own, by ``ours`` and ``theirs``, so it is judged before the section's
        pool is looked at (a pool is then built only for what may be reported)."""
        return left


@dataclass
class ValuePool(Generic[V]):
    """Values and the set of their keys, for telling quickly whether one is among them."""

    values: list[V]
    keys: set[Hashable]


class _Share:
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
    def of(cls, comparison: ValueComparison, pairs: list) -> _Share:
        """The share of some pairs already made."""
        share = cls(comparison.keys_of(pairs), list)
        share._pairs = pairs
        return share


_NO_KEYS: frozenset[Hashable] = frozenset()


def _joined(shares: list[_Share]) -> _Share:
    """Several shares as one: their keys, and their pairs one after the other."""
    if len(shares) == 1:
        return shares[0]
    return _Share(
        _NO_KEYS.union(*(share.keys for share in shares)),
        lambda: [pair for share in shares for pair in share.pairs],
    )


class _LazyPools:
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


class SectionPools(_LazyPools):
    """Each version's pool of the values of one aligned section (its heading's and all its
    blocks'), built the first time a row asks for it.

    A pool only excuses a value its version's aligned block lacks (see
    :meth:`ValueComparison.unmatched_lazy`): a row whose versions' values all share keys with
    each other never asks, and in versions kept in sync that is nearly every row, so most
    sections never build one.
    """

    def __init__(
        self, comparison: ValueComparison, sections: dict[str, Section], values: _BlockValues
    ):
        super().__init__(comparison)
        self.sections = sections
        self.values = values

    def gather(self, lang: str) -> list:
        section = self.sections[lang]
        return self.values.of_blocks(section.blocks, lang) + [
            v for v, _ in self.values.heading(section, lang).pairs
        ]


def block_values(comparison: ValueComparison, blocks: Sequence[Block], lang: str) -> list:
    """(value, place) for every value of some blocks; code blocks have none (code is another
    rule's business).  A place is the block's :class:`TextLines` and the value's offset: its
    line (:func:`line_of`) is looked up only when a finding points at it."""
    found = []
    for block in blocks:
        if block.kind is BlockKind.CODE:
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


def compare_values(
    ctx: RuleContext,
    comparison: ValueComparison,
    describe: Callable[[list[str], list[str], Difference, int], str],
) -> Iterator[Finding]:
    """Run the procedure of this module for one rule; ``describe`` words each finding."""
    article = ctx.article
    values = _BlockValues(comparison)
    for section in article.sections:
        present = {lang: s for lang, s in section.cells.items() if s is not None}
        section_values = SectionPools(comparison, present, values)
        if not values.agree((lang, s, ()) for lang, s in present.items()):  # (see _compare_row)
            headings = {lang: (s.line, values.heading(s, lang), ()) for lang, s in present.items()}
            yield from _compare_row(ctx, section, headings, section_values, comparison, describe)
        for row in section.rows:
            yield from _compare_block_row(
                ctx, section, row, values, section_values, comparison, describe
            )


def _compare_block_row(
    ctx: RuleContext,
    section: AlignedSection,
    row: AlignedBlock,
    values: _BlockValues,
    section_values: SectionPools,
    comparison: ValueComparison,
    describe,
) -> Iterator[Finding]:
    """The findings of one aligned block row, containers included.

    A row is compared as a whole first — in versions in sync that settles it, at no further
    cost.  When that finds a difference and the row's containers have their children aligned
    (:attr:`AlignedBlock.rows`), it is compared again on what the other rules leave to this
    one: the containers' own text (an item's first paragraph, a title) and the children that
    every version of their nested row has, recursively — a child only some versions have is
    ``missing-paragraph``'s (its values are not reported again here; a list item only some
    have is, as ``list-shape`` only counts items), code inside a container is
    ``code-mismatch``'s.  Each value keeps the line of the nested element it stands in, and
    the row still gives one finding per group of versions; a nested row some versions lack
    is compared on its own among those that have it.  A row holding content some
    versions write without the container (``unwrapped``) is compared that way at once, those
    versions' blocks included, and the containers' titles among the versions that have
    them."""
    found = (
        []
        if row.unwrapped or values.agree(values.parts(row))  # (see _compare_row)
        else list(
            _compare_row(ctx, section, values.cells(row), section_values, comparison, describe, row)
        )
    )
    if not found and comparison.itemwise and not row.unwrapped:
        # The block agrees as a whole: a value may still have changed in one of its items.
        items = _compare_items(ctx, section, row, values, section_values, comparison, describe)
        if items is not None:
            yield from items
            return
    if not row.rows or not (found or row.unwrapped):
        yield from found
        return
    yield from _compare_row(
        ctx, section, values.nested_cells(row), section_values, comparison, describe, row
    )
    if row.unwrapped:  # the titles of the boxes, among the versions that have one
        yield from _compare_row(
            ctx, section, values.own_cells(row), section_values, comparison, describe, row
        )
    for nested in _left_out(row):  # compared among the versions that have them
        yield from _compare_block_row(
            ctx, section, nested, values, section_values, comparison, describe
        )


def _compare_items(
    ctx: RuleContext,
    section: AlignedSection,
    row: AlignedBlock,
    values: _BlockValues,
    section_values: SectionPools,
    comparison: ValueComparison,
    describe,
) -> list[Finding] | None:
    """The findings of a row compared item by item, or ``None`` when its blocks have no
    items every version shares (the row is then compared as a whole).

    Items are the nested rows of a list (each item's whole text), when every version of the
    row has every one of them, and the rows of a table, when every version's table has as
    many.  Each item is compared as a row of its own, and a value an item lacks is excused
    only by the version's section *outside this block* (the same value in another item of
    the block is no excuse: that is the change looked for).  The containers' own text
    (a list's lead-in) is compared as a row too.  The same difference in several items
    (the same versions, the same values) is one finding, at the first of them."""
    cells = {lang: block for lang, block in row.cells.items() if block is not None}
    if len(cells) < 2 or any(row.extra.get(lang) for lang in cells):
        return None
    outside = _OutsidePools(section_values, row)
    kinds = {block.kind for block in cells.values()}
    found: list[Finding] = []
    if kinds == {BlockKind.TABLE}:
        sizes = {block.text.count("\n") for block in cells.values()}
        if len(sizes) != 1 or not sizes.pop():
            return None
        per_line = {}
        for lang, block in cells.items():
            found_at = comparison.occurrences(block, lang)
            if found_at is None:
                return None
            lines = TextLines(block)
            per_line[lang] = _by_line(block, [(v, (lines, at)) for v, at in found_at])
        for index in sorted({index for lines in per_line.values() for index in lines}):
            item = {
                lang: (block.line, _Share.of(comparison, per_line[lang].get(index, [])), (block,))
                for lang, block in cells.items()
            }
            found.extend(
                _compare_row(ctx, section, item, outside.item(item), comparison, describe, row)
            )
        return _first_of_each(found)
    if not row.rows or kinds != {BlockKind.LIST}:
        return None
    if any(nested.absent() or nested.unwrapped for nested in row.rows):
        return None
    if any(set(nested.cells) != set(cells) for nested in row.rows):
        return None
    own = values.own_cells(row)
    found.extend(_compare_row(ctx, section, own, outside.item(own), comparison, describe, row))
    for nested in row.rows:
        item = {
            lang: (parts[0].line, values.of_row(nested, lang), tuple(parts))
            for lang in cells
            for parts in [nested.blocks(lang)]
        }
        found.extend(
            _compare_row(ctx, section, item, outside.item(item), comparison, describe, nested)
        )
    return _first_of_each(found)


def _first_of_each(found: list[Finding]) -> list[Finding]:
    """The findings of a row's items, each difference once (the first item stating it)."""
    seen = set()
    kept = []
    for finding in found:
        key = (finding.langs, finding.reference_langs, finding.message)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    return kept


def _by_line(block: Block, pairs: list) -> dict[int, list]:
    """A table's value pairs by the line of its text (its row) they stand on."""
    breaks = [at for at, ch in enumerate(block.text) if ch == "\n"] if pairs else []
    grouped: dict[int, list] = {}
    for value, place in pairs:
        offset = place[1] if isinstance(place, tuple) else 0
        grouped.setdefault(bisect_left(breaks, offset), []).append((value, place))
    return grouped


class _OutsidePools:
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

    def item(self, cells: dict) -> _ItemPools:
        """The pools for comparing one item (its cells as :func:`_compare_row` takes them)."""
        return _ItemPools(self, cells)


class _ItemPools(_LazyPools):
    """Per version, a pool of one item's values and those outside its block row, built when
    :func:`_compare_row` first asks for it (the item's own values: the pool must hold them,
    see :meth:`ValueComparison.unmatched_lazy`)."""

    def __init__(self, outside: _OutsidePools, cells: dict):
        super().__init__(outside.pools.comparison)
        self.outside = outside
        self.cells = cells

    def gather(self, lang: str) -> list:
        return [v for v, _ in self.cells[lang][1].pairs] + self.outside.outside(lang)


def _left_out(row: AlignedBlock) -> Iterator[AlignedBlock]:
    """The nested rows :meth:`_BlockValues.of_row` leaves out of ``row``'s comparison (some
    versions lack them), at any depth, in order."""
    for nested in row.rows:
        if _lacked(nested):
            yield nested
        else:
            yield from _left_out(nested)


def _lacked(row: AlignedBlock) -> bool:
    """Whether some versions lack a nested row that a block rule reports (not a list item)."""
    return bool(row.absent()) and not any(
        c is not None and c.kind is BlockKind.ITEM for c in row.cells.values()
    )


_CONTAINER_KINDS = frozenset(
    {BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION}
)
_EMPTY = _Share(_NO_KEYS, list)


class _BlockValues:
    """The values of an article's blocks at any depth, as :class:`_Share`s of one version:
    a block's as a whole, a container's own text's apart (see
    :func:`~parallelcheck.model.aligned.own_text`), and those of a row's cells; each block's
    worked out once."""

    def __init__(self, comparison: ValueComparison):
        self.comparison = comparison
        self.known: dict[int, frozenset[Hashable]] = {}
        self.blocks: dict[int, _Share] = {}

    def heading(self, section: Section, lang: str) -> _Share:
        """The values of a section's heading, each at the heading's line."""
        found = self.blocks.get(id(section))
        if found is None:
            comparison = self.comparison
            found = self.blocks[id(section)] = _Share(
                self.keys(section, lang),
                lambda: [(v, section.line) for v, _ in comparison.values(section, lang)],
            )
        return found

    def keys(self, where: Block | Section, lang: str) -> frozenset[Hashable]:
        """The decisive keys of a heading or of a block as a whole (none in code: another
        rule's business)."""
        found = self.known.get(id(where))
        if found is None:
            found = self.known[id(where)] = (
                _NO_KEYS
                if isinstance(where, Block) and where.kind is BlockKind.CODE
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

    def whole(self, block: Block, lang: str) -> _Share:
        found = self.blocks.get(id(block))
        if found is None:
            comparison = self.comparison
            found = self.blocks[id(block)] = _Share(
                self.keys(block, lang),
                (lambda: block_values(comparison, [block], lang))
                if block.kind is not BlockKind.CODE  # code is another rule's business
                else list,
            )
        return found

    def of_blocks(self, blocks: Iterable[Block], lang: str) -> list:
        """The values (without their places) of some blocks, in order."""
        return [v for block in blocks for v, _ in self.whole(block, lang).pairs]

    def own(self, block: Block, lang: str) -> _Share:
        if block.kind not in _CONTAINER_KINDS:
            return _EMPTY  # a block beside a container in its row: one of the nested rows
        size = len(own_text(block))
        pairs = self.comparison.values(block, lang) if size else ()
        if not pairs:
            return _EMPTY
        lines = TextLines(block)
        own = [(value, (lines, offset)) for value, offset in pairs if offset < size]
        return _Share.of(self.comparison, own)

    def cells(self, row: AlignedBlock) -> dict:
        """Per version of ``row``: (line, share, blocks) of its blocks as a whole."""
        return {
            lang: (block.line, _joined([self.whole(part, lang) for part in parts]), parts)
            for lang, block in row.cells.items()
            if block is not None
            for parts in [(block, *row.extra.get(lang, []))]
        }

    def own_cells(self, row: AlignedBlock) -> dict:
        """Per version with a cell in ``row``: (line, share, blocks) of its containers' own
        text alone."""
        return {
            lang: (block.line, _joined([self.own(part, lang) for part in parts]), parts)
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

    def of_row(self, row: AlignedBlock, lang: str) -> _Share:
        """The values of version ``lang`` in ``row``: of its blocks as a whole when the
        row has no nested rows it takes part in, else its containers' own text and what it
        holds in each nested row that every version of that row has (or that is a list
        item), recursively.  The own text of a container some versions do without (its
        title) is left out: that difference is ``wrapper-mismatch``'s (the titles are
        compared among the versions that have the container, see :meth:`own_cells`)."""
        if not row.rows or lang not in row.rows[0].cells:
            return _joined([self.whole(part, lang) for part in row.blocks(lang)])
        shares = []
        if row.cells.get(lang) is not None and not row.unwrapped:  # a box's title is the box's
            shares = [self.own(part, lang) for part in row.blocks(lang)]
        for nested in row.rows:
            if nested.blocks(lang) and not _lacked(nested):  # else missing-paragraph's
                shares.append(self.of_row(nested, lang))
        return _joined(shares)


def _compare_row(
    ctx: RuleContext,
    section: AlignedSection,
    cells,
    section_values: SectionPools,
    comparison,
    describe,
    row: AlignedBlock | None = None,
) -> Iterator[Finding]:
    """The findings of one row: *cells* holds, per version, (line, :class:`_Share`, blocks).

    Versions whose shares hold the same decisive keys have nothing to report: each value
    that may be reported shares a key with a value of the other side, so nothing is left
    unmatched but values never reported (:meth:`ValueComparison.reportable` and
    :meth:`~ValueComparison.prune` only ever drop values).  The values are looked at only
    when the keys differ."""
    article = ctx.article
    if len(cells) < 2:
        return
    shares = [cell[1] for cell in cells.values()]
    if all(share.keys == shares[0].keys for share in shares):
        return  # the same keys everywhere (or nothing stated): nothing to differ
    pairs = {lang: cell[1].pairs for lang, cell in cells.items()}
    order = [lang for lang in article.langs if lang in cells]
    reference = article.source if article.source in cells else order[0]
    reference_values = pairs[reference]
    groups: dict[Difference, list[str]] = {}
    lines: dict[str, int] = {}
    lacked: dict[Difference, list] = {}
    added: dict[Difference, int] = {}  # the line of the first deviating version's extra value
    agreeing = [reference]
    for lang in order:
        if lang == reference:
            continue
        values = pairs[lang]
        extra = comparison.unmatched_lazy(values, reference_values, section_values.of(reference))
        lacking = comparison.unmatched_lazy(reference_values, values, section_values.of(lang))
        extra, lacking = comparison.prune(extra, lacking, values, reference_values)
        if not extra and not lacking:
            agreeing.append(lang)
            continue
        difference = Difference(
            tuple(sorted({comparison.show(v) for v, _ in extra})),
            tuple(sorted({comparison.show(v) for v, _ in lacking})),
        )
        groups.setdefault(difference, []).append(lang)
        if extra:
            lines[lang] = line_of(extra[0][1])
            added.setdefault(difference, lines[lang])
        else:  # where the first value it lacks stands in the reference
            lines[lang] = _counterpart(cells, reference, line_of(lacking[0][1]), lang)
        lacked.setdefault(difference, [value for value, _ in lacking])
    for difference, langs in groups.items():
        where = {lang: lines.get(lang, cells[lang][0]) for lang in langs}
        lacking_pool = comparison.pool(lacked[difference])
        for lang in agreeing:  # point at the value the deviating versions lack, if any
            found = next(
                (
                    line_of(place)
                    for value, place in pairs[lang]
                    if lacked[difference] and comparison.in_pool(value, lacking_pool)
                ),
                None,
            )
            if found is None and difference in added:  # where the extra value would stand
                found = _counterpart(cells, langs[0], added[difference], lang)
            where[lang] = cells[lang][0] if found is None else found
        yield ctx.finding(
            section,
            langs,
            agreeing,
            where,
            describe(langs, agreeing, difference, len(agreeing)),
            {"extra": list(difference.extra), "missing": list(difference.lacking)},
            row=row,
        )


def _counterpart(cells, ours: str, line: int, theirs: str) -> int:
    """The line in version ``theirs``'s cell of the element at ``line`` of version ``ours``'s
    (see :func:`~parallelcheck.rules._lines.counterpart_in`)."""
    return counterpart_in(cells[ours][2], line, cells[theirs][2], cells[theirs][0])


def say(langs: Sequence[str], verb: str) -> str:
    """``ja says`` / ``ja, ko say``: a verb agreeing with a list of versions."""
    return f"{join_langs(langs)} {verb}{'s' if len(langs) == 1 else ''}"


def quoted(values: Sequence[str]) -> str:
    return ", ".join(f"“{v}”" for v in values)
