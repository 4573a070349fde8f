"""A version's code block repaired: the source's code with the version's own translations.

A translator may translate a code block's comments, its prose strings, the text of its markup
and the labels of its diagrams (:mod:`.form`), never its code.  When a version's code differs
from the source's, :func:`repaired_code` gives the source's code with what the version
translated put back where it can be placed: the two blocks' code tokens are matched
(longest common runs, white space aside), and

* the stretch between two code tokens (comments, prose, white space) is the version's when
  both tokens around it are matched to two consecutive tokens of the version and one of the
  two stretches holds something other than white space (a comment, markup text) — keeping
  the source's indentation of the line that follows it;
* a prose string literal (``"Hello world"``) matched to one of the version's is the version's;
* everything else is the source's.

The repair is *complete* (:attr:`RepairedCode.complete`) when what the version translated
ends up in it exactly — each of the source's comments and prose strings replaced by the
version's, none of the version's dropped, and no code token of the version's left out that
holds letters outside ASCII the source's code does not have (a translation the language's
reading took for code) — so that nothing a translator wrote is lost and no source-language
text is brought in; otherwise it is still the source's code, with the source's text where
the version's could not be placed.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from parallelcheck.text.listings.form import (
    PROSE_STRING,
    code_form,
    code_tokens,
    compatible,
    syntax_for,
)

_WORDY_KEY = '""'


@dataclass(frozen=True)
class RepairedCode:
    """The source's code with the version's translations where they could be placed."""

    text: str
    #: Whether every comment, prose string and markup text of the result is the version's,
    #: and every one of the version's is in it.
    complete: bool


@dataclass(frozen=True)
class _Tokens:
    text: str
    tokens: list[str]
    spans: list[tuple[int, int]]

    def gap(self, index: int) -> str:
        """The text before token ``index`` (after the one before it; past the last: the end)."""
        start = self.spans[index - 1][1] if index > 0 else 0
        end = self.spans[index][0] if index < len(self.spans) else len(self.text)
        return self.text[start:end]

    def literal(self, index: int) -> str:
        start, end = self.spans[index]
        return self.text[start:end]


def _tokens(code: str, info: str) -> _Tokens:
    found = [(t, s, e) for t, s, e in code_tokens(code, syntax_for(code, info)) if t is not None]
    return _Tokens(code, [t for t, _, _ in found], [(s, e) for _, s, e in found])


def _key(token: str) -> str:
    """What tokens are matched by: a string of plain words may be a prose string translated."""
    if token == PROSE_STRING or compatible(token, PROSE_STRING):
        return _WORDY_KEY
    return token


def repaired_code(source: str, version: str, info: str = "") -> RepairedCode | None:
    """The source's code block ``source`` with ``version``'s translations put back (see the
    module's documentation), both read as code of language ``info``; ``None`` when the
    result would not have the source's code (it always should: a safeguard)."""
    ours, theirs = _tokens(source, info), _tokens(version, info)
    matcher = SequenceMatcher(
        None, [_key(t) for t in ours.tokens], [_key(t) for t in theirs.tokens], autojunk=False
    )
    match, gaps = _correspondence(matcher.get_opcodes())
    count, their_count = len(ours.tokens), len(theirs.tokens)
    used_gaps: set[int] = set()
    used_strings: set[int] = set()
    complete = True
    parts: list[str] = []
    for index in range(count + 1):
        gap = ours.gap(index)
        other = gaps.get(index)
        if other is not None and other not in used_gaps:
            their_gap = theirs.gap(other)
            if gap.strip() or their_gap.strip():
                gap = _with_indent_of(their_gap, gap)
                used_gaps.add(other)
                complete = complete and bool(their_gap.strip()) and bool(ours.gap(index).strip())
        elif gap.strip():
            complete = False  # the source's comment or markup text, with nothing to put back
        parts.append(gap)
        if index == count:
            break
        token = ours.tokens[index]
        if index in match and _translatable(token, theirs.tokens[match[index]]):
            parts.append(theirs.literal(match[index]))
            used_strings.add(match[index])
        else:
            complete = complete and token != PROSE_STRING
            parts.append(ours.literal(index))
    text = "".join(parts)
    for index in range(their_count + 1):
        if index not in used_gaps and theirs.gap(index).strip():
            complete = False  # a comment or markup text of the version's is left out
    for index, token in enumerate(theirs.tokens):
        if token == PROSE_STRING and index not in used_strings:
            complete = False
    kept = {j for a, j in match.items() if _key(ours.tokens[a]) == _key(theirs.tokens[j])}
    if _translated_code(theirs, kept | used_strings, ours):
        complete = False
    if not code_form(text, info).matches(code_form(source, info)):
        return None
    return RepairedCode(text, complete)


def _correspondence(opcodes) -> tuple[dict[int, int], dict[int, int]]:
    """Which of the version's tokens stands for each of the source's, and which of its
    stretches (``i``: the one before token ``i``) for each of the source's stretches.

    Tokens in a run the two share correspond, and so do the tokens of a run replaced by as
    many others (the changed tokens, in their places); the stretches around and between
    corresponding tokens correspond.  Around a run replaced by a run of another length, or
    removed, or added, only the stretch before it and the one after it do."""
    tokens: dict[int, int] = {}
    gaps: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            tokens.update((i1 + k, j1 + k) for k in range(i2 - i1))
            for k in range(i2 - i1 + 1):
                gaps.setdefault(i1 + k, j1 + k)
        else:
            gaps.setdefault(i1, j1)
            gaps.setdefault(i2, j2)
    return tokens, gaps


def _translated_code(theirs: _Tokens, kept: set[int], ours: _Tokens) -> bool:
    """Whether a token of the version the repair does not keep holds a letter outside ASCII
    that no token of the source holds: text the version translated that its language's
    reading took for code (a comment written as the language does not write them), which
    the repair would put back in the source's words."""
    own = {ch for token in ours.tokens for ch in token if ord(ch) > 127}
    return any(
        ord(ch) > 127 and ch.isalpha() and ch not in own
        for index, token in enumerate(theirs.tokens)
        if index not in kept
        for ch in token
    )


def _translatable(ours: str, theirs: str) -> bool:
    """Whether the version's literal stands for the source's: a prose string for a prose
    string, or for a string of plain words (a translated value)."""
    return PROSE_STRING in (ours, theirs) and compatible(ours, theirs)


def _with_indent_of(gap: str, indented: str) -> str:
    """``gap`` with the white space after its last line break taken from ``indented``'s (the
    next line's indentation stays the source's)."""
    if "\n" not in gap or "\n" not in indented:
        return gap
    head, tail = gap[: gap.rindex("\n") + 1], gap[gap.rindex("\n") + 1 :]
    indent = indented[indented.rindex("\n") + 1 :]
    return head + indent if not tail.strip() and not indent.strip() else gap
