"""A version's code block repaired: the source's code with the version's own translations.

A translator may translate a code block's comments, its prose strings, the text of its markup
and the labels of its diagrams (:mod:`.form`), never its code.  When a version's code differs
from the source's, :func:`repaired_code` gives the source's code with what the version
translated put back where it can be placed: the two blocks' code tokens are matched
(longest common runs, white space aside), and

* the stretch between two code tokens (comments, prose, white space) is the version's when
  both tokens around it are matched to two consecutive tokens of the version (the same
  tokens, or tokens changed in their places); next to code the version lacks or has more
  of, only when the version's stretch holds a comment or text of its own (white space there
  is the source's);
* a token matched to one of the version's that stands for it is written as the version
  writes it: the same token (its quotes, its language tag, its placeholder's name), or a
  prose string (``"Hello world"``) translated;
* everything else — the tokens that differ, and what lies between them — is the source's.

So the lines where the code agrees keep the version's own layout, and only what differs
changes.

The repair is *complete* (:attr:`RepairedCode.complete`) when what the version translated
ends up in it exactly — each of the source's comments and prose strings replaced by the
version's, none of the version's dropped — and none of the version's code tokens it leaves out
may be the translator's (a word whose letters no token of the source's code has: text the
language's reading took for code, a name translated — or misspelt), so that nothing a
translator wrote is lost and no source-language text is brought in; otherwise it is still
the source's code, with the source's text where the version's could not be placed.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from difflib import SequenceMatcher

from parallelcheck.text.listings.form import (
    PROSE_STRING,
    CodeForm,
    code_form,
    code_tokens,
    compatible,
    syntax_for,
)

_WORDY_KEY = '""'
#: The most token pairs a stretch of lines that differ is matched over, token by token
#: (matching takes time near the product): beyond, the stretch is taken as rewritten, and
#: what the version translated in it is not looked for (the repair is then incomplete).
MATCHED_AT_MOST = 40_000


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
    #: The line (0-based) of each token.
    lines: list[int]

    def gap(self, index: int) -> str:
        """The text before token ``index`` (after the one before it; past the last: the end)."""
        start = self.spans[index - 1][1] if index > 0 else 0
        end = self.spans[index][0] if index < len(self.spans) else len(self.text)
        return self.text[start:end]

    def literal(self, index: int) -> str:
        start, end = self.spans[index]
        return self.text[start:end]

    def keyed_lines(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """``(first token, past the last, keys)`` of each line holding tokens, in order."""
        found: list[tuple[int, int, tuple[str, ...]]] = []
        start = 0
        for index in range(1, len(self.tokens) + 1):
            if index == len(self.tokens) or self.lines[index] != self.lines[start]:
                found.append((start, index, tuple(_key(t) for t in self.tokens[start:index])))
                start = index
        return found


def _tokens(code: str, info: str) -> _Tokens:
    breaks = [i for i, ch in enumerate(code) if ch == "\n"]
    found = [(t, s, e) for t, s, e in code_tokens(code, syntax_for(code, info)) if t is not None]
    return _Tokens(
        code,
        [t for t, _, _ in found],
        [(s, e) for _, s, e in found],
        [bisect_right(breaks, s - 1) for _, s, _ in found],
    )


def _key(token: str) -> str:
    """What tokens are matched by: a string of plain words may be a prose string translated."""
    if token == PROSE_STRING or compatible(token, PROSE_STRING):
        return _WORDY_KEY
    return token


def repaired_code(
    source: str, version: str, info: str = "", form: CodeForm | None = None
) -> RepairedCode | None:
    """The source's code block ``source`` with ``version``'s translations put back (see the
    module's documentation), both read as code of language ``info``; ``None`` when the
    result would not have the source's code (it always should: a safeguard).  ``form`` is
    the source's :func:`~.form.code_form`, when the caller has it."""
    ours, theirs = _tokens(source, info), _tokens(version, info)
    match, gaps = _correspondence(_opcodes(ours, theirs))
    count, their_count = len(ours.tokens), len(theirs.tokens)
    used_gaps: set[int] = set()
    used_tokens: set[int] = set()
    complete = True
    parts: list[str] = []
    stands = [_stands_for(ours.tokens[i], theirs.tokens, match.get(i)) for i in range(count)]
    for index in range(count + 1):
        gap = ours.gap(index)
        other = gaps.get(index)
        # Between two tokens that stand for the version's (and stand side by side there),
        # its layout; next to tokens it lacks or has more of, the source's, unless the
        # version has a comment or text there.
        inside = (index == 0 or stands[index - 1]) and (index == count or stands[index])
        if inside and 0 < index < count and match[index] != match[index - 1] + 1:
            inside = False  # the version has tokens between the two the source lacks
        their_gap = theirs.gap(other) if other is not None and other not in used_gaps else None
        if their_gap is not None and (inside or their_gap.strip()):
            used_gaps.add(other)
            if bool(gap.strip()) != bool(their_gap.strip()):
                complete = False  # a comment one of the two has where the other has none
            gap = their_gap
        elif gap.strip():
            complete = False  # the source's comment or markup text, with nothing to put back
        parts.append(gap)
        if index == count:
            break
        token, other = ours.tokens[index], match.get(index)
        if other is not None and (
            token == theirs.tokens[other] or _translatable(token, theirs.tokens[other])
        ):
            parts.append(theirs.literal(other))  # as the version writes it: its quotes, its
            used_tokens.add(other)  # language tag, its placeholder's name, its prose
        else:
            complete = complete and token != PROSE_STRING
            parts.append(ours.literal(index))
    text = "".join(parts)
    for index in range(their_count + 1):
        if index not in used_gaps and theirs.gap(index).strip():
            complete = False  # a comment or markup text of the version's is left out
    for index, token in enumerate(theirs.tokens):
        if token == PROSE_STRING and index not in used_tokens:
            complete = False
    if _translated_code(theirs, used_tokens, ours):
        complete = False
    if not code_form(text, info).matches(form or code_form(source, info)):
        return None
    return RepairedCode(text, complete)


def _stands_for(token: str, theirs: list[str], other: int | None) -> bool:
    """Whether the source's *token* stands for the version's token ``theirs[other]`` it is
    paired with, so that the version's layout around it is kept: the same token, or a word
    changed for another (a number, a name, a string); not an operator changed for another
    token (``=`` for ``,``, ``:`` for ``name``): the space around one is not the other's."""
    if other is None:
        return False
    their = theirs[other]
    return token == their or not (_is_operator(token) or _is_operator(their))


def _is_operator(token: str) -> bool:
    """Whether *token* is punctuation alone (an operator, a bracket, a separator)."""
    return not any(ch.isalnum() or ch in "_\"'`" for ch in token)


def _opcodes(ours: _Tokens, theirs: _Tokens) -> list[tuple[str, int, int, int, int]]:
    """How the two blocks' tokens correspond, as :meth:`SequenceMatcher.get_opcodes` gives
    it: lines of the same tokens are matched first, then the tokens of the lines between
    them (so a long block is matched in time near its length, not its square)."""
    mine, other = ours.keyed_lines(), theirs.keyed_lines()
    lines = SequenceMatcher(None, [k for *_, k in mine], [k for *_, k in other], False)
    opcodes: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        a1 = mine[i1][0] if i1 < len(mine) else len(ours.tokens)
        a2 = mine[i2 - 1][1] if i2 > i1 else a1
        b1 = other[j1][0] if j1 < len(other) else len(theirs.tokens)
        b2 = other[j2 - 1][1] if j2 > j1 else b1
        if tag == "equal":
            opcodes.append(("equal", a1, a2, b1, b2))
            continue
        a = [_key(t) for t in ours.tokens[a1:a2]]
        b = [_key(t) for t in theirs.tokens[b1:b2]]
        opcodes.extend(
            (op, i + a1, k + a1, j + b1, m + b1) for op, i, k, j, m in _token_opcodes(a, b)
        )
    return opcodes


def _token_opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """:meth:`SequenceMatcher.get_opcodes` of ``a`` and ``b``, the runs they begin and end
    with taken as equal first; what lies between, when larger than
    :data:`MATCHED_AT_MOST`, one replacement."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    opcodes = [("equal", 0, head, 0, head)] if head else []
    a_middle, b_middle = a[head : len(a) - tail], b[head : len(b) - tail]
    if len(a_middle) * len(b_middle) > MATCHED_AT_MOST:
        middle = [("replace", 0, len(a_middle), 0, len(b_middle))]  # rewritten: the source's
    else:
        middle = SequenceMatcher(None, a_middle, b_middle, False).get_opcodes()
    for tag, i1, i2, j1, j2 in middle:
        if i1 < i2 or j1 < j2:
            opcodes.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
    if tail:
        opcodes.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return opcodes


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
    """Whether a token of the version that the repair leaves out may be the translator's: a
    word (or string) whose letters no token of the source's code has, digits aside —
    ``Jouer`` for ``Play`` in text the language's reading takes for code, ``urlCanonica``
    for ``canonicalURL``, ``MA_VARIABLE`` for ``MY_VARIABLE``, ``titulo`` for ``title`` —
    but also a misspelt name: which it is, only a person can tell.  A changed number or
    version (``v6`` for ``v7``), punctuation, or code the source has elsewhere is not."""
    own = {_letters(token) for token in ours.tokens}
    return any(
        index not in kept and _letters(token) and _letters(token) not in own
        for index, token in enumerate(theirs.tokens)
    )


def _letters(token: str) -> str:
    """``token`` without its digits (empty when it has no letter)."""
    return (
        "".join(ch for ch in token if not ch.isdigit()) if any(ch.isalpha() for ch in token) else ""
    )


def _translatable(ours: str, theirs: str) -> bool:
    """Whether the version's literal stands for the source's: a prose string for a prose
    string, or for a string of plain words (a translated value)."""
    return PROSE_STRING in (ours, theirs) and compatible(ours, theirs)
