"""Untranslatable tokens: the things a translation must carry over character for character.

Two strengths of token are told apart, because translators legitimately drop a repeated
product name but never rewrite a version number:

*Strong* tokens — a difference is reported whether a version changes or drops them:

* inline code (`` `openapi_tags` ``), compared exactly;
* URLs in running text (ASCII characters only, so a particle such as ``에`` after a URL is not
  part of it) (``https://example.org/x``) and API or file paths with at least two
  segments (``/v1/chat/completions``, ``docs/config.md``);
* version strings (``3.11.7``, ``V4.1``, ``v2``), model and hardware ids and other words that
  mix letters and digits (``SM100``, ``H200``, ``p99``, ``Apache-2.0``, ``DeepSeek-V4.1-Flash``)
  — but not a number with a short unit (``64GB``, ``1.8x``, ``100ms``: those are numbers);
* ``key=value`` settings (``nextn=3``).

*Name* tokens — mixed-case product names (``DeepInfer``, ``LMDeploy``, ``vLLM``) and acronyms
of two or more capitals (``AWQ``, ``TTFT``): reported only when a version has a near variant
instead (``Deepinfer``, ``LMDeploy`` → ``LMDepl0y``), never for being left out.

Inline code counts as strong when it looks like code (punctuation, digits, an inner capital:
`` `model_copy()` ``); a plain word in backticks (`` `server` ``) is only name-strength, since
some translations translate or drop such labels.  Hyphenated words lose their ordinary-word
parts (``UTF-8-kodierte`` → ``UTF-8``, ``OpenAI-compatible`` → ``OpenAI``).

Normalisation: NFKC (full-width letters become ASCII), trailing punctuation dropped, the
possessive ``'s`` and a plural ``s`` after an acronym removed (``LMDeploy's`` → ``LMDeploy``,
``GPUs`` → ``GPU``).  Tokens are sets: how often a name is repeated is style.  Two tokens
match when :func:`same_token` says so (compounds, plural and genitive endings), compared in
their :func:`token_form` (placeholders by kind, outer quotes and empty calls dropped).
Markdown attribute lists (``{.internal-link target=_blank}``) are markup, not tokens; the
code-like words of running text (quoted, dotted, called, ``a/b``) are read apart
(:func:`prose_code`) for finding inline code another version writes as plain text.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from parallelcheck.text.lexicon import PATH, URL_ASCII, normalise
from parallelcheck.text.listings.form import is_prose
from parallelcheck.text.regexes import compile_pattern

_SETTING = compile_pattern(r"(?<![A-Za-z0-9_.-])[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.-]+")
_VERSION_ONLY = compile_pattern(r"^v?\d+(?:\.\d+){2,}$", re.IGNORECASE)
_DOTTED_DATE = compile_pattern(r"^\d{1,2}\.\d{1,2}\.\d{4}$")
_NUMBER_WITH_UNIT = compile_pattern(r"^\d+(?:\.\d+)?[A-Za-z×]{1,4}$")
_PLAIN_WORD = compile_pattern(r"^(?:[a-z]{2,}|[A-Z][a-z]{2,})$")
_NUMBER = compile_pattern(r"^\d+(?:[.,]\d+)*$")
_CODE_LIKE = compile_pattern(r"[0-9_.()\[\]{}<>=:/\\\"@#$%^&*+|~,;!?]|[a-z][A-Z]|^'.*'$")
# Words with a capital after the first letter, a digit or inner punctuation; ordinary and
# capitalised words (most of any text) never match, single capitals do (for acronym checks).
# Words are ASCII: a Japanese or Korean letter right before or after does not stop a match.
# The first character is taken before looking behind it, so that the regex engine skips to
# the ASCII letters and digits instead of trying the pattern at every position (the
# look-behinds then take it as any character: it is one of those).  The look-ahead
# for a capital, digit or joiner passes over small letters alone, possessively: the first
# character of the word's run that is no small letter decides (what a lazy scan of every
# word character up to the first capital, digit or joiner decides, without its backtracking).
# A comma or full stop right before a word stops a match only after a letter or digit (the
# rest of a number ``1,234``), not after other text: ``实际上，OAuth2`` (NFKC turns the
# ideographic comma into ``,``) holds ``OAuth2``.  An accented Latin letter right before or
# after is part of the word (``JSONről`` is no ``JSONr``).
_CANDIDATE = compile_pattern(
    r"[A-Za-z0-9](?<![A-Za-z0-9_\u00c0-\u024f-](?s:.))(?<![A-Za-z0-9_][.,](?s:.))"
    r"(?=[a-z]*+[A-Z0-9_.+-])[A-Za-z0-9_.+-]*[A-Za-z0-9+](?![A-Za-z0-9_\u00c0-\u024f])"
)
# A URL starts after anything but an ASCII letter or digit: ``ブラウザでhttp://…`` holds one
# (``\b`` would see no boundary between ``で`` and ``h``).
_URL = compile_pattern(r"(?<![A-Za-z0-9])" + URL_ASCII.pattern.removeprefix(r"\b"), re.IGNORECASE)
# A Markdown attribute list (``{.internal-link target=_blank}``, ``{: .note}``) is markup.
_ATTRIBUTES = compile_pattern(r"\{:?[ \t]*[.#][\w-]+(?:[ \t]+[^{}\n]*)?\}|\{:[^{}\n]*\}")
# Code-like words of running text, kept only so that inline code another version writes as
# prose (``« gzip »`` for `` `"gzip"` ``, ``fetch()``, ``fastapi.security``, ``define:vars``)
# is found there; and plain numbers and versions (``4321``, ``4.0``, ``1.x``; after a letter
# of another script too: ``ポート4321``), so that a number another version writes in inline
# code, or a version it writes with a ``v`` (``Astro v4.0`` for ``Astro 4.0``), is found
# there too.
_PROSE_CODE = compile_pattern(
    r"(?<![A-Za-z0-9])[«„“\"'「『‘]\s*([^\s«»„“”\"'「」『』‘’][^«»„“”\"'「」『』‘’\n]{0,120}?)\s*[»“”\"'」』’](?![A-Za-z0-9])"
    r"|(?<![\w.])([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*_\w+|[A-Za-z_]\w*\(\)"
    r"|[A-Za-z][\w.+-]*/[\w.+-]*[A-Za-z0-9]|[A-Za-z_]\w*:[A-Za-z_][\w-]*\w)(?![\w(])"
    r"|(?<![A-Za-z0-9_.])(\d+(?:\.(?:\d+|x))*)(?![A-Za-z0-9_]|\.\d)"
)
# What every match of :data:`_PROSE_CODE` holds (an opening quote after no letter or digit, a
# slash, a dot before a letter, an underscore before a word character, ``()``, a colon
# between letters, or a digit): a text without any is not searched (most texts, and the
# search is slow).
_PROSE_CODE_HINT = compile_pattern(
    r"(?<![A-Za-z0-9])[«„“\"'「『‘]|/|\.[A-Za-z_]|_\w|\(\)|[A-Za-z]:[A-Za-z]|\d"
)
_HAS_DIGIT = compile_pattern(r"[0-9]")
_HAS_ALPHA = compile_pattern(r"[A-Za-z]")
#: The patterns of strong tokens read before any word, each after a cheap test for a
#: character every match holds (each holds a ``/`` or a ``=``).
_SPECIAL = (("://", _URL), ("/", PATH), ("=", _SETTING))
_TRAILING = ".,;:!?)]}\"'"


class Tokens(NamedTuple):
    """The tokens of one block: ``strong`` and ``names`` as sets of normalised strings (a
    named tuple: one is made for nearly every block, several times quicker than a frozen
    dataclass)."""

    strong: frozenset[str]
    names: frozenset[str]


_CLOSING = {")": "(", "]": "[", "}": "{"}


def _clean(token: str) -> str:
    """A token without trailing punctuation (a closing bracket stays when it closes one the
    token opens: ``/items/{item_id}``) and without a possessive ``'s``."""
    while token and token[-1] in _TRAILING:
        opening = _CLOSING.get(token[-1])
        if opening and token.count(opening) >= token.count(token[-1]):
            break
        token = token[:-1]
    if token.endswith("'s") or token.endswith("’s"):
        token = token[:-2]
    return token


