"""Plain-text reader (``.txt``): structure inferred from an article exported without markup.

The rules, in the order they are applied:

1. **Lines.**  A line whose stripped text starts and ends with ``|`` is a *table line*.  A line
   starting with a bullet — ``•``, ``・``, ``·``, ``▪``, ``‣``, ``◦`` (space after optional),
   ``-``, ``*``, ``+`` (space after required) — or with ``1.`` / ``1)`` and a space is a
   *list line* (the numbered forms make an ordered list).  A line made only of ``-``, ``=``,
   ``*``, ``_`` or ``~`` (three or more) is a separator and ignored.  A line holding a
   suppression comment ``<!-- parallelcheck-… -->`` (docs/suppression.md) gives a directive and no
   block.  Every other non-blank line is a *text line*.

2. **Paragraph mode.**  The file *separates paragraphs by blank lines* when at least half of
   its text lines (the last line of the file aside) are followed by a blank line, or when it
   has blank lines and its long lines (40 columns or more) that run straight into another text
   line mostly do not end with sentence punctuation (hard-wrapped text).  In that mode a run
   of text lines without a blank line between them is one paragraph; otherwise (one paragraph
   per line, as the zh-Hant and ko seeds are written) every text line is its own paragraph.

3. **Lists and tables.**  Consecutive list lines form one list, one item per line (blank lines
   between items allowed; a change between bulleted and numbered starts a new list).  In the
   blank-line mode a text line directly under an item continues it.  Consecutive table lines
   form one table; a ``|---|---|`` row marks the row above it as the header and is dropped.

4. **Headings.**  A paragraph of one line is *heading-like* when it is *short* — at most 90
   display columns (CJK, Hangul and kana count two) and at most 14 words — and does not end
   (after closing quotes and brackets) with sentence or clause punctuation:
   ``. 。 ． ! ！ : ： ; ； , ， 、 … ‥ ?`` or ``？``.  A heading-like line is a heading when the
   next element is body (a paragraph that is not heading-like, a list or a table) or is itself
   a heading — so a run of short lines such as "Decision guide / FAQ / Sources" before a list
   are all headings, while short lines at the very end of the file are paragraphs.
   A short line ending in ``?`` / ``？`` that is followed by a paragraph longer than itself is
   a *question heading* (an FAQ entry).

5. **Levels.**  The first line of the file, if it is a heading, is level 1 (the title).  Other
   headings are level 2.  A question heading is one level below the nearest preceding
   heading that is not a question (so FAQ entries under a level-2 "FAQ" are level 3).

Bare ``http(s)://`` URLs in text become links.  Paragraph lines are joined with ``\\n``.

Template directives (:mod:`.directives`): a paragraph made only of directives is a code block
(``info`` ``include`` or ``directive``, the normalised directives as its text) and never a
heading; a directive inside running text is shortened to its name and kept as inline code.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from parallelcheck.model.document import Block, BlockKind, Directive, Document, Link, Section
from parallelcheck.readers._common import (
    directives_in,
    read_whole,
    set_container_text,
    set_text_lines,
)
from parallelcheck.readers.directives import only_directives, text_block
from parallelcheck.text.regexes import compile_pattern

MAX_COLUMNS = 90
MAX_WORDS = 14
LONG_LINE = 40

_BULLET = compile_pattern(r"^[ \t]*(?:([•・·▪‣◦])[ \t]*|([-*+])[ \t]+|(\d{1,3})[.)][ \t]+)(?=\S)")
_SEPARATOR = compile_pattern(r"^[ \t]*([-=*_~])\1{2,}[ \t]*$")
_TABLE_RULE = compile_pattern(r"^\s*:?-+:?\s*$")
_URL = compile_pattern(r"https?://[^\s<>\"'）」』】》]+")
_URL_TRAILING = ".,;:!?。、，．：；！？)]}"
_CLOSERS = "\"'”’」』）)]】》〉›»*_`"
_FINAL_PUNCTUATION = frozenset(".。．!！:：;；,，、…‥?？")
_QUESTION = frozenset("?？")

_TEXT, _ITEM, _TABLE = "text", "item", "table"


@dataclass
class _Line:
    number: int
    kind: str
    text: str
    ordered: bool = False


@dataclass
class _Unit:
    """A paragraph, list or table before headings are decided."""

    kind: str  # "para", "list", "table"
    lines: list[_Line] = field(default_factory=list)
    items: list[list[_Line]] = field(default_factory=list)
    ordered: bool = False


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide and full-width characters count two,
    combining marks zero."""
    width = 0
    for char in text:
        if char < "\u1100":
            if not unicodedata.combining(char):
                width += 1
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        elif not unicodedata.combining(char):
            width += 1
    return width


