"""Finding glossary terms in text, with matching that fits each script.

:func:`find_terms` gives every occurrence of a glossary form in a text as a :class:`TermHit`;
:func:`find_altered` gives the near misses of keep-as-is terms.  The rules in
the glossary rules (:mod:`parallelcheck.rules._terms`) read these.

How a form matches (decided by the form's own script, not only the version's language):

* **Everything** is compared on NFKC-normalised text, so full- and half-width forms are one
  (``ＫＶ cache`` = ``KV cache``, ``ｶｰﾈﾙ`` = ``カーネル``).  Offsets always refer to the text as
  given.
* **Latin script**: case-insensitive unless the language entry says ``case_sensitive``; on word
  boundaries (no Latin letter or digit may touch the form, so ``PD`` is not found in ``GPD``
  but is in ``PD分離``); a space or hyphen in the form matches any run of spaces and hyphens,
  the non-breaking hyphen included (``KV-cache`` = ``KV cache`` = ``KV‑cache``).  The last
  word may take English inflections: plural ``-s``/``-es``/``-ies`` and possessive
  ``'s``/``’s``/``s'``.  Verb forms (``-ed``, ``-ing``) are not matched: ``caching`` is not
  ``cache``.  (spaCy's English lemmatiser needs a model package, which is not available
  offline; these rules cover what glossary nouns need.)
* **Chinese and Japanese** (Han, kana): substring match — these scripts write no spaces, so
  ``術語`` is found in ``這個術語很`` and ``用語`` in ``この用語は``.  A space in a form next to
  a non-Latin character is optional (``PD 分離`` = ``PD分離``).
* **Japanese orthographic variants**: for a version in Japanese, approved forms also match
  through Sudachi's *normalized form* (SudachiPy with its core dictionary, as in spaCy's ja
  pipeline; the optional ``ja`` extra — without it, Japanese forms match as written, and
  :func:`japanese_variants_available` says so): the text's tokens and the form's tokens are
  normalised (``サーバ`` → ``サーバー``, ``取扱い`` → ``取り扱い``, ``cache`` → ``キャッシュ``)
  and their concatenations compared, so a different segmentation of the same word still
  matches.  The particle ``の`` between the parts of a multi-token form is optional
  (``KV cache の量子化`` = ``KVキャッシュ量子化``).  Forbidden forms match on the surface
  only, so a forbidden spelling variant is never excused by normalisation.  The pipeline
  loads once per process, and only when a Japanese version is matched against a glossary
  with Japanese forms.
* **Korean** (Hangul): the form must not follow a Hangul syllable (it is then the tail of a
  longer compound) and, when it ends in Hangul, what follows it up to the next non-Hangul
  character must be empty or particles/endings: case particles and their combinations
  (``용어는``, ``용어를``, ``용어의``, ``용어와``, ``용어에서는``, ``용어들의``), the copula
  (``용어입니다``, ``용어이며``), ``하다``/``되다`` derivations (``분리된``, ``분리하는``)
  and the suffix ``-적`` (``결정론적``).  A particle between the words of a form is not
  skipped (``KV 캐시의 양자화`` is not ``KV 캐시 양자화``).
  ``캐시`` inside ``분산캐시`` or ``캐시설정`` is part of another noun and not counted.
* **Inflected languages** (German, French, Spanish, Portuguese, Italian, Dutch, Polish,
  Russian): an approved or forbidden form that is not a keep term and not case-sensitive also
  matches with each of its words in any inflected form that spaCy's lookup lemmatizer tables
  give for it (``Abhängigkeit`` finds ``Abhängigkeiten``, ``зависимость`` finds
  ``зависимостью``, ``inyección de dependencia`` finds ``inyección de dependencias``).  The
  inflected forms match on word boundaries of every script; a Cyrillic form with inflections
  is then matched by them alone (``зависимость`` is no longer found inside
  ``независимостью``), a Latin one also as above (the English plural rules also take
  the linking ``s`` of ``Sicherheits-Flow``).  A word of such a form that the tables do not
  know takes the English plural endings (``operação de rota`` finds ``operações de rotas``:
  the Portuguese table lists ``rotas`` under ``roto``).  Where an inflection of one form is
  another form as written (a forbidden plural), the form as written wins.
  :mod:`parallelcheck.glossary.lemmas` says which words are looked up and when the tables are
  read.  Without the optional tables (the ``lemmas`` extra) forms match as they did before.
* **Keep terms** match exactly, case-sensitively, in every language (hyphen variants aside);
  near misses are :func:`find_altered`'s business.
* Matches never overlap: where several forms match overlapping text the longest wins, so
  ``PD disaggregation`` is not also counted as ``PD`` and ``KV cache 量化`` not also as
  ``KV cache``.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from parallelcheck.glossary import lemmas
from parallelcheck.glossary.model import Glossary, Term, match_key
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.lexicon import URL, find_spans, might_hold_url, normalise
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.script import (
    HANGUL,
    HANGUL_CHARS,
    HANGUL_SYLLABLES,
    LATIN,
    LATIN_ALNUM,
    char_script,
)


@dataclass(frozen=True)
class TermHit:
    """One occurrence of a glossary form: ``text[start:end]`` is the form as written."""

    term_id: str
    form: str
    start: int
    end: int
    status: str  # "approved" | "forbidden"


@dataclass(frozen=True)
class AlteredTerm:
    """A near miss of a keep term: ``text[start:end]`` is what was written instead."""

    term_id: str
    found: str
    start: int
    end: int
    suggestion: str
    how: str  # "re-cased" | "split or joined" | "misspelled"


# ---------------------------------------------------------------------------
# Characters

_LATIN = LATIN_ALNUM
_HANGUL = HANGUL_CHARS
_SEPARATORS = " \t\n\r\u00a0\\-\u2010\u2011\u2012\u2013\u00ad"
_SEP_CLASS = f"[{_SEPARATORS}]"
_HYPHEN_CLASS = "[\\-\u2010\u2011\u2012]"
_IS_SEP = compile_pattern(_SEP_CLASS)


def _script(char: str) -> str:
    """What a form's character is for its pattern: ``latin`` (a Latin letter or digit),
    ``hangul``, ``separator`` (a space or hyphen) or ``other`` (see
    :func:`parallelcheck.text.script.char_script`)."""
    script = char_script(char)
    if script == LATIN:
        return "latin"
    if script == HANGUL:
        return "hangul"
    if _IS_SEP.match(char):
        return "separator"
    return "other"


#: Runs of characters that NFKC leaves as they are one by one (ASCII, CJK ideographs, kana,
#: Hangul syllables): most of any text, copied without looking at each character.
_NFKC_STABLE = compile_pattern(
    f"[\x00-\x7f\u4e00-\u9fff\u3041-\u3096\u30a1-\u30fa{HANGUL_SYLLABLES}]+"
)


def normalise_with_offsets(text: str) -> tuple[str, list[int] | None]:
    """The text's normal form (:func:`parallelcheck.text.lexicon.normalise`) and, when it
    differs from ``text``, the original index of each character (each character is then
    normalised on its own, so that every character of the result comes from one character of
    ``text``)."""
    norm = normalise(text)
    if norm == text:
        return text, None
    pieces: list[str] = []
    index: list[int] = []
    done = 0
    for run in itertools.chain(_NFKC_STABLE.finditer(text), (None,)):
        start = len(text) if run is None else run.start()
        for position in range(done, start):
            piece = normalise(text[position])
            pieces.append(piece)
            index.extend([position] * len(piece))
        if run is None:
            break
        pieces.append(run.group())
        index.extend(range(start, run.end()))
        done = run.end()
    return "".join(pieces), index


def _span(index: list[int] | None, start: int, end: int, length: int) -> tuple[int, int]:
    if index is None:
        return start, end
    first = index[start] if start < len(index) else length
    last = index[end - 1] + 1 if end > 0 and end - 1 < len(index) else length
    return first, max(first, last)


# ---------------------------------------------------------------------------
# Korean particles and endings that may follow a noun

_PARTICLES = frozenset(
    """
    은 는 이 가 을 를 의 와 과 도 만 에 에서 에게 께 께서 한테 으로 로 으로서 로서 으로써 로써
    까지 부터 보다 처럼 만큼 마다 조차 마저 이나 나 이든 든 이든지 든지 이라도 라도 이며 며 이고
    고 이랑 랑 하고 뿐 밖에 요 들 이다 다 입니다 이에요 예요 이었다 였다 이었 였 인 일 이라 라
    이라는 라는 이란 란 이라고 라고 이면 면 이라면 라면 이지만 지만 이죠 죠 이죠 이므로 므로 처럼은
    """.split()
)
_DERIVATIONS = (
    "하",
    "한",
    "할",
    "함",
    "합",
    "해",
    "했",
    "되",
    "된",
    "될",
    "됨",
    "됩",
    "돼",
    "됐",
    "시키",
    "시킨",
    "적",
)
_HANGUL_RUN = compile_pattern(f"[{_HANGUL}]*")


def _korean_tail_ok(rest: str) -> bool:
    """Whether a Hangul run after a noun is particles/endings (up to three) or a derivation."""
    if not rest:
        return True
    if rest.startswith(_DERIVATIONS):
        return True

    def split(text: str, depth: int) -> bool:
        if not text:
            return True
        if depth == 3:
            return False
        return any(
            text.startswith(particle) and split(text[len(particle) :], depth + 1)
            for particle in _PARTICLES
        )

    return split(rest, 0)


# ---------------------------------------------------------------------------
# Compiling forms


def _inflected(word: str) -> str:
    """A regex for an English noun's plural and possessive forms."""
    apostrophe = "['\u2019]"
    if len(word) > 1 and word[-1] in "yY" and word[-2].lower() not in "aeiou":
        stem = re.escape(word[:-1])
        return f"{stem}(?:y(?:{apostrophe}s)?|ies{apostrophe}?)"
    if word.lower().endswith(("s", "x", "z", "ch", "sh")):
        return f"{re.escape(word)}(?:es{apostrophe}?|{apostrophe}s?)?"
    return f"{re.escape(word)}(?:s{apostrophe}?|{apostrophe}s)?"


