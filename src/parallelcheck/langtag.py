"""BCP 47 language tags as parallelcheck uses them.

A language subtag has two letters (any ISO 639-1 style code, including private ones
such as ``em``) or is one of the common three-letter codes listed in ``THREE_LETTER``; longer
words (``index``, ``readme``) and other three-letter words (``faq``, ``api``) are not tags, so
stray files in an article folder are not mistaken for language versions.

Tags are compared case-insensitively and shown in their conventional casing: the language
subtag in lower case (``en``), a script subtag in title case (``zh-Hant``), a region subtag in
upper case (``pt-BR``), anything else in lower case.  ``_`` is accepted as a separator
(``zh_TW``) and shown as ``-``.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TAG = re.compile(
    r"^(?P<lang>[a-z]{2,3})"
    r"(?:-(?P<script>[a-z]{4}))?"
    r"(?:-(?P<region>[a-z]{2}|[0-9]{3}))?"
    r"(?P<rest>(?:-[a-z0-9]{1,8})*)$",
    re.IGNORECASE,
)


THREE_LETTER = frozenset(
    [
        "ast",
        "ceb",
        "ckb",
        "cmn",
        "fil",
        "gsw",
        "hak",
        "haw",
        "hil",
        "kab",
        "lzh",
        "nan",
        "nds",
        "sah",
        "wuu",
        "yue",
        "zza",
    ]
)


def canonical_tag(text: str) -> str | None:
    """Return *text* as a canonically cased BCP 47 tag, or ``None`` if it is not one.

    >>> canonical_tag("zh-hant"), canonical_tag("PT_br"), canonical_tag("readme")
    ('zh-Hant', 'pt-BR', None)
    """
    match = _TAG.match(text.replace("_", "-"))
    if match is None:
        return None
    lang = match["lang"].lower()
    if len(lang) == 3 and lang not in THREE_LETTER:
        return None
    parts = [lang]
    if match["script"]:
        parts.append(match["script"].title())
    if match["region"]:
        parts.append(match["region"].upper())
    if match["rest"]:
        parts.extend(p.lower() for p in match["rest"].split("-") if p)
    return "-".join(parts)


@lru_cache(maxsize=1024)  # asked for the same few tags again and again
def primary_language(tag: str) -> str:
    """The language subtag alone: ``zh-Hant`` → ``zh``."""
    return tag.split("-", 1)[0].lower()
