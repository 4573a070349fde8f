"""BCP 47 language tags as parallelcheck uses them.

Three questions are asked of a piece of text, each stricter than the one before:

:func:`canonical_tag`
    Is it a language tag at all?  It must be well formed (a language subtag of two or three
    letters, optional script, region and further subtags) *and* registered: its subtags are
    looked up in the IANA language subtag registry that ``langcodes`` ships
    (:func:`is_registered`).  ``jp``, ``go``, ``js``, ``py``, ``ls`` and ``cp`` are no
    registered language, so they are no tags.  This is what configuration, ``--lang`` and
    ``--source`` accept.

:func:`language_of_name`
    May a file or folder name be taken for a language version without anyone saying so?  The
    registry holds thousands of three-letter codes that are also ordinary words (``tar``,
    ``man``, ``api``, ``css``, ``new``) and deprecated codes (``sh``), so a name is a language
    only when, in addition, the Unicode CLDR (through ``babel``) has locale data for its
    language — the languages people write documentation in — and a script subtag is one the
    language is written in (``zh-Hant``, ``sr-Latn``; not ``cs-Java``).  A language the
    configuration names is accepted whatever CLDR holds.  Discovery adds a second condition of
    its own: the layout must corroborate the tag (see :mod:`parallelcheck.discover.sets`).

:func:`suggest_tags`
    What did the user mean?  ``jp`` is Japan's region code: the language CLDR's likely-subtags
    data gives for a region is suggested first (``jp`` → ``ja``, ``cn`` → ``zh``, ``kr`` →
    ``ko``), then close spellings among the tags at hand.

Tags are compared case-insensitively and shown in their conventional casing: the language
subtag in lower case (``en``), a script subtag in title case (``zh-Hant``), a region subtag in
upper case (``pt-BR``), anything else in lower case.  ``_`` is accepted as a separator
(``zh_TW``) and shown as ``-``.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Collection, Iterable

from babel import localedata
from babel.core import get_global

from parallelcheck.text.regexes import compile_pattern

_TAG = compile_pattern(
    r"^(?P<lang>[a-z]{2,3})"
    r"(?:-(?P<script>[a-z]{4}))?"
    r"(?:-(?P<region>[a-z]{2}|[0-9]{3}))?"
    r"(?P<rest>(?:-[a-z0-9]{1,8})*)$",
    re.IGNORECASE,
)


def _well_formed(text: str) -> str | None:
    """*text* in canonical casing when it has the shape of a BCP 47 tag, else ``None``."""
    match = _TAG.match(text.replace("_", "-"))
    if match is None:
        return None
    parts = [match["lang"].lower()]
    if match["script"]:
        parts.append(match["script"].title())
    if match["region"]:
        parts.append(match["region"].upper())
    if match["rest"]:
        parts.extend(p.lower() for p in match["rest"].split("-") if p)
    return "-".join(parts)


def canonical_tag(text: str) -> str | None:
    """Return *text* as a canonically cased, registered BCP 47 tag, or ``None``.

    >>> canonical_tag("zh-hant"), canonical_tag("PT_br"), canonical_tag("jp")
    ('zh-Hant', 'pt-BR', None)
    """
    tag = _well_formed(text)
    if tag is None or not is_registered(tag):
        return None
    return tag


def is_registered(tag: str) -> bool:
    """Are the subtags of the well-formed, canonically cased *tag* registered, as
    ``langcodes.tag_is_valid`` says?

    A tag CLDR has a locale for whose language subtag has two letters (:func:`_cldr_tags`:
    ``en``, ``pt-BR``, ``zh-Hant``, the names of nearly every version) is registered without
    asking: ``langcodes`` is imported only for the others (``no-image-metadata``, ``it-VT``).
    Its import takes 245 M instructions, 219 M of them compiling an 18,644-character validity
    pattern, for an answer that is yes for every one of these tags (``tests/test_langtag.py``
    asks ``langcodes`` about each): without it a warm re-run of the FastAPI corpus takes
    2,527 M instructions instead of 2,726 M (-7.3 %), a cold one 0.2 G fewer of its 48 G."""
    if tag in _cldr_tags():
        return True
    import langcodes

    return langcodes.tag_is_valid(tag)


@functools.cache
def _cldr_tags() -> frozenset[str]:
    """The tags of the locales CLDR has data for (through ``babel``) that are their own
    canonical form and whose language subtag has two letters, each also without its script
    (``zh-Hans-CN`` gives ``zh-CN``, which names have and CLDR has no locale for).

    Three-letter languages are left out: CLDR's data is newer than the registry's in
    ``langcodes`` (babel 2.19 has CLDR 47, langcodes 3.5.1 CLDR 40), and the languages and
    scripts it added since (``tok``, ``isv``, ``suz-Sunu``) all have three-letter language
    subtags."""
    tags = set()
    for name in localedata.locale_identifiers():
        tag = _well_formed(name)
        if tag is None or tag.replace("-", "_") != name or len(primary_language(tag)) != 2:
            continue
        tags.add(tag)
        script = _script_of(tag)
        if script is not None:
            tags.add(tag.replace(f"-{script}", "", 1))
    return frozenset(tags)


def primary_language(tag: str) -> str:
    """The language subtag alone: ``zh-Hant`` → ``zh``."""
    return tag.split("-", 1)[0].lower()


def _script_of(tag: str) -> str | None:
    parts = tag.split("-")
    return parts[1] if len(parts) > 1 and len(parts[1]) == 4 and parts[1].isalpha() else None


def is_written_language(tag: str) -> bool:
    """Does CLDR hold locale data for *tag*'s language (and script, when it names one)?"""
    language = primary_language(tag)
    if not localedata.exists(language):
        return False
    script = _script_of(tag)
    if script is None:
        return True
    if localedata.exists(f"{language}_{script}"):
        return True
    likely = get_global("likely_subtags").get(language, "")
    return likely.split("_")[1:2] == [script]


