"""Severity by what differs (docs/severities.md): the kinds of value whose change is a
changed fact, for the rules that grade their findings.

A rule's findings have its default severity unless the rule grades one by what it is about
(:meth:`RuleContext.finding <parallelcheck.rules.base.RuleContext.finding>`); a severity
configured for the rule replaces either.  This module holds the gradings: tokens (a changed
checksum, version, advisory or issue id or URL is an error, any other token a warning) and
missing prose blocks by size (a missing paragraph, list, quote or admonition of a sentence or
more is an error, a missing label, one-line note or bare element a warning; a missing code
block or table is an error whatever its size).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from parallelcheck.text.regexes import compile_pattern

__all__ = [
    "FACT_KINDS",
    "SMALL_BLOCK_WORDS",
    "missing_block_severity",
    "token_kind",
    "token_severity",
]

#: The kinds of token whose change is a changed fact, by the first pattern a token matches.
#: Any other token (inline code, a path, a product name, an id such as ``SM100``, a
#: ``key=value`` setting) is not one of them.
FACT_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "advisory",
        compile_pattern(r"\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[0-9a-z]{4}){3})\b", re.IGNORECASE),
    ),
    # seven or more hex digits with both a digit and a letter: a commit, a digest
    (
        "checksum",
        compile_pattern(r"(?<![0-9A-Za-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b"),
    ),
    ("URL", compile_pattern(r"://")),
    ("issue", compile_pattern(r"^(?:[\w.-]+/[\w.-]+)?#\d+$|^(?:GH|PR)-\d+$")),
    (
        # v1.2, 1.2.3, 127.0.0.1, busybox:1.27.2, Apache-2.0, V4.1-Flash; not a decimal (10.5)
        "version",
        compile_pattern(
            r"(?<![\d.])(?:v\d+(?:\.\d+)+|\d+(?:\.\d+){2,})(?![\d.]*\d)"
            r"|(?<=[A-Za-z][-:@_])\d+\.\d+|(?<=[A-Za-z])\d+\.\d+(?![\d.]*\d)",
            re.IGNORECASE,
        ),
    ),
)


#: A placeholder a translation may translate: ``<username>``, ``[YOUR-SITE]``, ``{host}``.
_PLACEHOLDER = compile_pattern(r"<[^<>\s]+>|\[[^\[\]\s]+\]|\{[^{}\s]+\}")


def token_kind(token: str) -> str | None:
    """The fact a token states, if its change is a changed fact: ``advisory`` (a CVE or GHSA
    id), ``checksum``, ``URL``, ``issue`` (``#123``, ``owner/repo#123``, ``GH-123``),
    ``version`` (a dotted number that is not a plain decimal: ``3.11.7``, ``V4.1``,
    ``python3.11``); ``None`` for any other token, and for one holding a placeholder
    (``https://<username>.github.io``: a translation may translate it)."""
    if _PLACEHOLDER.search(token):
        return None
    for kind, pattern in FACT_KINDS:
        if pattern.search(token):
            return kind
    return None


def fact_kinds(tokens: Iterable[str]) -> list[str]:
    """The kinds of fact among *tokens*, each once, in :data:`FACT_KINDS` order."""
    found = {token_kind(token) for token in tokens}
    return [kind for kind, _ in FACT_KINDS if kind in found]


def token_severity(evidence: Mapping[str, Any]) -> str:
    """The severity of a finding about differing tokens (its ``extra`` and ``missing``
    tokens): ``error`` when one written or lacking is a fact (:func:`token_kind`), else
    ``warning``."""
    extra, missing = list(evidence.get("extra", ())), list(evidence.get("missing", ()))
    # the same version with and without its "v" (3.5.0 for v3.5.0) is no changed fact
    plain = {_unprefixed(token) for token in extra} & {_unprefixed(token) for token in missing}
    tokens = [token for token in (*extra, *missing) if _unprefixed(token) not in plain]
    return "error" if fact_kinds(tokens) else "warning"


def _unprefixed(token: str) -> str:
    return token[1:] if token[:1] in ("v", "V") and token[1:2].isdigit() else token


#: A missing block of fewer words than this is a warning, not an error: a label
#: ("Type: ShadowRoot"), a bare link or image, a one-line aside.  A Han or kana character
#: counts as half a word (a Chinese or Japanese sentence of eight words is some sixteen
#: characters).
SMALL_BLOCK_WORDS = 8
_WORD = compile_pattern(r"[^\W\d_\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")
_HAN_KANA = compile_pattern(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_URL = compile_pattern(r"\]\([^)]*\)|(?<!\w)[A-Za-z][\w+.-]*://\S+")


def words_in(text: str) -> float:
    """How many words *text* holds: runs of letters, and half a word per Han or kana
    character; link targets and URLs do not count."""
    text = _URL.sub(" ", text)
    return len(_WORD.findall(text)) + len(_HAN_KANA.findall(text)) / 2


def missing_block_severity(text: str) -> str:
    """The severity of a missing block by its size: ``error`` from
    :data:`SMALL_BLOCK_WORDS` words up, else ``warning``."""
    return "error" if words_in(text) >= SMALL_BLOCK_WORDS else "warning"
