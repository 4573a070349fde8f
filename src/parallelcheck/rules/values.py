"""Comparing the values (numbers, tokens) that aligned blocks state.

Both ``number-mismatch`` and ``token-mismatch`` follow one procedure, written here once:

1. For every aligned block row (and every aligned heading), each version that has the row
   contributes its values — from the block itself and from blocks it was split into.
2. Each version is compared with the *reference version* of the row: the source when it has
   the row, else the first version in the article's order.  A value of one side that the other
   side cannot match is a difference.  A value that the other version states elsewhere in the
   same aligned section does not count as missing (the sentence was moved, or block alignment
   was unsure), but a value that version states nowhere in the section is always reported.
3. Versions with the same differences form one finding; the versions agreeing with the
   reference are its ``reference_langs``.  The source is the reference because translations
   follow the source: when the source changed, every translation is named as deviating and
   the source's line is given beside theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from parallelcheck.align import AlignedArticle, AlignedSection
from parallelcheck.document import Block, BlockKind
from parallelcheck.finding import Finding
from parallelcheck.rules.base import finding, join_langs

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

    Subclasses give ``values(text, code_spans, lang)`` returning hashable value objects,
    ``matches(a, b)`` and ``show(value)``; ``counts(value)`` says whether an unmatched value is
    worth reporting (soft values only ever serve as matches).
    """

    def values(self, text: str, code_spans: Sequence[str], lang: str) -> list[V]:
        raise NotImplementedError

    def matches(self, a: V, b: V) -> bool:
        return a == b

    def show(self, value: V) -> str:
        return str(value)

    def counts(self, value: V) -> bool:
        return True

    def unmatched(self, ours: list[V], theirs: list[V], section_theirs: list[V]) -> list[V]:
        found = []
        for value in ours:
            if not self.counts(value):
                continue
            if any(self.matches(value, other) for other in theirs):
                continue
            if any(self.matches(value, other) for other in section_theirs):
                continue
            found.append(value)
        return found


def block_values(comparison: ValueComparison, blocks: Sequence[Block], lang: str) -> list:
    """The values of some blocks (code blocks have none: code is another rule's business)."""
    found = []
    for block in blocks:
        if block.kind is BlockKind.CODE:
            continue
        found.extend(comparison.values(block.text, block.all_code_spans(), lang))
    return found


def compare_values(
    rule_id: str,
    article: AlignedArticle,
    comparison: ValueComparison,
    describe: Callable[[list[str], list[str], Difference, int], str],
) -> Iterator[Finding]:
    """Run the procedure of this module for one rule; ``describe`` words each finding."""
    for section in article.sections:
        section_values = {
            lang: block_values(comparison, [b for b in s.blocks], lang)
            + comparison.values(s.title, s.code_spans, lang)
            for lang, s in section.cells.items()
            if s is not None
        }
        headings = {
            lang: (s.line, comparison.values(s.title, s.code_spans, lang))
            for lang, s in section.cells.items()
            if s is not None
        }
        yield from _compare_row(rule_id, article, section, headings, section_values, comparison,
                                describe)
        for row in section.rows:
            cells = {
                lang: (block.line, block_values(comparison, [block, *row.extra.get(lang, [])], lang))
                for lang, block in row.cells.items()
                if block is not None
            }
            yield from _compare_row(rule_id, article, section, cells, section_values, comparison,
                                    describe)


def _compare_row(rule_id, article, section: AlignedSection, cells, section_values, comparison,
                 describe) -> Iterator[Finding]:
    if len(cells) < 2:
        return
    order = [lang for lang in article.langs if lang in cells]
    reference = article.source if article.source in cells else order[0]
    _, reference_values = cells[reference]
    groups: dict[Difference, list[str]] = {}
    agreeing = [reference]
    for lang in order:
        if lang == reference:
            continue
        _, values = cells[lang]
        extra = comparison.unmatched(values, reference_values, section_values[reference])
        lacking = comparison.unmatched(reference_values, values, section_values[lang])
        difference = Difference(
            tuple(sorted({comparison.show(v) for v in extra})),
            tuple(sorted({comparison.show(v) for v in lacking})),
        )
        if difference:
            groups.setdefault(difference, []).append(lang)
        else:
            agreeing.append(lang)
    for difference, langs in groups.items():
        lines = {lang: cells[lang][0] for lang in (*langs, *agreeing)}
        yield finding(
            rule_id, article, section, langs, agreeing, lines,
            describe(langs, agreeing, difference, len(agreeing)),
            {"extra": list(difference.extra), "missing": list(difference.lacking)},
        )


def say(langs: Sequence[str], verb: str) -> str:
    """``ja says`` / ``ja, ko say``: a verb agreeing with a list of versions."""
    return f"{join_langs(langs)} {verb}{'s' if len(langs) == 1 else ''}"


def quoted(values: Sequence[str]) -> str:
    return ", ".join(f"“{v}”" for v in values)