def _core(text: str) -> str:
    """``text`` without trailing closing quotes, brackets and emphasis marks."""
    return text.rstrip().rstrip(_CLOSERS).rstrip()


def is_short(text: str) -> bool:
    return len(text.split()) <= MAX_WORDS and display_width(text) <= MAX_COLUMNS


def is_heading_like(text: str) -> bool:
    """Short and not ending with sentence or clause punctuation (rule 4)."""
    core = _core(text)
    return bool(core) and core[-1] not in _FINAL_PUNCTUATION and is_short(text)


def is_question_like(text: str) -> bool:
    core = _core(text)
    return bool(core) and core[-1] in _QUESTION and is_short(text)


def _classify(lines: list[str], directives: list[Directive]) -> list[_Line | None]:
    """One entry per line: ``None`` for blank / ignored lines."""
    out: list[_Line | None] = []
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            out.append(None)
            continue
        if "<!--" in stripped and "parallelcheck-" in stripped:
            found = directives_in(raw, number)
            if found:
                directives.extend(found)
                rest = re.sub(r"<!--.*?-->", "", stripped).strip()
                if not rest:
                    out.append(None)
                    continue
                stripped = rest
        if len(stripped) >= 2 and stripped[0] == "|" and stripped[-1] == "|":
            out.append(_Line(number, _TABLE, stripped))
            continue
        if _SEPARATOR.match(stripped):
            out.append(None)
            continue
        match = _BULLET.match(raw)
        if match:
            out.append(_Line(number, _ITEM, raw[match.end() :].strip(), match.group(3) is not None))
            continue
        out.append(_Line(number, _TEXT, stripped))
    return out


def _blank_mode(entries: list[_Line | None]) -> bool:
    """Rule 2: does the file separate paragraphs by blank lines?"""
    texts = followed_by_blank = 0
    wrapped = run_on = 0
    has_blank = False
    last = len(entries) - 1
    while last >= 0 and entries[last] is None:
        last -= 1
    for index in range(last):
        entry = entries[index]
        if entry is None:
            has_blank = True
            continue
        if entry.kind != _TEXT:
            continue
        texts += 1
        following = entries[index + 1]
        if following is None:
            followed_by_blank += 1
        elif following.kind == _TEXT and display_width(entry.text) >= LONG_LINE:
            run_on += 1
            core = _core(entry.text)
            if core and core[-1] not in _FINAL_PUNCTUATION:
                wrapped += 1
    if texts and followed_by_blank * 2 >= texts and followed_by_blank:
        return True
    return has_blank and run_on >= 2 and wrapped * 2 > run_on


def _units(entries: list[_Line | None], blank_mode: bool) -> list[_Unit]:
    units: list[_Unit] = []
    previous: _Line | None = None  # the entry on the line just above (None when blank)
    for entry in entries:
        if entry is None:
            previous = None
            continue
        current = units[-1] if units else None
        if entry.kind == _ITEM:
            if (
                current is not None
                and current.kind == "list"
                and current.ordered == entry.ordered
                and _only_blanks_since(current, entry, entries)
            ):
                current.items.append([entry])
            else:
                units.append(_Unit("list", items=[[entry]], ordered=entry.ordered))
        elif entry.kind == _TABLE:
            if current is not None and current.kind == "table" and previous is not None:
                current.lines.append(entry)
            else:
                units.append(_Unit("table", lines=[entry]))
        elif blank_mode and previous is not None and current is not None:
            if current.kind == "list" and previous.kind in (_ITEM, _TEXT):
                current.items[-1].append(entry)
            elif current.kind == "para":
                current.lines.append(entry)
            else:
                units.append(_Unit("para", lines=[entry]))
        else:
            units.append(_Unit("para", lines=[entry]))
        previous = entry
    return units


def _only_blanks_since(unit: _Unit, entry: _Line, entries: list[_Line | None]) -> bool:
    """True when only blank lines separate ``unit``'s last item from ``entry``."""
    last = unit.items[-1][-1].number
    return all(entries[n - 1] is None for n in range(last + 1, entry.number))


def _links(text: str, line: int) -> list[Link]:
    if "://" not in text:
        return []
    links = []
    for match in _URL.finditer(text):
        target = match.group(0).rstrip(_URL_TRAILING)
        links.append(Link(target=target, line=line))
    return links


