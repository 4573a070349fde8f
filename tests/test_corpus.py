"""Behaviour over many real pages: the FastAPI documentation in 13 languages.

``fastapi/`` is structurally in sync: error findings must stay at most 1 per 100 translation
pairs.  ``fastapi-2025-08-31/`` is the same site a year earlier, with real drift that must be
reported.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def in_sync(fastapi_run):
    sets, _, findings = fastapi_run
    return sets, findings


@pytest.fixture(scope="module")
def drifted(fastapi_drift_run):
    return fastapi_drift_run[2]


def test_in_sync_corpus_has_at_most_one_error_per_hundred_translation_pairs(in_sync):
    sets, findings = in_sync
    pairs = sum(len(s.versions) - 1 for s in sets)
    errors = [f for f in findings if f.severity == "error"]
    assert pairs > 1400
    assert len(errors) * 100 <= pairs, [f.message for f in errors]


STRUCTURAL = {
    "missing-version",
    "missing-section",
    "missing-paragraph",
    "missing-table",
    "table-shape",
    "list-shape",
    "heading-level",
    "code-mismatch",
    "link-mismatch",
}


def test_in_sync_corpus_has_few_structural_warnings_too(in_sync):
    sets, findings = in_sync
    pairs = sum(len(s.versions) - 1 for s in sets)
    warnings = [f for f in findings if f.severity == "warning" and f.rule in STRUCTURAL]
    assert len(warnings) * 100 <= pairs, [f.message for f in warnings]


def _has(findings, article, rule, lang, words=""):
    return any(
        f.article == article and f.rule == rule and lang in f.langs and words in f.message
        for f in findings
    )


def test_drift_metadata_ja_lacks_the_parameter_table(drifted):
    assert _has(drifted, "tutorial__metadata", "missing-table", "ja")


def test_drift_async_ja_and_ko_lack_the_illustrations(drifted):
    for lang in ("ja", "ko"):
        images = [
            f
            for f in drifted
            if f.article == "async"
            and f.rule == "missing-paragraph"
            and lang in f.langs
            and "image “/img/async/" in f.message
        ]
        assert len(images) >= 8


def test_drift_docker_fr_lacks_most_sections(drifted):
    sections = [
        f
        for f in drifted
        if f.article == "deployment__docker" and f.rule == "missing-section" and f.langs == ("fr",)
    ]
    folded = sum(1 + f.evidence["subsections"] for f in sections)
    assert folded >= 15
