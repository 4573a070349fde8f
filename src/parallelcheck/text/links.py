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
from dataclasses import dataclass
from functools import cache
from urllib.parse import unquote, unquote_plus, urlsplit

from parallelcheck.text.lexicon import LETTER_RUN, URL_IN_SENTENCE
from parallelcheck.text.regexes import compile_pattern

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
        # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
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


# ---------------------------------------------------------------------------
# Localisation-aware comparison of targets (the rules': alignment keeps normalise_target)

_LIQUID_LINK = compile_pattern(r"^\{%-?\s*(?:link|post_url)\s+(?P<path>[^\s%]+)\s*-?%\}")
_SITE_VARIABLE = compile_pattern(r"^(?:\{\{-?\s*site\.(?:url|baseurl)\s*-?\}\})+")
_ABSOLUTE = compile_pattern(r"^(?P<scheme>[a-z][a-z0-9+.-]*:)//(?P<host>[^/?#]*)", re.IGNORECASE)
_SUBTAG = compile_pattern(r"^(?:[a-z]{2}|[a-z]{4}|\d{3})$")
#: Slashes repeated inside a path (not the ``//`` of a URL written inside a token,
#: ``src="https://…"``).
_REPEATED_SLASHES = compile_pattern(r"(?<!:)/{2,}")
#: What a fragment into a page of the site's own, localised or relative, is compared as.
LOCAL_FRAGMENT = "#…"


@dataclass(frozen=True)
class Localisation:
    """How one version's link targets are compared: the configured localised prefixes
    (:func:`localised_prefix_patterns`) and the language tags that may stand as a path
    segment or a subdomain — the version's own and the source's (lower case, ``_`` read as
    ``-``), each also without its region or script (``zh`` of ``zh-CN``)."""

    patterns: tuple[re.Pattern[str], ...]
    tags: frozenset[str]
    #: The region subtags of those tags, lower case (``cn`` of ``zh-CN``): a site may name its
    #: localised copy by the region alone (``cn.vite.dev``).
    regions: frozenset[str] = frozenset()

    def is_host_tag(self, label: str) -> bool:
        """Whether a host's first label names one of the tags (:meth:`is_tag`) or the region
        of one (``cn.vite.dev`` for zh-CN)."""
        return self.is_tag(label) or label.lower() in self.regions

    def is_tag(self, segment: str) -> bool:
        """Whether a path segment or subdomain names one of the tags, with or without a
        region or script subtag (``en-US`` for ``en``, ``zh_cn`` for ``zh-CN``)."""
        segment = segment.lower().replace("_", "-")
        if segment in self.tags:
            return True
        primary, _, rest = segment.partition("-")
        return bool(rest) and primary in self.tags and _SUBTAG.match(rest) is not None


def localisation(lang: str, prefixes: Sequence[str], source: str | None = None) -> Localisation:
    """The :class:`Localisation` of version *lang* of an article whose source is *source*."""
    return _localisation(lang, tuple(prefixes), source)


@cache
def _localisation(lang: str, prefixes: tuple[str, ...], source: str | None) -> Localisation:
    tags, regions = set(), set()
    for tag in {lang, source or lang}:
        tag = tag.lower().replace("_", "-")
        tags |= {tag, tag.partition("-")[0]}
        regions |= {part for part in tag.split("-")[1:] if _REGION.match(part)}
    return Localisation(_patterns(lang, prefixes, source), frozenset(tags), frozenset(regions))


#: A region subtag: two letters (``cn``, ``br``) or three digits (``419``).
_REGION = compile_pattern(r"^(?:[a-z]{2}|\d{3})$")


