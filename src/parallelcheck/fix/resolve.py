"""An edit made concrete: the stretch of a file's text it replaces, and with what.

An :class:`~parallelcheck.model.fix.Edit` names lines as the readers count them and the text
as the model holds it (a container's prefix aside); here it meets the file's own text — its
line breaks, its indentation, its quote markers — and becomes a :class:`Change`: offsets in
the text and the replacement, written with the file's line break.  Whatever does not hold what
the check read is refused (:class:`~parallelcheck.fix.files.CannotFix`), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from parallelcheck.fix.files import CannotFix, FileText
from parallelcheck.model.fix import COPY, LINES, SPAN, Edit

#: What a container puts before each line of what it holds: indentation and quote markers.
_CONTAINER_PREFIX = re.compile(r"[ \t>]*")
#: What stands right before a value a fix changes on a line that may hold its text elsewhere
#: too: a link or image target (Markdown, MDX, HTML), a code fence's language tag.
_OPENERS = ("](", "](<", 'href="', "href='", 'src="', "src='", "]: ", "]:", "<", "```", "~~~")


@dataclass(frozen=True)
class Change:
    """Characters ``start`` to ``end`` of a file's text become ``text``."""

    path: str
    start: int
    end: int
    text: str

    def overlaps(self, other: Change) -> bool:
        """Whether the two touch the same characters, or insert at the same place (whose
        order nothing decides)."""
        if self.path != other.path:
            return False
        if self.start == other.start:
            return True
        return self.start < other.end and other.start < self.end


def resolve(edit: Edit, files: Callable[[str], FileText]) -> Change:
    """The :class:`Change` that makes ``edit`` in its file (``files(path)`` gives the text of a
    file as the check read it); :class:`CannotFix` when the file does not hold what the edit
    expects."""
    target = files(edit.at.path)
    if edit.kind == SPAN:
        return _span(edit, target)
    if edit.kind == LINES:
        return _lines(edit, target)
    assert edit.kind == COPY and edit.copy is not None
    origin = files(edit.copy.path)
    copied = [origin.content(n) for n in range(edit.copy.line, edit.copy.end_line + 1)]
    prefix = _CONTAINER_PREFIX.match(copied[0]).group() if copied else ""
    stripped = [
        line[len(prefix) :] if line.startswith(prefix) else line.lstrip() for line in copied
    ]
    own = "" if _inserts(edit) else _CONTAINER_PREFIX.match(target.content(edit.at.line)).group()
    return _replace_lines(edit, target, stripped, own)


def _span(edit: Edit, target: FileText) -> Change:
    number = edit.at.line
    start, end, _ = target.line(number)
    line = target.text[start:end]
    if not edit.old:  # appended, before any trailing white space
        at = start + len(line.rstrip())
        return Change(target.path, at, at, edit.new)
    places = [m.start() for m in re.finditer(re.escape(edit.old), line)]
    if len(places) > 1:
        places = [p for p in places if line[:p].rstrip(" ").endswith(_OPENERS)]
    if len(places) != 1:
        found = "does not hold" if not places else "holds more than once"
        raise CannotFix(f"{target.path}:{number} {found} “{edit.old}”")
    return Change(target.path, start + places[0], start + places[0] + len(edit.old), edit.new)


def _lines(edit: Edit, target: FileText) -> Change:
    new = edit.new.split("\n")
    if _inserts(edit):
        return _replace_lines(edit, target, new, "")
    expected = edit.old.split("\n")
    numbers = range(edit.at.line, edit.at.end_line + 1)
    if len(expected) != len(numbers):
        raise CannotFix(
            f"{target.path}:{edit.at.line}: an edit of {len(numbers)} lines holds {len(expected)}"
        )
    prefix = None
    for number, wanted in zip(numbers, expected, strict=True):
        line = target.content(number)
        if not wanted.strip():
            if line.strip() and line.strip() != (prefix or "").strip():
                raise CannotFix(f"{target.path}:{number} is not the blank line the check read")
            continue
        own = line[: len(line) - len(wanted)]
        if (
            not line.endswith(wanted)
            or _CONTAINER_PREFIX.fullmatch(own) is None
            or (prefix is not None and not _same_columns(own, prefix))
        ):
            raise CannotFix(f"{target.path}:{number} does not hold what the check read there")
        prefix = own if prefix is None else prefix
    return _replace_lines(edit, target, new, prefix or "")


def _same_columns(own: str, first: str) -> bool:
    """Whether a line's prefix is the first line's, or reaches the same column with tabs
    for spaces (an indented code block may indent one line with a tab and the next with four
    spaces: Markdown's tab stops are four columns).  The lines are rewritten with the first
    line's prefix."""
    return own == first or own.expandtabs(4) == first.expandtabs(4)


def _inserts(edit: Edit) -> bool:
    return edit.at.end_line == edit.at.line - 1


def _replace_lines(edit: Edit, target: FileText, new: list[str], prefix: str) -> Change:
    """Lines ``edit.at`` of ``target`` (or the place before ``edit.at.line``) become ``new``,
    each after ``prefix`` (a blank one after the prefix's marks alone), with the file's line
    break; the break after the last replaced line stays."""
    written = [prefix + line if line.strip() else prefix.rstrip() for line in new]
    if _inserts(edit):
        count = len(target.lines)
        if edit.at.line > count + 1:
            raise CannotFix(f"{target.path} has no line {edit.at.line - 1}")
        if edit.at.line == count + 1:  # at the end of the file
            end = len(target.text)
            broken = not count or target.lines[-1][2] > target.lines[-1][1]
            lead = "" if broken else target.ending()
            return Change(
                target.path, end, end, lead + "".join(w + target.ending() for w in written)
            )
        start = target.line(edit.at.line)[0]
        break_ = target.ending(edit.at.line)
        return Change(target.path, start, start, "".join(w + break_ for w in written))
    start = target.line(edit.at.line)[0]
    end = target.line(edit.at.end_line)[1]
    return Change(target.path, start, end, target.ending(edit.at.line).join(written))
