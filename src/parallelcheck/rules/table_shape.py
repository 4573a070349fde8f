"""The ``table-shape`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._shapes import _aligned_blocks, _shape_findings
from parallelcheck.rules.base import RuleContext, rule


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
