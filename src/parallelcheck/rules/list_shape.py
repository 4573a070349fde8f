"""The ``list-shape`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align.swallowed_lists import numbered_lines
from parallelcheck.model.aligned import AlignedBlock, AlignedSection
from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs
from parallelcheck.rules._shapes import _aligned_blocks, _shape_findings
from parallelcheck.rules.base import RuleContext, rule


@rule("list-shape", severity="warning", tags=("structure",))
def list_shape(ctx: RuleContext) -> Iterator[Finding]:
    """Aligned lists differ in item count, or a list is part of a paragraph in some versions.

    Aligned lists differ in their number of (top-level) items.

    Translators sometimes merge or split items legitimately, hence a warning.  The versions
    sharing the source's count are the reference.

    A list whose first item was deleted right after a paragraph is no list any more: an
    ordered list must start at 1 to interrupt a paragraph, so its remaining items (``2. …``)
    are read as lines of the paragraph before it.  Alignment pairs that paragraph with the
    other versions' paragraph and list together; the finding points, in the versions where
    the list became part of the paragraph, at its first remaining item, and in the others at
    the list.  Restoring the first item (or a blank line before the list) makes it a list
    again.
    """
    article = ctx.article
    for section, blocks in _aligned_blocks(article, BlockKind.LIST):
        yield from _shape_findings(
            ctx,
            section,
            blocks,
            lambda b: len(b.children),
            lambda n: f"{n} item{'s' if n != 1 else ''}",
            "list",
        )
    for section in article.sections:
        for row in section.rows:
            if row.extra:
                yield from _swallowed(ctx, section, row)


def _swallowed(ctx: RuleContext, section: AlignedSection, row: AlignedBlock) -> Iterator[Finding]:
    """The finding for a row whose lists some versions hold as lines of the paragraph."""
    lists = {
        lang: parts[0]
        for lang, parts in row.extra.items()
        if len(parts) == 1 and parts[0].kind is BlockKind.LIST
    }
    if not lists:
        return
    swallowed = {}
    for lang in row.present():
        if lang in lists:
            continue
        items = numbered_lines(row.cells[lang])
        if items:
            swallowed[lang] = items
    if not swallowed:
        return
    article = ctx.article
    langs = [lang for lang in article.langs if lang in swallowed]
    reference = [lang for lang in article.langs if lang in lists]
    lines = {lang: block.line for lang, block in lists.items()}
    lines.update({lang: row.cells[lang].line + items[0][0] for lang, items in swallowed.items()})
    first = swallowed[langs[0]][0][1]
    counts = {lang: len(block.children) for lang, block in lists.items()}
    theirs = counts[reference[0]]
    yield ctx.finding(
        section,
        langs,
        reference,
        lines,
        f"the list ({theirs} item{'s' * (theirs != 1)}) of {join_langs(reference)} is part of "
        f"the paragraph before it in {join_langs(langs)}: its items start at “{first}.”, and an "
        f"ordered list that does not start at 1 cannot interrupt a paragraph (its first item "
        f"is missing)",
        {
            "kind": "list-in-paragraph",
            "values": {
                **counts,
                **{lang: len(items) for lang, items in swallowed.items()},
            },
        },
        row=row,
    )
