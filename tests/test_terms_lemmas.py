"""Glossary terms in inflected languages, matched through spaCy's lookup lemmatizer tables
(parallelcheck.glossary.lemmas and its hook in parallelcheck.glossary.match).

Each sentence of INFLECTED holds a glossary form only inflected (German plural and dative,
French/Spanish/Portuguese/Italian/Dutch plurals, Russian and Polish cases): with the tables
every one is found, at the inflected word; without them (the optional extra absent) matching
is what it was.  Reading a language's table costs 0.3-3.7 s of CPU, so the suite reads the
German, French and Russian ones (compounds, list-valued tables, Cyrillic) and checks the rest
of the logic on small tables of its own; ``PARALLELCHECK_ALL_LEMMA_TABLES=1`` runs the
sentences of every language against the real tables."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from parallelcheck.glossary import Glossary, LangTerms, Term
from parallelcheck.glossary import lemmas as lemmas_module
from parallelcheck.glossary.match import GlossaryMatcher, find_terms

pytest.importorskip("spacy_lookups_data")


def _term(term_id: str, keep: str | None = None, **langs: str | LangTerms) -> Term:
    entries = {
        lang.replace("_", "-"): value if isinstance(value, LangTerms) else LangTerms((value,))
        for lang, value in langs.items()
    }
    return Term(term_id, keep, entries)


GLOSSARY = Glossary(
    (
        _term(
            "dependency",
            de="Abhängigkeit",
            fr="dépendance",
            es="dependencia",
            pt="dependência",
            it="dipendenza",
            nl="afhankelijkheid",
            ru="зависимость",
            pl="zależność",
        ),
        _term(
            "request",
            de="Anfrage",
            fr="requête",
            es="solicitud",
            pt="requisição",
            ru="запрос",
            pl="żądanie",
        ),
        _term("path", ru="путь", pl="ścieżka", es="ruta"),
        _term("di", es="inyección de dependencia", ru="внедрение зависимостей"),
        _term("key", de=LangTerms(("API-Schlüssel",), ("API-Key",))),
        _term("safe", pl="bezpieczny"),
        _term("plural-banned", de=LangTerms(("Anwendung",), ("Anwendungen",))),
        _term("fastapi", keep="FastAPI"),
        _term("exact", de=LangTerms(("Sicherheit",), case_sensitive=True)),
        _term("path-operation", de="Pfadoperation"),
    )
)

#: (language, sentence, the occurrences found with the tables: term id and text found, and
#: those today's rules find without them).  The English plural rules already catch Romance
#: ``-s`` plurals, and Cyrillic forms were matched as substrings, so ``запрос`` was counted in
#: ``запроса`` — and ``зависимость`` in ``независимостью``.
INFLECTED = [
    ("de", "Die Abhängigkeiten werden deklariert.", [("dependency", "Abhängigkeiten")], []),
    ("de", "Der Inhalt der Anfragen wird gelesen.", [("request", "Anfragen")], []),
    ("de", "Mit API-Schlüsseln authentifizieren.", [("key", "API-Schlüsseln")], []),
    ("fr", "Les dépendances sont résolues.", [("dependency", "dépendances")], "same"),
    ("fr", "Requêtes et réponses.", [("request", "Requêtes")], "same"),
    (
        "es",
        "Las dependencias y las rutas.",
        [("dependency", "dependencias"), ("path", "rutas")],
        "same",
    ),
    ("es", "La inyección de dependencias.", [("di", "inyección de dependencias")], "same"),
    ("es", "Las solicitudes y la autenticación.", [("request", "solicitudes")], []),
    ("pt", "Declare as dependências.", [("dependency", "dependências")], "same"),
    ("pt", "Várias requisições.", [("request", "requisições")], []),
    ("it", "Le dipendenze del progetto.", [("dependency", "dipendenze")], []),
    ("nl", "Alle afhankelijkheden.", [("dependency", "afhankelijkheden")], []),
    (
        "ru",
        "Работа с зависимостью.",
        [("dependency", "зависимостью")],
        [("dependency", "зависимость")],
    ),
    (
        "ru",
        "Тело запроса и параметры пути.",
        [("request", "запроса"), ("path", "пути")],
        [("request", "запрос")],
    ),
    ("ru", "Система внедрения зависимостей.", [("di", "внедрения зависимостей")], []),
    ("pl", "Zarządzanie zależnościami.", [("dependency", "zależnościami")], []),
    ("pl", "Treść żądania i ścieżkę.", [("request", "żądania"), ("path", "ścieżkę")], []),
    ("pl", "To jest bezpieczna metoda.", [("safe", "bezpieczna")], []),
]
#: how many occurrences the tables add: found with them and not without
GAINED = sum(
    len(found) - (len(found) if before == "same" else len(before))
    for _, _, found, before in INFLECTED
)


def _found(text: str, lang: str) -> list[tuple[str, str]]:
    return [(hit.term_id, text[hit.start : hit.end]) for hit in find_terms(text, lang, GLOSSARY)]


#: the languages whose real tables the suite reads
READ = {"de", "fr", "ru"}
ALL_TABLES = os.environ.get("PARALLELCHECK_ALL_LEMMA_TABLES") == "1"


@pytest.mark.parametrize(("lang", "text", "expected", "before"), INFLECTED)
def test_an_inflected_form_is_found_at_its_own_word(lang, text, expected, before):
    if lang not in READ and not ALL_TABLES:
        pytest.skip("reads a large table: PARALLELCHECK_ALL_LEMMA_TABLES=1")
    assert _found(text, lang) == expected


@pytest.mark.parametrize(("lang", "text", "expected", "before"), INFLECTED)
def test_without_the_tables_matching_is_what_it_was(monkeypatch, lang, text, expected, before):
    monkeypatch.setattr(lemmas_module, "_available", False)
    assert _found(text, lang) == (expected if before == "same" else before)


def test_the_tables_add_most_of_the_occurrences():
    total = sum(len(found) for _, _, found, _ in INFLECTED)
    # 21 occurrences: today's rules count 8 of them (Romance -s plurals, Cyrillic prefixes)
    assert (GAINED, total) == (13, 21)


def test_a_version_tagged_with_a_region_uses_its_languages_table():
    assert _found("Die Abhängigkeiten", "de-CH") == [("dependency", "Abhängigkeiten")]
    assert _found("Les dépendances", "fr-CA") == [("dependency", "dépendances")]


def test_the_form_as_written_is_still_found_and_case_is_ignored():
    assert _found("ABHÄNGIGKEIT und Abhängigkeit", "de") == [
        ("dependency", "ABHÄNGIGKEIT"),
        ("dependency", "Abhängigkeit"),
    ]


def test_an_inflection_inside_a_longer_word_is_not_an_occurrence():
    # a compound or a prefixed word of any script is another word
    assert _found("Unabhängigkeiten und Abhängigkeitsgraph", "de") == []
    assert _found("независимостью", "ru") == []


def test_an_inflected_forbidden_form_is_forbidden():
    text = "Mit API-Keys oder API-Schlüsseln"
    hits = find_terms(text, "de", GLOSSARY)
    assert [(text[h.start : h.end], h.status) for h in hits] == [
        ("API-Keys", "forbidden"),
        ("API-Schlüsseln", "approved"),
    ]


def test_a_forbidden_form_as_written_wins_over_an_approved_inflection():
    # "Anwendungen" is an inflection of the approved "Anwendung" and a forbidden form itself
    hits = find_terms("Die Anwendungen", "de", GLOSSARY)
    assert [(h.term_id, h.form, h.status) for h in hits] == [
        ("plural-banned", "Anwendungen", "forbidden")
    ]


def test_keep_and_case_sensitive_terms_are_not_inflected():
    assert _found("Die Sicherheiten", "de") == []
    assert _found("Die Sicherheit", "de") == [("exact", "Sicherheit")]
    assert _found("FastAPIs", "de") == []


def test_languages_without_a_table_are_not_expanded():
    assert not lemmas_module.covers("uk")
    assert not lemmas_module.covers("en")
    assert lemmas_module.inflections("uk", ["залежність"]) == {}
    glossary = Glossary((_term("dependency", uk="залежність"),))
    assert find_terms("залежності", "uk", glossary) == []


def test_a_german_compound_the_table_lacks_inflects_as_its_head():
    # "Pfadoperation" is not in the table; "Operation" is (plural "Operationen")
    text = "Alle Pfadoperationen und Operationen"
    assert _found(text, "de") == [("path-operation", "Pfadoperationen")]
    assert lemmas_module.inflections("de", ["Pfadoperation"]) == {
        "pfadoperation": ("pfadoperationen",)
    }


# ---------------------------------------------------------------------------
# The rest of the logic, on small tables


FAKE_TABLES = {
    # the Portuguese table lists "rota" (route) and its plural under "roto" (torn)
    "pt_lemma_lookup": {"rota": "roto", "rotas": "roto", "rotos": "roto", "operações": "operação"},
    "pl_lemma_lookup_noun": {"zależności": "zależność", "zależnościami": "zależność"},
    "pl_lemma_lookup_adj": {"bezpieczna": "bezpieczny", "bezpieczne": "bezpieczny"},
    # Italian's general table reads the plural as a verb form; its noun table does not
    "it_lemma_lookup": {"componenti": "comporre", "p.": "pagina", "pagine": "pagina"},
    "it_lemma_lookup_noun": {"componenti": "componente"},
    "it_lemma_lookup_adj": {},
    "es_lemma_lookup": {
        "dependencias": "dependencia",
        "del": "de",
        "oauth2s": "OAuth2",
        "p": "página",
        "pág": "página",
        "págs": "página",
        "páginas": "página",
    },
    "ru_lemma_lookup": {"дня": "день", "дн": "день"},
}


@pytest.fixture
def fake_tables(monkeypatch):
    read: list[str] = []

    def table(name):
        read.append(name)
        return FAKE_TABLES[name]

    monkeypatch.setattr(lemmas_module, "_table", table)
    monkeypatch.setattr(lemmas_module, "_available", True)
    return read


def test_a_citation_form_is_not_reduced_through_the_table(fake_tables):
    glossary = Glossary((_term("route", pt="rota"),))
    assert lemmas_module.inflections("pt", ["rota"]) == {}
    assert find_terms("Os rotos", "pt", glossary) == []


def test_a_word_the_tables_do_not_know_takes_english_plural_endings(fake_tables):
    glossary = Glossary((_term("path-operation", pt="operação de rota"),))
    text = "As operações de rotas e as operações de caminho"
    hits = find_terms(text, "pt", glossary)
    assert [text[h.start : h.end] for h in hits] == ["operações de rotas"]


def test_every_table_of_a_language_is_read_once_for_all_its_words(fake_tables):
    glossary = Glossary((_term("dep", pl="zależność"), _term("safe", pl="bezpieczny")))
    matcher = GlossaryMatcher(glossary)  # what a run makes once
    text = "Zależnościami i bezpieczne"
    assert [text[h.start : h.end] for h in matcher.find_terms(text, "pl")] == [
        "Zależnościami",
        "bezpieczne",
    ]
    assert fake_tables == ["pl_lemma_lookup_noun", "pl_lemma_lookup_adj"]
    matcher.find_terms("zależności", "pl")
    assert len(fake_tables) == 2  # the matcher keeps the forms


def test_a_words_forms_are_those_any_of_its_tables_lists(fake_tables):
    assert lemmas_module.inflections("it", ["componente", "pagina"]) == {
        "componente": ("componenti",),
        "pagina": ("pagine",),  # "p." is no word
    }


def test_abbreviations_are_no_inflections(fake_tables):
    assert lemmas_module.inflections("es", ["página"]) == {"página": ("páginas",)}
    assert lemmas_module.inflections("ru", ["день"]) == {"день": ("дня",)}


def test_inflections_leave_short_and_non_alphabetic_words_alone(fake_tables):
    assert lemmas_module.inflections("es", ["de", "OAuth2"]) == {}
    assert lemmas_module.inflections("es", ["Dependencia"]) == {"dependencia": ("dependencias",)}


def test_the_tables_are_read_only_when_a_glossary_meets_such_a_version():
    """Matching English and Korean versions — and importing the matcher — reads no
    table and imports neither the table package nor spaCy."""
    script = """
import sys
from parallelcheck.glossary import Glossary, LangTerms, Term
from parallelcheck.glossary.match import GlossaryMatcher, find_terms
g = Glossary((Term("t", None, {"en": LangTerms(("term",)), "ko": LangTerms(("용어",)),
                               "nl": LangTerms(("begrip",))}),))
assert find_terms("terms", "en", g) and find_terms("용어는", "ko", g)
assert "spacy_lookups_data" not in sys.modules and "spacy" not in sys.modules
find_terms("begrippen", "nl", g)
assert "spacy_lookups_data" in sys.modules and "spacy" not in sys.modules
"""
    subprocess.run([sys.executable, "-c", script], check=True)
