"""The glossary rules: term-missing, term-forbidden, term-altered.

They read the run's glossary from ``article.glossary`` (set by the engine from the configured
``glossary:`` paths and ``--glossary``) and find terms with :mod:`parallelcheck.glossary.match`,
which
documents how each script is matched.  Without a glossary they report nothing.

Where terms are looked for: headings and the text of every block except code blocks; inline
code and URLs are blanked first (``pip install lmdeploy`` is no use of the name).  Each
finding points at the line of the occurrence (a table's own row, a list's own item).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from parallelcheck.glossary.match import blank_code, cache_key, find_altered, find_terms
from parallelcheck.glossary.model import Glossary, Term
from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs, line_in
from parallelcheck.rules.base import RuleContext, rule


@dataclass(frozen=True)
class _Found:
    """One term occurrence in a version: which term, how written, where."""

    term_id: str
    text: str
    line: int
    status: str  # approved | forbidden | altered
    form: str = ""
    suggestion: str = ""
    how: str = ""


def _scan(text: str, code_spans: Sequence[str], lang: str, glossary: Glossary, where) -> list:
    """Every term occurrence in one text; ``where(offset)`` gives an offset's line."""
    blanked = blank_code(text, code_spans)
    found = [
        _Found(hit.term_id, text[hit.start : hit.end], where(hit.start), hit.status, hit.form)
        for hit in find_terms(blanked, lang, glossary)
    ]
    for near in find_altered(blanked, lang, glossary):
        found.append(
            _Found(
                near.term_id,
                text[near.start : near.end],
                where(near.start),
                "altered",
                suggestion=near.suggestion,
                how=near.how,
            )
        )
    return found


# The three rules scan the same blocks: remember what a text gave (keyed by everything the
# result depends on; the glossary by fingerprint, else by identity).
_SCANNED: dict[tuple, tuple[Glossary, list[_Found]]] = {}


def _remembered(key: tuple, glossary: Glossary, scan) -> list[_Found]:
    cached = _SCANNED.get(key)
    if cached is not None and (glossary.fingerprint or cached[0] is glossary):
        return cached[1]
    if len(_SCANNED) > 20_000:
        _SCANNED.clear()
    found = scan()
    _SCANNED[key] = (glossary, found)
    return found


def _in_block(block: Block, lang: str, glossary: Glossary) -> list[_Found]:
    if block.kind is BlockKind.CODE:
        return []
    spans = tuple(block.all_code_spans())
    key = (
        cache_key(glossary),
        lang,
        block.text,
        spans,
        block.kind,
        block.header,
        block.line,
        block.end_line,
    )
    return _remembered(
        key,
        glossary,
        lambda: _scan(block.text, spans, lang, glossary, lambda at: line_in(block, at)),
    )


def _in_heading(section: Section, lang: str, glossary: Glossary) -> list[_Found]:
    if section.level == 0:
        return []
    spans = tuple(section.code_spans)
    key = (cache_key(glossary), lang, section.title, spans, "heading", section.line)
    return _remembered(
        key,
        glossary,
        lambda: _scan(section.title, spans, lang, glossary, lambda _: section.line),
    )


def _everywhere(ctx: RuleContext, status: str) -> Iterator[tuple[AlignedSection, str, _Found]]:
    """Every occurrence of a status in every version, with its aligned section."""
    article = ctx.article
    glossary = ctx.glossary
    assert glossary is not None
    for row in article.sections:
        for lang, section in row.cells.items():
            if section is None:
                continue
            found = [f for f in _in_heading(section, lang, glossary) if f.status == status]
            for block in section.blocks:
                found.extend(f for f in _in_block(block, lang, glossary) if f.status == status)
            for item in found:
                yield row, lang, item


# ---------------------------------------------------------------------------
# term-forbidden


@rule("term-forbidden", severity="error", tags=("language",), needs=("glossary",))
def term_forbidden(ctx: RuleContext) -> Iterator[Finding]:
    """A glossary-forbidden variant is used (the approved form is suggested).

    A version uses a form the glossary forbids for its language.

    Forms listed under ``forbidden`` (for one language, or on the term for every language)
    are looked for in every heading and block of the version, with the same matching as
    approved forms — except that Japanese forbidden forms match on the surface only, never
    through Sudachi's normalisation.  The message and ``evidence["suggestion"]`` give the
    approved form to write instead: the keep form, or the language's first approved form.

    Example, with ``zh-Hant: {term: PD 分離, forbidden: [PD 分离]}``::

        zh-Hant.md:25  透過 DLSlime 與 Mooncake 實現的 PD 分离
        → zh-Hant writes “PD 分离”, which the glossary forbids (pd-disaggregation);
          write “PD 分離”

    The finding names only the version at fault (``reference_langs`` is empty: the glossary
    is the reference).
    """
    if not ctx.glossary:
        return
    terms = ctx.glossary.by_id()
    grouped: dict[tuple, tuple[AlignedSection, int]] = {}
    for row, lang, found in _everywhere(ctx, "forbidden"):
        key = (lang, found.line, found.term_id, found.text)
        section, count = grouped.get(key, (row, 0))
        grouped[key] = (section, count + 1)
    for (lang, line, term_id, text), (section, count) in grouped.items():
        term = terms[term_id]
        suggestion = term.suggestion(lang)
        advice = (
            f"write “{suggestion}”"
            if suggestion
            else f"the glossary gives no approved form for {lang}"
        )
        yield ctx.finding(
            section,
            [lang],
            [],
            {lang: line},
            f"{lang} writes “{text}”, which the glossary forbids ({term_id}); {advice}",
            {
                "term": term_id,
                "found": text,
                "suggestion": suggestion,
                "occurrences": count,
                "glossary": term.origin,
            },
        )


