"""Link targets compared across versions.

Translations legitimately point at their own language's copy of a page: ``/ja/docs/x``
(or ``https://example.org/ja/docs/x``) in the Japanese version where English has ``/docs/x``.
A *localised prefix* is a URL path prefix with a ``{lang}`` placeholder (default
``/{lang}/``); a target that starts with such a prefix filled with the version's own language
tag (any case, ``-`` or ``_``) is compared without it.  A trailing slash and surrounding spaces
never count as a difference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

DEFAULT_PREFIXES = ("/{lang}/",)


def localised_prefix_patterns(lang: str, prefixes: Sequence[str]) -> list[re.Pattern[str]]:
    """Compile the configured prefixes for one language version."""
    variants = {lang, lang.lower(), lang.replace("-", "_"), lang.lower().replace("-", "_")}
    alternation = "|".join(sorted(re.escape(v) for v in variants))
    patterns = []
    for prefix in prefixes:
        head, _, tail = prefix.partition("{lang}")
        site = r"(?:[a-z][a-z0-9+.-]*://[^/]+)?" if head.startswith("/") else ""
        pattern = f"^(?P<head>{site}{re.escape(head)})(?:{alternation}){re.escape(tail)}"
        patterns.append(re.compile(pattern, re.IGNORECASE))
    return patterns


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