def compared_target(target: str, where: Localisation) -> str:
    """The form of a link target (or a URL in running text) that rules compare between
    versions: :func:`normalise_target`, and beyond it

    * a Liquid/Jekyll ``{% link path %}`` is the root-relative ``/path``, and a
      ``{{ site.url }}``/``{{ site.baseurl }}`` prefix is dropped (root-relative too);
    * a language segment anywhere in the path (``../ko/tutorial/x.md``,
      ``https://developer.mozilla.org/en-US/docs/…``), a language subdomain
      (``ko.wikipedia.org``, or the region of one: ``cn.vite.dev`` in the zh-CN version) and a
      query parameter whose value is a language tag (``?hl=zh-cn``) naming the version's own
      language or the source's are dropped;
    * ``./`` at the start and repeated slashes inside the path do not count;
    * the fragment of a link into a page of the site's own — relative or root-relative —
      is compared only for being there (:data:`LOCAL_FRAGMENT`): it is that page's own
      heading id, translated with it (``#파드-필드-저장`` for ``#store-pod-fields``), and the
      page itself is not at hand.  So is a translated fragment (one with a letter outside
      ASCII) of another site's localised copy (``developer.mozilla.org/fr/…#mots-clés``).
      Any other fragment of an absolute URL (``ko.vite.dev/…#browser-compatibility``), or
      of an in-page link (``#…`` alone, which the rules resolve through the aligned
      headings), is compared as written; a rule may take ``X#…`` in one version as the
      same target as ``X#anything`` in another;
    * a query value of words apart (``?text=I'm loving @fastapi because…``, ``?subject=Hello
      there``) is prose, translated with the page: compared only for being there.
    """
    target = target.strip()
    liquid = _LIQUID_LINK.match(target)
    if liquid:
        target = "/" + liquid["path"].lstrip("/") + target[liquid.end() :]
    else:
        site = _SITE_VARIABLE.match(target)
        if site:
            target = "/" + target[site.end() :].lstrip("/")
    prefixed = any(pattern.match(target) for pattern in where.patterns)
    target = normalise_target(target, where.patterns)
    if not target or target.startswith("#"):
        return target
    rest, hash_, fragment = target.partition("#")
    absolute = _ABSOLUTE.match(rest)
    localised = absolute is None  # a page of the site's own, unless on another host
    translated = prefixed  # a localised copy of another site's page (when absolute)
    head = ""
    if absolute:
        host = absolute["host"]
        first, dot, remainder = host.partition(".")
        if dot and "." in remainder and where.is_host_tag(first):
            host, translated = remainder, True
        head = f"{absolute['scheme']}//{host}"
        rest = rest[absolute.end() :]
    path, query_mark, query = rest.partition("?")
    segments = path.split("/")
    kept = [s for s in segments if not where.is_tag(s)]
    translated = translated or len(kept) != len(segments)
    path = _REPEATED_SLASHES.sub("/", "/".join(kept))
    if path.startswith("./"):
        path = path[2:]
    if len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    if query and "=" in query:
        query = _without_language_parameters(query, where)
        query_mark = query_mark if query else ""
    if query and (" " in query or "%" in query or "+" in query or not query.isascii()):
        query = _PROSE_VALUE.sub(_blank_prose, query)
    compared = head + path + query_mark + query
    if hash_:
        own = localised or (translated and not unquote(fragment).isascii())
        compared += LOCAL_FRAGMENT if own else hash_ + fragment
    return compared or target


def _without_language_parameters(query: str, where: Localisation) -> str:
    """A query without its parameters whose value names a language of *where*
    (``hl=zh-cn``, ``lang=ja``): the page in another language, the same page."""
    kept = [
        parameter
        for parameter in query.split("&")
        if not ((value := parameter.partition("=")[2]) and where.is_tag(value))
    ]
    return "&".join(kept)


#: A query parameter's value (``key=value`` up to the next ``&``).
_PROSE_VALUE = compile_pattern(r"(?<==)[^&]*")
#: A word of a query value (two letters or more).
_WORDS = compile_pattern(r"[^\W\d_]{2,}")


def _blank_prose(value: re.Match[str]) -> str:
    """A query value of prose (two words or more with space between, or a word of letters
    outside ASCII, as Japanese and Chinese write without spaces: a tweet's text, a mail's
    subject) as compared: the translator's to translate, so only that it is there counts."""
    text = unquote_plus(value.group()).strip()
    words = _WORDS.findall(text)
    spaced = any(ch.isspace() for ch in text) and len(words) >= 2
    prose = spaced or any(not word.isascii() for word in words)  # ブログを学び終えました
    return PROSE_VALUE if prose else value.group()