# ---------------------------------------------------------------------------
# term-altered


@rule("term-altered", severity="error", tags=("language",), needs=("glossary",))
def term_altered(ctx: RuleContext) -> Iterator[Finding]:
    """A keep-as-is name is misspelled, re-cased or split (`Deepinfer`, `LM Deploy`).

    A keep-as-is term (``keep: DeepInfer``) is written re-cased, split, joined or
    misspelled: ``Deepinfer``, ``LM Deploy``, ``Turbomind``, ``DeepInfr``, ``TensorRT LLM``.

    Keep terms must appear exactly as the glossary writes them in every version.  Near misses
    are found by comparing runs of Latin-script words of about the term's length with
    rapidfuzz (optimal string alignment on letters and digits, case folded), with these
    precision rules so that ordinary words are never reported:

    * the exact term is never reported, nor anything a glossary form matches, nor words in
      paths, identifiers, dotted names and URLs (``deepseek-ai/DeepSeek-V3``,
      ``lmdeploy.serve``), inline code or code blocks;
    * same letters, different case or spacing: reported, unless the text is an all-lower-case
      ordinary word or phrase (``ascend`` for ``Ascend``, ``micro-batch`` for
      ``MicroBatch``);
    * a misspelling: only for terms of 7 or more letters, with the same first letter and at
      most one edit (two for terms over 10 letters); an all-lower-case word is taken for an
      ordinary word (``deploy`` is not ``LMDeploy``), and the term followed by digits or a
      plural ending (``InternLM2``) for another name;
    * a keep term written in lower case itself (``llama.cpp``) is compared case and all.

    A keep term left out or translated is not found here: ``term-missing`` reports a version
    that lacks it in a whole aligned section where the reference has it.  The message and
    ``evidence["suggestion"]`` give the term as it must be written.
    """
    if not ctx.glossary:
        return
    grouped: dict[tuple, AlignedSection] = {}
    details: dict[tuple, _Found] = {}
    for row, lang, found in _everywhere(ctx, "altered"):
        key = (lang, found.line, found.term_id, found.text)
        grouped.setdefault(key, row)
        details.setdefault(key, found)
    for key, section in grouped.items():
        lang, line, term_id, text = key
        found = details[key]
        yield ctx.finding(
            section,
            [lang],
            [],
            {lang: line},
            f"{lang} writes “{text}” for the keep-as-is term “{found.suggestion}” "
            f"({found.how}); write “{found.suggestion}”",
            {"term": term_id, "found": text, "suggestion": found.suggestion, "how": found.how},
        )


# ---------------------------------------------------------------------------
# term-missing


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
    glossary = ctx.glossary
    assert glossary is not None
    rows: list[dict[str, _Cell]] = []
    headings = {
        lang: _Cell(s.line, [], _in_heading(s, lang, glossary))
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
            found = [f for part in blocks for f in _in_block(part, lang, glossary)]
            cells[lang] = _Cell(block.line, blocks, found)
        rows.append(cells)
    return rows


def _counterpart_line(reference: _Cell, line: int, other: _Cell) -> int:
    """Where in ``other`` the occurrence at ``line`` of ``reference`` belongs: the same table
    row or list item when both are tables or lists, else the block's first line."""
    if not reference.blocks or not other.blocks:
        return other.line
    ours, theirs = reference.blocks[0], other.blocks[0]
    if ours.kind is BlockKind.TABLE and theirs.kind is BlockKind.TABLE:
        return min(theirs.line + (line - ours.line), theirs.end_line)
    if ours.kind is BlockKind.LIST and theirs.kind is BlockKind.LIST:
        items = [i for i, item in enumerate(ours.children) if item.line <= line]
        if items and items[-1] < len(theirs.children):
            return theirs.children[items[-1]].line
    return other.line


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
    ref_lines = ref_cell.lines(term.id)
    ref_line = ref_lines[min(have, len(ref_lines) - 1)]
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
    verb = "has" if len(langs) == 1 else "have"
    message = (
        f"{reference} uses “{ref_text}” ({term.id}) {_times(wanted)} here; "
        f"{join_langs(langs)} {verb} {shown} {_times(have)}"
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
