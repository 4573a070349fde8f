"""Glossary occurrences in every heading and block, shared by the glossary rules
(``term-missing``, ``term-forbidden``, ``term-altered``).

They read the run's glossary from their context (``ctx.glossary``: the configured
``glossary:`` paths and ``--glossary``) and find terms with :mod:`parallelcheck.glossary.match`,
which documents how each script is matched.  Without a glossary they report nothing.

Where terms are looked for: headings and the text of every block except code blocks; inline
code and URLs are blanked first (``pip install lmdeploy`` is no use of the name).  Each
finding points at the line of the occurrence (a table's own row, a list's own item, a
paragraph's own line).  The
occurrences are facts of the article (:meth:`parallelcheck.facts.ArticleFacts.terms`), found
once per block whichever of the three rules asks first: each rule runs on its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from parallelcheck.facts import ArticleFacts, TermScan
from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.document import Block, Section
from parallelcheck.rules._lines import TextLines
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


def _found(scan: TermScan, text: str, where) -> list[_Found]:
    """The occurrences of a scan of *text*; ``where(offset)`` gives an offset's line."""
    found = [
        _Found(hit.term_id, text[hit.start : hit.end], where(hit.start), hit.status, hit.form)
        for hit in scan.hits
    ]
    for near in scan.altered:
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


def _in_block(facts: ArticleFacts, block: Block, lang: str) -> list[_Found]:
    scan = facts.terms(block, lang)
    if not scan.hits and not scan.altered:
        return []
    return _found(scan, block.text, TextLines(block).line)


def _in_heading(facts: ArticleFacts, section: Section, lang: str) -> list[_Found]:
    scan = facts.terms(section, lang)
    if not scan.hits and not scan.altered:
        return []
    return _found(scan, section.title, lambda _: section.line)


def _everywhere(ctx: RuleContext, status: str) -> Iterator[tuple[AlignedSection, str, _Found]]:
    """Every occurrence of a status in every version, with its aligned section."""
    article = ctx.article
    for row in article.sections:
        for lang, section in row.cells.items():
            if section is None:
                continue
            found = [f for f in _in_heading(ctx.facts, section, lang) if f.status == status]
            for block in section.blocks:
                found.extend(f for f in _in_block(ctx.facts, block, lang) if f.status == status)
            for item in found:
                yield row, lang, item