def _pieces(form: str) -> tuple[str, list[str]]:
    """A form in NFKC with whitespace collapsed, and its runs of separators and of the rest."""
    text = " ".join(normalise(form).split())
    return text, re.findall(f"{_SEP_CLASS}+|[^{_SEPARATORS}]+", text)


def _inflects(piece: str, last: bool, exact: bool) -> re.Match | None:
    """The English word at the end of a form's last piece that may take inflections."""
    return re.search(r"[A-Za-z]{2,}$", piece) if last and not exact else None


def form_pattern(form: str, *, exact: bool, case_sensitive: bool) -> tuple[re.Pattern, bool]:
    """The regex for one form (documented in the module docstring) and whether its end must be
    followed by Korean particles only (checked after the regex)."""
    text, pieces = _pieces(form)
    parts: list[str] = []
    for number, piece in enumerate(pieces):
        if _IS_SEP.fullmatch(piece[0]):
            before = pieces[number - 1][-1] if number else ""
            after = pieces[number + 1][0] if number + 1 < len(pieces) else ""
            if exact:
                parts.append(_HYPHEN_CLASS if piece.strip(" ") else r"\s+")
            elif _script(before) == "latin" and _script(after) == "latin":
                parts.append(f"{_SEP_CLASS}+")
            else:
                parts.append(f"{_SEP_CLASS}*")
            continue
        match = _inflects(piece, number == len(pieces) - 1, exact)
        if match:
            parts.append(re.escape(piece[: match.start()]) + _inflected(match.group()))
        else:
            parts.append(re.escape(piece))
    first, last_char = text[0], text[-1]
    prefix = ""
    if _script(first) == "latin":
        prefix = f"(?<![{_LATIN}])"
    elif _script(first) == "hangul":
        prefix = f"(?<![{_HANGUL}])"
    suffix = f"(?![{_LATIN}])" if _script(last_char) == "latin" else ""
    flags = 0 if (exact or case_sensitive) else re.IGNORECASE
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    pattern = re.compile(prefix + "".join(parts) + suffix, flags)
    return pattern, _script(last_char) == "hangul"


