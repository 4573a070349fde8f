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
whose keys differ, and for the section pools such a row asks for (:class:`Share`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from parallelcheck.model.aligned import AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import say
from parallelcheck.rules._lines import TextLines, counterpart_in
from parallelcheck.rules._value_shares import (
    BlockValues,
    OutsidePools,
    SectionPools,
    Share,
    ValuePool,
    left_out,
    line_of,
)
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

    def deciding_values(self, where: Block | Section, lang: str) -> list[tuple[V, int]]:
        """The (value, offset) pairs of :meth:`values` that :meth:`decides`, or more of them
        (all by default): what the keys of part of a block are read from
        (:meth:`~parallelcheck.rules._value_shares.BlockValues.own`), without the values
        that only excuse others when a subclass finds those slowly."""
        return self.values(where, lang)

    def keys_before(self, where: Block | Section, lang: str, size: int) -> frozenset[Hashable]:
        """The keys of the (value, offset) pairs of :meth:`deciding_values` that stand before
        offset *size* and :meth:`decides`: those of a container's own text
        (:meth:`~parallelcheck.rules._value_shares.BlockValues.own`).  A subclass may read
        them without making the values (a test compares the two)."""
        return self.keys_of(pair for pair in self.deciding_values(where, lang) if pair[1] < size)

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

    def prune(
        self, extra: list, lacking: list, ours: list, theirs: list, versions: tuple[str, str]
    ) -> tuple[list, list]:
        """Drop unmatched values not worth reporting (none by default); ``ours`` and
        ``theirs`` are all the (value, line) pairs of the two sides, ``versions`` the two
        versions' tags (ours, theirs)."""
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
        return self.in_section(self.unmatched_here(ours, theirs), section_theirs)

    def unmatched_here(self, ours: list, theirs: list) -> list:
        """The (value, line) pairs of ``ours`` that share no key with ``theirs`` (its aligned
        block) and are worth reporting (:meth:`reportable`)."""
        their_keys = {key for value, _ in theirs for key in self.keys(value)}
        left = [pair for pair in ours if their_keys.isdisjoint(self.keys(pair[0]))]
        return self.reportable(left, ours, theirs) if left else left

    def in_section(self, left: list, section_theirs: Callable[[], ValuePool[V]]) -> list:
        """The pairs of ``left`` that the section's pool, built by ``section_theirs()`` only
        when some are left, does not match either."""
        if not left:
            return left
        pool = section_theirs()
        return [(value, line) for value, line in left if not self.in_pool(value, pool)]

    def may_differ(self, extra: list, lacking: list, ours: list, theirs: list) -> bool:
        """Whether :meth:`prune` may keep something of some of ``extra`` and ``lacking`` (the
        pairs :meth:`unmatched_here` leaves: the section's pools only take some away): if
        not, the section is not looked at.  Whether they hold anything, by default."""
        return bool(extra or lacking)

    def reportable(self, left: list, ours: list, theirs: list) -> list:
        """Of the (value, line) pairs of ``ours`` that ``theirs`` leaves unmatched, those worth
        reporting if the section does not match them either (all by default).  Each pair is
        judged on its own, by ``ours`` and ``theirs``, so it is judged before the section's
        pool is looked at (a pool is then built only for what may be reported)."""
        return left


_ITEMISED = frozenset({BlockKind.TABLE, BlockKind.LIST})


def compare_values(
    ctx: RuleContext,
    comparison: ValueComparison,
    describe: Callable[[list[str], list[str], Difference, int], str],
) -> Iterator[Finding]:
    """Run the procedure of this module for one rule; ``describe`` words each finding."""
    return _Comparing(ctx, comparison, describe).findings()


class _Comparing:
    """One rule's comparison of one article: its context, how it reads and words values,
    and its blocks' values (:class:`~parallelcheck.rules._value_shares.BlockValues`)."""

    def __init__(
        self,
        ctx: RuleContext,
        comparison: ValueComparison,
        describe: Callable[[list[str], list[str], Difference, int], str],
    ):
        self.ctx = ctx
        self.comparison = comparison
        self.describe = describe
        self.values = BlockValues(comparison)

    def findings(self) -> Iterator[Finding]:
        values = self.values
        for section in self.ctx.article.sections:
            present = {lang: s for lang, s in section.cells.items() if s is not None}
            pools = SectionPools(self.comparison, present, values)
            if not values.agree((lang, s, ()) for lang, s in present.items()):  # see row()
                headings = {
                    lang: (s.line, values.heading(s, lang), ()) for lang, s in present.items()
                }
                yield from self.row(section, headings, pools)
            for row in section.rows:
                if row.unwrapped or not values.agree(values.parts(row)) or self._itemwise(row):
                    yield from self.block_row(section, row, pools)
                # (else the row agrees as a whole and has no items: nothing to report)

    def _itemwise(self, row: AlignedBlock) -> bool:
        """Whether a row that agrees as a whole may still differ in an item (see
        :meth:`items`: a table's rows, a list's items)."""
        return self.comparison.itemwise and any(
            block is not None and block.kind in _ITEMISED for block in row.cells.values()
        )

    def block_row(
        self, section: AlignedSection, row: AlignedBlock, pools: SectionPools
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
        values = self.values
        found = (
            []
            if row.unwrapped or values.agree(values.parts(row))  # (see row())
            else list(self.row(section, values.cells(row), pools, row))
        )
        if not found and self.comparison.itemwise and not row.unwrapped:
            # The block agrees as a whole: a value may still have changed in one of its items.
            items = self.items(section, row, pools)
            if items is not None:
                yield from items
                return
        if not row.rows or not (found or row.unwrapped):
            yield from found
            return
        yield from self.row(section, values.nested_cells(row), pools, row)
        if row.unwrapped:  # the titles of the boxes, among the versions that have one
            yield from self.row(section, values.own_cells(row), pools, row)
        for nested in left_out(row):  # compared among the versions that have them
            yield from self.block_row(section, nested, pools)

    def items(
        self, section: AlignedSection, row: AlignedBlock, pools: SectionPools
    ) -> list[Finding] | None:
        """The findings of a row compared item by item, or ``None`` when its blocks have no
        items every version shares (the row is then compared as a whole).

        Items are the nested rows of a list (each item's whole text), when every version of the
        row has every one of them, and the rows of a table, when every version's table has as
        many.  Each item is compared as a row of its own, and a value an item lacks is excused
        only by the version's section *outside this block* (the same value in another item of
        the block is no excuse: that is the change looked for).  The containers' own text
        (a list's lead-in) is compared as a row too.  The same difference in several items
        (the same versions, the same values) is one finding, at the first of them.

        An item without nested rows of its own whose versions' blocks hold the same decisive
        keys (:meth:`BlockValues.agree`) is passed over before its shares and pools are made:
        its shares' keys are those keys (every version has its cell, none holds it
        unwrapped), so :meth:`row` would return at once."""
        cells = {lang: block for lang, block in row.cells.items() if block is not None}
        if len(cells) < 2 or any(row.extra.get(lang) for lang in cells):
            return None
        comparison = self.comparison
        outside = OutsidePools(pools, row)
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
                    lang: (
                        block.line,
                        Share.of(comparison, per_line[lang].get(index, [])),
                        (block,),
                    )
                    for lang, block in cells.items()
                }
                found.extend(self.row(section, item, outside.item(item), row))
            return _first_of_each(found)
        if not row.rows or kinds != {BlockKind.LIST}:
            return None
        if any(nested.absent() or nested.unwrapped for nested in row.rows):
            return None
        if any(set(nested.cells) != set(cells) for nested in row.rows):
            return None
        values = self.values
        own = values.own_cells(row)
        found.extend(self.row(section, own, outside.item(own), row))
        for nested in row.rows:
            if not nested.rows and values.agree(values.parts(nested)):
                continue  # its versions agree on its keys (see the docstring)
            item = {
                lang: (parts[0].line, values.of_row(nested, lang), tuple(parts))
                for lang in cells
                for parts in [nested.blocks(lang)]
            }
            found.extend(self.row(section, item, outside.item(item), nested))
        return _first_of_each(found)

    def row(
        self,
        section: AlignedSection,
        cells: dict,
        pools: SectionPools | OutsidePools,
        row: AlignedBlock | None = None,
    ) -> Iterator[Finding]:
        """The findings of one row: *cells* holds, per version, (line, :class:`Share`, blocks).

        Versions whose shares hold the same decisive keys have nothing to report: each value
        that may be reported shares a key with a value of the other side, so nothing is left
        unmatched but values never reported (:meth:`ValueComparison.reportable` and
        :meth:`~ValueComparison.prune` only ever drop values).  The values are looked at only
        when the keys differ, and only those of the reference and of the versions whose keys
        are not the reference's (those that are agree with it; their values are looked at
        only to point at where a finding's value stands in them)."""
        article = self.ctx.article
        comparison = self.comparison
        if len(cells) < 2:
            return
        shares = {lang: cell[1] for lang, cell in cells.items()}
        first = next(iter(shares.values())).keys
        if all(share.keys == first for share in shares.values()):
            return  # the same keys everywhere (or nothing stated): nothing to differ
        order = [lang for lang in article.langs if lang in cells]
        reference = article.source if article.source in cells else order[0]
        reference_keys = shares[reference].keys
        reference_values = shares[reference].pairs
        groups: dict[Difference, list[str]] = {}
        lines: dict[str, int] = {}
        lacked: dict[Difference, list] = {}
        added: dict[Difference, int] = {}  # the line of the first deviating version's extra value
        agreeing = [reference]
        for lang in order:
            if lang == reference:
                continue
            if shares[lang].keys == reference_keys:
                agreeing.append(lang)  # the same keys: nothing to report (see above)
                continue
            values = shares[lang].pairs
            extra = comparison.unmatched_here(values, reference_values)
            lacking = comparison.unmatched_here(reference_values, values)
            if comparison.may_differ(extra, lacking, values, reference_values):
                extra = comparison.in_section(extra, pools.of(reference))
                lacking = comparison.in_section(lacking, pools.of(lang))
                extra, lacking = comparison.prune(
                    extra, lacking, values, reference_values, (lang, reference)
                )
            else:
                extra = lacking = []
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
                        for value, place in shares[lang].pairs
                        if lacked[difference] and comparison.in_pool(value, lacking_pool)
                    ),
                    None,
                )
                if found is None and difference in added:  # where the extra value would stand
                    found = _counterpart(cells, langs[0], added[difference], lang)
                where[lang] = cells[lang][0] if found is None else found
            yield self.ctx.finding(
                section,
                langs,
                agreeing,
                where,
                self.describe(langs, agreeing, difference, len(agreeing)),
                {"extra": list(difference.extra), "missing": list(difference.lacking)},
                row=row,
            )


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


