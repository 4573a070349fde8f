"""length-ratio: an aligned block far shorter or longer than the language pair's usual ratio."""

from __future__ import annotations

import statistics
from collections.abc import Iterator

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import describe_block
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.text.script import capitalises_nouns, running_length

#: A row deviates when its ratio is outside [usual / FACTOR, usual × FACTOR].
FACTOR = 2.2
#: Rows the usual ratio is learned from must number at least this many (else nothing is said)
#: and have at least MIN_LEARN characters in the source.
MIN_ROWS = 5
MIN_LEARN = 20
#: A deviating row is reported only when it matters: the source block has at least MIN_SOURCE
#: characters, and the characters missing (or added), in source terms, are at least MIN_GAP.
MIN_SOURCE = 60
MIN_GAP = 40

_PROSE = frozenset(
    {
        BlockKind.PARAGRAPH,
        BlockKind.LIST,
        BlockKind.ITEM,
        BlockKind.QUOTE,
        BlockKind.ADMONITION,
        BlockKind.TABLE,
    }
)


def text_length(block: Block, lang: str = "") -> int:
    """Characters of a block's translatable text: whitespace, code (blocks and inline), URLs,
    numbers and name-like tokens left out — they are carried over as they are, so they would
    pull every ratio towards 1."""
    return _Lengths(lang).of(block)


class _Lengths:
    """:func:`text_length` of the blocks of one version (what the version decides — whether
    its capitalised words are names — worked out once)."""

    __slots__ = ("capitalised",)

    def __init__(self, lang: str):
        self.capitalised = not capitalises_nouns(lang)

    def of(self, block: Block) -> int:
        kind = block.kind
        if kind in _NO_TEXT:
            return 0
        if kind in _CONTAINERS:
            return sum(map(self.of, block.children))
        text = block.text
        nested = 0
        if kind is _ITEM and block.children:
            for child in block.children:
                if child.text and child.text in text:
                    text = text.replace(child.text, " ", 1)
            nested = sum(map(self.of, block.children))
        return (
            running_length(text, block.code_spans, capitalised_are_names=self.capitalised) + nested
        )

    def of_cell(self, block: Block, extra: list[Block] | None) -> int:
        """The length of a row's *block* and of the *extra* blocks of a split paragraph."""
        return self.of(block) + sum(map(self.of, extra)) if extra else self.of(block)


_NO_TEXT = frozenset({BlockKind.CODE, BlockKind.HTML})
_CONTAINERS = frozenset({BlockKind.LIST, BlockKind.QUOTE, BlockKind.ADMONITION})
_ITEM = BlockKind.ITEM  # read once: an enum member read from its class costs more


@rule("length-ratio", severity="info", tags=("structure",))
def length_ratio(ctx: RuleContext) -> Iterator[Finding]:
    """An aligned block far shorter or longer than the language pair's usual ratio in the article.

    An aligned block is far shorter or longer than its language usually is against the
    source — possibly truncated, or holding something the source does not.

    The usual ratio is learned from the article itself: for each translation, the median of
    its length / the source's length over the aligned prose rows (paragraphs, lists, quotes,
    admonitions, tables; code is left out) that both have, counting characters without
    whitespace, code, URLs, numbers and names (capitalised words too, except in languages that
    capitalise every noun; every version carries them over as they are)
    and adding the further blocks of a split paragraph.  At least 5 rows with 20
    or more source characters are needed to learn it.

    A row is reported when its ratio is below the usual one divided by 2.2 or above it times
    2.2, the source block has at least 60 characters and the difference amounts to at least
    40 source characters.  Example: ``ja paragraph is 0.31× the length of en's where ja is
    usually 0.52× (possible truncation)``.
    """
    article = ctx.article
    source = article.source
    lengths = _Lengths(source)
    # the prose rows whose source is long enough (a row with a shorter source is neither
    # learned from nor reported)
    prose_rows = [
        (section, row, reference)
        for section in article.sections
        for row in section.rows
        if (theirs := row.cells.get(source)) is not None
        and theirs.kind in _PROSE
        and (reference := lengths.of_cell(theirs, row.extra.get(source))) >= MIN_LEARN
    ]
    for lang in article.langs:
        if lang == source:
            continue
        both = [
            (section, row, ours, reference)
            for section, row, reference in prose_rows
            if (ours := row.cells.get(lang)) is not None and ours.kind in _PROSE
        ]
        if len(both) < MIN_ROWS:
            continue  # too few rows to learn from, whatever their lengths: none measured
        rows = []
        lengths = _Lengths(lang)
        for section, row, ours, reference in both:
            own = lengths.of_cell(ours, row.extra.get(lang))
            if own:
                rows.append((section, row, own, reference))
        learned = [own / ref for _, _, own, ref in rows]  # each with ref ≥ MIN_LEARN
        if len(learned) < MIN_ROWS:
            continue
        usual = statistics.median(learned)
        for section, row, own, reference in rows:
            ratio = own / reference
            if usual / FACTOR <= ratio <= usual * FACTOR or reference < MIN_SOURCE:
                continue
            if abs(own / usual - reference) < MIN_GAP:
                continue
            shorter = ratio < usual
            ours, theirs = row.cells[lang], row.cells[source]
            assert ours is not None and theirs is not None
            noun = describe_block(ours).split(" “")[0]
            message = (
                f"{lang} {noun} is {ratio:.2f}× the length of {source}'s where {lang} is usually "
                f"{usual:.2f}× ({'possible truncation' if shorter else 'possible addition'})"
            )
            evidence = {
                "ratio": round(ratio, 3),
                "usual": round(usual, 3),
                "length": own,
                "source_length": reference,
            }
            yield ctx.finding(
                section,
                [lang],
                [source],
                {lang: ours.line, source: theirs.line},
                message,
                evidence,
                row=row,
            )
