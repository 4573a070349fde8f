"""Generated tests over the user's article: change one number, date or version token in one
version and the change must be reported, naming that version and the line changed.

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
