"""link-mismatch compares a link to a heading of the same page by the section it leads to."""

from __future__ import annotations

from pathlib import Path

from conftest import write_article

from parallelcheck.rules.link_mismatch import heading_id

EN = """\
# Guide

See [nested documents](#nested-json-documents) and [setup](#setup-steps).

## Nested JSON documents

Text.

## Setup { #setup-steps }

Text.
"""

KO = """\
# 가이드

[중첩된 문서](#중첩된-json-문서)와 [설정](#setup-steps)을 보세요.

## 중첩된 JSON 문서

본문.

## 설정 { #setup-steps }

본문.
"""


def test_heading_ids_follow_the_site_generators_convention() -> None:
    assert heading_id("Nested JSON documents") == "nested-json-documents"
    assert heading_id("중첩된 JSON 문서") == "중첩된-json-문서"
    assert heading_id("`src/` required!") == "src-required"


def test_a_translated_fragment_of_a_translated_heading_is_the_same_target(
    tmp_path: Path, run_check
) -> None:
    folder = write_article(tmp_path / "guide", {"en.md": EN, "ko.md": KO})
    _, findings = run_check(folder, select=("link-mismatch",))
    assert findings == []


def test_a_fragment_to_another_section_is_still_reported(tmp_path: Path, run_check) -> None:
    wrong = KO.replace("(#중첩된-json-문서)", "(#설정)")  # leads to the other section
    folder = write_article(tmp_path / "guide", {"en.md": EN, "ko.md": wrong})
    _, findings = run_check(folder, select=("link-mismatch",))
    assert len(findings) == 1 and list(findings[0].langs) == ["ko"]
