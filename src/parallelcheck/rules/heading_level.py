"""The ``heading-level`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import differing_values, excerpt, join_langs
from parallelcheck.rules.base import RuleContext, rule


def _level_differs(sections, langs, reference, level, theirs) -> str:
    return (
        f"heading “{excerpt(sections[reference[0]].title)}” is level {level} in "
        f"{join_langs(langs)} but level {theirs} in {join_langs(reference)}"
    )


@rule("heading-level", severity="warning", tags=("structure",))
def heading_level(ctx: RuleContext) -> Iterator[Finding]:
    """Aligned headings differ in level.

    Aligned section headings have different levels (``##`` in one version, ``###`` in
    another), which changes the document's outline and table of contents."""
    article = ctx.article
    for row in article.sections[1:]:
        sections = {lang: s for lang, s in row.cells.items() if s is not None}
        values = {lang: s.level for lang, s in sections.items()}
        yield from differing_values(
            ctx,
            row,
            {lang: s.line for lang, s in sections.items()},
            values,
            partial(_level_differs, sections),
            {"levels": values},
        )
