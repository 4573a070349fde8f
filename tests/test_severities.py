"""Severities that follow harm (docs/severities.md): a changed fact is an error, a missing
block an error or a warning by its size, and a severity configured for a rule applies to all
its findings."""

from __future__ import annotations

import pytest
from conftest import parse_versions, write_article

from parallelcheck.align.progressive import align_article
from parallelcheck.config import load_config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.rules import REGISTRY
from parallelcheck.rules._severity import (
    SMALL_BLOCK_WORDS,
    missing_block_severity,
    token_kind,
    token_severity,
    words_in,
)
from parallelcheck.run.pipeline import check_all


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        ("CVE-2024-12345", "advisory"),
        ("GHSA-abcd-1234-wxyz", "advisory"),
        ("a1b2c3d", "checksum"),
        ("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "checksum"),
        ("https://example.com/a", "URL"),
        ("#123", "issue"),
        ("fastapi/fastapi#12", "issue"),
        ("3.11.7", "version"),
        ("V4.1", "version"),
        ("v4.1-Flash", "version"),
        ("busybox:1.27.2", "version"),
        ("python3.11", "version"),
        ("127.0.0.1", "version"),
        # not facts: a decimal, an id, a path, a setting, a word, digits only
        ("10.5", None),
        ("SM100", None),
        ("/v1/chat/completions", None),
        ("nextn=3", None),
        ("deadbeef", None),
        ("1234567", None),
        ("DeepInfer", None),
        # a placeholder a translation may translate
        ("https://<username>.github.io/<my-repo>", None),
        ("https://[YOUR-SITE]/api", None),
        ("https://{host}/builder-preview", None),
    ],
)
def test_token_kinds(token, kind):
    assert token_kind(token) == kind


def test_a_token_finding_is_an_error_when_a_fact_differs():
    assert token_severity({"extra": ["3.11.8"], "missing": ["3.11.7"]}) == "error"
    assert token_severity({"extra": [], "missing": ["CVE-2024-1234"]}) == "error"
    assert token_severity({"extra": ["Deepinfer"], "missing": ["DeepInfer"]}) == "warning"
    assert token_severity({"extra": ["`pip`"], "missing": []}) == "warning"
    # the same version with and without its v is no changed fact; another one is
    assert token_severity({"extra": ["3.5.0"], "missing": ["v3.5.0"]}) == "warning"
    assert token_severity({"extra": ["3.5.1"], "missing": ["v3.5.0"]}) == "error"
    assert token_severity({"extra": ["3.5.0", "v4.0"], "missing": ["v3.5.0"]}) == "error"


def test_block_size_in_words():
    assert words_in("Type: ShadowRoot") == 2
    assert words_in("See [the guide](https://example.com/a/very/long/path) now.") == 4
    assert words_in("这个版本只支持一个模型") == 5.5  # eleven Han characters
    assert missing_block_severity("Type: ShadowRoot") == "warning"
    assert missing_block_severity("word " * SMALL_BLOCK_WORDS) == "error"
    assert missing_block_severity("word " * (SMALL_BLOCK_WORDS - 1)) == "warning"
    assert missing_block_severity("这个版本只支持一个模型，已经不再维护了。") == "error"


EN = """# Install

FastCache 2.1 needs Python `3.11.7` and the `fastcache` package.

Type: ShadowRoot

The cache keeps every response for one hour unless the request says otherwise.
"""


def _findings(de: str, rule_id: str) -> list:
    article = align_article("a", parse_versions(en=EN, de=de), "en")
    return list(REGISTRY[rule_id].run(article))


def test_a_changed_version_is_an_error_and_a_changed_inline_code_a_warning():
    de = EN.replace("`3.11.7`", "`3.11.8`")
    (finding,) = _findings(de, "token-mismatch")
    assert (finding.severity, finding.langs, finding.locations[1].line) == ("error", ("de",), 3)
    de = EN.replace("`fastcache`", "`fastcash`")
    (finding,) = _findings(de, "token-mismatch")
    assert finding.severity == "warning"


def test_a_missing_paragraph_is_graded_by_its_size():
    small = EN.replace("Type: ShadowRoot\n\n", "")
    large = EN.replace(
        "The cache keeps every response for one hour unless the request says otherwise.\n", ""
    )
    (finding,) = _findings(small, "missing-paragraph")
    assert finding.severity == "warning"
    (finding,) = _findings(large, "missing-paragraph")
    assert finding.severity == "error"


@pytest.mark.parametrize(
    ("configuration", "expected"),
    [
        ("", {"error"}),
        ("rules:\n  token-mismatch: info\n", {"info"}),
        ("rules:\n  token-mismatch: {severity: warning}\n", {"warning"}),
    ],
)
def test_a_configured_severity_applies_to_every_finding_of_the_rule(
    tmp_path, configuration, expected
):
    write_article(
        tmp_path / "articles" / "post",
        {"en.md": EN, "de.md": EN.replace("`3.11.7`", "`3.11.8`")},
    )
    (tmp_path / "parallelcheck.yaml").write_text(configuration or "{}\n", "utf-8")
    config = load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)
    sets = discover([str(tmp_path / "articles")], root=str(tmp_path / "articles"))
    results = check_all(sets, config, CheckOptions(select=("token-mismatch",)))
    found = [f for result in results for f in result.findings]
    assert found and {f.severity for f in found} == expected
