"""Linting a loaded glossary: contradictions (errors) and shadowing that makes counts differ
between languages (warnings); :func:`lint` lists which is which.

The shadowing pairs are found through an index of the forms' loose keys
(:func:`_containing_pairs`) and judged from the text where that is certain
(:func:`_contains_for_sure`), else by the matcher
(:func:`parallelcheck.glossary.match.form_contains`).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence

from parallelcheck.glossary.model import (
    _LATIN_CLASS,
    _SEPARATORS,
    Glossary,
    Problem,
    Term,
    match_key,
)
from parallelcheck.text.regexes import compile_pattern


def lint(glossary: Glossary, *, shadowing: bool = True) -> list[Problem]:
    """Contradictions in a glossary, as :class:`Problem` objects in file order.

    Errors (``glossary lint`` exits 2; ``check`` refuses the glossary):

    * two terms with the same id;
    * a form both approved and forbidden for the same term and language (after matching's
      normalisation: case unless case-sensitive, hyphen = space, full/half width);
    * one form approved for two terms in the same language — a match could not tell which
      term it is (keep terms count as approved in every language);
    * a form forbidden for one term and approved for another in the same language — text that
      follows the glossary would be reported.

    Warnings (printed, exit 0):

    * *shadowing* that makes counts differ between languages: matches never overlap and the
      longest form wins, so ``KV cache`` inside ``KV cache 量化`` counts for the longer term
      only.  That is harmless when the shorter term nests inside the longer one in every
      language both have; when it nests in some languages but not others, the shorter term
      is counted once more in the latter (and ``term-missing`` may report the former).
      Only checked with ``shadowing=True`` (the lint command); see :func:`_shadowing` for
      how the pairs of terms are found without comparing every pair.
    """
    found: list[Problem] = []

    def report(term: Term, message: str, severity: str = "error") -> None:
        found.append(Problem(term.path, term.line, f"term '{term.id}': {message}", severity))

    first: dict[str, Term] = {}
    for term in glossary.terms:
        if term.id in first:
            report(term, f"duplicate term id (first defined at {first[term.id].origin})")
        else:
            first[term.id] = term
    langs = sorted(glossary.languages())
    for term in glossary.terms:
        scopes = list(term.langs) if term.keep is None else ["*", *term.langs]
        for tag in scopes:
            entry = term.entry("und" if tag == "*" else tag)
            if entry is None or not entry.forbidden:
                continue
            where = "every language" if tag == "*" else tag
            seen = {match_key(form, entry.case_sensitive) for form in entry.approved}
            for form in entry.forbidden:
                key = match_key(form, entry.case_sensitive)
                if key in seen:
                    report(term, f"'{form}' is both approved and forbidden in {where}")
    # Forms compared across terms: folded (case-insensitively) unless both sides are
    # case-sensitive; a keep form ("*") is in every language.
    approved_by: dict[str, list[tuple[str, str, bool, Term, str]]] = {}

    def owner_of(term: Term, tag: str, key: str, exact: bool) -> tuple[Term, str] | None:
        """Another term with an approved form this form could not be told from, and where."""
        for other_tag, other_key, other_exact, other, _ in approved_by.get(key.casefold(), []):
            if other.id == term.id or not _same_scope(tag, other_tag):
                continue
            if exact and other_exact and key != other_key:
                continue
            return other, "every language" if "*" in (tag, other_tag) else tag
        return None

    def clashes(term: Term, keys: Sequence[tuple[str, str, str, bool]]):
        """(form, other term, where) of each of ``keys`` (see :func:`_approved_keys`) of
        ``term`` that an approved form of another term recorded so far cannot be told from."""
        for tag, key, form, exact in keys:
            clash = owner_of(term, tag, key, exact)
            if clash:
                yield form, *clash

    # Each approved form against those of the terms before it (a clash is reported once, at
    # the later term); then each forbidden form against every approved one.
    for term in glossary.terms:
        approved = list(_approved_keys(term, langs))
        for form, other, where in clashes(term, approved):
            report(
                term,
                f"'{form}' is also an approved form of term '{other.id}' ({other.origin}) "
                f"in {where}: a match could not tell the two apart",
            )
        for tag, key, form, exact in approved:
            approved_by.setdefault(key.casefold(), []).append((tag, key, exact, term, form))
    for term in glossary.terms:
        for form, owner, where in clashes(term, list(_forbidden_keys(term, langs))):
            report(
                term,
                f"forbidden form '{form}' is an approved form of term '{owner.id}' "
                f"({owner.origin}) in {where}",
            )
    if shadowing:
        found.extend(_shadowing(glossary, langs))
    return found


def _same_scope(tag: str, other: str) -> bool:
    return tag == other or "*" in (tag, other)


def _approved_keys(term: Term, langs: Sequence[str]):
    """(language or "*", match key, form, case-sensitive) of every approved form."""
    if term.keep is not None:
        yield "*", match_key(term.keep, True), term.keep, True
        return
    for tag in langs:
        entry = term.langs.get(tag)
        if entry is None:
            continue
        for form in entry.approved:
            yield tag, match_key(form, entry.case_sensitive), form, entry.case_sensitive


def _forbidden_keys(term: Term, langs: Sequence[str]):
    """(language or "*", match key, form, case-sensitive) of every forbidden form."""
    for form in term.forbidden:
        yield "*", match_key(form, term.keep is not None), form, term.keep is not None
    for tag, entry in term.langs.items():
        sensitive = entry.case_sensitive or term.keep is not None
        for form in entry.forbidden:
            yield tag, match_key(form, sensitive), form, sensitive


def _shadowing(glossary: Glossary, langs: Sequence[str]) -> list[Problem]:
    """The shadowing warnings of :func:`lint`, in the order of (outer term, inner term).

    A pair of terms is looked at when, in some language, a form of the inner term without
    spaces or hyphens is part of a form of the outer one.  Such pairs are found through an
    index (:func:`_containing_pairs`), not by comparing every pair, so the time grows with
    the terms and their containments, not with their square.  For each pair found, whether
    the inner form is *matched* inside the outer one in each language is
    :func:`parallelcheck.glossary.match.form_contains`; most answers are certain from the text alone
    (:func:`_contains_for_sure`), and the matcher only runs for the others.
    """
    from parallelcheck.glossary.match import form_contains

    terms = glossary.terms
    entries = {tag: [term.entry(tag) for term in terms] for tag in langs}
    texts = _FormTexts()
    # A term all of whose forms are matched only where their loose keys occur is looked for
    # only where its Latin forms may start (a word start): a match cannot start elsewhere.
    # A term with a dotless or dotted capital I (matched by i) has every position indexed.
    plain = [True] * len(terms)
    odd = [False] * len(terms)
    for tag in langs:
        for index, entry in enumerate(entries[tag]):
            for form in entry.approved if entry is not None else ():
                info = texts[form]
                plain[index] = plain[index] and info.plain_in(entry.case_sensitive)
                odd[index] = odd[index] or info.dotted_i
    # The forms of each term in each language, and the pairs of terms (inner × size + outer,
    # positions in ``terms``) whose loose keys are contained in each language.
    size = len(terms)
    forms_at = {
        tag: [None if e is None else tuple(texts[form] for form in e.approved) for e in column]
        for tag, column in entries.items()
    }
    contained: dict[str, set[int]] = {}
    for tag in langs:
        # Keys by term id: a repeated id (itself an error) takes its last term's forms.
        by_id = {term.id: forms for term, forms in zip(terms, forms_at[tag], strict=True) if forms}
        owned = [by_id.get(term.id, ()) for term in terms]
        contained[tag] = _containing_pairs(owned, plain, odd)
    pairs = set().union(*contained.values())

    def contains(long: _FormText, short: _FormText, tag: str, case_sensitive: bool) -> bool:
        sure = _contains_for_sure(long, short, case_sensitive)
        if sure is None:
            return form_contains(long.form, short.form, tag, case_sensitive)
        return sure

    found: list[tuple[tuple[int, int], Problem]] = []
    # Inner term first: the matcher compiles each inner form once while its pairs are looked at.
    for code in sorted(pairs):
        inner_index, outer_index = divmod(code, size)
        outer, inner = terms[outer_index], terms[inner_index]
        if inner.id == outer.id or (inner.keep is not None and outer.keep is not None):
            continue
        inside: list[str] = []
        outside: list[str] = []
        for tag in langs:  # sorted, so inside and outside are too
            shorts, longs = forms_at[tag][inner_index], forms_at[tag][outer_index]
            if shorts is None or longs is None:
                continue
            sensitive = entries[tag][inner_index].case_sensitive  # type: ignore[union-attr]
            if code not in contained[tag] and all(
                short.needs_loose(long, sensitive) for short in shorts for long in longs
            ):
                outside.append(tag)  # no form of one is part of a form of the other here
            elif any(contains(long, short, tag, sensitive) for short in shorts for long in longs):
                inside.append(tag)
            else:
                outside.append(tag)
        if inside and outside:
            problem = Problem(
                inner.path,
                inner.line,
                f"term '{inner.id}': its form is part of term '{outer.id}' "
                f"({outer.origin}) in {', '.join(inside)} but not in "
                f"{', '.join(outside)}: longest-match counting will differ between "
                "these languages",
                "warning",
            )
            found.append(((outer_index, inner_index), problem))
    return [problem for _, problem in sorted(found, key=lambda item: item[0])]


#: What ``\s`` matches (``str.isspace``) and the hyphens of :data:`_SEPARATORS`, deleted.
_NO_SEPARATORS = str.maketrans(
    "",
    "",
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000-\u2010\u2011\u2012\u2013\u00ad",
)


def _loose_key(form: str) -> str:
    """``match_key(form)`` without its spaces: what the pairs of :func:`_shadowing` are
    found by."""
    if form.isascii():
        return form.lower().translate(_NO_SEPARATORS)
    return unicodedata.normalize("NFKC", form).casefold().translate(_NO_SEPARATORS)


def _containing_pairs(
    forms: Sequence[Sequence[_FormText]], plain: Sequence[bool], odd: Sequence[bool]
) -> set[int]:
    """``inner × len(forms) + outer`` for every two positions of ``forms`` where the loose key
    (:func:`_loose_key`) of a form of the inner is part of that of a form of the outer — for
    a ``plain`` inner's form that starts with a Latin letter or digit, only at a word start
    of the outer form (unless the outer is ``odd``: everywhere).  An empty key is part of
    every key.

    Every suffix of every key is listed with its owner and sorted, in three lists: those
    starting at a Latin word start, inside a Latin word, or elsewhere; the keys holding a
    given key are then the owners of the suffixes that start with it, a contiguous run found
    by bisection.  The list of suffixes inside words is only made when some form needs it.
    """
    needles: dict[tuple[str, bool], list[int]] = {}
    for owner, owned in enumerate(forms):
        for form in owned:
            anywhere = not (plain[owner] and form.latin_start)
            needles.setdefault((form.loose, anywhere), []).append(owner)
    inside_needed = any(anywhere and _LATIN_KEY.match(key) for key, anywhere in needles)
    # Each suffix carries its owner after a NUL, which sorts before every character, so one
    # string sort orders them; a key holding a NUL (never read from a file) is found by a
    # plain scan instead.
    lists: dict[str, list[str]] = {kind: [] for kind in "WIO"}
    odd_keys: list[tuple[str, int]] = []
    for owner, owned in enumerate(forms):
        for form in owned:
            key = form.loose
            if "\x00" in key:
                odd_keys.append((key, owner))
                continue
            tail = "\x00" + chr(owner + 0x100)
            for kind, starts in form.starts(inside_needed and not odd[owner], odd[owner]):
                lists[kind].extend([key[start:] + tail for start in starts])
    for suffixes in lists.values():
        suffixes.sort()
    size = len(forms)
    pairs: set[int] = set()
    for (needle, anywhere), inners in needles.items():
        if not needle:
            kinds = "WIO"
        elif _LATIN_KEY.match(needle):
            kinds = "WI" if anywhere else "W"
        else:
            kinds = "O"
        outers: set[int] = {owner for key, owner in odd_keys if needle in key}
        if "\x00" in needle:
            kinds = ""  # only a key holding a NUL can hold it
        for kind in kinds:
            suffixes = lists[kind]
            end = bisect.bisect_left(suffixes, needle)
            while end < len(suffixes) and suffixes[end].startswith(needle):
                outers.add(ord(suffixes[end][-1]) - 0x100)
                end += 1
        if len(outers) == 1 and len(inners) == 1 and inners[0] in outers:
            continue  # only the key itself
        pairs.update(inner * size + outer for inner in inners for outer in outers if outer != inner)
    return pairs


#: A key's character that is a Latin letter or digit (where word starts matter).
_LATIN_KEY = compile_pattern(f"[{_LATIN_CLASS}]")


class _FormText:
    """What :func:`_contains_for_sure` needs of one form, worked out once per lint."""

    __slots__ = ("ascii", "caseless", "first", "form", "hangul_end", "hangul_start", "keys")
    __slots__ += ("latin_end", "latin_start", "low", "norm", "plain", "text", "text_low")
    __slots__ += ("dotted_i", "loose")

    def __init__(self, form: str):
        self.form = form
        self.ascii = form.isascii()
        self.norm = form if self.ascii else unicodedata.normalize("NFKC", form)
        self.text = " ".join(self.norm.split())  # as the matcher compiles it
        self.low, self.text_low = self.norm.lower(), self.text.lower()
        first = _FIRST_WORD.match(self.text)
        self.first = first.group() if first else ""
        head, tail = self.text[:1], self.text[-1:]
        if self.ascii:
            self.caseless = False  # only asked of forms beyond ASCII
            self.latin_start, self.latin_end = head.isalnum(), tail.isalnum()
            self.hangul_start = self.hangul_end = False
        else:
            self.caseless = _is_caseless(self.first)
            self.latin_start = bool(_SCRIPT_LATIN.match(head))
            self.latin_end = bool(_SCRIPT_LATIN.match(tail))
            self.hangul_start = bool(_SCRIPT_HANGUL.match(head))
            self.hangul_end = bool(_SCRIPT_HANGUL.match(tail))
        self.keys: dict[bool, str] = {}
        # Matched only where its loose key is part of the other's, when it cannot take the
        # English plural that changes letters (-y → -ies) and its case folds plainly.
        self.plain = tail not in ("y", "Y") and (self.ascii or _is_caseless(self.text))
        self.loose = self.low.translate(_NO_SEPARATORS) if self.ascii else _loose_key(form)
        self.dotted_i = not self.ascii and ("\u0131" in self.norm or "\u0130" in self.norm)

    def plain_in(self, case_sensitive: bool) -> bool:
        """Whether the form is only matched where its loose key occurs (see ``plain``)."""
        return self.text[-1:] not in ("y", "Y") if case_sensitive else self.plain

    def starts(self, inside_too: bool, everywhere: bool) -> list[tuple[str, Sequence[int]]]:
        """The positions of the loose key where a suffix is indexed, by list: ``W`` where a
        Latin letter or digit starts a word (for an ASCII form; beyond ASCII, or
        ``everywhere``, every Latin position), ``I`` where one follows another in a word
        (only with ``inside_too``), ``O`` every other position and the key's end."""
        key = self.loose
        if not _LATIN_KEY.search(key):
            return [("O", range(len(key) + 1))]
        if everywhere or not self.ascii:
            latin = [i for i in range(len(key)) if _LATIN_KEY.match(key, i)]
            other = sorted(set(range(len(key) + 1)) - set(latin))
            return [("W", latin), ("O", other)]
        if key.isalnum():  # words of letters and digits: most forms
            words: list[int] = []
            offset = 0
            for word in _SEPARATORS.split(self.norm):
                if word:
                    words.append(offset)
                offset += len(word)
            found: list[tuple[str, Sequence[int]]] = [("W", words), ("O", [len(key)])]
            if inside_too:
                found.append(("I", sorted(set(range(len(key))) - set(words))))
            return found
        kinds: dict[str, list[int]] = {"W": [], "I": [], "O": []}
        position, previous = 0, ""
        for char in self.norm:  # ASCII with other signs (c++, node.js): character by character
            if char.isspace() or char == "-":  # not in the key
                previous = char
                continue
            kind = ("I" if previous.isalnum() else "W") if char.isalnum() else "O"
            kinds[kind].append(position)
            previous, position = char, position + 1
        kinds["O"].append(position)
        if not inside_too:
            del kinds["I"]
        return list(kinds.items())

    def needs_loose(self, outer: _FormText, case_sensitive: bool) -> bool:
        """Whether this form can only be matched inside ``outer`` where its loose key
        (:func:`_loose_key`) is part of the outer's: then the index alone says no."""
        if case_sensitive:
            return self.text[-1:] not in ("y", "Y")
        return self.plain and (outer.ascii or not self.ascii)

    def key(self, case_sensitive: bool) -> str:
        """:func:`match_key` of the form."""
        if case_sensitive not in self.keys:
            self.keys[case_sensitive] = match_key(self.norm, case_sensitive)
        return self.keys[case_sensitive]


