"""The comparable form of a code block: its code tokens, and where its comments are.

Pieces (:mod:`.pieces`) become tokens: code is cut into words and single punctuation marks,
so white space never matters (``{width, height}`` ≡ ``{ width, height }``); a placeholder is
one token of its kind (``<file>`` ≡ ``<fichier>``, ``{{branch_name}}`` ≡ ``{{브랜치_이름}}``,
``$VAR`` in shell-like languages), compared by position, not text; a string literal is one
token: ``""`` when it is prose a translator may translate, its text (placeholders as kinds)
when it is not; a language tag (``lang="fr"`` for ``lang="en"``) is compared as one.
Strings are never prose in shell-like languages (they are a command's
arguments).  Comments and prose leave no token; each comment is remembered by the number of
code tokens on the lines before its own, so a comment added or dropped can be told from one
rewrapped over more lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from parallelcheck.text.langtag import language_of_name
from parallelcheck.text.listings.languages import (
    CONSOLE,
    DIRECTIVE,
    PLAIN,
    SHELL,
    Syntax,
    console,
    syntax_of,
)
from parallelcheck.text.listings.lexer import CODE, COMMENT, STRING
from parallelcheck.text.listings.pieces import pieces_of
from parallelcheck.text.regexes import compile_pattern

_PLACEHOLDERS = {
    "angle": r"<[^\W\d_][\w .-]*>",
    "braces": r"\{\{\s*[^\W\d][\w .-]*?\s*\}\}",
    "dollar": r"\$\{[^\W\d][\w]*\}|\$[^\W\d][\w]*",
}
_KINDS = {"angle": "<…>", "braces": "{{…}}", "dollar": "$…"}
_WORD = r"\w+|[^\w\s]"

#: What makes a string code rather than prose: a URL or path, an identifier's underscore, an
#: assignment, a variable, markup, a command's glue, an e-mail address, a leading option, a
#: dotted name.
_CODE_LIKE = compile_pattern(r"[/\\_=$<>|&;@`^~]|^\s*-|\w\.\w|\{[^}]*[^\w}\s][^}]*\}")
_FORMAT = compile_pattern(r"\$?\{[\w.]*\}|%[-+ #0]*\d*(?:\.\d+)?[sdifxr]")
_NON_ASCII_LETTER = compile_pattern(r"[^\W\d_a-zA-Z]")
_WORD_RUN = compile_pattern(r"[^\W\d_]{2,}")
_CAPITALISED = compile_pattern(r"[A-Z][a-z]+")
PROSE_STRING = '""'
_WORDLIKE_END = compile_pattern(r"\w$")
_WORDLIKE_START = compile_pattern(r"\w")
LANGUAGE_STRING = '"<language>"'
_SHORT_TAG = compile_pattern(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
#: A string of plain lower-case words: a value, or prose.
_WORDY = compile_pattern(r'"[a-z]+(?:[ -][a-z]+)*"')
_PROMPTED = compile_pattern(r"^[ \t]*\$[ \t]+\S", re.MULTILINE)
_STRING_PARTS = compile_pattern(r"^([A-Za-z]{0,2})(\"\"\"|'''|[\"'`]?)([\s\S]*?)\2$")


@dataclass(frozen=True)
class CodeForm:
    """A code block's comparable form (see the module documentation)."""

    #: The code tokens, in order.
    tokens: tuple[str, ...]
    #: The line (0-based, in the block's text) of each token.
    token_lines: tuple[int, ...]
    #: The offset of each token in the block's text.
    token_starts: tuple[int, ...]
    #: The offset just past each token in the block's text (a token as written is
    #: ``text[start:end]``; its form may differ: a prose string is ``""``).
    token_ends: tuple[int, ...]
    #: One per comment: (the number of code tokens on the lines before it, its first line).
    comments: tuple[tuple[int, int], ...]
    #: Whether its names may be an example's, a translator's to rename (not in a command).
    renamable: bool = False

    @property
    def skeleton(self) -> str:
        """The tokens as one text: a space only between two words (``{width,height}``)."""
        parts: list[str] = []
        for token in self.tokens:
            if parts and _WORDLIKE_END.search(parts[-1]) and _WORDLIKE_START.match(token):
                parts.append(" ")
            parts.append(token)
        return "".join(parts)

    def matches(self, other: CodeForm) -> bool:
        """Whether two forms have the same code, token by token (see :func:`compatible`;
        equal tokens always are: the commonest case, told at once)."""
        if self.tokens == other.tokens:
            return True
        return len(self.tokens) == len(other.tokens) and all(
            compatible(a, b) for a, b in zip(self.tokens, other.tokens, strict=True)
        )

    def written(self, text: str, index: int) -> str:
        """Token *index* as *text* (the block's text) writes it."""
        return text[self.token_starts[index] : self.token_ends[index]]

    def first_difference(self, other: CodeForm) -> int:
        """The index of the first token where two forms part (the shorter's length when one
        is the other's beginning)."""
        for i, (a, b) in enumerate(zip(self.tokens, other.tokens, strict=False)):
            if not compatible(a, b):
                return i
        return min(len(self.tokens), len(other.tokens))

    def comment_positions(self) -> tuple[int, ...]:
        """Where comments stand among the tokens, each place once (a comment over several
        lines, or several comment lines in a row, stand in one place)."""
        return tuple(sorted({position for position, _ in self.comments}))


