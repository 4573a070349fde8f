"""The ``heading-id`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.finding import Finding
from parallelcheck.model.fix import SAFE, SPAN, Edit, Fix, Span
from parallelcheck.rules._common import excerpt, group_by_value, join_langs, say
from parallelcheck.rules._fixes import fixable
from parallelcheck.rules.base import RuleContext, rule


@rule("heading-id", severity="warning", tags=("structure", "values"), fixes=("safe",))
def heading_id(ctx: RuleContext) -> Iterator[Finding]:
    """An aligned heading's explicit id differs from the source's, or is left out.

    An explicit heading id (``## Title { #title }`` in Markdown, ``id="…"`` on an HTML
    heading) is what links to that part of the page lead to — from other pages, from other
    sites, and from other language versions where a site keeps one id for every language.
    A version whose aligned heading has another id than the source's breaks those links; so
    does one that leaves the id out while it gives its other headings theirs.  (A version
    that writes no explicit id at all relies on ids derived from its translated titles, and
    is not reported; nor is an id the source does not have.)

    Sections are aligned by their ids; a section whose id alone differs is still aligned
    when its place, level and body say clearly that it is the same section (see
    :mod:`parallelcheck.align.progressive`), and is reported here — otherwise the two are a
    section missing from each side (``missing-section``).

    **Fix** (safe): the source's id is written in the version's heading — in place of its
    own, or appended as ``{ #id }`` when it has none.
    """
    article = ctx.article
    writes_ids = _versions_with_ids(article)
    for row in article.sections[1:]:
        cells = {lang: s for lang, s in row.cells.items() if s is not None}
        source = cells.get(article.source)
        if source is None or not source.anchor:
            continue
        ids = {
            lang: s.anchor or ""
            for lang, s in cells.items()
            if s.anchor or (lang in writes_ids and lang != article.source)
        }
        reference, deviating = group_by_value(article, ids)
        for langs, anchor in deviating:
            title = excerpt(cells[reference[0]].title)
            if anchor:
                message = (
                    f"heading “{title}” has the id “{anchor}” in {join_langs(langs)} but "
                    f"“{source.anchor}” in {join_langs(reference)}"
                )
            else:
                message = (
                    f"heading “{title}” has no id in {join_langs(langs)}; "
                    f"{say(reference, 'give')} it “{source.anchor}”"
                )
            editable = fixable(article, langs, reference)
            fix = None
            if editable:
                edits = tuple(
                    Edit(
                        Span(article.paths[lang], cells[lang].line, cells[lang].line),
                        SPAN,
                        f"#{anchor}" if anchor else "",
                        f"#{source.anchor}" if anchor else f" {{ #{source.anchor} }}",
                    )
                    for lang in editable
                )
                fix = Fix(SAFE, f"give the heading the id “{source.anchor}”", edits)
            yield ctx.finding(
                row,
                langs,
                reference,
                {lang: s.line for lang, s in cells.items() if lang in langs or lang in reference},
                message,
                {"ids": ids},
                fix=fix,
            )


def _versions_with_ids(article: AlignedArticle) -> set[str]:
    """The versions that give some heading an explicit id."""
    return {
        lang
        for row in article.sections[1:]
        for lang, s in row.cells.items()
        if s is not None and s.anchor
    }
