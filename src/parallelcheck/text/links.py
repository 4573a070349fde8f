"""Link targets compared across versions.

Translations legitimately point at their own language's copy of a page: ``/ja/docs/x``
(or ``https://example.org/ja/docs/x``) in the Japanese version where English has ``/docs/x``;
and a translation with no localised copy to point at keeps the source's (``/en/stable`` of an
external project's docs).  A *localised prefix* is a URL path prefix with a ``{lang}``
placeholder (default ``/{lang}/``).  A target whose path starts with such a prefix filled with
the version's own language tag or the source's (any case, ``-`` or ``_``) is compared without
it; a target ending at the tag (``https://example.org/ja``) counts too.  A trailing slash and
surrounding spaces never count as a difference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

DEFAULT_PREFIXES = ("/{lang}/",)


def localised_prefix_patterns(
    lang: str, prefixes: Sequence[str], source: str | None = None
) -> tuple[re.Pattern[str], ...]:
    """Compile the configured prefixes for one language version (and the source's tag)."""
    return _patterns(lang, tuple(prefixes), source)


@cache
def _patterns(
    lang: str, prefixes: tuple[str, ...], source: str | None
) -> tuple[re.Pattern[str], ...]:
    """Cached: compiled patterns, a function of a version's and the source's language tags
    and the configured prefixes alone (one run configures one list), asked by alignment and
    two rules for every version of every article; one entry per pair of language tags of the
    run."""
    variants = set()
    for tag in {lang, source or lang}:
        variants |= {tag, tag.lower(), tag.replace("-", "_"), tag.lower().replace("-", "_")}
    alternation = "|".join(sorted(re.escape(v) for v in variants))
    patterns = []
    for prefix in prefixes:
        head, _, tail = prefix.partition("{lang}")
        site = r"(?:[a-z][a-z0-9+.-]*://[^/]+)?" if head.startswith("/") else ""
        ending = f"(?:{re.escape(tail)}|$)" if tail == "/" else re.escape(tail)
        pattern = f"^(?P<head>{site}{re.escape(head)})(?:{alternation}){ending}"
        patterns.append(re.compile(pattern, re.IGNORECASE))
    return tuple(patterns)


def normalise_target(target: str, patterns: Sequence[re.Pattern[str]]) -> str:
    """The form of *target* that is compared between versions."""
    target = target.strip()
    for pattern in patterns:
        match = pattern.match(target)
        if match:
            target = match["head"] + target[match.end() :]
            break
    if len(target) > 1 and target.endswith("/"):
        target = target[:-1]
    return target