def code_form(code: str, info: str = "") -> CodeForm:
    """The comparable form of a code block with info string ``info``."""
    syntax = syntax_for(code, info)
    breaks = [i for i, ch in enumerate(code) if ch == "\n"]
    tokens: list[str] = []
    lines: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    comments: list[tuple[int, int]] = []
    for token, start, end in code_tokens(code, syntax):
        if token is None:  # a comment
            line = bisect_right(breaks, start - 1)
            before = bisect_right(lines, line - 1)  # tokens on earlier lines
            comments.append((before, line))
        else:
            tokens.append(token)
            lines.append(bisect_right(breaks, start - 1))
            starts.append(start)
            ends.append(end)
    renamable = syntax.family not in (SHELL, CONSOLE, PLAIN, DIRECTIVE)
    return CodeForm(
        tuple(tokens), tuple(lines), tuple(starts), tuple(ends), tuple(comments), renamable
    )


def syntax_for(code: str, info: str) -> Syntax:
    """How a code block with info string ``info`` is read: by its language tag; a block
    without one whose lines start with a ``$`` prompt as a console; and JavaScript or
    TypeScript holding JSX elements (a React component tagged ``js``) as JSX, whose text
    between tags is prose (:data:`_JSX`)."""
    syntax = syntax_of(info)
    if syntax.family == PLAIN and _PROMPTED.search(code):
        syntax = console()  # no language, but a console's prompts
    elif syntax is _JAVASCRIPT and "</" in code and _holds_jsx(code):
        syntax = _JSX_SYNTAX
    return syntax


_JAVASCRIPT = syntax_of("js")
_JSX_SYNTAX = syntax_of("jsx")
#: A JSX element's opening where an expression starts (after ``return``, ``=>``, ``(``,
#: ``=``, ``,``, ``?``, ``:`` or at a line's start), and a closing tag.
_JSX_OPENING = compile_pattern(
    r"(?:\breturn|=>|[(=,?:]|^)[ \t]*\(?\s*<([A-Za-z][\w.]*)[\s>/]", re.M
)
_JSX_CLOSING = compile_pattern(r"</([A-Za-z][\w.]*)\s*>")


def _holds_jsx(code: str) -> bool:
    """Whether JavaScript *code* holds a JSX element: an opening where an expression starts
    whose tag some closing tag ends (a generic type, ``Array<string>``, or a comparison,
    ``a < b``, has none).  One pass over the code for each pattern."""
    closed = set(_JSX_CLOSING.findall(code))
    return bool(closed) and any(m[1] in closed for m in _JSX_OPENING.finditer(code))


def code_tokens(code: str, syntax: Syntax) -> Iterator[tuple[str | None, int, int]]:
    """``(token, start, end)`` for each code token of ``code`` in order, and ``(None, start,
    end)`` for each comment; the text of markup and the labels of diagrams (prose) give
    nothing."""
    placeholder = _placeholder_pattern(syntax)
    for piece in pieces_of(code, syntax):
        if piece.kind == COMMENT:
            yield None, piece.start, piece.start + len(piece.text)
        elif piece.kind == STRING:
            yield _string_token(piece.text, syntax), piece.start, piece.start + len(piece.text)
        elif piece.kind == CODE:
            for m in placeholder.finditer(piece.text):
                token = _KINDS[m.lastgroup] if m.lastgroup in _KINDS else m.group()
                yield token, piece.start + m.start(), piece.start + m.end()


