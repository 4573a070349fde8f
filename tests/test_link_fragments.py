"""link-mismatch compares a link to a heading of the same page by the section it leads to."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import parse_versions, write_article

from parallelcheck.align.progressive import align_article
from parallelcheck.facts import ArticleFacts
from parallelcheck.rules import REGISTRY
from parallelcheck.rules.base import RuleContext
from parallelcheck.rules.link_mismatch import (
    _compare,
    _contradicted,
    _heading_rows,
    _HeadingRows,
    heading_id,
)
from parallelcheck.text.links import localisation, same_page_moved

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
    assert heading_id("स्लॉट्स") == "स्लॉट्स"  # a vowel sign or virama is part of the word


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
    # named as written, with the heading each leads to (not by the aligned sections compared)
    assert findings[0].message == (
        "ko links to #설정 (“설정”) where en links to #nested-json-documents "
        "(“Nested JSON documents”)"
    )


def test_a_fragment_naming_no_heading_of_its_page_is_said_to(tmp_path: Path, run_check) -> None:
    # Kubernetes' ko probes page keeps en's id in its link but translates the heading.
    untranslated_link = KO.replace("(#중첩된-json-문서)", "(#nested-json-documents)")
    folder = write_article(tmp_path / "guide", {"en.md": EN, "ko.md": untranslated_link})
    _, findings = run_check(folder, select=("link-mismatch",))
    (finding,) = findings
    assert finding.message == (
        "ko links to #nested-json-documents (no heading of the page has that id) where en "
        "links to #nested-json-documents (“Nested JSON documents”)"
    )


def test_a_target_written_like_a_compared_section_is_compared_as_written(
    tmp_path: Path, run_check
) -> None:
    # "#(section 99)" is how a link into the page is compared; written so by a page, it
    # led past the article's sections (an internal error).
    en = "# T\n\nSee [x](<#(section 99)>) here.\n\n## A\n\nText.\n"
    fr = "# T\n\nVoir [x](<#(section 98)>) ici.\n\n## A\n\nTexte.\n"
    folder = write_article(tmp_path / "page", {"en.md": en, "fr.md": fr})
    _, findings = run_check(folder, select=("link-mismatch",))
    (finding,) = findings
    assert finding.message.startswith("fr links to #(section 98) (no heading of the page")


def test_no_fix_rewrites_a_link_to_the_target_it_has(tmp_path: Path, run_check) -> None:
    # en has two "Size" sections, es only the second: es's #size leads to that one, en's to
    # the first.  The fix wrote #size over #size (Astro's es astro-assets page).
    en = "# P\n\nSee [size](#size).\n\n## Size\n\nOne.\n\n## Other\n\nTwo.\n\n## Size\n\nThree.\n"
    es = "# P\n\nVea [tamaño](#size).\n\n## Otro\n\nDos.\n\n## Size\n\nTres.\n"
    folder = write_article(tmp_path / "page", {"en.md": en, "es.md": es})
    _, findings = run_check(folder, select=("link-mismatch",))
    (finding,) = findings
    # en's #size is its first "Size" (the second is #size-1, as site generators number it)
    assert finding.message == "es links to #size (“Size”) where en links to #size (“Size”)"
    assert finding.fix is None


def test_a_link_into_the_page_written_with_its_address_leads_to_its_heading(
    tmp_path: Path, run_check
) -> None:
    # Astro's ja actions page writes /ja/guides/actions/#フォーム… where en writes #displaying…
    en = "# P\n\nSee [errors](#showing-errors).\n\n## Showing errors\n\nOne.\n\n## Other\n\nTwo.\n"
    ja = (
        "# P\n\n[エラー](/ja/guides/actions/#エラーの表示)を参照。\n\n## エラーの表示\n\n一。\n\n"
        "## その他\n\n二。\n"
    )
    folder = write_article(tmp_path / "guides" / "actions", {"en.md": en, "ja.md": ja})
    _, findings = run_check(folder.parent.parent, select=("link-mismatch",))
    assert findings == []
    # to the other heading, or the same heading of another page: reported
    for target in ("/ja/guides/actions/#その他", "/ja/guides/forms/#エラーの表示"):
        (folder / "ja.md").write_text(ja.replace("/ja/guides/actions/#エラーの表示", target))
        _, findings = run_check(folder.parent.parent, select=("link-mismatch",))
        assert [f.langs for f in findings] == [("ja",)], target


@pytest.mark.parametrize(
    ("written", "lacks"),
    [
        ("Besuche https://astro.new zum Start.", False),  # GFM and MDX make it a link
        ("Besuche [astro.new] (https://astro.new) zum Start.", True),  # broken markup
        ("Besuche [astro.new]（https://astro.new）zum Start.", True),  # full-width brackets
        ("[astro.new]를 열어 시작합니다(https://astro.new).", True),  # text moved away
        ("Besuche `https://astro.new` zum Start.", True),  # inline code is no link
    ],
)
def test_a_bare_url_is_a_link_but_a_broken_link_is_not(
    tmp_path: Path, run_check, written: str, lacks: bool
) -> None:
    en = "# P\n\nVisit [astro.new](https://astro.new) to start.\n"
    folder = write_article(tmp_path / "page", {"en.md": en, "de.md": f"# P\n\n{written}\n"})
    _, findings = run_check(folder, select=("link-mismatch",))
    assert [f.langs for f in findings] == ([("de",)] if lacks else [])


def test_a_no_break_space_in_a_title_is_no_hyphen_of_its_id(tmp_path: Path, run_check) -> None:
    # French puts a no-break space before a colon; site generators drop it (Astro's fr v7
    # upgrade guide links #nom-de-fichier-réservé-srcfetchts).
    en = "# P\n\nSee [it](#reserved-name-srcfetchts).\n\n## Reserved name: `src/fetch.ts`\n\nOne.\n"
    fr = (
        "# P\n\nVoir [ceci](#nom-réservé-srcfetchts).\n\n"
        "## Nom réservé\u00a0: `src/fetch.ts`\n\nUn.\n"
    )
    folder = write_article(tmp_path / "page", {"en.md": en, "fr.md": fr})
    _, findings = run_check(folder, select=("link-mismatch",))
    assert findings == []


MDN = "https://developer.mozilla.org/docs/Web"


@pytest.mark.parametrize(
    ("one", "other", "moved"),
    [
        (f"{MDN}/CSS/font-family#g", f"{MDN}/CSS/Reference/Properties/font-family#g", True),
        (f"{MDN}/CSS/CSS_cascade/Specificity#c", f"{MDN}/CSS/Specificity", True),
        (f"{MDN}/CSS/font-family#g", f"{MDN}/CSS/Reference/Properties/font-family#h", False),
        ("https://x.io/docs/install", "https://x.io/docs/V1/install", False),  # a version
        ("https://x.io/docs/install", "https://x.io/docs/lang/install", False),  # small
        ("https://x.io/docs/install", "https://y.io/docs/Guides/install", False),  # host
        ("https://x.io/a/B/install", "https://x.io/B/a/install", False),  # reordered
        ("https://x.io/docs/install", "https://x.io/docs/Guides/setup", False),  # last part
        ("http://[x/docs/install", "http://[x/docs/Guides/install", False),  # no URL at all
        # sections renamed, for a page named by several words
        (
            f"{MDN}/Learn/Forms/Form_validation",
            f"{MDN}/Learn_web/Extensions/Forms/Form_validation",
            True,
        ),
        (f"{MDN}/Web_Components/Using_custom", f"{MDN}/API/Web_components/Using_custom", True),
        (f"{MDN}/API/Document/open", f"{MDN}/API/Window/open", False),  # one word: two pages
        (f"{MDN}/V1/Form_validation", f"{MDN}/V2/Form_validation", False),  # a version
        (f"{MDN}/next/Form_validation", f"{MDN}/Latest/Form_validation", False),  # small
        ("https://g.com/Org/Repo/blob/README.md", "https://g.com/Org/Tool/blob/README.md", False),
    ],
)
def test_a_page_its_site_moved(one: str, other: str, moved: bool) -> None:
    assert same_page_moved(one, other) is moved
    assert same_page_moved(other, one) is moved


# ---------------------------------------------------------------------------
# The rule's shortcuts, against what they stand for

CASES = Path(__file__).parent / "cases" / "link-mismatch"


def _case_articles():
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        texts = {p.stem.replace("-", "_"): p.read_text(encoding="utf-8") for p in case.glob("*.md")}
        yield align_article(case.name, parse_versions(**texts), "en")
    yield align_article("fragments", parse_versions(en=EN, ko=KO), "en")


def test_a_row_where_no_version_has_a_link_gives_nothing() -> None:
    # What lets the rule pass such rows without comparing them: neither comparison finds
    # anything in cells without links, whatever their lines and blocks.
    article = next(_case_articles())
    section = article.sections[0]
    patterns = {lang: localisation(lang, (), article.source) for lang in article.langs}
    ctx = RuleContext(REGISTRY["link-mismatch"], article, ArticleFacts())
    for row in section.rows:
        cells = {lang: (b.line, [], (b,)) for lang, b in row.cells.items() if b is not None}
        headings = _HeadingRows(article)
        assert list(_compare(ctx, section, cells, patterns, headings, row)) == []
        lines = {lang: (line, links) for lang, (line, links, _) in cells.items()}
        assert list(_contradicted(ctx, section, lines, patterns, row)) == []


def test_the_ids_of_headings_worked_out_lazily_are_those_of_the_full_computation():
    for article in _case_articles():
        headings = _HeadingRows(article)
        for lang in article.langs:
            assert headings.of(lang) == _heading_rows(article)[lang]