#: Characters other than A–Z that Python's case-insensitive matching takes for an ASCII letter
#: (dotted and dotless i, long s, Kelvin sign); every other character it matches with a
#: letter of A–Z is that letter in either case.
_ASCII_ALIKE_LETTERS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_ASCII_ALIKE = str.maketrans(_ASCII_ALIKE_LETTERS)
_ASCII_ALIKE_CHAR = compile_pattern(f"[{''.join(_ASCII_ALIKE_LETTERS)}]")


def _fold(norm: str) -> str:
    """``norm`` folded so that a form's :func:`form_needle` is in it wherever the form's
    pattern can match."""
    if _ASCII_ALIKE_CHAR.search(norm):
        norm = norm.translate(_ASCII_ALIKE)
    return norm.lower()


def _caseless(char: str) -> bool:
    return char.isascii() or char == char.lower() == char.upper() == char.casefold()


def form_needle(form: str, *, exact: bool) -> str | None:
    """Text that a folded (:func:`_fold`) text must contain for the form's pattern to match
    in it: the start of the form's first word, up to its first letter with case outside
    A–Z (whose case-insensitive matches are many), and without a last letter an inflection
    may change (``polic`` of ``policy``, matched as ``policies`` too).  ``None`` when no such
    text is known: the pattern is then always tried.

    Python's case-insensitive matching takes an ASCII letter only for itself in either case
    or for one of :data:`_ASCII_ALIKE`, and a character without case only for itself, so the
    test never turns away a text the pattern matches in."""
    _, pieces = _pieces(form)
    for number, piece in enumerate(pieces):
        if _IS_SEP.fullmatch(piece[0]):
            continue
        if _inflects(piece, number == len(pieces) - 1, exact):
            piece = piece[:-1]
        safe = itertools.takewhile(_caseless, piece)
        return "".join(safe).lower() or None
    return None


@dataclass(frozen=True)
class _Form:
    term_id: str
    form: str
    status: str
    pattern: re.Pattern
    hangul_tail: bool
    #: See :func:`form_needle`.
    needle: str | None
    #: Whether the pattern matches the form's inflections (:func:`_lemma_forms`).
    lemma: bool = False


@dataclass(frozen=True)
class _Keep:
    term_id: str
    form: str
    skeleton: str
    words: int
    ordinary: bool
    #: Whether the term looks like a dotted name or path itself (then it is looked for in
    #: those too), and the typos it tolerates (see :func:`allowed_edits`).
    in_paths: bool
    edits: int
    #: The numbers of words a candidate may have: one more to one fewer than the term.
    sizes: tuple[int, ...]


_WORD = compile_pattern(f"[{_LATIN}]+")


def _skeleton(text: str) -> str:
    """The letters and digits of *text* in NFKC, case folded."""
    return "".join(_WORD.findall(normalise(text))).casefold()