def _placeholder_pattern(syntax: Syntax) -> re.Pattern[str]:
    return compile_pattern("|".join([*_kind_parts(syntax), f"(?P<word>{_WORD})"]))


def _kind_parts(syntax: Syntax) -> list[str]:
    return [f"(?P<{kind}>{_PLACEHOLDERS[kind]})" for kind in sorted(syntax.placeholders)]


def _string_token(text: str, syntax: Syntax) -> str:
    """A string literal's token: ``""`` for prose, else its text — placeholders as their
    kinds, and but in shell-like languages (where ``'$x'`` is not ``"$x"``) in double quotes
    whatever its quotes were."""
    m = _STRING_PARTS.match(text)
    prefix, quote, content = m.groups() if m else ("", "", text)
    if not quote:  # a plain value (YAML), not a literal with a prefix
        prefix, content = "", text
    shell_like = syntax.family in (SHELL, CONSOLE)
    if not shell_like and is_prose(content):
        return PROSE_STRING
    if _SHORT_TAG.fullmatch(content) and language_of_name(content):
        return LANGUAGE_STRING  # <html lang="fr"> for "en": the page's language
    if syntax.family in (SHELL, CONSOLE, PLAIN) and syntax.placeholders:
        kinds = compile_pattern("|".join(_kind_parts(syntax)))
        content = kinds.sub(lambda k: _KINDS[k.lastgroup or ""], content)
    if shell_like:
        return f"{prefix}{quote}{content}{quote}"
    return f'{prefix}"{content}"'


def compatible(ours: str, theirs: str) -> bool:
    """Whether two tokens may stand for each other: equal, or a prose string and a string
    of plain words (``"socks"`` translated ``"양말"``: a word may be a value or prose)."""
    if ours == theirs:
        return True
    if ours == PROSE_STRING:
        return bool(_WORDY.fullmatch(theirs))
    return theirs == PROSE_STRING and bool(_WORDY.fullmatch(ours))


def is_prose(text: str) -> bool:
    """Whether a string's text reads as words for people rather than as a value of the
    code: it has letters, none of the marks of code (a path or URL, an underscore, ``=``,
    ``$``, markup, a leading ``-``, a dotted name), and either letters outside ASCII, two
    words or more, or one capitalised word (``"Hello"``); format fields (``{name}``,
    ``${user}``, ``%s``) aside."""
    bare = _FORMAT.sub("", text).replace(" | ", " ")  # "Astro Learner | Blog"
    if not any(ch.isalpha() for ch in bare) or _CODE_LIKE.search(bare):
        return False
    words = _WORD_RUN.findall(bare)
    return bool(
        _NON_ASCII_LETTER.search(bare)
        or len(words) >= 2
        or (len(words) == 1 and _CAPITALISED.fullmatch(words[0]))
    )


#: Words that are keywords in some language: never a name an example's translator renamed.
_KEYWORDS = frozenset(
    "import export from as const let var function return if else elif for while do in of "
    "class def async await new this self true false null none nil undefined yield with try "
    "except catch finally raise throw type interface extends implements static public "
    "private protected package func go defer struct enum impl trait use mod pub fn match "
    "select where and or not is default switch case break continue".split()
)
#: A name that says it is an example's: ``my-repo``, ``myImage``, ``MyComponent``,
#: ``your-entrypoint``, ``@example/…``, ``foo``.
_EXAMPLE_NAME = compile_pattern(
    r"(?:^|[^A-Za-z])(?:[Mm]y|MY|[Yy]our|YOUR|[Ee]xample|EXAMPLE|[Ss]ample|foo|bar|baz)"
    r"(?:[^a-z]|$)"
)
_NAME = compile_pattern(r"[^\W\d]\w{2,}")
_NAME_STRING = compile_pattern(r'"[^"\d]{3,}"')


