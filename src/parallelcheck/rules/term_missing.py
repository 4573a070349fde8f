"""The ``term-missing`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from parallelcheck.glossary.model import Term
from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.document import Block
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import say
from parallelcheck.rules._lines import counterpart_in
from parallelcheck.rules._terms import _Found, _in_block, _in_heading
from parallelcheck.rules.base import RuleContext, rule


@dataclass
class _Cell:
    """One version's part of an aligned row: its occurrences and where to point."""

    line: int
    blocks: list[Block]
    found: list[_Found]

    def count(self, term_id: str) -> int:
        return sum(1 for f in self.found if f.term_id == term_id)

    def lines(self, term_id: str) -> list[int]:
        return [f.line for f in self.found if f.term_id == term_id]


def _rows(ctx: RuleContext, section: AlignedSection) -> list[dict[str, _Cell]]:
    rows: list[dict[str, _Cell]] = []
    headings = {
        lang: _Cell(s.line, [], _in_heading(ctx.facts, s, lang))
        for lang, s in section.cells.items()
        if s is not None and s.level > 0
    }
    if headings:
        rows.append(headings)
    for aligned in section.rows:
        cells = {}
        for lang, block in aligned.cells.items():
            if block is None:
                continue
            blocks = [block, *aligned.extra.get(lang, [])]
            found = [f for part in blocks for f in _in_block(ctx.facts, part, lang)]
            cells[lang] = _Cell(block.line, blocks, found)
        rows.append(cells)
    return rows


def _counterpart_line(reference: _Cell, line: int, other: _Cell) -> int:
    """Where in ``other`` the occurrence at ``line`` of ``reference`` belongs: the same table
    row or list item when both blocks have the same rows or items, else the block's first
    line (:func:`~parallelcheck.rules._lines.counterpart_in`)."""
    return counterpart_in(reference.blocks, line, other.blocks, other.line)


def _lacked_occurrence(reference: _Cell, other: _Cell, term_id: str, have: int) -> int:
    """The line of the reference's first occurrence that ``other`` has no counterpart of:
    each side's occurrences are counted per element of the reference (the list item or
    table row they stand in, or their counterpart stands in; see :func:`_counterpart_line`),
    and the first element where ``other`` has fewer is the one it lacks.  When elements do
    not tell (the blocks do not have the same items or rows), the occurrence after the
    ``have`` first ones."""
    ours = reference.lines(term_id)
    if reference.blocks and other.blocks:
        theirs = Counter(
            counterpart_in(other.blocks, line, reference.blocks, reference.line)
            for line in other.lines(term_id)
        )
        for line in ours:
            element = counterpart_in(reference.blocks, line, reference.blocks, reference.line)
            if theirs[element] <= 0:
                return line
            theirs[element] -= 1
    return ours[min(have, len(ours) - 1)]


def _times(count: int) -> str:
    return {0: "not at all", 1: "once", 2: "twice"}.get(count, f"{count} times")


@rule("term-missing", severity="warning", tags=("language",), needs=("glossary",))
def term_missing(ctx: RuleContext) -> Iterator[Finding]:
    """A glossary term in one version has no approved translation in the aligned block of
    another (occurrences counted).

    A glossary term occurs fewer times in a version's aligned block than in the reference.

    For every aligned block row (a block with the blocks a version split it into) and every
    aligned heading, the reference is the source when it has the row, else the first version
    that does.  For each term the reference uses there N times, every other version must use
    one of its approved forms for that language N times too — counts, not mere presence, so
    a translation that renders one of two “PD disaggregation” differently is reported.  A
    forbidden variant or a misspelled keep term counts as an occurrence here, since
    ``term-forbidden`` / ``term-altered`` already report it.  Terms without a form for a
    version's language are not checked there.

    Keep terms (product names) are different: translations routinely replace a repeated name
    by a pronoun or leave it implicit (Japanese and Korean drop a known subject), so their
    counts say nothing.  A keep term is reported only when a version lacks it in the whole
    aligned section while the reference uses it there — once per section, at the first row
    that has it; a name translated or transliterated throughout a section is caught that way.

    Sentences move between paragraphs and block alignment can be unsure, so counts are also
    kept per aligned section, over the rows both versions have: a version short in one row
    but with the occurrences elsewhere in the section is not reported.  When the section as a
    whole is short by K occurrences, the short rows are reported in order until K missing
    occurrences are accounted for — never more than the section lacks.

    Each finding points at the reference's occurrence and at the deviating versions' aligned
    block (the same table row or list item where both are tables or lists); ``evidence``
    gives the term, the counts and the approved forms expected.
    """
    article = ctx.article
    if not ctx.glossary:
        return
    terms = ctx.glossary.by_id()
    for section in article.sections:
        rows = _rows(ctx, section)
        yield from _missing_in_section(ctx, section, rows, terms)


