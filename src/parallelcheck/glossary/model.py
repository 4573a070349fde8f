"""The glossary model: terms, their forms in each language, and which entry applies to a
version.

The model
---------

A :class:`Glossary` is a tuple of :class:`Term` objects.  A term is either

* a *keep* term (``keep: DeepInfer``): written exactly like this, case and all, in every
  language version; or
* a translated term with, per language tag, a :class:`LangTerms`: the approved forms (the first
  is the preferred one), the forbidden forms, and whether matching is case-sensitive.

``forbidden`` may also be given on the term itself: those forms are forbidden in every language.
Every term records its ``origin`` (``file:line``) for messages; it takes no part in comparing
glossaries, so a glossary imported from TBX and read back from YAML compares equal.

Language tags
-------------

Language tags are canonicalised with :func:`parallelcheck.text.langtag.canonical_tag`.  A term's
language entry applies to a version whose tag is the same, or more specific (``zh`` applies to
``zh-Hant``), or the same Chinese script by region (``zh-Hant`` ↔ ``zh-TW``/``zh-HK``/``zh-MO``,
``zh-Hans`` ↔ ``zh-CN``/``zh-SG``, and a plain ``zh`` version counts as Simplified — it never
takes a ``zh-Hant`` entry); a bare version tag (``pt``) takes the one entry of that
language when there is exactly one.

:func:`match_key` is a form as matching sees it (the linter compares forms by it, and so
does :mod:`parallelcheck.glossary.match`); a :class:`Problem` is one thing wrong with a
glossary, as lint reports it.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from parallelcheck.text.langtag import primary_language
from parallelcheck.text.regexes import compile_pattern

# ---------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class LangTerms:
    """The forms of a term in one language: approved (first preferred) and forbidden."""

    approved: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    case_sensitive: bool = False


@dataclass(frozen=True)
class Term:
    """One glossary entry (see the module documentation)."""

    id: str
    keep: str | None = None
    langs: Mapping[str, LangTerms] = field(default_factory=dict)
    note: str | None = None
    origin: str = field(default="", compare=False)
    forbidden: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return self.origin.rsplit(":", 1)[0]

    @property
    def line(self) -> int | None:
        tail = self.origin.rsplit(":", 1)[-1]
        return int(tail) if tail.isdigit() else None

    def entry(self, lang: str) -> LangTerms | None:
        """The forms that apply to a version in ``lang`` (None: the term says nothing there).

        A keep term applies everywhere: its one approved form is ``keep``, case-sensitive.
        Forms forbidden on the term itself are added to every language.
        """
        if self.keep is not None:
            own = self.langs.get(_resolve_tag(self.langs, lang) or "")
            forbidden = (*self.forbidden, *(own.forbidden if own else ()))
            return LangTerms((self.keep,), tuple(dict.fromkeys(forbidden)), True)
        tag = _resolve_tag(self.langs, lang)
        if tag is None:
            return None
        own = self.langs[tag]
        if not self.forbidden:
            return own
        forbidden = tuple(dict.fromkeys((*own.forbidden, *self.forbidden)))
        return LangTerms(own.approved, forbidden, own.case_sensitive)

    def suggestion(self, lang: str) -> str | None:
        """The form to write instead of a forbidden one: the keep form or preferred form."""
        entry = self.entry(lang)
        return entry.approved[0] if entry and entry.approved else None


@dataclass(frozen=True)
class Glossary:
    """Every term of the glossaries of a run, in the order read.

    Plain frozen data, so it can be sent to worker processes; compiled matchers are cached
    elsewhere (:mod:`parallelcheck.glossary.match`), keyed by ``fingerprint`` — a digest of the
    terms
    that survives pickling, so a worker compiles each language once, not once per article.
    """

    terms: tuple[Term, ...] = ()
    sources: tuple[str, ...] = field(default=(), compare=False)
    fingerprint: str = field(default="", compare=False)

    @classmethod
    def of(cls, terms: Sequence[Term], sources: Sequence[str] = ()) -> Glossary:
        """A glossary with its fingerprint computed."""
        terms = tuple(terms)
        digest = hashlib.sha256(repr(terms).encode("utf-8")).hexdigest()[:32]
        return cls(terms, tuple(sources), digest)

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def by_id(self) -> dict[str, Term]:
        return {term.id: term for term in self.terms}

    def languages(self) -> set[str]:
        """Every language tag some term lists (keep terms list none)."""
        return {lang for term in self.terms for lang in term.langs}

    def applies_to(self, lang: str) -> bool:
        """Whether any term has forms for a version in ``lang``."""
        return any(term.entry(lang) is not None for term in self.terms)


_ZH_REGIONS = {"TW": "Hant", "HK": "Hant", "MO": "Hant", "CN": "Hans", "SG": "Hans", "MY": "Hans"}


def _zh_script(tag: str) -> str | None:
    parts = tag.split("-")
    if parts[0] != "zh":
        return None
    for part in parts[1:]:
        if part in ("Hant", "Hans"):
            return part
    for part in parts[1:]:
        if part in _ZH_REGIONS:
            return _ZH_REGIONS[part]
    return "Hans"  # plain zh is written in Simplified characters by convention


def _resolve_tag(langs: Mapping[str, LangTerms], lang: str) -> str | None:
    """The tag of ``langs`` that applies to a version in ``lang`` (module documentation)."""
    if lang in langs:
        return lang
    lower = lang.lower()
    best = None
    for tag in langs:
        if lower.startswith(tag.lower() + "-") and (best is None or len(tag) > len(best)):
            best = tag
    if best is not None:
        return best
    script = _zh_script(lang)
    if script is not None:
        for tag in sorted(langs):
            if _zh_script(tag) == script:
                return tag
        return None
    primary = primary_language(lang)
    same = [tag for tag in langs if primary_language(tag) == primary]
    if "-" not in lang and len(same) == 1:
        return same[0]
    return None


# ---------------------------------------------------------------------------
# Problems: raised at once when loading, collected when linting


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a glossary, at ``path:line``."""

    path: str
    line: int | None
    message: str
    severity: str = "error"

    def describe(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        kind = "warning: " if self.severity == "warning" else ""
        return f"{where}: {kind}{self.message}"


# ---------------------------------------------------------------------------
# Match keys (the linter's and the matcher's)

_SEPARATORS = compile_pattern(r"[\s\-\u2010\u2011\u2012\u2013\u00ad]+")
_LATIN_CLASS = "A-Za-z0-9\u00c0-\u024f"
#: A space (separators are single spaces by then) not between two Latin characters.
_LONE_SPACE = compile_pattern(f"(?<![{_LATIN_CLASS}]) | (?![{_LATIN_CLASS}])")


def match_key(form: str, case_sensitive: bool = False) -> str:
    """The form as matching sees it: NFKC, case folded unless case-sensitive, hyphens and
    spaces as one space, and no space next to a non-Latin character (``PD 分離`` = ``PD分離``)."""
    text = form if form.isascii() else unicodedata.normalize("NFKC", form)
    if not case_sensitive:
        text = text.casefold()
    if text.isalnum():  # one word: no separator to fold (most forms)
        return text
    text = _SEPARATORS.sub(" ", text).strip()
    return _LONE_SPACE.sub("", text) if " " in text else text
