"""The `length-ratio` rule: aligned blocks far shorter or longer than usual for the pair."""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import pytest
from conftest import REPO, parse_versions, rule_findings
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align.progressive import align_article
from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.facts import ArticleFacts
from parallelcheck.rules import length_ratio
from parallelcheck.rules.length_ratio import text_length
from parallelcheck.run.pipeline import check_all
from parallelcheck.text.script import non_space_length, running_length

ARTICLE = REPO / "articles" / "deepinfer-vs-lmdeploy"
LANGS = ("en", "ja", "ko", "zh-Hant")


def run(folder: Path):
    sets = discover([str(folder)], root=str(folder), cwd=os.getcwd())
    results = list(check_all(sets, Config(), CheckOptions(select=("length-ratio",))))
    return [f for r in results for f in r.findings]


def copy_article(tmp_path: Path, edit=None) -> Path:
    folder = tmp_path / "deepinfer-vs-lmdeploy"
    folder.mkdir()
    for lang in LANGS:
        lines = (ARTICLE / f"{lang}.md").read_text(encoding="utf-8").split("\n")
        if edit is not None:
            edit(lang, lines)
        (folder / f"{lang}.md").write_text("\n".join(lines), encoding="utf-8")
    return folder


def test_the_shipped_article_gives_no_length_ratio_finding():
    # Every aligned pair of the article stays within 2.2× of its language's usual ratio.
    assert run(ARTICLE) == []


def test_a_truncated_paragraph_is_reported(tmp_path):
    def truncate(lang, lines):
        if lang == "ja":
            paragraph = lines[20]  # line 21: what LMDeploy is
            lines[20] = paragraph[: len(paragraph) // 4] + "。"

    findings = run(copy_article(tmp_path, truncate))
    assert len(findings) == 1
    found = findings[0]
    assert found.rule == "length-ratio" and found.severity == "info"
    assert found.langs == ("ja",) and found.reference_langs == ("en",)
    assert [(loc.lang, loc.line) for loc in found.locations] == [("en", 21), ("ja", 21)]
    assert found.message.startswith("ja paragraph is 0.")
    assert "the length of en's where ja is usually" in found.message
    assert found.message.endswith("(possible truncation)")
    assert found.evidence["ratio"] < found.evidence["usual"] / 2.2


def test_an_added_passage_is_reported(tmp_path):
    def pad(lang, lines):
        if lang == "ko":
            extra = (
                " 이 단락에는 원문에 없는 설명이 길게 덧붙여져 있으며, 번역자가 임의로 추가한"
                " 배경 정보와 개인적인 의견, 그리고 여러 가지 예시가 포함되어 있습니다."
            )
            index = lines.index(next(x for x in lines if x.startswith("LMDeploy는 LLM을")))
            lines[index] += extra * 5

    findings = run(copy_article(tmp_path, pad))
    assert [(f.langs, f.message.endswith("(possible addition)")) for f in findings] == [
        (("ko",), True)
    ]


def test_short_blocks_are_not_judged(tmp_path):
    def shorten(lang, lines):
        # both sides of "The short answer" shrink to a few characters: nothing to measure
        if lang == "ja":
            lines[6] = "短い。"
        if lang == "en":
            lines[6] = "Short."

    assert run(copy_article(tmp_path, shorten)) == []


def test_too_few_rows_to_learn_from_says_nothing(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "en.md").write_text(
        "# Title\n\nA fairly long paragraph with enough words to be measured at all, surely.\n",
        encoding="utf-8",
    )
    (folder / "ja.md").write_text("# タイトル\n\n短い。\n", encoding="utf-8")
    assert run(folder) == []


_LONG = "this paragraph holds plain words of running text, long enough to be measured here"


@pytest.mark.parametrize("rows", [length_ratio.MIN_ROWS - 1, length_ratio.MIN_ROWS])
def test_a_truncated_row_is_reported_from_exactly_min_rows_rows_on(rows):
    # A version with fewer rows than MIN_ROWS beside the source's is not measured at all.
    english = "".join(f"{_LONG} {index}.\n\n" for index in range(rows))
    french = english.replace(f"{_LONG} 0.", "un mot.")
    article = align_article(
        "a", parse_versions(en=f"# T\n\n{english}", fr=f"# T\n\n{french}"), "en"
    )
    findings = rule_findings(article, "length-ratio")
    reported = rows >= length_ratio.MIN_ROWS
    assert [f.langs for f in findings] == ([("fr",)] if reported else [])


def test_fastapi_corpus_gives_few_length_ratio_findings(fastapi_run):
    # The session's run of every rule: rules run independently, so its length-ratio findings
    # are those of a run with --select length-ratio.
    sets, _, every = fastapi_run
    findings = [f for f in every if f.rule == "length-ratio"]
    pairs = sum(len(s.versions) - 1 for s in sets)
    assert len(findings) * 100 <= pairs, [f.message for f in findings]


# ---------------------------------------------------------------------------
# What the rule computes, against the full computation


_PIECES = ["Huawei", "API", "main.py", "v4.1", "word", "Über", "日本語", "テスト", "`x`", "x@y.io"]
_PIECES += ["https://a.io/b", "www.x.org", "Die", "e.g.", "I", "（", "。", "snake_case", "\u3000"]
_running_texts = st.lists(
    st.tuples(st.sampled_from(_PIECES), st.sampled_from([" ", ". ", "\n", "", "  ", "\t"])),
    max_size=20,
).map(lambda pairs: "".join(piece + gap for piece, gap in pairs))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(_running_texts, st.text(max_size=40)),
    st.lists(st.sampled_from(["x", "`x`", "a b", "main.py", ""]), max_size=3),
    st.booleans(),
)
def test_a_running_length_counts_the_running_text_the_facts_give(text, spans, capitalised):
    """``running_length`` (the rule's count, kept nowhere) is the characters other than white
    space of the running text the article's facts give the other rules."""
    running, _ = ArticleFacts().running_text(text, spans, capitalised_are_names=capitalised)
    counted = running_length(text, spans, capitalised_are_names=capitalised)
    assert counted == sum(len(word) for word in running.split())


