"""The documents in the repository: the findings schema holds for real output, and the pages hold.

* the findings schema that ``parallelcheck schema`` prints (the package's own copy, whose
  ``docs/findings.schema.json`` is kept equal) validates the ``--format json`` output of a
  check of the repository's ``articles/`` and of a small project made to hold findings of
  several kinds, and rejects a finding without a required field, with an unknown
  severity or with a field the document does not have (so the schema is not vacuous);
* every relative link in ``README.md`` and ``docs/*.md`` names a file of the repository, and
  a ``#fragment`` names a heading of the page it points to;
* no page refers to the out-of-repository contract by section ("CONTRACT §").
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO, run_cli, write_article

SCHEMA_PATH = REPO / "docs" / "findings.schema.json"
PAGES = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md")])


@pytest.fixture(scope="module")
def printed_schema() -> str:
    """What ``parallelcheck schema`` prints: the schema the installed package ships."""
    proc = run_cli("schema", cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def validator(printed_schema) -> jsonschema.Draft202012Validator:
    schema = json.loads(printed_schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_published_schema_is_the_packaged_one_with_a_stable_id(printed_schema):
    assert SCHEMA_PATH.read_text(encoding="utf-8") == printed_schema, (
        "docs/findings.schema.json is out of date: run "
        "`parallelcheck schema > docs/findings.schema.json`"
    )
    schema = json.loads(printed_schema)
    assert schema["$id"] == "urn:parallelcheck:findings:v1"
    assert schema["properties"]["schema"]["const"] == "parallelcheck/findings/v1"


EN = "# Guide\n\nVersion 1.2.3 ships 42 commands.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
JA = "# ガイド\n\nバージョン 1.2.4 には 43 個のコマンドがあります。\n"


@pytest.fixture(scope="module")
def shipped() -> dict:
    """The findings document of ``check articles --format json``, the repository's article."""
    proc = run_cli("check", "articles", "--format", "json", "--no-cache", cwd=REPO)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> dict:
    """A findings document sure to hold findings of several kinds: numbers, tokens and a table
    that differ, a configured language without a file, and a version that cannot be read (an
    empty ``section``, ``reference_langs`` and an article without readable versions)."""
    root = tmp_path_factory.mktemp("docs-check")
    (root / "parallelcheck.yaml").write_text("languages: [en, ja, ko]\n", encoding="utf-8")
    write_article(root / "articles" / "guide", {"en.md": EN, "ja.md": JA})
    write_article(root / "articles" / "broken", {"en.md": b"caf\xe9\n", "ja.md": b"\xff\n"})
    proc = run_cli("check", "--format", "json", "--no-cache", cwd=root)
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


def test_real_output_validates(validator, shipped, document):
    rules = {finding["rule"] for finding in document["findings"]}
    assert {"missing-version", "unreadable-version", "number-mismatch", "missing-table"} <= rules
    for output in (shipped, document):
        errors = [error.message for error in validator.iter_errors(output)]
        assert errors == []
        summary = output["summary"]
        assert summary["findings"] == len(output["findings"])
        assert summary["articles"] == len(output["articles"])


@pytest.mark.parametrize("field", ["rule", "severity", "langs", "locations", "evidence"])
def test_a_finding_without_a_required_field_fails(validator, document, field):
    broken = copy.deepcopy(document)
    del broken["findings"][0][field]
    assert not validator.is_valid(broken)


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("severity",), "fatal"),
        (("langs",), []),
        (("rule",), "Missing Table"),
        (("locations", 0, "line"), 0),
        (("unknown_field",), 1),
    ],
)
def test_a_finding_with_a_bad_value_fails(validator, document, where, value):
    broken = copy.deepcopy(document)
    target = broken["findings"][0]
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert not validator.is_valid(broken)


def _fixed(document: dict) -> dict:
    """The first finding of ``document`` that carries a fix (the table ja lacks: unsafe)."""
    return next(finding for finding in document["findings"] if "fix" in finding)


def test_a_fix_validates_and_a_bad_one_fails(validator, document):
    fix = _fixed(document)["fix"]
    assert fix["applicability"] == "unsafe" and {e["kind"] for e in fix["edits"]} == {
        "lines",
        "copy",
    }
    for where, value in [
        (("applicability",), "maybe"),
        (("edits",), []),
        (("edits", 0, "kind"), "replace"),
        (("edits", 0, "line"), 0),
        (("edits", 0, "extra"), True),
    ]:
        broken = copy.deepcopy(document)
        target = _fixed(broken)["fix"]
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = value
        assert not validator.is_valid(broken), where


def test_a_new_rule_id_and_new_evidence_still_validate(validator, document):
    extended = copy.deepcopy(document)
    extended["findings"][0]["rule"] = "some-future-rule"
    extended["findings"][0]["evidence"] = {"anything": [1, "two"]}
    assert validator.is_valid(extended)


# --- links --------------------------------------------------------------------------------

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The page without fenced code blocks and inline code, where links are not links."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in ("L", "N", "M"))
    return kept.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    slugs: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug, n = _slug(heading), 1
        while slug in slugs:
            slug, n = f"{_slug(heading)}-{n}", n + 1
        slugs.add(slug)
    return slugs


def _relative_links(page: Path) -> list[str]:
    text = _prose(page.read_text(encoding="utf-8"))
    targets = _INLINE_LINK.findall(text) + _REFERENCE.findall(text)
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_point_at_files_of_the_repository(page):
    broken = []
    for target in _relative_links(page):
        path_part, _, fragment = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.is_relative_to(REPO) or not resolved.exists():
            broken.append(f"{target}: no such file")
        elif fragment and resolved.suffix == ".md" and fragment not in _anchors(resolved):
            broken.append(f"{target}: no heading #{fragment} in {resolved.relative_to(REPO)}")
    assert broken == []


def test_the_link_checker_sees_links():
    """The checker itself: a page that links finds its links (else the test above is empty)."""
    assert "docs/cli.md" in _relative_links(REPO / "README.md")
    assert _slug("The result cache") == "the-result-cache"
    assert _slug("`check`") == "check"
    assert _slug("The aligner's band") == "the-aligners-band"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_page_cites_the_contract_by_section(page):
    assert "CONTRACT §" not in page.read_text(encoding="utf-8")


def test_no_code_or_test_points_at_the_contract_outside_the_repository():
    """The interface is documented in ``docs/``; a clone has no ``CONTRACT.md`` to look in."""
    sources = sorted((REPO / "src").rglob("*.py")) + sorted((REPO / "tests").glob("*.py"))
    citing = [
        str(path.relative_to(REPO))
        for path in sources
        if path.name != "test_docs.py" and "CONTRACT §" in path.read_text(encoding="utf-8")
    ]
    assert sources and not citing
