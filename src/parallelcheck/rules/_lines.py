"""Where an element of a block stands in its file, so that a finding points at it.

A block's ``text`` keeps its lines, and the readers record the file line of each
(:attr:`~parallelcheck.model.document.Block.text_lines`: a list item's, a table row's, a
paragraph's line after a soft break), so the line of a value found in the text is the line of
the text it sits on (:class:`TextLines`, :func:`line_in`).  A value one version states and
another lacks is pointed at in the version lacking it by :func:`counterpart`: the same list
item or table row of the aligned block, where the two blocks have the same items or rows, else
the block's first line.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.text.regexes import compile_pattern

_LINE_BREAK = compile_pattern("\n")
_CONTAINERS = frozenset({BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION})


class TextLines:
    """The file line of any character of one block's text, found by bisection over the text's
    line breaks (located once), so that the values of a table of 80,000 rows each cost a
    logarithm, not a count from the block's start."""

    __slots__ = ("block", "breaks", "lines")

    def __init__(self, block: Block):
        self.block = block
        self.breaks: list[int] | None = None  # located at the first line asked for

    def line(self, offset: int) -> int:
        """The line of ``block.text[offset]`` (``offset`` ≥ 0; one past the text: its last)."""
        breaks = self.breaks
        if breaks is None:
            block = self.block
            text = block.text
            breaks = self.breaks = (
                [match.start() for match in _LINE_BREAK.finditer(text)] if text else []
            )
            self.lines = block.file_lines() or [block.line]
        index = bisect_left(breaks, offset)
        return self.lines[min(index, len(self.lines) - 1)]


def line_in(block: Block, offset: int) -> int:
    """The file line of a character of ``block.text``."""
    return TextLines(block).line(max(offset, 0))


def counterpart(ours: Block, line: int, theirs: Block) -> int:
    """Where in ``theirs`` (the aligned block of another version) the element of ``ours`` at
    ``line`` belongs: the same table row when both tables have as many rows, the same list
    item (or inner block of a quote or admonition, and so on down) when both have as many,
    else ``theirs``'s first line."""
    if ours.kind is BlockKind.TABLE and theirs.kind is BlockKind.TABLE:
        rows, other = ours.file_lines(), theirs.file_lines()
        if not rows or len(rows) != len(other) or ours.header != theirs.header:
            return theirs.line
        return other[max(bisect_right(rows, line) - 1, 0)]
    if ours.kind in _CONTAINERS and ours.kind is theirs.kind:
        children, others = ours.children, theirs.children
        index = _child_at(children, line)
        if index is None or len(children) != len(others):
            return theirs.line  # the container's own text (an item's first paragraph), or unsure
        child, other = children[index], others[index]
        if child.kind is not other.kind:
            return other.line
        return counterpart(child, line, other)
    return theirs.line


def counterpart_in(ours: Sequence[Block], line: int, theirs: Sequence[Block], default: int) -> int:
    """:func:`counterpart` for one version's blocks of an aligned row (its block, then the
    blocks it was split into) and another's: an element of the first block has its
    counterpart in the other's first block; anything else is at ``default``."""
    if not ours or not theirs:
        return default
    first = ours[0]
    if not first.line <= line <= max(first.line, first.end_line):
        return default
    return counterpart(first, line, theirs[0])


def _child_at(children: Sequence[Block], line: int) -> int | None:
    """The index of the child whose lines hold ``line`` (``None``: before the first, or in
    none)."""
    index = bisect_right([child.line for child in children], line) - 1
    if index < 0:
        return None
    child = children[index]
    return index if line <= max(child.line, child.end_line) else None
