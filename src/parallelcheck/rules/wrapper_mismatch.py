"""The ``wrapper-mismatch`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt, join_langs, say
from parallelcheck.rules._missing_blocks import nested_rows
from parallelcheck.rules.base import RuleContext, rule


@rule("wrapper-mismatch", severity="warning", tags=("structure",))
def wrapper_mismatch(ctx: RuleContext) -> Iterator[Finding]:
    """Some versions put content in a box (admonition, quote, component) that others write
    without it.

    Some versions hold blocks inside an admonition (``/// tip``, ``!!! note``, ``:::note``,
    ``> [!NOTE]``), a quote or an MDX component (``<Aside>``, ``<Steps>``, ``<TabItem>``)
    where the other versions have the same blocks without that container: a tip that renders
    as plain text, steps that lose their numbering style.

    Alignment decides it (``parallelcheck.align.containers``): the container's children match
    blocks the other versions have at that place, at least half of them and well enough.  Those
    blocks are then aligned with the children, so what differs inside is reported at its own
    line by the other rules and nothing is reported missing.  One finding per container: when
    the source has the container, the versions without it deviate; when the source writes the
    content without one, the versions that add it deviate.  Each location is the container's
    opening line, or the first of the blocks a version holds without it.
    """
    article = ctx.article
    for section in article.sections:
        for row in nested_rows(section.rows):
            if row.unwrapped:
                yield _finding(ctx, section, row)


def _finding(ctx: RuleContext, section: AlignedSection, row: AlignedBlock) -> Finding:
    article = ctx.article
    wrapped = row.present()
    bare = [lang for lang in row.cells if lang in row.unwrapped]
    first = next(lang for lang in article.langs if lang in wrapped or lang in bare)
    source_wraps = (article.source if article.source in row.cells else first) in wrapped
    lines = {lang: row.cells[lang].line for lang in wrapped}  # type: ignore[union-attr]
    lines.update({lang: row.unwrapped[lang][0].line for lang in bare})
    container = row.cells[wrapped[0]]
    assert container is not None
    box = _describe(container)
    if source_wraps:
        langs, reference = bare, wrapped
        message = (
            f"{box} of {join_langs(wrapped)} is missing from {join_langs(bare)}, which "
            f"{'has' if len(bare) == 1 else 'have'} its content without it"
        )
    else:
        langs, reference = wrapped, bare
        message = f"{say(wrapped, 'put')} in {box} content that {say(bare, 'have')} without it"
    evidence = {"kind": container.kind.value, "info": container.info}
    return ctx.finding(section, langs, reference, lines, message, evidence, row=row)


def _describe(block: Block) -> str:
    """‘an admonition (tip) “Title …”’, ‘a quote “…”’."""
    text = excerpt(block.text, 40)
    if block.kind is BlockKind.ADMONITION:
        return f"an admonition ({block.info or 'untyped'}) “{text}”"
    return f"a {block.kind.value} “{text}”"