class _LangMatcher:
    """Every form of a glossary that applies to one language, compiled."""

    def __init__(self, glossary: Glossary, lang: str):
        self.lang = lang
        self.forms: list[_Form] = []
        self.keeps: list[_Keep] = []
        self.known: set[str] = set()  # skeletons of every Latin approved form
        self.ja_forms: list[tuple[str, str, str]] | None = None  # built on first use
        self._ja_terms: list[tuple[str, str]] = []
        japanese = primary_language(lang) == "ja"
        for term in glossary.terms:
            entry = term.entry(lang)
            if entry is None:
                continue
            keep = term.keep is not None
            for form in entry.approved:
                self.forms.append(_form(term.id, form, "approved", keep, entry.case_sensitive))
                if _WORD.search(form):
                    self.known.add(_skeleton(form))
                if japanese and not keep:
                    self._ja_terms.append((term.id, form))
            for form in entry.forbidden:
                self.forms.append(_form(term.id, form, "forbidden", False, entry.case_sensitive))
            if keep and _WORD.search(term.keep or ""):
                # near misses are looked for among Latin-script words only (富士通 has none)
                self.keeps.append(_keep(term))
        if lemmas.covers(lang):
            # a Cyrillic form with inflections is matched by its inflected pattern alone (on
            # word boundaries); a Latin one keeps its pattern too (English plural rules, which
            # also take the linking s of ``Sicherheits-Flow``)
            inflected = _lemma_forms(glossary, lang)
            replaced = {
                (form.term_id, form.form, form.status)
                for form in inflected
                if _script(form.form[0]) != "latin"
            }
            self.forms = [
                form
                for form in self.forms
                if (form.term_id, form.form, form.status) not in replaced
            ]
            self.forms.extend(inflected)
        self.keeps.sort(key=lambda k: (-len(k.skeleton), k.term_id))
        #: Finds any form's needle: a text where it finds none holds no form (most texts).
        #: None when a form has no needle and must always be tried.
        self.any_needle: re.Pattern | None = None
        needles = {form.needle for form in self.forms if form.needle is not None}
        if self.forms and all(form.needle is not None for form in self.forms):
            longest_first = sorted(needles, key=lambda needle: (-len(needle), needle))
            # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
            self.any_needle = re.compile("|".join(map(re.escape, longest_first)))

    def japanese_forms(self) -> list[tuple[str, str, str]]:
        """(normalised key, term id, form) of approved forms, through Sudachi (lazily)."""
        if self.ja_forms is None:
            self.ja_forms = []
            if self._ja_terms and ja_pipeline() is not None:
                for term_id, form in self._ja_terms:
                    key = "".join(t[0] for t in _ja_tokens(form) if not t[3])
                    if key:
                        self.ja_forms.append((key, term_id, form))
        return self.ja_forms


def _form(term_id: str, form: str, status: str, exact: bool, case_sensitive: bool) -> _Form:
    """One form compiled: its pattern and its needle."""
    pattern, tail = form_pattern(form, exact=exact, case_sensitive=case_sensitive)
    return _Form(term_id, form, status, pattern, tail, form_needle(form, exact=exact))


def _caseless_prefix(text: str) -> str:
    """The start of ``text`` up to its first letter with case outside A–Z, lower-cased."""
    return "".join(itertools.takewhile(_caseless, text)).lower()


def _common_start(texts: list[str]) -> str:
    """The longest start that all of ``texts`` share."""
    first, last = min(texts), max(texts)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def _lemma_forms(glossary: Glossary, lang: str) -> list[_Form]:
    """The approved and forbidden forms of ``lang`` (keep and case-sensitive terms aside)
    compiled once more with each word standing for its inflected forms (see
    :mod:`parallelcheck.glossary.lemmas`); a form none of whose words inflects is left out."""
    chosen: list[tuple[str, str, str]] = []
    for term in glossary.terms:
        entry = term.entry(lang)
        if entry is None or term.keep is not None or entry.case_sensitive:
            continue
        chosen.extend((term.id, form, "approved") for form in entry.approved)
        chosen.extend((term.id, form, "forbidden") for form in entry.forbidden)
    if not chosen:
        return []
    split = {form: _pieces(form)[1] for _, form, _ in chosen}
    words = {piece for pieces in split.values() for piece in pieces}
    forms_of = lemmas.inflections(lang, words)
    if not forms_of:
        return []
    compiled = []
    for term_id, form, status in chosen:
        parts: list[str] = []
        needle: str | None = None
        for number, piece in enumerate(split[form]):
            if _IS_SEP.fullmatch(piece[0]):
                parts.append(f"{_SEP_CLASS}+")
                continue
            known = forms_of.get(piece.lower())
            english = None if known else _inflects(piece, True, False)
            if english:
                # a word the tables do not know takes the endings of any Latin form's last word
                if number == 0:
                    needle = _caseless_prefix(piece[:-1]) or None
                parts.append(re.escape(piece[: english.start()]) + _inflected(english.group()))
                continue
            spellings = sorted({piece.lower(), *(known or ())})
            if number == 0:
                needle = _common_start([_caseless_prefix(s) for s in spellings]) or None
            spellings.sort(key=lambda s: (-len(s), s))
            parts.append("(?:" + "|".join(map(re.escape, spellings)) + ")")
        if not any(piece.lower() in forms_of for piece in split[form]):
            continue
        # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
        pattern = re.compile(r"(?<![^\W_])" + "".join(parts) + r"(?![^\W_])", re.IGNORECASE)
        compiled.append(_Form(term_id, form, status, pattern, False, needle, lemma=True))
    return compiled


