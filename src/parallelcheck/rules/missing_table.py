"""The ``missing-table`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._missing_blocks import missing_block_finding, missing_blocks
from parallelcheck.rules.base import RuleContext, rule


@rule("missing-table", severity="error", tags=("structure",))
def missing_table(ctx: RuleContext) -> Iterator[Finding]:
    """A table has no counterpart.

    A table has no counterpart in the aligned section of some versions.

    The message gives the table's shape (body rows × columns) as the versions that have it
    hold it.  Located like ``missing-paragraph``.
    """
    article = ctx.article
    for args in missing_blocks(article, {BlockKind.TABLE}):
        yield missing_block_finding(ctx, *args)
