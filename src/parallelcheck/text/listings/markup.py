"""Markup and Markdown in code blocks: their text is prose, their tags and script are code.

In HTML, XML, JSX/TSX, Astro, Vue and Svelte blocks, the text between tags
(``<p>Written by: {author}</p>``) is prose a translator may translate; tags, attribute names,
``{…}`` expressions and script (``<script>``, an Astro component's front matter, a JSX
component's JavaScript) are code, read as JavaScript (comments and strings).  Attribute values
are strings: translatable when they are prose (``alt="A starry night"``), compared when they
are not (``href="/guides/"``).  Text after a tag that reads as script rather than prose (it
holds ``;``, or spans lines and holds ``=`` or ``(`` — the code after a JSX ``return (…)``,
a TypeScript generic's ``Array<string> = []``) is code; ``<h1>Counter = {n}</h1>`` is prose.

A Markdown block is prose, except what a translator keeps: its YAML front matter (read as
YAML: prose values may be translated), MDX ``import`` / ``export`` lines, line-start markers
(``#``, ``-``, ``1.``, ``>``), inline code, link and image targets, tags and expressions,
and nested fenced code (read by its own language).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from parallelcheck.text.listings.languages import Syntax, javascript, syntax_of, yaml
from parallelcheck.text.listings.lexer import CODE, COMMENT, PROSE, STRING, Piece, lex
from parallelcheck.text.regexes import compile_pattern

_TEXT, _TAG, _SCRIPT = "text", "tag", "script"

_SCRIPT_STEP = compile_pattern(
    r"(?P<comment><!--[\s\S]*?-->|/\*[\s\S]*?\*/|//[^\n]*)"
    r"|(?P<string>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\[\s\S])*`)"
    r"|(?P<tag><(?=[A-Za-z/>]))|(?P<open>\{)|(?P<close>\})|(?P<code>[^<{}\"'`/]+|[\s\S])"
)
_TAG_STEP = compile_pattern(
    r"(?P<string>\"[^\"]*\"|'[^']*')|(?P<open>\{)|(?P<end>/?>)|(?P<code>[^\"'{>/]+|[\s\S])"
)
_TEXT_STEP = compile_pattern(
    r"(?P<comment><!--[\s\S]*?-->)|(?P<tag><(?=[A-Za-z/>!]))|(?P<open>\{)|(?P<close>\})"
    r"|(?P<text>[^<{}]+|[\s\S])"
)
#: Text after a tag that is script, not prose.
_SCRIPT_LIKE = compile_pattern(
    r";|[=(][\s\S]*\n|\n[\s\S]*[=(]|^\s*(?:import|export|const|let|var|function|return)\b", re.M
)
_LETTER = compile_pattern(r"[^\W\d_]")
_ENTITY = compile_pattern(r"&#?\w+;")  # &#169; &nbsp;: text, not a statement's end
_PROSE_MARKS = compile_pattern(r"\s*[¡!¿?:,.…—–«»“”„‘’·•]+[\s¡!¿?:,.…—–«»“”„‘’·•]*")
_RAW_ELEMENTS = compile_pattern(r"<(script|style)\b", re.IGNORECASE)


def markup_pieces(code: str, syntax: Syntax, start: int = 0) -> list[Piece]:
    """The pieces of an HTML/XML/JSX-like block (see the module documentation)."""
    return _Scanner(code, start, syntax, _prose_text).run(_SCRIPT)


def _prose_text(text: str, at: int) -> list[Piece]:
    """Text between tags: prose when it has letters or only prose punctuation (``¡``,
    ``!``, ``:``…), else code (a ``)`` closing a JSX expression)."""
    if not _LETTER.search(text) and not _PROSE_MARKS.fullmatch(text):
        return [Piece(CODE, text, at)]
    return [Piece(PROSE, text, at)]


class _Scanner:
    """A small state machine over markup: script, inside a tag, or text between tags;
    ``{`` … ``}`` nest (an expression returns to where it was opened)."""

    def __init__(
        self,
        code: str,
        start: int,
        syntax: Syntax,
        text: Callable[[str, int], list[Piece]],
        markdown: bool = False,
    ) -> None:
        self.code, self.start, self.syntax, self.text = code, start, syntax, text
        self.markdown = markdown
        self.pieces: list[Piece] = []

    def add(self, kind: str, text: str, at: int) -> None:
        self.pieces.append(Piece(kind, text, self.start + at))

    def run(self, state: str) -> list[Piece]:
        code, at, stack = self.code, 0, []
        raw = False  # inside <script> or <style>: what follows the tag is script
        while at < len(code):
            if state == _SCRIPT:
                m = _SCRIPT_STEP.match(code, at)
                assert m is not None
                group = m.lastgroup
                if group == "comment":
                    self.add(COMMENT, m.group(), at)
                elif group == "string":
                    self.add(STRING, m.group(), at)
                elif group == "tag":
                    raw = bool(_RAW_ELEMENTS.match(code, at))
                    state = _TAG
                    self.add(CODE, m.group(), at)
                elif group == "open":
                    stack.append(_SCRIPT)
                    self.add(CODE, "{", at)
                elif group == "close":
                    state = stack.pop() if stack else _SCRIPT
                    self.add(CODE, "}", at)
                else:
                    self.add(CODE, m.group(), at)
            elif state == _TAG:
                m = _TAG_STEP.match(code, at)
                assert m is not None
                group = m.lastgroup
                if group == "string":
                    self.add(STRING, m.group(), at)
                elif group == "open":
                    stack.append(_TAG)
                    state = _SCRIPT
                    self.add(CODE, "{", at)
                elif group == "end":
                    state = _SCRIPT if raw else _TEXT
                    raw = False
                    self.add(CODE, m.group(), at)
                else:
                    self.add(CODE, m.group(), at)
            else:
                m = _TEXT_STEP.match(code, at)
                assert m is not None
                group = m.lastgroup
                if group == "comment":
                    self.add(COMMENT, m.group(), at)
                elif group == "tag":
                    raw = bool(_RAW_ELEMENTS.match(code, at))
                    state = _TAG
                    self.add(CODE, m.group(), at)
                elif group == "open":
                    stack.append(_TEXT)
                    state = _SCRIPT
                    self.add(CODE, "{", at)
                elif group == "close":
                    state = stack.pop() if stack else _TEXT
                    self.add(CODE, "}", at)
                elif not self.markdown and _SCRIPT_LIKE.search(_ENTITY.sub("", m.group())):
                    state = _SCRIPT  # read again as script
                    continue
                else:
                    self.pieces.extend(self.text(m.group(), self.start + at))
            at = m.end()
        return self.pieces


# -- Markdown ----------------------------------------------------------------------------------

_FRONT_MATTER = compile_pattern(r"\A---[ \t]*\n([\s\S]*?\n)?---[ \t]*(?:\n|\Z)")
_FENCE = compile_pattern(r"^([ \t]*)(`{3,}|~{3,})([^\n]*)\n([\s\S]*?)^[ \t]*\2[`~]*[ \t]*$", re.M)
_MODULE_LINE = compile_pattern(r"^(?:import|export)\b[^\n]*(?:\n|\Z)", re.M)
_INLINE = compile_pattern(
    r"(?P<code>`+[^`\n]+`+)|(?P<target>\]\([^)\s]*(?:\s+\"[^\"]*\")?\))"
    r"|(?P<marker>^[ \t]*(?:#{1,6}|[-*+]|\d+[.)]|>)(?=[ \t]))"
    r"|(?P<hard>^[ \t]*(?:---+|\*\*\*+)[ \t]*$)",
    re.M,
)


def markdown_pieces(code: str, start: int = 0) -> list[Piece]:
    """The pieces of a Markdown (or MDX) block (see the module documentation)."""
    pieces: list[Piece] = []
    at = 0
    front = _FRONT_MATTER.match(code)
    if front:
        body = front.group(1) or ""
        pieces.append(Piece(CODE, "---", start))
        pieces.extend(lex(body, yaml(), start + front.start(1) if body else start))
        pieces.append(Piece(CODE, "---", start + front.end() - 4))
        at = front.end()
    for kind, begin, end, info in _regions(code, at):
        part = code[begin:end]
        if kind == "fence":
            from parallelcheck.text.listings.pieces import pieces_of  # nested: read by its language

            pieces.extend(pieces_of(part, syntax_of(info), start + begin))
        elif kind == "module":
            pieces.extend(lex(part, javascript(), start + begin))
        else:
            scanner = _Scanner(part, start + begin, javascript(), _markdown_text, markdown=True)
            pieces.extend(scanner.run(_TEXT))
    return pieces


def _regions(code: str, at: int) -> list[tuple[str, int, int, str]]:
    """Stretches of a Markdown body: ``fence`` (a nested fence's content, with its info),
    ``module`` (MDX import/export lines) and ``text``; a fence's own lines are text."""
    found: list[tuple[int, int, str, str]] = []
    for m in _FENCE.finditer(code, at):
        found.append((m.start(4), m.end(4), "fence", m.group(3).strip()))
    for m in _MODULE_LINE.finditer(code, at):
        if not any(s <= m.start() < e for s, e, _, _ in found):
            found.append((m.start(), m.end(), "module", ""))
    regions, done = [], at
    for begin, end, kind, info in sorted(found):
        if begin < done:
            continue
        if begin > done:
            regions.append(("text", done, begin, ""))
        regions.append((kind, begin, end, info))
        done = end
    if done < len(code):
        regions.append(("text", done, len(code), ""))
    return regions


def _markdown_text(text: str, at: int) -> list[Piece]:
    """Markdown prose: inline code, link targets and line-start markers are code."""
    pieces, done = [], 0
    for m in _INLINE.finditer(text):
        if m.start() > done:
            pieces.extend(_prose_text(text[done : m.start()], at + done))
        pieces.append(Piece(CODE, m.group(), at + m.start()))
        done = m.end()
    if done < len(text):
        pieces.extend(_prose_text(text[done:], at + done))
    return pieces


__all__ = ["markdown_pieces", "markup_pieces"]