def _keep(term: Term) -> _Keep:
    assert term.keep is not None
    form = term.keep
    ordinary = bool(re.fullmatch(r"[A-Z][a-z]+", form))
    skeleton = _skeleton(form)
    words = len(_WORD.findall(form))
    in_paths = bool(_PATHLIKE.search(form))
    edits = allowed_edits(len(skeleton))
    sizes = tuple(size for size in (words + 1, words, words - 1) if size >= 1)
    return _Keep(term.id, form, skeleton, words, ordinary, in_paths, edits, sizes)


class GlossaryMatcher:
    """Every form of one glossary, compiled per language when the language is first matched
    (its patterns, and the inflected forms of its words that the lemma tables give:
    :mod:`parallelcheck.glossary.lemmas`).

    Not a cache of results: it holds what the glossary compiles to, and it lives as long as
    whoever made it keeps it.  A run makes one for its glossary and hands it to every
    article's facts (:class:`parallelcheck.facts.ArticleFacts`), so that a language's forms
    are compiled, and its lemma tables read, once for the run — before worker processes
    fork, which then share them (:meth:`parallelcheck.run.plan.RunPlan.prepare`).
    """

    def __init__(self, glossary: Glossary):
        self.glossary = glossary
        self._languages: dict[str, _LangMatcher] = {}

    def language(self, lang: str) -> _LangMatcher:
        """The forms that apply to one language, compiled."""
        matcher = self._languages.get(lang)
        if matcher is None:
            matcher = self._languages[lang] = _LangMatcher(self.glossary, lang)
        return matcher

    def find_terms(self, text: str, lang: str) -> list[TermHit]:
        """See :func:`find_terms`."""
        if not text:
            return []
        return _find_terms(text, lang, self.language(lang))

    def find_altered(
        self, text: str, lang: str, hits: Sequence[TermHit] | None = None
    ) -> list[AlteredTerm]:
        """See :func:`find_altered`; *hits* are :meth:`find_terms`'s of the same text, when
        the caller has them already."""
        if not text:
            return []
        matcher = self.language(lang)
        if not matcher.keeps:
            return []
        return _find_altered(text, lang, self, matcher, hits)


# ---------------------------------------------------------------------------
# Japanese through Sudachi

#: The distributions matching reads when they are installed: the ``ja`` extra (Sudachi) and
#: the ``lemmas`` extra (spaCy's lemma tables).
OPTIONAL_DISTRIBUTIONS = ("sudachipy", "sudachidict-core", lemmas.DISTRIBUTION)


def optional_distributions() -> tuple[tuple[str, str | None], ...]:
    """Each of :data:`OPTIONAL_DISTRIBUTIONS` with its installed version (``None`` when it is
    not installed): what a result checked against a glossary depends on besides the glossary
    (the result cache's key holds it).  Reads the packages' metadata only; the metadata
    reader (which imports the ``email`` package, 15 ms) is imported here, by the runs that
    use a cache and a glossary, not by every run."""
    import importlib.metadata

    found = []
    for name in OPTIONAL_DISTRIBUTIONS:
        try:
            found.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            found.append((name, None))
    return tuple(found)


def japanese_variants_available() -> bool:
    """Whether SudachiPy and its core dictionary are installed, the ``ja`` extra (imports
    neither)."""
    return all(importlib.util.find_spec(name) for name in ("sudachipy", "sudachidict_core"))


def uses_japanese_variants(glossary: Glossary, lang: str) -> bool:
    """Whether matching a version in ``lang`` against ``glossary`` reads Sudachi: the version
    is Japanese and the glossary has approved forms for it that are not keep-as-is names."""
    if primary_language(lang) != "ja":
        return False
    return any(
        (entry := term.entry(lang)) is not None and entry.approved and term.keep is None
        for term in glossary.terms
    )


_JA_TOKENIZER: object = None
_JA_MAX_BYTES = 40_000  # Sudachi refuses inputs of about 49 kB


def ja_pipeline():
    """A SudachiPy tokenizer (core dictionary, split mode A — what spaCy's Japanese pipeline
    runs), loaded once per process; None when SudachiPy is not installed (matching then falls
    back to the surface).  SudachiPy is called directly rather than through spaCy: the
    normalised forms are the same, and importing spaCy alone costs 0.6 s per run."""
    global _JA_TOKENIZER
    if _JA_TOKENIZER is None:
        try:
            from sudachipy import dictionary, tokenizer

            mode = tokenizer.Tokenizer.SplitMode.A
            _JA_TOKENIZER = dictionary.Dictionary().tokenizer(mode=mode)
        except Exception:  # pragma: no cover - depends on the installation
            _JA_TOKENIZER = False
    return _JA_TOKENIZER or None