def _counterpart(cells, ours: str, line: int, theirs: str) -> int:
    """The line in version ``theirs``'s cell of the element at ``line`` of version ``ours``'s
    (see :func:`~parallelcheck.rules._lines.counterpart_in`)."""
    return counterpart_in(cells[ours][2], line, cells[theirs][2], cells[theirs][0])


def quoted(values: Sequence[str]) -> str:
    return ", ".join(f"“{v}”" for v in values)


@dataclass(frozen=True)
class Wording:
    """How a value rule words a difference (:meth:`sentence`): the verb of a value changed
    into another, on both sides (``say``, ``write``); of the other versions' having a value
    the deviating ones lack (``state``, ``write``); of a deviating version's extra value
    (``state``, ``add``) and of the others' not having it (``state``, ``have``); and what
    ends the last two sentences (`` here``)."""

    changed: str
    has: str
    adds: str
    lacks: str
    end: str = " here"

    def sentence(
        self,
        langs: Sequence[str],
        agreeing: Sequence[str],
        extra: Sequence[str],
        lacking: Sequence[str],
    ) -> str:
        """``ja says “3” where en says “5”``, ``ja lacks “5”, which en states here``, ``ja
        states “3”, which en does not state here`` (with this wording's verbs)."""
        if extra and lacking:
            return (
                f"{say(langs, self.changed)} {quoted(extra)} where "
                f"{say(agreeing, self.changed)} {quoted(lacking)}"
            )
        if lacking:
            return (
                f"{say(langs, 'lack')} {quoted(lacking)}, which {say(agreeing, self.has)}{self.end}"
            )
        return (
            f"{say(langs, self.adds)} {quoted(extra)}, which {say(agreeing, 'do')} not "
            f"{self.lacks}{self.end}"
        )