def _classify(word: str) -> str | None:
    """``strong``, ``name`` or ``None`` for an ordinary word (or a plain number)."""
    if word.isalpha():
        if word.islower() or word[1:].islower():
            return None  # ordinary and capitalised words: the common case, decided in C
        if word.isupper():
            return "name" if len(word) >= 2 else None
        return "name"  # mixed case: DeepInfer, vLLM
    has_digit = _HAS_DIGIT.search(word) is not None
    has_alpha = _HAS_ALPHA.search(word) is not None
    if has_digit and has_alpha:
        return None if _NUMBER_WITH_UNIT.match(word) else "strong"
    if has_digit:
        return "strong" if _VERSION_ONLY.match(word) and not _DOTTED_DATE.match(word) else None
    letters = "".join(ch for ch in word if ch.isalpha())
    if len(letters) >= 2 and letters.isupper():
        return "name"
    if not letters[1:].islower() and not letters.isupper() and letters[1:]:
        return "name"
    return None


def _compound_core(word: str) -> str:
    """A hyphenated word without its ordinary-word parts: ``UTF-8-kodierte`` → ``UTF-8``,
    ``V4.1-Flash`` → ``V4.1``, ``OpenAI-compatible`` → ``OpenAI``; ``Apache-2.0`` stays whole
    (a version after a name belongs to it)."""
    if "-" not in word:
        return word
    parts = word.split("-")
    kept: list[str] = []
    for index, part in enumerate(parts):
        if not part:
            continue
        if _PLAIN_WORD.match(part):
            following = parts[index + 1] if index + 1 < len(parts) else ""
            if not (part[0].isupper() and _NUMBER.match(following)):
                if kept:
                    kept.append("")  # a gap: what follows is a separate token
                continue
        kept.append(part)
    core = "-".join(kept).strip("-")
    return core.split("--")[0] if "--" in core else core


