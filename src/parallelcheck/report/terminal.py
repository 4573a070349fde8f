"""What the two formats for a terminal (``text`` and ``full``) share: colours, the width of
text on screen, wrapping to a width, the outline of an article, and the summary line.

**Colour** (:func:`use_color`) follows the conventions of no-color.org and force-color.org,
in this order: ``--color`` / ``--no-color``; else ``NO_COLOR`` set to anything but the empty
string turns colour off; else ``FORCE_COLOR`` set to anything but the empty string turns it
on (for standard output: a report written with ``--output`` is coloured only with
``--color``); else colour is used when the report goes to a terminal that is not
``TERM=dumb``.  ``NO_COLOR`` wins over ``FORCE_COLOR`` when both are set, as in Python's own
interpreter.

**Width** (:func:`wrap`): a line is broken at spaces so that it fits the width on screen,
where an East Asian wide or full-width character takes two columns and a combining mark
none; continuation lines are indented.  A word is never cut — a path, a URL, a tag:line —
unless it holds Chinese or Japanese text, written without spaces, which is broken between
two characters as those languages break lines.  A word wider than the whole line stands
alone on its line, over the width.
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence

from parallelcheck.model.finding import Finding
from parallelcheck.model.outline import Outline
from parallelcheck.report.base import Report
from parallelcheck.report.inert import inert

_COLOURS = {"error": "31", "warning": "33", "info": "36", "dim": "2", "bold": "1", "mark": "31"}
#: The narrowest width wrapped to: a narrower terminal gets lines of this width.
MIN_WIDTH = 40
#: The indentation of a wrapped line's continuation.
INDENT = "    "


def use_color(
    flag: bool | None, environ: Mapping[str, str], *, to_terminal: bool, to_file: bool
) -> bool:
    """Whether the report is coloured (see the module's docstring): *flag* is ``--color``
    (True), ``--no-color`` (False) or neither (None); *to_terminal* says whether standard
    output is a terminal, *to_file* whether the report goes to ``--output``."""
    if flag is not None:
        return flag
    if to_file or environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    return to_terminal and environ.get("TERM") != "dumb"


def terminal_width() -> int:
    """The width of the terminal standard output writes to (``COLUMNS`` when set)."""
    return shutil.get_terminal_size().columns


class Paint:
    """ANSI colours, or nothing when *enabled* is false."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, style: str | None, text: str) -> str:
        if not self.enabled or style is None or not text:
            return text
        return f"\033[{_COLOURS[style]}m{text}\033[0m"


def display_width(text: str) -> int:
    """How many columns *text* takes on a terminal."""
    if text.isascii():
        return len(text)
    return sum(_char_width(char) for char in text)


def _char_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


#: A word of a line: its text (never broken at a space it holds) and its colour (``None``:
#: the terminal's own).
Word = tuple[str, str | None]


def words_of(text: str, style: str | None = None) -> list[Word]:
    """The words of *text*, which may be broken across lines at its spaces."""
    return [(word, style) for word in text.split(" ") if word]


def wrap(
    words: Sequence[Word],
    width: int | None,
    paint: Paint,
    *,
    first: str = "",
    indent: str = INDENT,
    keep: int = 0,
) -> list[str]:
    """*words*, separated by spaces, as lines of at most *width* columns (no limit when
    *width* is ``None``), the first line starting with *first*, the others with *indent*.
    A line breaks between words, and inside a word only between Chinese or Japanese
    characters (see the module's docstring); never within the first *keep* words, which
    stay on the first line (a finding's location, severity and rule)."""
    if width is None:
        return [first + _painted(words, paint)]
    lines = _Lines(max(width, MIN_WIDTH), display_width(first), display_width(indent))
    for index, (word, style) in enumerate(words):
        if index >= keep and not lines.fits(word):
            room = lines.room() - 1  # after a space
            head, word = _cut(word, room) if lines.current and room >= 2 else ("", word)
            if head:
                lines.add(head, style)
            if lines.current:
                lines.new_line()
            while not lines.fits(word):
                head, word = _cut(word, lines.room())
                if not head:
                    break  # a word that cannot be broken stands alone, over the width
                lines.add(head, style)
                lines.new_line()
        lines.add(word, style)
    return [(indent if i else first) + _painted(line, paint) for i, line in enumerate(lines.done)]


def _painted(words: Sequence[Word], paint: Paint) -> str:
    """*words* joined by spaces, each run of words of one colour painted once."""
    runs: list[tuple[list[str], str | None]] = []
    for word, style in words:
        if runs and runs[-1][1] == style:
            runs[-1][0].append(word)
        else:
            runs.append(([word], style))
    return " ".join(paint(style, " ".join(run)) for run, style in runs)


class _Lines:
    """The lines :func:`wrap` fills: those done and the current one."""

    def __init__(self, width: int, first: int, indent: int):
        self.width, self.indent = width, indent
        self.done: list[list[Word]] = [[]]
        self.used = first  # columns taken on the current line, its indentation included

    @property
    def current(self) -> list[Word]:
        return self.done[-1]

    def room(self) -> int:
        """Columns left on the current line."""
        return self.width - self.used

    def fits(self, word: str) -> bool:
        return display_width(word) + (1 if self.current else 0) <= self.room()

    def add(self, word: str, style: str | None) -> None:
        self.used += display_width(word) + (1 if self.current else 0)
        self.current.append((word, style))

    def new_line(self) -> None:
        self.done.append([])
        self.used = self.indent


def _cut(word: str, room: int) -> tuple[str, str]:
    """*word* split where a line may break so that the head takes at most *room* columns;
    the head is empty when no such place fits.  A line may break before or after a Chinese
    or Japanese character (not inside a Korean word, which spaces delimit), and never
    inside a path, a URL or a fragment (a word holding ``/``, ``\\`` or ``#``)."""
    if any(mark in word for mark in "/\\#"):
        return "", word
    used, cut = 0, 0
    for index, char in enumerate(word):
        used += _char_width(char)
        if used > room:
            break
        after = word[index + 1] if index + 1 < len(word) else ""
        if _breaks_beside(char) or (after and _breaks_beside(after)):
            cut = index + 1
    return word[:cut], word[cut:]


def _breaks_beside(char: str) -> bool:
    """Whether a line may break before or after *char*: a wide character that is not
    Hangul."""
    if _char_width(char) != 2:
        return False
    code = ord(char)
    return not (0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F or 0xAC00 <= code <= 0xD7AF)


def articles_with_findings(report: Report) -> Iterator[tuple[Outline, list[Finding]]]:
    """Each article that has findings (in the report's order) with its findings."""
    by_article: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    for article in report.outlines():
        if article.id in by_article:
            yield article, by_article[article.id]


def outline_lines(article: Outline, paint: Paint) -> list[str]:
    """The outline of *article*: per aligned section, how many blocks each version holds
    there (``·``: the version lacks the section); a row where versions differ is marked."""
    langs = [inert(lang) for lang in article.langs]
    width = max((len(lang) for lang in langs), default=1)  # none: no file was read
    header = " ".join(f"{lang:>{width}}" for lang in langs)
    lines = [paint("dim", f"    {header}  outline")]
    for index, row in enumerate(article.sections):
        if index == 0 and not any(s.blocks for s in row.cells.values() if s is not None):
            continue  # nothing before the first heading in any version
        counts = []
        for lang in article.langs:
            section = row.cells.get(lang)
            counts.append("·" if section is None else str(section.blocks))
        uneven = len(set(counts)) > 1
        cells = " ".join(f"{c:>{width}}" for c in counts)
        level = min((s.level for s in row.cells.values() if s is not None), default=0)
        title = article.section_title(row) or "(before the first heading)"
        if len(title) > 60:
            title = title[:59] + "…"
        title = inert(title)  # after shortening, so no escape is cut in two
        text = f"    {cells}  {'#' * level + ' ' if level else ''}{title}"
        lines.append(paint("mark", text) if uneven else text)
    return lines


def article_lines(article: Outline, paint: Paint, width: int | None) -> list[str]:
    """The line that opens an article's findings (wrapped to *width*): its id, versions and
    source."""
    versions = ", ".join(inert(lang) for lang in article.langs)
    gap: Word = ("", None)  # an empty word: two spaces after the id
    words = [(inert(article.id), "bold"), gap, *words_of(f"[{versions}; source")]
    return wrap([*words, (f"{inert(article.source)}]", None)], width, paint)


def summary_lines(
    summary: Mapping[str, int], outlines: Iterable[Outline], paint: Paint, width: int | None
) -> list[str]:
    """The last line (wrapped to *width*): findings by severity, articles and versions."""
    versions = sum(len(article.langs) for article in outlines)
    errors = f"{summary['error']} error(s),"
    words = [
        (errors, "error" if summary["error"] else None),
        *words_of(
            f"{summary['warning']} warning(s), {summary['info']} info in "
            f"{summary['articles']} article(s), {versions} version(s)"
        ),
    ]
    return wrap(words, width, paint)
