"""The inflected forms of glossary words, from spaCy's lookup lemmatizer tables.

German, French, Spanish, Portuguese, Italian, Dutch, Polish and Russian inflect nouns and
adjectives in ways the English plural rules of :mod:`parallelcheck.glossary.match` do not
cover (``Abhängigkeit`` → ``Abhängigkeiten``, ``dépendance`` → ``dépendances``,
``зависимость`` → ``зависимостью``, ``ścieżka`` → ``ścieżkę``).  For these languages
:func:`inflections` gives every word that spaCy's lookup lemmatizer reduces to a glossary
word: the words of its ``lemma_lookup`` table whose lemma is that word.  Matching a version's
text against these forms finds the same occurrences as lemmatising the text word by word and
comparing lemmas, without lemmatising any text.

* **A glossary word is taken as its own lemma**: glossaries write terms in their citation form
  (singular nouns, masculine singular adjectives).  A word is not first reduced through the
  table, which maps some citation forms to other words (Portuguese ``rota`` "route" → ``roto``
  "torn"), and would then match those words' forms too.
* **A German or Dutch compound that the table does not know** inflects as its head: the
  longest end of it, four letters or more, that the table knows (``Pfadoperation`` takes the
  forms of ``Operation``: ``Pfadoperationen``; ``Responsemodell`` those of ``Modell``).
* **Only words of letters are taken from the tables, of three letters or more and at most
  one fewer than the glossary word**: abbreviations are no inflections (the Italian table's
  ``p.`` and ``pag.`` for ``pagina``, the Spanish one's ``p``, ``pág`` and ``págs`` for
  ``página``); Russian ``дня`` for ``день`` stays.
* **Words shorter than three letters, and words with digits or other characters, are
  left as they are** (``de`` in ``inyección de dependencias``).
* The comparison ignores case; a table's own ambiguities carry over (German ``Daten`` is
  listed under ``Datum``, so a glossary term ``Datum`` also matches ``Daten``).

The tables come from the package ``spacy-lookups-data`` (the one spaCy's lemmatizer reads them
from, about 100 MB installed), read directly: spaCy itself is not imported, which would cost
about 0.7 s and 200 MB more for a dictionary lookup.  The package is optional
(``pip install 'parallelcheck[lemmas]'``); without it :func:`inflections` returns nothing and
terms match as before (:func:`available` says which).  Nothing is downloaded: a table is read
from the installed package when the forms of a glossary's words of its language are asked for,
and the caller keeps only the forms it asked for (a table is released once read): a run's
glossary matcher (:class:`~parallelcheck.glossary.match.GlossaryMatcher`) asks once per
language.
Polish has no general table in spaCy: its noun and adjective tables are read; Italian's
general table reads many plurals as verb forms (``componenti`` → ``comporre``), so its noun
and adjective tables are read too (a word's forms are those any of its tables lists).
Ukrainian is not covered (spaCy lemmatises it with pymorphy3 dictionaries, not with lookup
tables), nor English (whose table would equate ``caching`` with ``cache``;
:mod:`~parallelcheck.glossary.match` has its own plural rules).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from collections.abc import Iterable

from parallelcheck.text.langtag import primary_language

#: The tables read per language (file names in ``spacy_lookups_data/data/``).
TABLES: dict[str, tuple[str, ...]] = {
    "de": ("de_lemma_lookup",),
    "es": ("es_lemma_lookup",),
    "fr": ("fr_lemma_lookup",),
    "it": ("it_lemma_lookup", "it_lemma_lookup_noun", "it_lemma_lookup_adj"),
    "nl": ("nl_lemma_lookup",),
    "pl": ("pl_lemma_lookup_noun", "pl_lemma_lookup_adj"),
    "pt": ("pt_lemma_lookup",),
    "ru": ("ru_lemma_lookup",),
}

#: The package holding the tables (``pip install spacy-lookups-data``).
PACKAGE = "spacy_lookups_data"
#: Its distribution (what ``pip`` installs).
DISTRIBUTION = "spacy-lookups-data"

MIN_LETTERS = 3
#: How many letters shorter than its word a form may be: abbreviations are no forms.
MAX_SHORTER = 1

#: Languages that write compounds as one word: a compound the table does not know inflects
#: as its head, the longest end of it (of :data:`MIN_HEAD` letters or more) that the table
#: knows (``Pfadoperation`` as ``Operation``: ``Pfadoperationen``).
COMPOUNDING = frozenset({"de", "nl"})
MIN_HEAD = 4

_available: bool | None = None


def covers(lang: str) -> bool:
    """Whether versions in ``lang`` have a lemma table (imports nothing)."""
    return primary_language(lang) in TABLES


def available() -> bool:
    """Whether the tables are installed (the ``lemmas`` extra)."""
    global _available
    if _available is None:
        _available = importlib.util.find_spec(PACKAGE) is not None
    return _available


def expandable(word: str) -> bool:
    """Whether a glossary word is looked up: letters only, at least :data:`MIN_LETTERS`."""
    return len(word) >= MIN_LETTERS and word.isalpha()


def inflections(lang: str, words: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The inflected forms of each of ``words`` in ``lang`` (lower-cased word → its forms,
    lower-cased and sorted, the word itself not included; words without any are left out).
    Empty when the language has no table or the tables are not installed.  Each call reads
    the language's tables: ask once for all the words of a glossary."""
    language = primary_language(lang)
    wanted = sorted({w.lower() for w in words if expandable(w)})
    if language not in TABLES or not wanted or not available():
        return {}
    return {word: forms for word, forms in _read(language, wanted).items() if forms}


def _heads(word: str) -> list[str]:
    """The ends of a compound ``word`` that may be its head noun, longest first."""
    return [word[start:] for start in range(1, len(word) - MIN_HEAD + 1)]


def _read(language: str, lemmas: list[str]) -> dict[str, tuple[str, ...]]:
    """The forms of ``lemmas`` in the language's tables, read once for all of them."""
    compounding = language in COMPOUNDING
    found: dict[str, set[str]] = {lemma: set() for lemma in lemmas}
    if compounding:
        for lemma in lemmas:
            found.update((head, set()) for head in _heads(lemma) if head not in found)
    for name in TABLES[language]:
        for surface, lemma in _table(name).items():
            for value in (lemma,) if isinstance(lemma, str) else lemma:
                forms = found.get(value.lower())
                if forms is not None and surface.isalpha():
                    forms.add(surface.lower())
    for lemma, forms in found.items():
        shortest = max(MIN_LETTERS, len(lemma) - MAX_SHORTER)
        forms.difference_update([form for form in forms if len(form) < shortest])
    result = {}
    for lemma in lemmas:
        forms = found[lemma] - {lemma}
        if not forms and compounding:
            head = next((head for head in _heads(lemma) if found[head] - {head}), None)
            if head is not None:
                stem = lemma[: len(lemma) - len(head)]
                forms = {stem + form for form in found[head] - {head}}
        result[lemma] = tuple(sorted(forms))
    return result


def _table(name: str) -> dict[str, str | list[str]]:
    """One table of the installed package (a gzipped JSON mapping of word → lemma)."""
    import spacy_lookups_data

    path = spacy_lookups_data.get_file(f"{name}.json.gz")
    return json.loads(gzip.decompress(path.read_bytes()))