def _paragraph(unit: _Unit) -> Block:
    text = _unit_text(unit)
    first, last = unit.lines[0].number, unit.lines[-1].number
    links: list[Link] = []
    if not only_directives(text):
        for entry in unit.lines:
            links.extend(_links(entry.text, entry.number))
    block = text_block(text, first, last, links, [])
    set_text_lines(block, [entry.number for entry in unit.lines])
    return block


def _list(unit: _Unit) -> Block:
    items = []
    for lines in unit.items:
        links: list[Link] = []
        for entry in lines:
            links.extend(_links(entry.text, entry.number))
        item = Block(
            BlockKind.ITEM,
            "\n".join(entry.text for entry in lines),
            lines[0].number,
            lines[-1].number,
            links=links,
        )
        set_text_lines(item, [entry.number for entry in lines])
        items.append(item)
    block = Block(
        BlockKind.LIST, "", items[0].line, items[-1].end_line, children=items, ordered=unit.ordered
    )
    set_container_text(block)
    return block


def _split_row(text: str) -> list[str]:
    inner = text.strip()[1:-1]
    cells = re.split(r"(?<!\\)\|", inner)
    return [cell.strip().replace("\\|", "|") for cell in cells]


def _table(unit: _Unit) -> Block:
    rows: list[list[str]] = []
    header = False
    links: list[Link] = []
    row_lines: list[int] = []
    for entry in unit.lines:
        cells = _split_row(entry.text)
        if cells and all(_TABLE_RULE.match(cell) for cell in cells):
            if len(rows) == 1:
                header = True
            continue
        rows.append(cells)
        row_lines.append(entry.number)
        links.extend(_links(entry.text, entry.number))
    block = Block(
        BlockKind.TABLE,
        "\n".join("\t".join(row) for row in rows),
        unit.lines[0].number,
        unit.lines[-1].number,
        rows=rows,
        header=header,
        links=links,
    )
    set_text_lines(block, row_lines)
    return block


def _headings(units: list[_Unit]) -> list[str]:
    """Rule 4: for each unit, ``"heading"``, ``"question"`` or ``""``."""
    count = len(units)
    single = [u.kind == "para" and len(u.lines) == 1 for u in units]
    like = [
        single[i]
        and is_heading_like(units[i].lines[0].text)
        and not only_directives(units[i].lines[0].text)
        for i in range(count)
    ]
    marks = [""] * count
    for index in range(count - 1, -1, -1):
        if not single[index] or index + 1 >= count:
            continue
        text = units[index].lines[0].text
        following = units[index + 1]
        if like[index]:
            if marks[index + 1] or not like[index + 1]:
                marks[index] = "heading"
        elif (
            following.kind == "para"
            and not marks[index + 1]
            and is_question_like(text)
            and display_width(_unit_text(following)) > display_width(text)
        ):
            marks[index] = "question"
    return marks


def _unit_text(unit: _Unit) -> str:
    return "\n".join(entry.text for entry in unit.lines)


def parse_plaintext(text: str, path: str, lang: str) -> Document:
    """Read plain ``text`` (already decoded, ``\\n`` line endings) into a :class:`Document`."""
    return read_whole(text, path, lang, _parse_lines)


def _parse_lines(text: str, path: str, lang: str) -> Document:
    directives: list[Directive] = []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    entries = _classify(lines, directives)
    units = _units(entries, _blank_mode(entries))
    marks = _headings(units)
    first_line = next((entry.number for entry in entries if entry is not None), 1)

    document = Document(
        path=path,
        lang=lang,
        sections=[Section(level=0, title="", line=1)],
        directives=directives,
    )
    section = document.sections[0]
    parent_level = 1  # level of the nearest preceding non-question heading
    for unit, mark in zip(units, marks, strict=True):
        if mark:
            line = unit.lines[0]
            if mark == "question":
                level = min(parent_level + 1, 6)
            elif line.number == first_line:
                level = 1
            else:
                level = 2
            if mark == "heading":
                parent_level = level
            section = Section(
                level=level,
                title=line.text,
                line=line.number,
                links=_links(line.text, line.number),
            )
            document.sections.append(section)
        elif unit.kind == "para":
            section.blocks.append(_paragraph(unit))
        elif unit.kind == "list":
            section.blocks.append(_list(unit))
        else:
            section.blocks.append(_table(unit))
    return document


__all__ = ["display_width", "is_heading_like", "is_question_like", "parse_plaintext"]