#: What a query value of prose is compared as (see :func:`_blank_prose`).
PROSE_VALUE = "…"


def is_localised(target: str, where: Localisation) -> bool:
    """Whether *target* names a language of *where* the way :func:`compared_target` leaves
    out: a localised prefix, a language segment of its path or a language subdomain."""
    target = target.strip()
    if any(pattern.match(target) for pattern in where.patterns):
        return True
    rest = target.partition("#")[0].partition("?")[0]
    absolute = _ABSOLUTE.match(rest)
    if absolute:
        first, dot, remainder = absolute["host"].partition(".")
        if dot and "." in remainder and where.is_host_tag(first):
            return True
        rest = rest[absolute.end() :]
    return any(where.is_tag(segment) for segment in rest.split("/") if segment)


def site_path(compared: str) -> str | None:
    """The root-relative form (``/docs/x``) of an absolute http(s) target in its compared
    form, for telling it equal to a root-relative link to the same page; ``None`` for any
    other target."""
    absolute = _ABSOLUTE.match(compared)
    if absolute is None or absolute["scheme"].lower() not in ("http:", "https:"):
        return None
    path = compared[absolute.end() :]
    return path if path.startswith("/") and len(path) > 1 else None


# ---------------------------------------------------------------------------
# A link's text naming a token its own target contradicts

_ISSUE_TEXT = compile_pattern(r"^(?:[\w.-]+/[\w.-]+)?#(\d+)$")
_ISSUE_TARGET = compile_pattern(
    r"/(?:issues|pull|pulls|merge_requests|discussions)/(\d+)(?:[/?#]|$)"
)
_VERSION_TEXT = compile_pattern(r"^v?(\d+(?:\.\d+)+)$", re.IGNORECASE)
_VERSION_IN_TARGET = compile_pattern(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w.]*\d)", re.IGNORECASE)
_FILE_TEXT = compile_pattern(
    r"^(?:[\w.-]+/)*(?P<name>[\w-][\w.-]*?)\.(?P<ext>[A-Za-z][A-Za-z0-9]{0,5})$"
)


def text_contradiction(text: str, target: str, tags: frozenset[str] = frozenset()) -> str | None:
    """What a link's own target says where its text names a token, if the two disagree:
    ``#123`` on a link to ``…/issues/132`` (→ ``issue 132``), ``v1.2.3`` on a link whose path
    holds versions but not that one (→ the versions), a file name (``config.py``) on a link to
    another file of the same extension (→ the target's file name; a language infix
    ``x.ko.md`` naming one of *tags* does not count).  ``None`` when the text names no such
    token or the target agrees (or says nothing of it)."""
    text = text.strip().strip("`").strip()
    if not text or " " in text:
        return None
    page = target.partition("#")[0].partition("?")[0]
    issue = _ISSUE_TEXT.match(text)
    if issue:
        found = _ISSUE_TARGET.search(target)
        if found and found[1] != issue[1]:
            return f"issue {found[1]}"
        return None
    version = _VERSION_TEXT.match(text)
    if version:
        found = [m[1] for m in _VERSION_IN_TARGET.finditer(page.partition("://")[2] or page)]
        if found and version[1] not in found:
            return ", ".join(dict.fromkeys(found))
        return None
    named = _FILE_TEXT.match(text)
    if named and not any(ch.isdigit() for ch in named["ext"]):
        absolute = _ABSOLUTE.match(page)
        path = page[absolute.end() :] if absolute else page
        last = path.rstrip("/").rpartition("/")[2]  # a host (``www.kapa.ai``) is no file
        stem, dot, ext = last.rpartition(".")
        if not dot or ext.lower() != named["ext"].lower():
            return None
        base, dot2, infix = stem.rpartition(".")
        if dot2 and infix.lower().replace("_", "-") in tags:
            stem = base
        if stem != named["name"] and stem.lower() != named["name"].lower():
            return last
    return None


