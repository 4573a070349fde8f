"""Aligned things whose shape differs: table rows/columns, list items, heading levels."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align import AlignedArticle
from parallelcheck.document import BlockKind
from parallelcheck.finding import Finding
from parallelcheck.rules.base import excerpt, finding, group_by_value, join_langs, rule


def _shape_findings(rule_id, article, section, blocks, value, describe, noun) -> Iterator[Finding]:
    values = {lang: value(block) for lang, block in blocks.items()}
    reference, deviating = group_by_value(article, values)
    for langs, shape in deviating:
        lines = {lang: blocks[lang].line for lang in (*langs, *reference)}
        yield finding(
            rule_id,
            article,
            section,
            langs,
            reference,
            lines,
            f"{noun} has {describe(shape)} in {join_langs(langs)} but "
            f"{describe(values[reference[0]])} in {join_langs(reference)}",
            {
                "values": {
                    lang: list(v) if isinstance(v, tuple) else v for lang, v in values.items()
                }
            },
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


@rule("table-shape", severity="error", summary="aligned tables differ in row or column count")
def table_shape(article: AlignedArticle) -> Iterator[Finding]:
    """Aligned tables differ in their number of body rows or of columns.

    A dropped or added row, or a merged column, is reported with both shapes.  The versions
    sharing the source's shape are the reference; every other shape is one finding.
    """
    for section, blocks in _aligned_blocks(article, BlockKind.TABLE):
        yield from _shape_findings(
            "table-shape",
            article,
            section,
            blocks,
            lambda b: (b.body_rows, b.columns),
            _table_shape,
            "table",
        )


@rule("list-shape", severity="warning", summary="aligned lists differ in item count")
def list_shape(article: AlignedArticle) -> Iterator[Finding]:
    """Aligned lists differ in their number of (top-level) items.

    Translators sometimes merge or split items legitimately, hence a warning.  The versions
    sharing the source's count are the reference.
    """
    for section, blocks in _aligned_blocks(article, BlockKind.LIST):
        yield from _shape_findings(
            "list-shape",
            article,
            section,
            blocks,
            lambda b: len(b.children),
            lambda n: f"{n} item{'s' if n != 1 else ''}",
            "list",
        )


@rule("heading-level", severity="warning", summary="aligned headings differ in level")
def heading_level(article: AlignedArticle) -> Iterator[Finding]:
    """Aligned section headings have different levels (``##`` in one version, ``###`` in
    another), which changes the document's outline and table of contents."""
    for row in article.sections[1:]:
        sections = {lang: s for lang, s in row.cells.items() if s is not None}
        values = {lang: s.level for lang, s in sections.items()}
        reference, deviating = group_by_value(article, values)
        for langs, level in deviating:
            lines = {lang: sections[lang].line for lang in (*langs, *reference)}
            title = excerpt(sections[reference[0]].title)
            yield finding(
                "heading-level",
                article,
                row,
                langs,
                reference,
                lines,
                f"heading “{title}” is level {level} in {join_langs(langs)} but level "
                f"{values[reference[0]]} in {join_langs(reference)}",
                {"levels": values},
            )