def language_of_name(name: str, configured: Collection[str] = ()) -> str | None:
    """The language a file or folder *name* stands for, or ``None``.

    A name is a language when :func:`canonical_tag` accepts it and either CLDR knows the
    language as a written one (:func:`is_written_language`) or its primary language is among
    the primary languages of *configured* (the configuration's ``languages:``).
    """
    tag = _well_formed(name)
    if tag is None:
        return None
    written = is_written_language(tag) or primary_language(tag) in {
        primary_language(c) for c in configured
    }
    # The registry is asked last: most names that are no language (css, api) are no
    # written one either.
    return tag if written and is_registered(tag) else None


def suggest_tags(text: str, choices: Iterable[str]) -> list[str]:
    """Tags the user may have meant by *text*, best first (possibly none).

    A two-letter region code (``jp``) suggests the language CLDR's likely subtags give that
    region (``ja``); then the *choices* spelled closest to *text* follow.
    """
    choices = sorted(set(choices))
    found: list[str] = []
    shaped = _well_formed(text)
    if shaped is not None and len(shaped) == 2:
        likely = get_global("likely_subtags").get(f"und_{shaped.upper()}")
        if likely:
            language = likely.split("_")[0]
            found.extend(c for c in choices if primary_language(c) == language)
            if not found:
                found.append(language)
    lowered = {c.lower(): c for c in choices}
    for close in difflib.get_close_matches(text.lower().replace("_", "-"), lowered, n=3):
        if lowered[close] not in found:
            found.append(lowered[close])
    return [tag for tag in found if tag != shaped]


def did_you_mean(text: str, choices: Iterable[str]) -> str:
    """`` (did you mean ja?)`` for :func:`suggest_tags`' first answers, or ``""``."""
    suggestions = suggest_tags(text, choices)[:3]
    return f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