def _missing_in_section(
    ctx: RuleContext, section, rows, terms: dict[str, Term]
) -> Iterator[Finding]:
    article = ctx.article
    order = article.langs
    references = []
    for cells in rows:
        present = [lang for lang in order if lang in cells]
        references.append(article.source if article.source in cells else (present or [None])[0])
    remaining: dict[tuple[str, str, str], int] = {}
    for cells, reference in zip(rows, references, strict=True):
        if reference is None or len(cells) < 2:
            continue
        ref_cell = cells[reference]
        groups: dict[tuple[str, int, int], list[str]] = {}
        for term_id in dict.fromkeys(f.term_id for f in ref_cell.found):
            term = terms.get(term_id)
            if term is None:
                continue
            wanted = ref_cell.count(term_id)
            for lang in order:
                if lang == reference or lang not in cells:
                    continue
                entry = term.entry(lang)
                if entry is None or not entry.approved:
                    continue
                have = cells[lang].count(term_id)
                if have >= wanted or (term.keep is not None and have):
                    continue
                pair = (reference, lang)
                key = (reference, lang, term_id)
                if key not in remaining:
                    ours, theirs = _section_counts(rows, pair, term_id)
                    if term.keep is not None:  # names: only absence from the whole section
                        remaining[key] = 1 if ours and not theirs else 0
                    else:
                        remaining[key] = ours - theirs
                short = min(wanted - have, remaining[key])
                if short <= 0:
                    continue
                remaining[key] -= short
                if term.keep is not None:
                    short = wanted - have
                groups.setdefault((term_id, wanted, have, short), []).append(lang)
        for (term_id, wanted, have, short), langs in groups.items():
            yield _missing_finding(
                ctx, section, cells, reference, terms[term_id], (wanted, have, short), langs
            )


def _section_counts(rows, pair: tuple[str, str], term_id: str) -> tuple[int, int]:
    """How often each of two versions uses a term in a section, over the rows both have."""
    first, second = pair
    both = [cells for cells in rows if first in cells and second in cells]
    return (
        sum(cells[first].count(term_id) for cells in both),
        sum(cells[second].count(term_id) for cells in both),
    )


def _missing_finding(ctx: RuleContext, section, cells, reference, term: Term, counts, langs):
    article = ctx.article
    wanted, have, short = counts
    ref_cell = cells[reference]
    ref_line = _lacked_occurrence(ref_cell, cells[langs[0]], term.id, have)
    ref_text = next(f.text for f in ref_cell.found if f.term_id == term.id)
    lines = {reference: ref_line}
    for lang in langs:
        lines[lang] = _counterpart_line(ref_cell, ref_line, cells[lang])
    expected = {lang: list(term.entry(lang).approved) for lang in langs}  # type: ignore[union-attr]
    shown = "; ".join(
        f"{lang} “{'”/“'.join(forms)}”" if len(langs) > 1 else f"“{'”/“'.join(forms)}”"
        for lang, forms in expected.items()
    )
    agreeing = [
        lang
        for lang in article.langs
        if lang in cells and lang not in langs and term.entry(lang) is not None
    ]
    message = (
        f"{reference} uses “{ref_text}” ({term.id}) {_times(wanted)} here; "
        f"{say(langs, 'have')} {shown} {_times(have)}"
    )
    if short < wanted - have:
        moved = wanted - have - short
        message += f" ({moved} more found elsewhere in the section)"
    return ctx.finding(
        section,
        langs,
        agreeing,
        lines,
        message,
        {
            "term": term.id,
            "reference": reference,
            "reference_count": wanted,
            "counts": {lang: have for lang in langs},
            "missing": short,
            "expected": expected,
        },
    )
