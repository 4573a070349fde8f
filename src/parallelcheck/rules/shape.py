"""Aligned things whose shape differs: table rows/columns, list items, heading levels."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import differing_values, excerpt, join_langs
from parallelcheck.rules.base import RuleContext, rule


def _shape_findings(ctx: RuleContext, section, blocks, value, describe, noun) -> Iterator[Finding]:
    values = {lang: value(block) for lang, block in blocks.items()}
    yield from differing_values(
        ctx,
        section,
        {lang: block.line for lang, block in blocks.items()},
        values,
        lambda langs, reference, shape, theirs: (
            f"{noun} has {describe(shape)} in {join_langs(langs)} but "
            f"{describe(theirs)} in {join_langs(reference)}"
        ),
        {"values": {lang: list(v) if isinstance(v, tuple) else v for lang, v in values.items()}},
    )


def _aligned_blocks(article: AlignedArticle, kind: BlockKind):
    for section in article.sections:
        for row in section.rows:
            blocks = {lang: b for lang, b in row.cells.items() if b is not None and b.kind is kind}
            if len(blocks) > 1:
                yield section, blocks


def _table_shape(shape: tuple[int, int]) -> str:
    rows, columns = shape
    return f"{rows} row{'s' if rows != 1 else ''} × {columns} column{'s' if columns != 1 else ''}"


@rule("table-shape", severity="error", tags=("structure",))
def table_shape(ctx: RuleContext) -> Iterator[Finding]:
    """Aligned tables differ in rows or columns.

    Aligned tables differ in their number of body rows or of columns.

    A dropped or added row, or a merged column, is reported with both shapes.  The versions
    sharing the source's shape are the reference; every other shape is one finding.
    """
    article = ctx.article
    for section, blocks in _aligned_blocks(article, BlockKind.TABLE):
        yield from _shape_findings(
            ctx,
            section,
            blocks,
            lambda b: (b.body_rows, b.columns),
            _table_shape,
            "table",
        )


@rule("list-shape", severity="warning", tags=("structure",))
def list_shape(ctx: RuleContext) -> Iterator[Finding]:
    """Aligned lists differ in item count.

    Aligned lists differ in their number of (top-level) items.

    Translators sometimes merge or split items legitimately, hence a warning.  The versions
    sharing the source's count are the reference.
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
