"""The shipped glossary is data with its own tests (as codespell tests its dictionaries):
it loads, lints clean, keeps its ids sorted, lists no form twice, and fits the user's article."""

from __future__ import annotations

import yaml
from click.testing import CliRunner
from conftest import REPO

from parallelcheck.cli import cli
from parallelcheck.glossary import lint, load_glossaries, match_key
from parallelcheck.glossary.match import find_terms

SHIPPED = REPO / "glossary/deepinfer.yaml"
ARTICLE = REPO / "articles/deepinfer-vs-lmdeploy"
LANGS = ("en", "zh-Hant", "ja", "ko")
GLOSSARY = load_glossaries([str(SHIPPED)])


def _version(lang: str) -> str:
    return (ARTICLE / f"{lang}.md").read_text(encoding="utf-8")


def test_loads_and_lints_clean_without_warnings():
    assert len(GLOSSARY) > 40
    assert lint(GLOSSARY) == []
    result = CliRunner().invoke(cli, ["glossary", "lint", str(SHIPPED)])
    assert result.exit_code == 0
    assert result.stdout == f"{len(GLOSSARY)} terms OK\n"


def test_ids_are_sorted_and_unique():
    ids = [term.id for term in GLOSSARY.terms]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


def test_no_form_is_listed_twice():
    raw = yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))["terms"]
    for item in raw:
        for lang, value in item.items():
            if lang in ("id", "keep", "note"):
                continue
            if isinstance(value, dict):
                forms = [value["term"]] if isinstance(value["term"], str) else value["term"]
                forms = [*forms, *value.get("forbidden", [])]
            else:
                forms = [value] if isinstance(value, str) else value
            keys = [match_key(form) for form in forms]
            assert len(set(keys)) == len(keys), (item["id"], lang, forms)


def test_every_translated_term_has_every_language_and_a_forbidden_variant():
    for term in GLOSSARY.terms:
        if term.keep is None:
            assert set(term.langs) == set(LANGS), term.id
            for lang in LANGS:
                assert term.langs[lang].approved and term.langs[lang].forbidden, (term.id, lang)


def test_every_keep_term_occurs_in_the_english_version():
    text = _version("en")
    used = {hit.term_id for hit in find_terms(text, "en", GLOSSARY)}
    for term in GLOSSARY.terms:
        if term.keep is not None:
            assert term.id in used, term.keep


def test_every_term_is_used_in_every_version_as_the_glossary_says():
    """The approved forms are the ones the article uses (no term is listed that the article
    does not have, no version needs a form the glossary does not approve)."""
    for lang in LANGS:
        hits = find_terms(_version(lang), lang, GLOSSARY)
        assert {hit.term_id for hit in hits} == {term.id for term in GLOSSARY.terms}, lang
        assert [hit for hit in hits if hit.status == "forbidden"] == [], lang
