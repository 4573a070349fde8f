"""Ordered lists that became part of the paragraph before them.

CommonMark lets an ordered list interrupt a paragraph only when it starts at 1.  When a version
loses the first item of a list that directly follows a paragraph, the rest (``2. …``,
``3. …``) is read as more lines of that paragraph.  Block alignment then finds, in that
version, one paragraph where the others have a paragraph and a list, and the list's row lacks
that version — which the block rules would report as a missing list.

After a section's blocks are aligned, a row that holds a list in some versions (P) and
nothing in the others (A) is folded into the row before it when that row holds a paragraph in
every version (or A's paragraph stands alone in the row after the list or before P's
paragraphs) and, in every version of A, the paragraph's lines after its first are numbered as
list items, the first of them from 2 on, no more of them than P's list has items.  The same
holds when A's paragraph was aligned with P's lists and P's paragraphs stand alone in the row
before.  The folded row pairs the paragraphs; P's lists become extra blocks of the row (see
:class:`~parallelcheck.model.aligned.AlignedBlock`), so the value rules compare P's paragraph
and list together with A's paragraph, and the ``list-shape`` rule reports the change of shape.
Split paragraphs are folded afterwards, in the stretches of rows between such rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.text.regexes import compile_pattern

_ITEM_LINE = compile_pattern(r"\s{0,3}(\d{1,9})[.)](?:\s|$)")

Row = tuple[dict[str, Any], dict[str, list[Any]]]
#: The kinds tested for every row, read once (a member read from its enum class costs a call
#: of the enum type's ``__getattr__`` hook on Python 3.11).
_PARAGRAPH, _LIST = BlockKind.PARAGRAPH, BlockKind.LIST


def numbered_lines(block: Block) -> list[tuple[int, int]]:
    """(offset of the line in the paragraph, its number) of every line after a paragraph's
    first that starts as an ordered list item does; empty unless the first of them is
    numbered 2 or more (a list starting at 1 would have interrupted the paragraph)."""
    if block.kind is not _PARAGRAPH:
        return []
    found = []
    for offset, line in enumerate(block.text.split("\n")[1:], start=1):
        match = _ITEM_LINE.match(line)
        if match:
            found.append((offset, int(match.group(1))))
    if not found or found[0][1] < 2:
        return []
    return found


def fold_swallowed_lists(rows: Sequence[Row]) -> list[Row]:
    """The rows with each list row that some versions hold inside a paragraph folded into the
    paragraph's row (see the module's documentation)."""
    if _in_step(rows):
        return list(rows)
    kept: list[Row] = []
    pending = list(rows)
    index = 0
    while index < len(pending):
        row = pending[index]
        previous = kept[-1] if kept else None
        if previous is not None:
            following = pending[index + 1] if index + 1 < len(pending) else None
            earlier = kept[-2] if len(kept) > 1 else None
            skip = drop = 0
            # Nothing aligned: A's paragraph stands in a row of its own, after the list or
            # before P's paragraphs.
            if following is not None and _alone(previous, row, following):
                previous, skip = ({**previous[0], **following[0]}, {}), 1
            elif earlier is not None and _alone(previous, row, earlier):
                previous, drop = ({**earlier[0], **previous[0]}, {}), 1
            folded = _fold(previous, row)
            if folded is not None:
                del kept[len(kept) - 1 - drop :]
                kept.append(folded)
                index += 1 + skip
                continue
        kept.append(row)
        index += 1
    return kept


def _in_step(rows: Sequence[Row]) -> bool:
    """Whether every row holds a block of every version and no extra block (most sections):
    then no row is folded.  No version lacks a block anywhere, so no paragraph stands alone
    (:func:`_alone`: the paragraphs' row and the list's share every version), and
    :func:`_fold` finds either lists in every version (none then swallowed: the row before
    holds the same versions) or paragraphs swallowing in some, whose row before would have to
    hold P's versions alone."""
    versions = len(set().union(*(column for column, _ in rows)))
    return all(len(column) == versions and not extra for column, extra in rows)


def _alone(previous: Row, row: Row, following: Row) -> bool:
    """Whether the rows are P's paragraphs, P's lists, then A's paragraphs alone."""
    before, column, after = previous[0], row[0], following[0]
    return (
        not following[1]
        and set(before) == set(column)
        and not set(after) & set(column)
        and all(f.block.kind is _PARAGRAPH for f in after.values())
    )


def _fold(previous: Row, row: Row) -> Row | None:
    column, extra = row
    before, before_extra = previous
    if extra or before_extra:
        return None
    lists = [lang for lang, f in column.items() if f.block.kind is _LIST]
    if not lists:
        return None
    if set(column) == set(lists):
        # P holds the list; A has nothing in this row and its paragraph in the row before.
        swallowing = [lang for lang in before if lang not in column]
        paragraphs = {lang: before[lang] for lang in before}
    else:
        # A's paragraph was aligned with P's lists; P's paragraphs stand alone before.
        swallowing = [lang for lang in column if lang not in lists]
        if set(before) != set(lists) or any(lang in before for lang in swallowing):
            return None
        paragraphs = {**before, **{lang: column[lang] for lang in swallowing}}
    if not swallowing or any(lang not in before for lang in lists):
        return None
    if any(f.block.kind is not _PARAGRAPH for f in paragraphs.values()):
        return None
    most = max(len(column[lang].block.children) for lang in lists)
    for lang in swallowing:
        items = numbered_lines(paragraphs[lang].block)
        if not items or len(items) > most:
            return None
    order = [*dict.fromkeys([*before, *column])]
    merged = {lang: paragraphs[lang] for lang in order if lang in paragraphs}
    return merged, {lang: [column[lang]] for lang in lists}
