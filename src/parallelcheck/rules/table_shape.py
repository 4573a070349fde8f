"""The ``table-shape`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import group_by_value, join_langs
from parallelcheck.rules._shapes import _aligned_blocks
from parallelcheck.rules.base import RuleContext, rule


def _table_shape(shape: tuple[int, int]) -> str:
    rows, columns = shape
    return f"{rows} row{'s' if rows != 1 else ''} × {columns} column{'s' if columns != 1 else ''}"


@rule("table-shape", severity="error", tags=("structure",))
def table_shape(ctx: RuleContext) -> Iterator[Finding]:
    """Aligned tables differ in rows or columns.

    Aligned tables differ in their number of body rows or of columns.

    A dropped or added row, or a merged column, is reported with both shapes.  The versions
    sharing the source's shape are the reference; every other shape is one finding.  A
    finding points at the first row that one table has and the other lacks when the rows
    tell it — two rows are the same row when they share a cell no other row of their table
    has in that column (a name, a number, an identifier kept as it is), and the rows before
    and after the gap are all the same rows — else at the tables' first lines.
    """
    article = ctx.article
    for section, blocks in _aligned_blocks(article, BlockKind.TABLE):
        shapes = {lang: (b.body_rows, b.columns) for lang, b in blocks.items()}
        reference, deviating = group_by_value(article, shapes)
        evidence = {"values": {lang: list(shape) for lang, shape in shapes.items()}}
        for langs, shape in deviating:
            theirs = shapes[reference[0]]
            lines = {lang: _gap_line(blocks[lang], blocks[reference[0]]) for lang in langs}
            lines.update({lang: _gap_line(blocks[lang], blocks[langs[0]]) for lang in reference})
            message = (
                f"table has {_table_shape(shape)} in {join_langs(langs)} but "
                f"{_table_shape(theirs)} in {join_langs(reference)}"
            )
            yield ctx.finding(section, langs, reference, lines, message, evidence)


def _gap_line(ours: Block, theirs: Block) -> int:
    """The line of the row of ``ours`` where its body rows and ``theirs``'s part: the first
    row one has and the other lacks (in the shorter, the row after the gap, or its last row),
    when the rows before and after the gap all match (see :func:`_same`); else the table's
    line."""
    mine, other = _body(ours), _body(theirs)
    gap = len(mine) - len(other)
    if not gap or ours.columns != theirs.columns:
        return ours.line
    longer, shorter = (mine, other) if gap > 0 else (other, mine)
    size = abs(gap)
    start = 0
    while start < len(shorter) and _same(longer[start][0], shorter[start][0]):
        start += 1
    after = all(
        _same(longer[index + size][0], shorter[index][0]) for index in range(start, len(shorter))
    )
    if not after or not (start or len(shorter) > start):  # nothing matched on either side
        return ours.line
    rows = mine
    if start < len(rows):
        return rows[start][1]
    return rows[-1][1] if rows else ours.line


def _body(block: Block) -> list[tuple[frozenset[tuple[int, str]], int]]:
    """Each body row of a table with its line: the cells that tell the row apart — (column,
    text) of a cell whose text no other row has in that column."""
    lines = block.file_lines()
    skip = 1 if block.header and block.rows else 0
    rows = [[cell.strip() for cell in row] for row in block.rows[skip:]]
    counts = Counter((column, cell) for row in rows for column, cell in enumerate(row) if cell)
    return [
        (
            frozenset(
                (column, cell)
                for column, cell in enumerate(row)
                if cell and counts[column, cell] == 1
            ),
            lines[index + skip] if index + skip < len(lines) else block.line,
        )
        for index, row in enumerate(rows)
    ]


def _same(a: frozenset, b: frozenset) -> bool:
    """Whether two rows of two versions are the same row: a cell that tells each apart is
    the very same in both (a name, a number, an identifier)."""
    return not a.isdisjoint(b)
