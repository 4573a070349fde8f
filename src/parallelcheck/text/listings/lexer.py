"""Code cut into pieces — code, comments, string literals and prose — by its language.

A :class:`Piece` is a stretch of a code block's text with its kind and its offset in the
text.  :func:`lex` reads the languages described by a comment and a string pattern list
(:class:`~parallelcheck.text.listings.languages.Syntax`); YAML, TOML and INI also have their plain
values (``title: My first post``) read as strings, and a console block's prompt lines are
read as shell commands and its other lines as their output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from parallelcheck.text.listings.languages import CONSOLE, DATA, Syntax
from parallelcheck.text.regexes import compile_pattern

CODE = "code"
COMMENT = "comment"
STRING = "string"  # a literal: its text with its quotes (or a plain YAML value, unquoted)
PROSE = "prose"  # text for people (markup text, diagram labels): may be translated


@dataclass(frozen=True)
class Piece:
    """A stretch of code of one kind, starting at offset ``start`` of the block's text."""

    kind: str
    text: str
    start: int


@cache
def _pattern(syntax: Syntax) -> re.Pattern[str]:
    comments = "|".join(syntax.comments) or "(?!)"
    strings = "|".join(syntax.strings) or "(?!)"
    return compile_pattern(f"(?P<comment>{comments})|(?P<string>{strings})", re.MULTILINE)


def lex(code: str, syntax: Syntax, start: int = 0) -> list[Piece]:
    """The pieces of ``code`` (which starts at offset ``start`` of its block) in order."""
    if syntax.family == CONSOLE:
        return _console(code, syntax, start)
    if syntax.family == DATA:
        return _data(code, syntax, start)
    return _lex(code, syntax, start)


def _lex(code: str, syntax: Syntax, start: int) -> list[Piece]:
    pieces: list[Piece] = []
    at = 0
    for match in _pattern(syntax).finditer(code):
        if match.start() > at:
            pieces.append(Piece(CODE, code[at : match.start()], start + at))
        kind = COMMENT if match.lastgroup == "comment" else STRING
        pieces.append(Piece(kind, match.group(), start + match.start()))
        at = match.end()
    if at < len(code):
        pieces.append(Piece(CODE, code[at:], start + at))
    return pieces


# -- data files: a plain value may be prose ---------------------------------------------------

#: ``key: value`` or ``key = value`` or ``- value`` with an unquoted value (not a block
#: scalar, anchor, flow collection or template).
_PLAIN_VALUE = compile_pattern(
    r"^(?P<head>[ \t]*(?:-[ \t]+)?(?:[\w.\"'-]+[ \t]*[:=][ \t]+|-[ \t]+))"
    r"(?P<value>[^\s\"'|>&*!{\[#%@`][^\n]*?)[ \t]*$"
)


def _data(code: str, syntax: Syntax, start: int) -> list[Piece]:
    pieces: list[Piece] = []
    at = 0
    for line in code.splitlines(keepends=True):
        body = line.rstrip("\n")
        match = _PLAIN_VALUE.match(body)
        value = match.group("value") if match else ""
        comment = re.search(r"(?<!\S)#", value) if value else None
        if comment:  # a comment after the value
            value = value[: comment.start()].rstrip()
        if match and value:
            head = match.group("head")
            pieces.extend(_lex(head, syntax, start + at))
            pieces.append(Piece(STRING, value, start + at + len(head)))
            rest = len(head) + len(value)
            pieces.extend(_lex(line[rest:], syntax, start + at + rest))
        else:
            pieces.extend(_lex(line, syntax, start + at))
        at += len(line)
    return pieces


# -- consoles: prompts and output --------------------------------------------------------------

_PROMPT = compile_pattern(r"^[ \t]*(?:[\w.@~:/\[\]-]*[$❯]|PS[^>\n]*>|>>>|\.\.\.)[ \t]")
_ROOT_PROMPT = compile_pattern(r"^[ \t]*#[ \t]")
_COMMENT_LINE = compile_pattern(r"^[ \t]*(?:#|//)")


def _console(code: str, syntax: Syntax, start: int) -> list[Piece]:
    """Prompt lines (``$ …``; ``# …`` too when the block has no other prompt) and their
    continuation lines are shell commands; the lines between them are output, compared as
    written, but for comment lines (``# …``, ``// …``); a block without prompts is read as
    shell.  In a command ``#`` and ``//`` start a comment at the start of a word."""
    lines = code.splitlines(keepends=True)
    prompts = [bool(_PROMPT.match(line)) for line in lines]
    if not any(prompts):
        if not any(_ROOT_PROMPT.match(line) for line in lines):
            return _lex(code, syntax, start)
        prompts = [bool(_ROOT_PROMPT.match(line)) for line in lines]
        root = True
    else:
        root = False
    pieces: list[Piece] = []
    at, command = 0, False
    for line, prompt in zip(lines, prompts, strict=True):
        if prompt:
            match = (_ROOT_PROMPT if root else _PROMPT).match(line)
            assert match is not None
            pieces.append(Piece(CODE, match.group(), start + at))
            pieces.extend(_lex(line[match.end() :], syntax, start + at + match.end()))
            command = line.rstrip().endswith("\\")
        elif command:  # a command continued
            pieces.extend(_lex(line, syntax, start + at))
            command = line.rstrip().endswith("\\")
        elif not root and _COMMENT_LINE.match(line):
            pieces.append(Piece(COMMENT, line.rstrip("\n"), start + at))
        else:
            pieces.append(Piece(CODE, line, start + at))
        at += len(line)
    return pieces
