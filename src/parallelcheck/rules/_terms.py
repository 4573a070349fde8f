"""Glossary occurrences in every heading and block, shared by the glossary rules
(``term-missing``, ``term-forbidden``, ``term-altered``).

They read the run's glossary from their context (``ctx.glossary``: the configured
``glossary:`` paths and ``--glossary``) and find terms with :mod:`parallelcheck.glossary.match`,
which documents how each script is matched.  Without a glossary they report nothing.

Where terms are looked for: headings and the text of every block except code blocks; inline
code and URLs are blanked first (``pip install lmdeploy`` is no use of the name).  Each
finding points at the line of the occurrence (a table's own row, a list's own item).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from parallelcheck.glossary.match import blank_code, cache_key, find_altered, find_terms
from parallelcheck.glossary.model import Glossary
from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.rules._common import line_in
from parallelcheck.rules.base import RuleContext


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