def _chunks(text: str) -> list[tuple[int, str]]:
    """``text`` cut at line ends (or, for a very long line, anywhere) into pieces Sudachi
    accepts, with their offsets."""
    if len(text.encode("utf-8")) <= _JA_MAX_BYTES:
        return [(0, text)]
    pieces: list[tuple[int, str]] = []
    start, current, size = 0, [], 0
    for line in text.splitlines(keepends=True):
        length = len(line.encode("utf-8"))
        if current and size + length > _JA_MAX_BYTES:
            piece = "".join(current)
            pieces.append((start, piece))
            start, current, size = start + len(piece), [], 0
        current.append(line)
        size += length
    if current:
        pieces.append((start, "".join(current)))
    cut = _JA_MAX_BYTES // 4  # characters: at most four bytes each
    result = []
    for offset, piece in pieces:
        while len(piece.encode("utf-8")) > _JA_MAX_BYTES:
            result.append((offset, piece[:cut]))
            offset, piece = offset + cut, piece[cut:]
        result.append((offset, piece))
    return result


def _ja_tokens(text: str) -> tuple[tuple[str, int, int, bool], ...]:
    """(normalised form, start, end, is the particle の) of each non-space token."""
    sudachi = ja_pipeline()
    if sudachi is None:
        return ()
    tokens = []
    for offset, chunk in _chunks(text):
        for morpheme in sudachi.tokenize(chunk):
            surface = morpheme.surface()
            if not surface.strip():
                continue
            norm = normalise(morpheme.normalized_form() or surface).casefold()
            is_no = surface == "の" and morpheme.part_of_speech()[0] == "助詞"
            start = offset + morpheme.begin()
            tokens.append((norm, start, start + len(surface), is_no))
    return tuple(tokens)


def _japanese_candidates(text: str, matcher: _LangMatcher) -> list[tuple]:
    forms = matcher.japanese_forms()
    if not forms:
        return []
    tokens = _ja_tokens(text)
    by_first: dict[str, list[tuple[str, str, str]]] = {}
    for key, term_id, form in forms:
        by_first.setdefault(key[0], []).append((key, term_id, form))
    found = []
    for index, (norm, start, _, is_no) in enumerate(tokens):
        if is_no or not norm or norm[0] not in by_first:
            continue
        for key, term_id, form in by_first[norm[0]]:
            joined, position, end = "", index, start
            while position < len(tokens) and len(joined) < len(key):
                piece, _, piece_end, piece_no = tokens[position]
                position += 1
                if piece_no and joined:
                    continue
                joined += piece
                end = piece_end
                if not key.startswith(joined):
                    break
            if joined == key:
                found.append((start, end, term_id, form, "approved", 2))
    return found


# ---------------------------------------------------------------------------
# Finding terms


def find_terms(text: str, lang: str, glossary: Glossary | None) -> list[TermHit]:
    """Every occurrence of a glossary form in ``text`` (a version in ``lang``), in text order,
    never overlapping (see the module documentation for how each script is matched).  This
    compiles the glossary's forms for the language on each call: a caller matching many texts
    keeps a :class:`GlossaryMatcher`."""
    if not glossary or not text:
        return []
    return GlossaryMatcher(glossary).find_terms(text, lang)


def _find_terms(text: str, lang: str, matcher: _LangMatcher) -> list[TermHit]:
    norm, index = normalise_with_offsets(text)
    folded = _fold(norm)
    candidates: list[tuple] = []
    forms = matcher.forms
    if matcher.any_needle is not None and not matcher.any_needle.search(folded):
        forms = []  # no form's needle in the text: no form can match
    for form in forms:
        if form.needle is not None and form.needle not in folded:
            continue  # the pattern cannot match (see form_needle)
        for match in form.pattern.finditer(norm):
            if match.end() == match.start():
                continue
            if form.hangul_tail:
                rest = _HANGUL_RUN.match(norm, match.end())
                if rest is not None and not _korean_tail_ok(rest.group()):
                    continue
            start, end = _span(index, match.start(), match.end(), len(text))
            rank = (0 if form.status == "approved" else 1) + (2 if form.lemma else 0)
            candidates.append((start, end, form.term_id, form.form, form.status, rank))
    if primary_language(lang) == "ja":
        candidates.extend(_japanese_candidates(text, matcher))
    return _longest_first(candidates, len(text))


def _longest_first(candidates: list[tuple], length: int) -> list[TermHit]:
    taken = bytearray(length + 1)
    chosen = []
    for start, end, term_id, form, status, _ in sorted(
        candidates, key=lambda c: (c[0] - c[1], c[5], c[0], c[2], c[3])
    ):
        if any(taken[start:end]):
            continue
        taken[start:end] = b"\x01" * (end - start)
        chosen.append(TermHit(term_id, form, start, end, status))
    chosen.sort(key=lambda hit: (hit.start, hit.end))
    return chosen


