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
``GPUs`` → ``GPU``).  Tokens are compared as sets: how often a name is repeated is style.
Two tokens match when :func:`same_token` says so (compounds, plural and genitive endings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parallelcheck.anchors import normalise

_URL = re.compile(r"\bhttps?://[A-Za-z0-9\-._~:/?#\[\]@!$&*+,;=%]+", re.IGNORECASE)
_PATH = re.compile(
    r"(?<![A-Za-z0-9_/.:-])(?:/[A-Za-z0-9_.{}-]+){2,}/?"
    r"|(?<![A-Za-z0-9_/.-])[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+\.[a-z]{1,5}(?![A-Za-z0-9])"
)
_SETTING = re.compile(r"(?<![A-Za-z0-9_.-])[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.-]+")
_VERSION_ONLY = re.compile(r"^v?\d+(?:\.\d+){2,}$", re.IGNORECASE)
_DOTTED_DATE = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}$")
_NUMBER_WITH_UNIT = re.compile(r"^\d+(?:\.\d+)?[A-Za-z×]{1,4}$")
_PLAIN_WORD = re.compile(r"^(?:[a-z]{2,}|[A-Z][a-z]{2,})$")
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")
_CODE_LIKE = re.compile(r"[0-9_.()\[\]{}<>=:/\\\"@#$%^&*+|~,;!?]|[a-z][A-Z]|^'.*'$")
# Words with a capital after the first letter, a digit or inner punctuation; ordinary and
# capitalised words (most of any text) never match, single capitals do (for acronym checks).
# Words are ASCII: a Japanese or Korean letter right before or after does not stop a match.
# The first character is taken before looking behind it, so that the regex engine skips to
# the ASCII letters and digits instead of trying the pattern at every position.
_CANDIDATE = re.compile(
    r"[A-Za-z0-9](?<![A-Za-z0-9_.,-][A-Za-z0-9])"
    r"(?=[A-Za-z0-9_.+-]*?[A-Z0-9_.+-])[A-Za-z0-9_.+-]*[A-Za-z0-9+]"
)
_HAS_DIGIT = re.compile(r"[0-9]")
_HAS_ALPHA = re.compile(r"[A-Za-z]")
_SPECIAL = (("://", _URL), ("/", _PATH), ("=", _SETTING))
_TRAILING = ".,;:!?)]}\"'"


@dataclass(frozen=True)
class Tokens:
    """The tokens of one block: ``strong`` and ``names`` as sets of normalised strings."""

    strong: frozenset[str]
    names: frozenset[str]


def _clean(token: str) -> str:
    token = token.rstrip(_TRAILING)
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


def extract_tokens(text: str, code_spans: tuple[str, ...] | list[str] = ()) -> Tokens:
    """The untranslatable tokens of a block's text and inline code (rules above)."""
    text = normalise(text)
    strong: set[str] = set()
    names: set[str] = set()
    for code in code_spans:
        code = code.strip()
        if code:
            (strong if _CODE_LIKE.search(code) else names).add(code)
            text = text.replace(code, " ", 1)
    for marker, pattern in _SPECIAL:
        if marker in text:  # a cheap test first: most blocks hold no URL, path or setting
            found = pattern.findall(text)
            if found:
                strong.update(_clean(item).rstrip("/") for item in found)
                text = pattern.sub(" ", text)
    for word in _CANDIDATE.findall(text):
        word = _compound_core(_clean(word))
        kind = _classify(word) if word else None
        if kind == "strong":
            strong.add(word)
        elif kind == "name":
            if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
                word = word[:-1]
            names.add(word)
    return Tokens(frozenset(strong), frozenset(names))


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