#: Scripts without case (kana, CJK, Hangul), with spaces: no case folding can touch them.
_CASELESS_RUN = compile_pattern(
    "[ \u3000-\u30ff\u3400-\u9fff\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]*"
)


def _is_caseless(text: str) -> bool:
    """Whether no character of ``text`` has case (so case-insensitive matching is exact)."""
    if _CASELESS_RUN.fullmatch(text):
        return True
    return all(char == char.lower() == char.upper() == char.casefold() for char in text)


class _FormTexts(dict):
    """:class:`_FormText` of each form met, made when first asked for."""

    def __missing__(self, form: str) -> _FormText:
        self[form] = info = _FormText(form)
        return info


_SCRIPT_LATIN = compile_pattern(f"[{_LATIN_CLASS}]")
_SCRIPT_HANGUL = compile_pattern("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_FORM_SEPARATOR = compile_pattern("[ \t\n\r\u00a0\\-\u2010\u2011\u2012\u2013\u00ad]")
#: Characters next to which a Latin-script form's word boundary certainly holds, whatever
#: the case folding: ASCII that is no letter or digit, separators, kana, CJK, Hangul.
_FIRST_WORD = compile_pattern("[^ \t\n\r\u00a0\\-\u2010\u2011\u2012\u2013\u00ad]+")
_NOT_LATIN = compile_pattern(
    "[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f\u00a0\u00ad\u2010-\u2013\u3000-\u30ff"
    "\u3400-\u9fff\uac00-\ud7a3\uff01-\uff0f]"
)


def _contains_for_sure(outer: _FormText, inner: _FormText, case_sensitive: bool) -> bool | None:
    """Whether :func:`parallelcheck.glossary.match.form_contains` (``short`` matched inside
    ``long``)
    is certainly true or certainly false, judged from the text alone; None when only the
    matcher can tell.

    True: the form's text occurs literally (or, all ASCII, but for case) where its word
    boundaries certainly hold (:func:`_bounded`).  False: the same forms as matching sees
    them, or no place where a match could start — the start of the form's first word, which
    the matcher needs literally but for case and the last letter an English inflection may
    change, occurs nowhere (or, for one ASCII word, see :func:`_ascii_word_may_match`).
    """
    if outer.loose == inner.loose and outer.key(case_sensitive) == inner.key(case_sensitive):
        return False  # (equal match keys have equal loose keys: most pairs need neither)
    text, norm = inner.text, outer.norm
    if not text or not inner.first or _FORM_SEPARATOR.match(text[0]):
        return None
    folded = not case_sensitive and inner.ascii and outer.ascii
    haystack, needle = (outer.low, inner.text_low) if folded else (norm, text)
    start = haystack.find(needle)
    while start >= 0:
        if _bounded(outer, inner, haystack, start, start + len(needle), folded):
            return True
        start = haystack.find(needle, start + 1)
    if folded and inner.latin_start and inner.latin_end and inner.first == text:
        return _ascii_word_may_match(haystack, needle)
    stem = inner.first
    if len(stem) == len(text) and re.search(r"[A-Za-z]{2,}$", stem):
        stem = stem[:-1]  # policy is matched as policies too
    if case_sensitive or (not folded and inner.caseless):
        return None if stem in norm else False
    if folded:
        return None if stem.lower() in haystack else False
    return None


def _bounded(
    outer: _FormText, inner: _FormText, haystack: str, start: int, end: int, folded: bool
) -> bool:
    """Whether the inner form, found literally at ``haystack[start:end]`` (the outer form's
    text, lowered when ``folded``), is certainly matched there: no Latin letter or digit
    touches a Latin end, no Hangul precedes a Hangul start and, when the form ends in Hangul
    (the matcher then refuses a match followed by Hangul that is no Korean ending, and
    searches on *past* it), no Hangul follows and no match can start earlier and overlap."""
    norm = outer.norm
    before = norm[start - 1] if start else ""
    after = norm[end] if end < len(norm) else ""
    if before and inner.latin_start and not _NOT_LATIN.match(before):
        return False
    if before and inner.hangul_start and _SCRIPT_HANGUL.match(before):
        return False
    if after and inner.latin_end and not _NOT_LATIN.match(after):
        return False
    if not inner.hangul_end:
        return True
    if after and _SCRIPT_HANGUL.match(after):
        return False
    # An earlier match would start with the form's first word, as the matcher compares it.
    if folded:
        return haystack.find(inner.first.lower()) == start
    return inner.caseless and haystack.find(inner.first) == start


def _ascii_word_may_match(haystack: str, word: str) -> bool | None:
    """For a one-word form of Latin letters and digits (``word``, lowered) in ASCII text
    (``haystack``, lowered) with no literal match on word boundaries: None when a match with
    an English plural or possessive ending may still start somewhere, else False.

    A match starts after no letter or digit with the word but its last letter; the endings
    the matcher allows after the whole word start with ``s``, ``e`` or an apostrophe (not a
    letter: such a match would have been literal), and a word in ``y`` may end ``ies``.
    """
    stem = word[:-1]
    start = haystack.find(stem)
    while start >= 0:
        if not start or not haystack[start - 1].isalnum():
            rest = haystack[start + len(stem) : start + len(stem) + 3]
            if rest[:1] == word[-1] and (rest[1:2] in ("s", "e") or not rest[1:2].isalnum()):
                return None
            if word[-1] == "y" and rest == "ies":
                return None
        start = haystack.find(stem, start + 1)
    return False
