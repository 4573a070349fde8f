"""The ``missing-table`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._missing_blocks import missing_block_findings
from parallelcheck.rules.base import RuleContext, rule


@rule("missing-table", severity="error", tags=("structure",), fixes=("unsafe",))
def missing_table(ctx: RuleContext) -> Iterator[Finding]:
    """A table has no counterpart.

    A table has no counterpart in the aligned section of some versions.

    The message gives the table's shape (body rows × columns) as the versions that have it
    hold it.  Located like ``missing-paragraph``.

    **Fix** (unsafe, when the source has the table and the version is Markdown or MDX): the
    source's table is copied into the version after the block aligned before it, with a
    ``<!-- parallelcheck: translation needed (en) -->`` line before it (in MDX
    ``{/* parallelcheck: translation needed (en) */}``) — it is in the source's language,
    for the translator to translate (``untranslated`` reports it until then).  Only a table
    of the section itself, not one inside a list or a tip.
    """
    yield from missing_block_findings(ctx, {BlockKind.TABLE}, insert=True)
