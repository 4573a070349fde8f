"""The ``missing-paragraph`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.finding import Finding
from parallelcheck.rules._missing_blocks import PROSE_KINDS, missing_block_findings
from parallelcheck.rules.base import RuleContext, rule


@rule("missing-paragraph", severity="error", tags=("structure",))
def missing_paragraph(ctx: RuleContext) -> Iterator[Finding]:
    """A paragraph, list, quote, admonition or HTML block has no counterpart.

    A paragraph, list, quote, admonition or HTML block has no counterpart in the aligned
    section of some versions.

    Blocks are aligned inside each aligned section by shared anchors (numbers, names, inline
    code, link targets), kind and share of the document's length; a block that aligns with
    nothing in a version is reported, naming the versions that have it and those that lack
    it: the versions lacking it deviate, unless the source is among them — then the versions
    that have it differ from the source (a block removed from the source after translation,
    or added by a translator).  The location in a version that lacks it is the nearest
    earlier aligned block it has, or the section heading.  Sections missing as a whole are
    reported by ``missing-section`` instead.

    Severity by size: an **error** for a block of eight words or more (a Han or kana
    character counts half a word), a **warning** for a smaller one — a label ("Type:
    ShadowRoot"), a bare image or link, a one-line lead-in ("For example:").
    """
    yield from missing_block_findings(ctx, PROSE_KINDS)
