"""Blocks some versions of an aligned section lack, and where each belongs: shared by
``missing-paragraph``, ``missing-table`` and ``code-mismatch``."""

from __future__ import annotations

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import describe_block, join_langs, place_of_missing_block
from parallelcheck.rules.base import RuleContext

PROSE_KINDS = {
    BlockKind.PARAGRAPH,
    BlockKind.QUOTE,
    BlockKind.ADMONITION,
    BlockKind.HTML,
    BlockKind.LIST,
    BlockKind.ITEM,
}


def missing_blocks(article: AlignedArticle, kinds: set[BlockKind]):
    """Yield (section, row index, row, present, absent, first present block, places) for every
    aligned block row whose present blocks are of ``kinds`` and that some versions of the
    section lack; ``places`` is, per version lacking it, the line where it should be (see
    :func:`missing_block_finding`), found while walking the rows forward once."""
    for section in article.sections:
        last: dict[str, int] = {}  # per version, the line of its latest block so far
        for index, row in enumerate(section.rows):
            absent = row.absent()
            if absent:
                present = row.present()
                block = row.cells[present[0]]
                if block.kind in kinds:
                    places = {lang: _block_place(section, last, lang) for lang in absent}
                    yield section, index, row, present, absent, block, places
            for lang, cell in row.cells.items():
                if cell is not None:
                    last[lang] = cell.line


def _block_place(section: AlignedSection, last: dict[str, int], lang: str) -> int:
    """Where a block missing in ``lang`` should be: the nearest earlier aligned block that
    version has, else its section heading."""
    if lang in last:
        return last[lang]
    heading = section.cells[lang]
    return heading.line if heading is not None else 1


def missing_block_finding(
    ctx: RuleContext,
    section: AlignedSection,
    index: int,
    row: AlignedBlock,
    present: list[str],
    absent: list[str],
    block: Block,
    places: dict[str, int] | None = None,
) -> Finding:
    """The finding for a block some versions of an aligned section lack; ``places`` are the
    lines of the versions lacking it as :func:`missing_blocks` gives them (looked for from
    the row backwards when not given)."""
    lines = {lang: row.cells[lang].line for lang in present}
    if places is None:
        places = {lang: place_of_missing_block(section, index, lang) for lang in absent}
    lines.update(places)
    return ctx.finding(
        section,
        absent,
        present,
        lines,
        f"{describe_block(block)} present in {join_langs(present)} has no counterpart in "
        f"{join_langs(absent)}",
        {"kind": block.kind.value},
        row=row,
    )