def renaming(ours: CodeForm, theirs: CodeForm) -> dict[str, str] | None:
    """The names ``theirs``'s code has where ``ours`` has others, when that is all that
    differs and it is done consistently — each name of ``theirs`` always by the same name of
    ``ours``, and no two by one (``monImage`` for ``myImage`` wherever it stands; a translated
    example) — else ``None``.  Names are identifiers and strings of three characters or more
    without digits (a changed version or number is never a renaming), keywords excluded.  A
    name renamed must say it is an example's (``my-repo``, ``myImage``, ``YOUR_API_KEY``,
    ``@example/…``, ``foo``), be a string of plain words (``"socks"``: example data), or, for
    an identifier, stand twice at least (declared and used): any other name changed is a
    change.  A string that is no name (a path, a module) may differ only by renamed
    identifiers written in it as words of their own (``'./UnComposant.astro'`` for
    ``'./SomeComponent.astro'`` where ``UnComposant`` is renamed from ``SomeComponent``): the
    example's file named after its renamed component; it is not among the names returned.
    Nothing in a command (shell, console, a block without a language) or a template
    directive is a name."""
    if not (ours.renamable and theirs.renamable) or len(ours.tokens) != len(theirs.tokens):
        return None
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    holding: list[tuple[str, str]] = []  # strings that may hold renamed identifiers
    for a, b in zip(ours.tokens, theirs.tokens, strict=True):
        if compatible(a, b):
            if a == b and (forward.get(b, b) != b or backward.get(a, a) != a):
                return None  # a name renamed in one place and kept in another
            forward.setdefault(b, a)
            backward.setdefault(a, b)
            continue
        if not (_is_name(a) and _is_name(b)):
            if not (a.startswith('"') and b.startswith('"')):
                return None
            holding.append((a, b))
            continue
        if forward.setdefault(b, a) != a or backward.setdefault(a, b) != b:
            return None
    renamed: dict[str, str] = {}
    for b, a in forward.items():
        if a == b:
            continue
        if _EXAMPLE_NAME.search(b) or _WORDY.fullmatch(b):
            renamed[b] = a
        elif b.startswith('"'):
            holding.append((a, b))  # a path or a module: renamed identifiers may explain it
        elif theirs.tokens.count(b) >= 2:
            renamed[b] = a
        else:
            return None
    if not renamed or (holding and not _renamed_within(holding, renamed)):
        return None
    return renamed


def _renamed_within(pairs: list[tuple[str, str]], renamed: dict[str, str]) -> bool:
    """Whether each string of *pairs* (ours, theirs) is theirs with every renamed identifier
    (*renamed*: theirs → ours) that stands in it as a word of its own written as ours."""
    identifiers = {b: a for b, a in renamed.items() if not b.startswith('"')}
    if not identifiers:
        return False
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    words = re.compile(
        r"(?<!\w)(?:"
        + "|".join(map(re.escape, sorted(identifiers, key=len, reverse=True)))
        + r")(?!\w)"
    )
    return all(words.sub(lambda m: identifiers[m.group()], b) == a for a, b in pairs)


def renamed_directive(ours: CodeForm, theirs: CodeForm) -> tuple[str, str] | None:
    """(ours, theirs): the names of two directives that differ in their name alone, their
    first word — the same arguments (a file, options) given to another shortcode or directive
    (Hugo's ``codenew`` and ``code_sample`` for one example file) — else ``None``.  Meant for
    blocks a reader took for include or template directives; a changed argument is a change."""
    if len(ours.tokens) != len(theirs.tokens):
        return None
    differ = [i for i, (a, b) in enumerate(zip(ours.tokens, theirs.tokens, strict=True)) if a != b]
    first_word = next((i for i, token in enumerate(theirs.tokens) if _NAME.match(token)), None)
    if differ != [first_word]:
        return None
    mine, their = ours.tokens[first_word], theirs.tokens[first_word]
    return (mine, their) if _NAME.fullmatch(mine) and _NAME.fullmatch(their) else None


def _is_name(token: str) -> bool:
    if token.startswith('"'):
        return bool(_NAME_STRING.fullmatch(token))
    return bool(_NAME.fullmatch(token)) and token.lower() not in _KEYWORDS