_WHITE_SPACE = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WHITE_SPACE), st.text(max_size=4)), max_size=12))
def test_a_non_space_length_counts_what_splitting_at_white_space_keeps(pieces):
    """Every white-space character (not the ASCII space alone) is left out of the count,
    whether the text is printable or not."""
    text = "".join(pieces)
    assert non_space_length(text) == sum(len(word) for word in text.split())


def test_every_white_space_character_is_left_out_of_a_non_space_length():
    for space in _WHITE_SPACE:
        assert non_space_length(f"ab{space}c d{space}") == 4, repr(space)


def _usual_by_definition(article, lang: str) -> float:
    """The median of a version's length over the source's, over every aligned prose row
    both have whose source holds at least MIN_LEARN characters (every row's length counted,
    none skipped)."""
    source = article.source
    ratios = []
    for section in article.sections:
        for row in section.rows:
            mine, theirs = row.cells.get(source), row.cells.get(lang)
            if mine is None or theirs is None:
                continue
            if mine.kind not in length_ratio._PROSE or theirs.kind not in length_ratio._PROSE:
                continue
            reference = sum(text_length(b, source) for b in (mine, *row.extra.get(source, ())))
            own = sum(text_length(b, lang) for b in (theirs, *row.extra.get(lang, ())))
            if own and reference >= length_ratio.MIN_LEARN:
                ratios.append(own / reference)
    return statistics.median(ratios)


def test_the_usual_ratio_is_learned_from_every_row_long_enough(tmp_path):
    # Rows whose source is shorter than MIN_LEARN are not measured in the translation: they
    # are neither learned from nor reported (MIN_SOURCE is larger).  The ratio learned is
    # still the definition's, with short rows made far longer in the translation.
    assert length_ratio.MIN_SOURCE >= length_ratio.MIN_LEARN

    def edit(lang, lines):
        if lang == "ja":
            paragraph = lines[20]
            lines[20] = paragraph[: len(paragraph) // 4] + "。"
        lines.append("")
        lines.append("Short." if lang == "en" else "とても長い段落です。" * 20)

    folder = copy_article(tmp_path, edit)
    texts = {lang: (folder / f"{lang}.md").read_text(encoding="utf-8") for lang in LANGS}
    documents = parse_versions(**{lang.replace("-", "_"): text for lang, text in texts.items()})
    article = align_article("a", documents, "en")
    findings = rule_findings(article, "length-ratio")
    assert [f.langs for f in findings] == [("ja",)]
    assert findings[0].evidence["usual"] == round(_usual_by_definition(article, "ja"), 3)