def _running_text(text: str, code_spans: Sequence[str]) -> tuple[str, list[str]]:
    """A block's text (in normal form) without its inline code and attribute lists, and its
    inline code spans without surrounding space (empty ones left out)."""
    spans = [code for code in map(str.strip, code_spans) if code] if code_spans else []
    if spans:
        text = cut_spans(text, spans)
    if "{" in text:
        text = _ATTRIBUTES.sub(" ", text)
    return text, spans


def extract_tokens(text: str, code_spans: Sequence[str] = ()) -> Tokens:
    """The untranslatable tokens of a block's text and inline code (rules above)."""
    return normal_tokens(normalise(text), code_spans)


def normal_tokens(normal: str, code_spans: Sequence[str] = ()) -> Tokens:
    """:func:`extract_tokens` of a text already in normal form
    (:func:`~parallelcheck.text.lexicon.normalise`'s, as an article's
    :class:`~parallelcheck.text.lexicon.NormalForms` keep it): not normalised again."""
    text, spans = _running_text(normal, code_spans)
    strong: set[str] = set()
    names: set[str] = set()
    for code in spans:
        (strong if _CODE_LIKE.search(code) else names).add(code)
    if "/" in text or "=" in text:  # most blocks hold no URL, path or setting (3 in 100)
        for marker, pattern in _SPECIAL:
            if marker in text:
                found = pattern.findall(text)
                if found:
                    strong.update(_clean(item).rstrip("/") for item in found)
                    text = pattern.sub(" ", text)
    for word in _CANDIDATE.findall(text):
        if not word.isalpha():  # (letters alone: nothing to clean, no compound)
            word = _compound_core(_clean(word))
        kind = _classify(word) if word else None
        if kind == "strong":
            strong.add(word)
        elif kind == "name":
            if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
                word = word[:-1]
            names.add(word)
    if not strong and not names:
        return _NO_TOKENS  # most blocks: one shared value (callers never change it)
    return Tokens(frozenset(strong), frozenset(names))


_NO_TOKENS = Tokens(frozenset(), frozenset())


def prose_code(text: str, code_spans: Sequence[str] = ()) -> frozenset[str]:
    """The :func:`token_form` of the code-like words of a block's running text (quoted,
    dotted, called, ``a/b``): never reported, only a place where inline code another version
    writes may be found as plain text."""
    return normal_prose_code(normalise(text), code_spans)


def normal_prose_code(normal: str, code_spans: Sequence[str] = ()) -> frozenset[str]:
    """:func:`prose_code` of a text already in normal form (as :func:`normal_tokens`)."""
    text, _ = _running_text(normal, code_spans)
    if not _PROSE_CODE_HINT.search(text):
        return frozenset()  # most texts (and the search is slow)
    return frozenset(
        token_form(quoted or word or number) for quoted, word, number in _PROSE_CODE.findall(text)
    )


