"""Generated tests over the user's article: change one number, date or version token in one
version and the change must be reported, naming that version and the line changed; change a
checksum, version, CVE id, date or time and it is an error there.

Every run of digits in every version is mutated in turn (its last digit changed), so the test
covers the numbers, dates, percentages, multipliers and version tokens of the whole article.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO

ARTICLE = REPO / "articles" / "deepinfer-vs-lmdeploy"
DIGITS = re.compile(r"\d+")


def _mutations():
    for path in sorted(ARTICLE.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in DIGITS.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            yield pytest.param(
                path.name,
                match.start(),
                match.end(),
                line,
                id=f"{path.stem}:{line}:{match.group()}@{match.start()}",
            )


def _mutate(digits: str) -> str:
    last = int(digits[-1])
    return digits[:-1] + str((last + 3) % 10)


@pytest.fixture(scope="module")
def baseline(run_check):
    _, findings = run_check(ARTICLE.parent, select=("number-mismatch", "token-mismatch"))
    return findings


def test_the_article_as_shipped_has_no_number_or_token_finding(baseline):
    assert baseline == []


@pytest.mark.parametrize(("name", "start", "end", "line"), list(_mutations()))
def test_changing_one_number_is_reported_with_version_and_line(
    tmp_path: Path, run_check, name, start, end, line
):
    folder = tmp_path / "articles" / ARTICLE.name
    shutil.copytree(ARTICLE, folder)
    text = (folder / name).read_text(encoding="utf-8")
    (folder / name).write_text(
        text[:start] + _mutate(text[start:end]) + text[end:], encoding="utf-8"
    )
    lang = name.removesuffix(".md")
    _, findings = run_check(tmp_path / "articles", select=("number-mismatch", "token-mismatch"))
    named = [
        f
        for f in findings
        if lang in (*f.langs, *f.reference_langs)
        and any(loc.lang == lang and loc.line == line for loc in f.locations)
    ]
    assert named, (
        f"{name}:{line}: {text[start:end]} → {_mutate(text[start:end])} not reported: "
        + ("; ".join(f.message for f in findings) or "no findings")
    )


# ---------------------------------------------------------------------------
# Changed facts are errors (issue 20): a checksum, version, CVE id, date or time changed in
# any one version is an error finding at that version's line.  The article states no
# checksum, CVE id or time: the same parenthesis is added to its "Sources" paragraph (the one
# holding the access date) in every version first, and the article with it has no finding.

FACTS = " (SHA a1b2c3d4e5f6, CVE-2026-12345, 09:00 UTC)"
SOURCES_DATE = "2026-10-20"
#: kind → (what is written, what one version writes instead)
FACT_CHANGES = {
    "checksum": ("a1b2c3d4e5f6", "a1b2c3d4e5f7"),
    "version": ("V4.1", "V4.2"),  # the title's, in every version
    "CVE id": ("CVE-2026-12345", "CVE-2026-12346"),
    "date": (SOURCES_DATE, "2026-10-21"),
    "time": ("09:00 UTC", "10:00 UTC"),
}


def _with_facts(text: str) -> str:
    """The version's text with :data:`FACTS` added at the end of the line holding the access
    date."""
    start = text.index(SOURCES_DATE)
    end = text.index("\n", start)
    return text[:end] + FACTS + text[end:]


def _write_with_facts(folder: Path) -> None:
    shutil.copytree(ARTICLE, folder)
    for path in sorted(folder.glob("*.md")):
        path.write_text(_with_facts(path.read_text(encoding="utf-8")), encoding="utf-8")


def test_the_article_with_the_added_facts_has_no_finding(tmp_path: Path, run_check):
    _write_with_facts(tmp_path / "articles" / ARTICLE.name)
    _, findings = run_check(tmp_path / "articles", select=("number-mismatch", "token-mismatch"))
    assert [f.message for f in findings] == []


def _fact_cases():
    for path in sorted(ARTICLE.glob("*.md")):
        for kind in FACT_CHANGES:
            yield pytest.param(path.name, kind, id=f"{path.stem}:{kind}")


@pytest.mark.parametrize(("name", "kind"), list(_fact_cases()))
def test_a_changed_fact_is_an_error_at_its_line(tmp_path: Path, run_check, name, kind):
    folder = tmp_path / "articles" / ARTICLE.name
    _write_with_facts(folder)
    written, changed = FACT_CHANGES[kind]
    text = (folder / name).read_text(encoding="utf-8")
    at = text.index(written)
    line = text.count("\n", 0, at) + 1
    (folder / name).write_text(text[:at] + changed + text[at + len(written) :], encoding="utf-8")
    lang = name.removesuffix(".md")
    _, findings = run_check(tmp_path / "articles", select=("number-mismatch", "token-mismatch"))
    errors = [
        f
        for f in findings
        if f.severity == "error"
        and lang in (*f.langs, *f.reference_langs)  # the source changed: the others deviate
        and any(loc.lang == lang and loc.line == line for loc in f.locations)
    ]
    assert errors, f"{name}:{line}: {written} → {changed} is not an error there: " + (
        "; ".join(f"{f.severity} {f.rule}: {f.message}" for f in findings) or "no findings"
    )