# ---------------------------------------------------------------------------
# URLs written bare, and pages a site moved


def bare_urls(text: str) -> list[str]:
    """The http(s) URLs a text (its inline code cut out) writes bare, which GitHub-flavoured
    Markdown and MDX make links — not one standing where a link's target would, in markup a
    translation broke (:func:`_broken_link`)."""
    return [
        url[0]
        for url in URL_IN_SENTENCE.finditer(text)
        if url[0].lower().startswith(("http://", "https://"))
        and not _broken_link(text, url.start())
    ]


#: What stands before the target of a link whose markup a translation broke: ``](`` with
#: a space between, or full-width brackets (``[Artifact Registry] (https://…)``,
#: ``[…方法]（https://…）``).
_BROKEN_BEFORE = compile_pattern(r"[\]］]\s*[(（]\s*$")


def _broken_link(text: str, start: int) -> bool:
    """Whether the URL at *start* of a block's text is the target of a link whose markup is
    broken — after ``] (`` or ``]（``, or in brackets ``(…)`` in a text holding a ``[`` (the
    link's text moved away from it: ``[Pytest]를 이용한 테스트(https://pytest.org)``) —
    rather than a URL written bare: the version lacks the link, and readers see brackets."""
    before = text[max(0, start - 40) : start]
    if _BROKEN_BEFORE.search(before):
        return True
    return before.endswith(("(", "（")) and ("[" in text or "［" in text)


def same_page_moved(a: str, b: str) -> bool:
    """Whether two absolute URLs are one page of a site that reorganised its addresses
    (``developer.mozilla.org/…/Web/CSS/font-family`` and ``…/Web/CSS/Reference/Properties/
    font-family``): the same host, query and fragment (or no fragment on one side), the same
    last path segment, and the sections before it differ only by section names — each a
    capitalised name without a digit, as a site's sections are named (``Reference``,
    ``Guides``):

    * one path is the other's segments with some more inserted (``font-family``);
    * or, when the page's own name is of several words (``Form_validation``,
      ``Using_custom_elements``), the sections between the two paths' common start and end
      were renamed too (``Learn/Forms`` → ``Learn_web_development/Extensions/Forms``,
      ``Web_Components`` → ``API/Web_components``).  A one-word page (its extension aside)
      is not taken for another section's page of that name (``Document/open`` and
      ``Window/open`` are two pages, and so are two repositories' ``README.md``).

    A segment with a digit (``v1``, ``3.x``) or of small letters (``next``, ``latest``, a
    placeholder ``lang``) may be another version of the page: not the same page."""
    try:
        one, two = urlsplit(a), urlsplit(b)
        host = one.hostname
        if not host or host != two.hostname or one.query != two.query:
            return False
    except ValueError:  # not a URL (an unclosed "[" in its host)
        return False
    if one.fragment and two.fragment and one.fragment != two.fragment:
        return False
    first = [part for part in one.path.split("/") if part]
    second = [part for part in two.path.split("/") if part]
    if not first or not second or first[-1] != second[-1] or first == second:
        return False
    short, long = (first, second) if len(first) < len(second) else (second, first)
    rest = iter(long)
    inserted = [part for part in long if part not in short]
    if all(part in rest for part in short) and all(map(_section_name, inserted)):
        return True
    if len(LETTER_RUN.findall(first[-1].rsplit(".", 1)[0])) < 2:
        return False  # a page of one word (an extension aside: README.md)
    # the sections between the common start and the common end (the page's name and on)
    shorter = min(len(first), len(second))
    start = 0
    while start < shorter - 1 and first[start] == second[start]:
        start += 1
    end = 1
    while end < shorter - start and first[-end - 1] == second[-end - 1]:
        end += 1
    renamed = first[start : len(first) - end] + second[start : len(second) - end]
    return all(map(_section_name, renamed))


def _section_name(segment: str) -> bool:
    """Whether a path segment is named as a site's sections are: capitalised, no digit."""
    return segment[:1].isupper() and not any(ch.isdigit() for ch in segment)