# Placeholders in inline code, each standing for its kind (see :func:`token_form`).
_MUSTACHE = compile_pattern(r"\{\{[^{}]+\}\}")
_ANGLE = compile_pattern(r"<[^<>\s=\"'/][^<>=\"']*>")
#: A lone opening or closing HTML tag (``<div>``, ``</head>``), its name grouped.
_LONE_TAG = compile_pattern(r"</?([a-z][a-z0-9]*)>")
_DOLLAR = compile_pattern(r"\$\{?[^\W\d]\w*\}?")
_BRACKETED = compile_pattern(r"(?:(?<=\s)|^)\[[^\[\]\s]+\](?=\s|$)")
#: A bracketed word of capitals anywhere (``https://[YOUR-SITE]/graphql``): a placeholder.
_SHOUTED = compile_pattern(r"\[([^\W\d_][^\[\]\s]*)\]")
_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "„": "“"}


def token_form(token: str) -> str:
    """The form in which a token is compared: inline code without outer quotes
    (``"text/html"`` → ``text/html``) and without an empty call (``fetch()`` → ``fetch``), its
    placeholders reduced to their kind, so that a translated placeholder is no difference
    but a changed command around it is: ``{{branch_name}}`` / ``{{브랜치_이름}}`` → ``{{…}}``,
    ``<file>`` / ``<fichier>`` → ``<…>`` (a lone lowercase tag such as ``<div>`` is kept: it is
    HTML), a bracketed word of capitals ``[YOUR-SITE]`` → ``[…]``, and, in a command (code
    with a space), ``$VAR`` → ``$…`` and a bracketed option form ``[-o|--output]`` →
    ``[…]``; a string literal of prose inside it (``{ search:
    'user input' }``) → ``"…"``, as a code block's is compared."""
    form = token.strip()
    if len(form) >= 2 and _QUOTES.get(form[0]) == form[-1] and form[0] not in form[1:-1]:
        form = form[1:-1].strip()
    if form.endswith("()") and len(form) > 2:
        form = form[:-2]
    if "{{" in form:
        form = _MUSTACHE.sub("{{…}}", form)
    if "<" in form and not _LONE_TAG.fullmatch(form):
        form = _ANGLE.sub("<…>", form)
    if "[" in form:
        form = _SHOUTED.sub(_placeholder_if_shouted, form)
    if " " in form:
        if "$" in form:
            form = _DOLLAR.sub("$…", form)
        if "[" in form:
            form = _BRACKETED.sub("[…]", form)
    if "'" in form or '"' in form:
        form = _LITERAL.sub(_prose_blanked, form)
    return form or token


def _placeholder_if_shouted(bracketed: re.Match[str]) -> str:
    """A bracketed word written in capitals (``[YOUR-SITE]``, ``[VOTRE-SITE]``) or in a
    script without case (``[你的站点]``) as compared: a placeholder, translated with the
    page; one with a small letter (``[slug]``, a route parameter of a file name) is kept as
    written."""
    word = bracketed[1]
    if any(ch.islower() for ch in word) or not any(ch.isalpha() for ch in word):
        return bracketed.group()
    return "[…]"


#: A string literal inside inline code (``{ search: 'user input' }``).
_LITERAL = compile_pattern(r"""(["'])([^"'\n]+)\1""")


def _prose_blanked(literal: re.Match[str]) -> str:
    """A string literal of prose (:func:`~parallelcheck.text.listings.form.is_prose`) as
    compared: translated with the page, like a code block's, so only that it is there
    counts (``{ search: 'ユーザーの入力内容' }`` = ``{ search: 'user input' }``)."""
    return '"…"' if is_prose(literal[2]) else literal.group()


#: A version written with a ``v`` (``v4.0``, ``V1.x``): its number is the version.
_V_VERSION = compile_pattern(r"[vV](\d+(?:\.(?:\d+|x))*)")


