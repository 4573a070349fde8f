"""The ``list-shape`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._shapes import _aligned_blocks, _shape_findings
from parallelcheck.rules.base import RuleContext, rule


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