def form_contains(text: str, form: str, lang: str, case_sensitive: bool = False) -> bool:
    """Whether ``form`` (an approved form) would be found inside ``text`` (another form)."""
    if match_key(text, case_sensitive) == match_key(form, case_sensitive):
        return False
    pattern, tail = form_pattern(form, exact=False, case_sensitive=case_sensitive)
    norm = normalise(text)
    for match in pattern.finditer(norm):
        if tail:
            rest = _HANGUL_RUN.match(norm, match.end())
            if rest is not None and not _korean_tail_ok(rest.group()):
                continue
        return True
    return False


# ---------------------------------------------------------------------------
# Hiding what is not prose


def blank_code(text: str, code_spans: Sequence[str] = ()) -> str:
    """``text`` with inline code and URLs replaced by spaces (offsets unchanged): a product
    name in ``pip install lmdeploy`` or in a link target is no term use."""
    if not code_spans and not might_hold_url(text):
        return text
    chars = list(text)
    for start, end in find_spans(text, code_spans):
        chars[start:end] = " " * (end - start)
    for match in URL.finditer(text):
        chars[match.start() : match.end()] = " " * (match.end() - match.start())
    return "".join(chars)


# ---------------------------------------------------------------------------
# Near misses of keep terms

_GAP = compile_pattern(r"[ \t\u00a0\-\u2010\u2011\u2012.·]{1,2}")
_CHUNK = compile_pattern(r"[^\s\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]+")
_PATHLIKE = compile_pattern(r"://|^[/~]|^\.\.?/|[_=@\\]|[A-Za-z]\.[A-Za-z]")


def _pathlike(chunk: str) -> bool:
    if _PATHLIKE.search(chunk):
        return True
    if "/" in chunk:
        parts = [p for p in re.split(r"[/\-]", chunk) if p]
        return any(p.isalpha() and p.islower() for p in parts)
    return False


def allowed_edits(length: int) -> int:
    """Typos tolerated for a keep term whose letters and digits number ``length``: none under
    7 (short names only match re-cased or split), 1 up to 10, 2 beyond."""
    if length < 7:
        return 0
    return 1 if length <= 10 else 2


def find_altered(text: str, lang: str, glossary: Glossary | None) -> list[AlteredTerm]:
    """Keep terms written re-cased, split/joined or misspelled (``Deepinfer``, ``LM Deploy``,
    ``Turbomind``, ``DeepInfr``) in ``text``.

    Candidates are runs of one fewer to one more Latin words than the keep term has, joined
    by at most two spaces, hyphens or dots; they are compared by their letters and digits,
    case folded.  Precision rules:

    * the exact term, anything a glossary form matches, and other glossary forms are never
      candidates; nor are words wholly inside paths, identifiers and dotted names
      (``deepseek-ai/DeepSeek-V3``, ``lmdeploy.serve``) — unless the keep term has that shape
      itself (``llama.cpp``).  A run of non-space characters is such a name when it has
      ``://``, starts with ``/`` or ``~``, holds ``_ = @ \\`` or a dot between letters, or has
      ``/`` and an all-lower-case part (``org/repo``); ``DSpark/SWA/EPLB`` is prose;
    * equal letters but different case or spacing is reported — except an all-lower-case
      ordinary word or phrase: ``ascend`` for ``Ascend``, ``micro-batch`` for ``MicroBatch``
      (a capitalised-word keep term, or lower-case words joined by spaces/hyphens);
    * a misspelling needs a term of 7+ letters, the same first letter, a length within the
      tolerated edits and an optimal-string-alignment distance of at most 1 (2 for terms over
      10 letters); an all-lower-case candidate is taken for an ordinary word and left alone
      (``deploy`` is not ``LMDeploy``); the term followed by digits or a plural
      (``InternLM2``, ``Mooncakes``) is another name, not a typo.
    """
    if not glossary or not text:
        return []
    return GlossaryMatcher(glossary).find_altered(text, lang)


class _Words:
    """The Latin-script words of a normalised text and what the search for near misses asks
    about them, each worked out when first asked."""

    def __init__(self, norm: str):
        self.norm = norm
        self.spans = [m.span() for m in _WORD.finditer(norm)]
        #: first letter (case folded) → the words it starts, in order
        self.by_initial: dict[str, list[int]] = {}
        for number, (start, _) in enumerate(self.spans):
            self.by_initial.setdefault(norm[start].casefold()[:1], []).append(number)
        #: letters of the first i words
        self.letters = [0, *itertools.accumulate(end - start for start, end in self.spans)]
        self._joined: list[int] | None = None
        self._chunks: list[tuple[int, int]] | None = None
        self._chunk_starts: list[int] = []
        self._pathlike: dict[int, bool] = {}

    def joined(self, number: int) -> int:
        """How many words follow word *number* joined to it by a gap a split term may have."""
        if self._joined is None:
            spans, norm = self.spans, self.norm
            self._joined = joined = [0] * len(spans)
            for i in range(len(spans) - 2, -1, -1):
                if _GAP.fullmatch(norm, spans[i][1], spans[i + 1][0]):
                    joined[i] = joined[i + 1] + 1
        return self._joined[number]

    def in_path(self, number: int) -> bool:
        """Whether word *number* lies inside a path, identifier or dotted name: in a run of
        non-space characters that :func:`_pathlike` calls one."""
        if self._chunks is None:
            self._chunks = [m.span() for m in _CHUNK.finditer(self.norm)]
            self._chunk_starts = [start for start, _ in self._chunks]
        position = self.spans[number][0]
        chunk = bisect_right(self._chunk_starts, position) - 1
        if chunk < 0 or self._chunks[chunk][1] <= position:
            return False
        known = self._pathlike.get(chunk)
        if known is None:
            start, end = self._chunks[chunk]
            known = self._pathlike[chunk] = _pathlike(self.norm[start:end])
        return known