def alias_form(form: str) -> str:
    """Another form a token in its :func:`token_form` stands for, or ``""``: a version
    written with a ``v`` is its number (``v4.0`` → ``4.0``, which a translation may write as
    ``wersji 4.0``; ``v6`` → ``6``, ``Version 6``), and a lone HTML tag is its element's
    name (``<meta>`` → ``meta``, which a translation may write in inline code without
    brackets)."""
    if form[:1] in "vV":
        found = _V_VERSION.fullmatch(form)
        return found[1] if found else ""
    if form[:1] == "<":
        found = _LONE_TAG.fullmatch(form)
        return found[1] if found else ""
    return ""


def same_token(a: str, b: str) -> bool:
    """Whether two tokens name the same thing: equal, one a hyphenated compound containing
    the other plus words without digits (``TypeScript-SDK`` / ``TypeScript``), or one the other
    with a plural or genitive ending (``MongoDBs`` / ``MongoDB``).  ``DeepSeek-V4.1`` never
    matches ``DeepSeek``: a version is not an ending."""
    if a == b:
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if long.startswith(short):
        rest = long[len(short) :]
        return rest in ("s", "es", "'s", "’s") or (
            rest.startswith("-") and not any(ch.isdigit() for ch in rest)
        )
    if long.endswith("-" + short):
        return not any(ch.isdigit() for ch in long[: -len(short)])
    return False


_ENDINGS = ("s", "es", "'s", "’s")


def _ending(rest: str) -> bool:
    """Whether *rest*, what a longer token adds after a shorter one, is an ending by the
    rules of :func:`same_token`."""
    return rest in _ENDINGS or (rest.startswith("-") and not any(ch.isdigit() for ch in rest))


class SameTokenIndex:
    """Some tokens, indexed so that whether any of them is :func:`same_token` as a given one
    takes a few set lookups per character of it, not a comparison with each.

    Besides the tokens themselves it keeps, for every hyphen of a token without a digit
    from there on, the part before it (``TypeScript`` of ``TypeScript-SDK``), and for every
    hyphen with no digit up to it, the part after it (``MongoDB`` of ``Atlas-MongoDB``) —
    unless the token also starts with that part, which :func:`same_token` then judges by
    what follows it.
    """

    def __init__(self, tokens: Iterable[str]):
        self.tokens = set(tokens)
        self.before_hyphen: set[str] = set()
        self.after_hyphen: set[str] = set()
        for token in self.tokens:
            for at, ch in enumerate(token):
                if ch != "-":
                    continue
                if not any(c.isdigit() for c in token[at:]):
                    self.before_hyphen.add(token[:at])
                tail = token[at + 1 :]
                if not any(c.isdigit() for c in token[: at + 1]) and not token.startswith(tail):
                    self.after_hyphen.add(tail)

    def holds_same(self, token: str) -> bool:
        """``any(same_token(token, other) for other in tokens)``."""
        tokens = self.tokens
        if token in tokens:
            return True
        # Longer tokens: an ending after this one, or this one after a hyphen.
        if any(token + ending in tokens for ending in _ENDINGS):
            return True
        if token in self.before_hyphen or token in self.after_hyphen:
            return True
        # Shorter tokens: this one's start (judged by what follows), or its end after a
        # hyphen when this one does not start with it.
        for at in range(len(token)):
            if token[:at] in tokens and _ending(token[at:]):
                return True
            if token[at] == "-":
                tail = token[at + 1 :]
                if (
                    tail in tokens
                    and not token.startswith(tail)
                    and not any(c.isdigit() for c in token[: at + 1])
                ):
                    return True
        return False


# ---------------------------------------------------------------------------
# Finding many strings in one long text
#
# A block can be a table of 80,000 rows: looking for each of its tokens or inline code spans
# with ``str.find`` from the start of the text costs the text's length per token.  The
# functions below give the same answers in one pass over the text once there are many.

#: Up to this many needles × characters of text, plain ``str.find`` per needle is quicker.
DIRECT_SEARCH = 2_000_000


