"""Blocks some versions of an aligned section lack, and where each belongs: shared by
``missing-paragraph``, ``missing-table`` and ``code-mismatch``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.model.fix import Fix
from parallelcheck.rules._common import describe_block, missing_sides, place_of_missing_block
from parallelcheck.rules._fixes import insertion_fix
from parallelcheck.rules._severity import missing_block_severity
from parallelcheck.rules.base import RuleContext

PROSE_KINDS = {
    BlockKind.PARAGRAPH,
    BlockKind.QUOTE,
    BlockKind.ADMONITION,
    BlockKind.HTML,
    BlockKind.LIST,
    BlockKind.ITEM,
}


#: A block row some versions lack (see :func:`missing_blocks`).
_Missing = tuple[AlignedSection, int, AlignedBlock, list[str], list[str], Block, dict[str, int]]


def missing_blocks(article: AlignedArticle) -> Iterator[_Missing]:
    """Yield (section, row index, row, present, absent, first present block, places) for every
    aligned block row (but a list item's) that some versions of the section lack; ``places``
    is, per version lacking it, the line where it should be (see
    :func:`missing_block_finding`), found while walking the rows forward once.  The empty
    cells a moved block accounts for (``article.moves``, the ``moved-block`` rule) are
    skipped.  The rules reporting missing blocks share one walk through the article's facts
    (:func:`missing_block_findings`), each taking the kinds of block it reports.

    The rows nested in containers (:attr:`AlignedBlock.rows`: a block missing inside a tip, a
    tab, a list item) are walked too, right after their container's row (see
    :func:`block_rows`); a list item some versions lack is not reported here — the item
    count is ``list-shape``'s — but the blocks inside the items all versions have are."""
    moved = {(id(m.at), lang) for m in article.moves for lang in m.langs}
    moved |= {(id(m.to), lang) for m in article.moves for lang in m.reference}
    for section in article.sections:
        for index, row, last in block_rows(section):
            absent = [lang for lang in row.absent() if (id(row), lang) not in moved]
            if absent:
                present = row.present()
                block = row.cells[present[0]]
                if block.kind is not BlockKind.ITEM:
                    places = {lang: _block_place(section, last, lang) for lang in absent}
                    yield section, index, row, present, absent, block, places


def missing_block_findings(
    ctx: RuleContext, kinds: set[BlockKind], *, insert: bool = False
) -> Iterator[Finding]:
    """A finding (:func:`missing_block_finding`) for every block of ``kinds`` some versions
    of its section lack (:func:`missing_blocks`); with ``insert``, each carries the fix that
    copies the block into the versions lacking it
    (:func:`~parallelcheck.rules._fixes.insertion_fix`), where one can be made."""
    article = ctx.article
    # walked once for the rules that ask (missing-paragraph, missing-table, code-mismatch)
    found = ctx.facts.of_article("missing blocks", lambda: list(missing_blocks(article)))
    for section, index, row, present, absent, block, places in found:
        if block.kind not in kinds:
            continue
        fix = insertion_fix(article, section, row, present, absent) if insert else None
        yield missing_block_finding(
            ctx, section, index, row, present, absent, block, places, fix=fix
        )


def nested_rows(rows: Sequence[AlignedBlock]) -> Iterator[AlignedBlock]:
    """Every aligned block row of *rows*, the rows nested in a container right after the
    container's, in document order: :func:`block_rows` without the lines."""
    for row in rows:
        yield row
        if row.rows:
            yield from nested_rows(row.rows)


def block_rows(section: AlignedSection) -> Iterator[tuple[int, AlignedBlock, dict[str, int]]]:
    """(index among its siblings, row, lines) for every aligned block row of a section, the
    rows nested in a container right after the container's, in document order; ``lines`` is,
    per version, the line of its latest block before the row (inside a container, the
    container's line before its first child; after a container, the container's line again),
    read when the row is yielded."""
    last: dict[str, int] = {}  # per version, the line of its latest block so far
    stack: list[tuple[list[AlignedBlock], int, dict[str, int]]] = [(section.rows, 0, last)]
    while stack:
        rows, index, lines = stack.pop()
        if index >= len(rows):
            continue
        row = rows[index]
        stack.append((rows, index + 1, lines))
        yield index, row, lines
        for lang, cell in row.cells.items():
            if cell is not None:
                lines[lang] = cell.line
        if row.rows:
            stack.append((row.rows, 0, dict(lines)))
        for lang, blocks in row.unwrapped.items():
            lines[lang] = blocks[-1].line


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
    fix: Fix | None = None,
) -> Finding:
    """The finding for a block some versions of an aligned section lack; ``places`` are the
    lines of the versions lacking it as :func:`missing_blocks` gives them (looked for from
    the row backwards when not given); ``fix``, the finding's fix, if any."""
    lines = {lang: row.cells[lang].line for lang in present}
    if places is None:
        places = {lang: place_of_missing_block(section, index, lang) for lang in absent}
    lines.update(places)
    langs, reference, text = missing_sides(
        ctx.article.source, present, absent, describe_block(block)
    )
    return ctx.finding(
        section,
        langs,
        reference,
        lines,
        text,
        {"kind": block.kind.value},
        row=row,
        severity=missing_block_severity(block.text) if block.kind in PROSE_KINDS else None,
        fix=fix,
    )