def _find_altered(
    text: str,
    lang: str,
    owner: GlossaryMatcher,
    matcher: _LangMatcher,
    hits: Sequence[TermHit] | None,
) -> list[AlteredTerm]:
    norm, index = normalise_with_offsets(text)
    words = _Words(norm)
    # every alteration looked for keeps the first letter
    keeps = [keep for keep in matcher.keeps if keep.skeleton[0] in words.by_initial]
    if not keeps:
        return []
    spans, letters = words.spans, words.letters
    covered: bytearray | None = None  # glossary forms found, read when first needed
    used = bytearray(len(norm) + 1)
    found: list[AlteredTerm] = []
    for keep in keeps:
        edits, length = keep.edits, len(keep.skeleton)
        starts = words.by_initial[keep.skeleton[0]]
        for size in keep.sizes:
            for first in starts:
                last = first + size - 1
                if last >= len(spans):
                    break
                if abs(letters[last + 1] - letters[first] - length) > edits:
                    continue
                if size > 1 and words.joined(first) < size - 1:
                    continue
                start, end = spans[first][0], spans[last][1]
                raw = norm[start:end]
                spelled = _skeleton(raw)
                if spelled != keep.skeleton and (
                    not edits or spelled[0] != keep.skeleton[0] or _ordinary(raw, keep)
                ):
                    continue  # neither the term's letters nor a misspelling of it
                # The cheap test of the letters first: most candidates are other names
                # (``FastAPI`` for ``FlashMLA``), and the tests below read the whole text.
                how = _alteration(raw, spelled, keep, matcher.known)
                if how is None:
                    continue
                if covered is None:
                    if hits is None:
                        hits = owner.find_terms(text, lang)
                    covered = _covered(hits, norm, index)
                if any(covered[start:end]) or any(used[start:end]):
                    continue
                if not keep.in_paths and all(map(words.in_path, range(first, last + 1))):
                    continue  # inside a path, identifier or dotted name
                used[start:end] = b"\x01" * (end - start)
                o_start, o_end = _span(index, start, end, len(text))
                found.append(
                    AlteredTerm(keep.term_id, text[o_start:o_end], o_start, o_end, keep.form, how)
                )
    found.sort(key=lambda a: (a.start, a.end))
    return found


def _covered(hits: Sequence[TermHit], norm: str, index: list[int] | None) -> bytearray:
    """1 at each character of ``norm`` inside a glossary form found in the text (its
    :func:`find_terms` *hits*)."""
    covered = bytearray(len(norm) + 1)
    inverse = None
    if index is not None:
        inverse = {}
        for position, original in enumerate(index):
            inverse.setdefault(original, position)
    for hit in hits:
        start = hit.start if inverse is None else inverse.get(hit.start, 0)
        end = hit.end if inverse is None else inverse.get(hit.end, len(norm))
        covered[start:end] = b"\x01" * (end - start)
    return covered


def _ordinary(raw: str, keep: _Keep) -> bool:
    """An all-lower-case candidate is an ordinary word unless the term is lower-case itself."""
    return raw == raw.lower() and keep.form != keep.form.lower()


def _alteration(raw: str, letters: str, keep: _Keep, known: set[str]) -> str | None:
    """How ``raw`` (whose letters and digits, case folded, are ``letters``) alters ``keep``
    (None: it does not; see :func:`find_altered`)."""
    if raw == keep.form:
        return None
    edits = keep.edits
    lower = _ordinary(raw, keep)
    if letters == keep.skeleton:
        joints, keep_joints = re.sub(f"[{_LATIN}]", "", raw), re.sub(f"[{_LATIN}]", "", keep.form)
        if lower and (keep.ordinary or joints):
            return None  # an ordinary word or phrase
        cased = re.sub(f"[^{_LATIN}]", "", raw) != re.sub(f"[^{_LATIN}]", "", keep.form)
        if joints != keep_joints:
            return "re-cased and split or joined" if cased else "split or joined"
        return "re-cased"
    if not edits or lower or letters in known or letters[0] != keep.skeleton[0]:
        return None
    if letters.startswith(keep.skeleton):
        tail = letters[len(keep.skeleton) :]
        if tail.isdigit() or tail in ("s", "es"):
            return None
    if OSA.distance(letters, keep.skeleton, score_cutoff=edits) > edits:
        return None
    return "misspelled"