def first_offsets(text: str, needles: Iterable[str]) -> dict[str, int]:
    """The offset of the first occurrence of each needle in *text*, ``-1`` when there is none
    — what ``text.find(needle)`` returns, for every needle at once.

    Many needles are looked for in one pass: at each place where some needle's first
    character stands, the needles that start there are narrowed down by bisection over the
    sorted needles, one more character at a time, until none is left.
    """
    wanted = set(needles)
    if len(wanted) * len(text) <= DIRECT_SEARCH or "" in wanted:
        return {needle: text.find(needle) for needle in wanted}
    ordered = sorted(wanted)
    found = dict.fromkeys(ordered, -1)
    left = len(ordered)
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    starts = re.compile("[" + "".join(re.escape(ch) for ch in {n[0] for n in ordered}) + "]")
    for match in starts.finditer(text):
        at = match.start()
        lo, hi, depth = 0, len(ordered), 0
        while lo < hi and at + depth < len(text):
            depth += 1
            prefix = text[at : at + depth]
            # The needles starting with *prefix* are those from *prefix* up to the first
            # string past it: *prefix* with its last character one higher.
            lo = bisect_left(ordered, prefix, lo, hi)
            last = ord(prefix[-1])
            if last < sys.maxunicode:
                hi = bisect_left(ordered, prefix[:-1] + chr(last + 1), lo, hi)
            else:
                hi = bisect_right(ordered, prefix, lo, hi, key=lambda n, d=depth: n[:d])
            if lo < hi and ordered[lo] == prefix and found[prefix] < 0:
                found[prefix] = at
                left -= 1
        if not left:
            break
    return found


def blank_spans(text: str, spans: Sequence[str]) -> tuple[str, list[int]]:
    """Blank out each span in turn (spaces of its length) where ``str.find`` finds it in what
    is left of *text*; return the text left and each span's offset (``-1`` when not found).

    The same as finding and blanking the spans one by one from the start of the text; with
    many spans and a long text, done in one pass when no span holds a space (see
    :func:`_claim_spans`).
    """
    claims = _claim_spans(text, spans)
    if claims is None:
        offsets = []
        for span in spans:
            offset = text.find(span)
            if offset >= 0:
                text = text[:offset] + " " * len(span) + text[offset + len(span) :]
            offsets.append(offset)
        return text, offsets
    return _rebuild(text, spans, claims, keep_length=True), claims


def cut_spans(text: str, spans: Sequence[str]) -> str:
    """Replace each span in turn by one space where it first occurs in what is left of
    *text* — ``text = text.replace(span, " ", 1)`` for each span — in one pass when there are
    many and none holds a space."""
    claims = _claim_spans(text, spans)
    if claims is None:
        for span in spans:
            text = text.replace(span, " ", 1)
        return text
    return _rebuild(text, spans, claims, keep_length=False)


def _claim_spans(text: str, spans: Sequence[str]) -> list[int] | None:
    """Where each span is struck out of *text* in turn, in the text's own offsets, or
    ``None`` when the one-by-one way is as quick or the shortcut would not be exact.

    Striking a span out turns its characters into spaces (or into one space).  A span
    without a space then never matches across what was struck out, and every other
    occurrence is left as it was: each span is found at its first occurrence in the original
    text that overlaps nothing struck out before it.  Each distinct span's occurrences are
    visited in order once.
    """
    if len(spans) * len(text) <= DIRECT_SEARCH or any(" " in span or not span for span in spans):
        return None
    # Per distinct span: an offset from which its next occurrence is to be looked for, and
    # whether that offset is itself an occurrence (found ahead of need, or still to find).
    start: dict[str, int] = first_offsets(text, spans)
    known = dict.fromkeys(start, True)
    struck = bytearray(len(text))
    claims = []
    for span in spans:
        offset, size = start[span], len(span)
        if not known[span] and offset >= 0:
            offset = text.find(span, offset)
        while offset >= 0 and struck.find(1, offset, offset + size) >= 0:
            offset = text.find(span, offset + 1)
        if offset >= 0:
            struck[offset : offset + size] = b"\x01" * size
            # An occurrence overlapping this one is struck out with it: the next one can
            # only start after it (looked for when the same span comes again).
            start[span], known[span] = offset + size, False
        else:
            start[span], known[span] = -1, True
        claims.append(offset)
    return claims


def _rebuild(text: str, spans: Sequence[str], claims: list[int], *, keep_length: bool) -> str:
    """*text* with each claimed span replaced by spaces of its length, or by one space."""
    pieces = []
    end = 0
    for offset, span in sorted((o, s) for o, s in zip(claims, spans, strict=True) if o >= 0):
        pieces.append(text[end:offset])
        pieces.append(" " * len(span) if keep_length else " ")
        end = offset + len(span)
    pieces.append(text[end:])
    return "".join(pieces)
