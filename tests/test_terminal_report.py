"""The formats for a terminal (issue 21): ``text`` one line per finding, ``full`` the whole
context, wrapping to a width, colour conventions, ``--statistics``, and the share of a real
site's report that is findings."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from conftest import REPO

from parallelcheck.cli import cli
from parallelcheck.model.finding import Finding, Location
from parallelcheck.model.outline import Outline
from parallelcheck.report import FORMATS, Report
from parallelcheck.report.base import RuleInfo
from parallelcheck.report.rule_counts import render_statistics, rule_counts
from parallelcheck.report.terminal import Paint, display_width, use_color, words_of, wrap

ARTICLE = "deepinfer-vs-lmdeploy"
PLAIN = Paint(False)
SGR = re.compile("\033\\[[0-9;]*m")


def _outline(article_id: str, langs: tuple[str, ...]) -> Outline:
    paths = {lang: f"docs/{article_id}/{lang}.md" for lang in langs}
    return Outline(article_id, langs[0], langs, langs, paths, (), ())


def _finding(
    rule: str, langs, reference, lines: dict[str, int], message: str, severity="error", art="a"
) -> Finding:
    locations = tuple(Location(lang, f"docs/{art}/{lang}.md", line) for lang, line in lines.items())
    return Finding(rule, art, "", tuple(langs), tuple(reference), locations, message, {}, severity)


TABLE = _finding(
    "missing-table",
    ["en", "ja"],
    ["ko", "zh-Hant"],
    {"en": 25, "ja": 25, "ko": 29, "zh-Hant": 29},
    "table (9 rows × 3 columns) is present in ko and zh-Hant but missing from en and ja",
)
EARLIER = _finding(
    "untranslated", ["ja"], ["en"], {"en": 3, "ja": 4}, "paragraph “Hello” in ja is in English"
)


def _report(*findings: Finding, **layout) -> Report:
    articles = [_outline("a", ("en", "ja", "ko", "zh-Hant")), _outline("b", ("en", "ja"))]
    rules = {"missing-table": RuleInfo("error", "A table has no counterpart.")}
    return Report(articles, list(findings), rules=rules, header="checked 2", **layout)


# ---------------------------------------------------------------------------
# text: one line per finding


def test_text_is_one_line_per_finding_by_file_and_line_under_its_article():
    lines = FORMATS["text"](_report(EARLIER, TABLE)).splitlines()
    assert lines == [
        "a  [en, ja, ko, zh-Hant; source en]",
        "docs/a/en.md:25: error missing-table table (9 rows × 3 columns) is present in ko and "
        "zh-Hant but missing from en and ja (also ja:25; compared with ko:29, zh-Hant:29)",
        "docs/a/ja.md:4: error untranslated paragraph “Hello” in ja is in English "
        "(compared with en:3)",
        "2 error(s), 0 warning(s), 0 info in 2 article(s), 6 version(s)",
    ]


def test_quiet_leaves_the_findings_and_the_summary_and_show_outline_adds_the_outline():
    quiet = FORMATS["text"](_report(TABLE, quiet=True)).splitlines()
    assert quiet[0].startswith("docs/a/en.md:25: error missing-table ") and len(quiet) == 2
    shown = FORMATS["text"](_report(TABLE, show_outline=True)).splitlines()
    assert shown[1] == "         en      ja      ko zh-Hant  outline"


def test_a_finding_whose_deviating_version_has_no_file_starts_at_the_first_version_named():
    missing = _finding(
        "missing-version",
        ["de"],
        ["en", "ja"],
        {"en": 1, "ja": 1},
        "no de version of this article (expected by the configuration); it exists in en and ja",
        art="b",
    )
    (line,) = [x for x in FORMATS["text"](_report(missing)).splitlines() if ".md:" in x]
    assert line.startswith("docs/b/en.md:1: error missing-version no de version")
    assert line.endswith("(also ja:1)")


def test_text_wraps_to_the_width_and_puts_the_other_versions_where_they_fit():
    lines = FORMATS["text"](_report(TABLE, width=58)).splitlines()
    assert lines[1:5] == [
        "docs/a/en.md:25: error missing-table table (9 rows × 3",
        "    columns) is present in ko and zh-Hant but missing from",
        "    en and ja",
        "    (also ja:25; compared with ko:29, zh-Hant:29)",
    ]
    assert all(display_width(line) <= 58 for line in lines)
    wider = FORMATS["text"](_report(TABLE, width=60)).splitlines()
    assert wider[3] == "    en and ja (also ja:25; compared with ko:29, zh-Hant:29)"


def test_colour_paints_the_location_severity_and_the_other_versions_and_nothing_else():
    coloured = FORMATS["text"](_report(TABLE, color=True))
    assert "\033[1mdocs/a/en.md:25:\033[0m \033[31merror\033[0m missing-table table" in coloured
    assert "\033[2m(also ja:25; compared with ko:29, zh-Hant:29)\033[0m" in coloured
    assert "\033[31m1 error(s),\033[0m 0 warning(s)" in coloured
    assert SGR.sub("", coloured) == FORMATS["text"](_report(TABLE))


def test_full_keeps_sections_and_every_versions_path_and_wraps_only_the_message():
    text = FORMATS["full"](_report(TABLE, width=50))
    lines = text.splitlines()
    assert lines[0] == "checked 2" and "  § (article)" in lines
    assert "    error   missing-table: table (9 rows × 3" in lines
    assert "      ✗ zh-Hant  docs/a/zh-Hant.md:29" not in lines  # zh-Hant is a reference
    assert "        zh-Hant  docs/a/zh-Hant.md:29" in lines
    assert "            but missing from en and ja" in lines  # under the message's start
    assert all(display_width(line) <= 50 for line in lines)


# ---------------------------------------------------------------------------
# wrapping


def test_a_path_or_url_is_never_cut_and_stands_alone_when_wider_than_the_line():
    path = "/a/very/long/path/" + "x" * 70 + "/ja.md:12:"
    lines = wrap([(path, None), *words_of("error rule and a message")], 50, PLAIN)
    assert lines[0] == path and lines[1] == "    error rule and a message"
    url = "https://example.com/" + "路径" * 30
    lines = wrap(words_of(f"ko links to {url} here"), 50, PLAIN)
    assert f"    {url}" in lines


def test_chinese_and_japanese_break_between_characters_korean_words_do_not():
    text = "说明" * 40
    lines = wrap(words_of(f"paragraph “{text}” in zh"), 40, PLAIN)
    assert "".join(line.strip() for line in lines).replace(" ", "") == (f"paragraph“{text}”inzh")
    assert all(display_width(line) <= 40 for line in lines)
    korean = "스타일을" * 3
    lines = wrap(words_of(f"{'word ' * 7}{korean} end"), 40, PLAIN)
    assert any(line.strip().startswith(korean) for line in lines)


def test_without_a_width_nothing_is_wrapped():
    assert wrap(words_of("a " * 200), None, PLAIN) == [" ".join(["a"] * 200)]


# ---------------------------------------------------------------------------
# colour conventions


@pytest.mark.parametrize(
    ("flag", "environ", "terminal", "to_file", "expected"),
    [
        (None, {}, True, False, True),
        (None, {}, False, False, False),
        (None, {"TERM": "dumb"}, True, False, False),
        (None, {"NO_COLOR": "1"}, True, False, False),
        (None, {"NO_COLOR": ""}, True, False, True),  # empty: as if not set
        (None, {"FORCE_COLOR": "0"}, False, False, True),  # any non-empty value forces
        (None, {"FORCE_COLOR": ""}, False, False, False),
        (None, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True, False, False),
        (None, {"FORCE_COLOR": "1"}, False, True, False),  # a file: only --color colours it
        (True, {"NO_COLOR": "1"}, False, True, True),
        (False, {"FORCE_COLOR": "1"}, True, False, False),
    ],
)
def test_colour_follows_the_flag_then_no_color_then_force_color_then_the_terminal(
    flag, environ, terminal, to_file, expected
):
    assert use_color(flag, environ, to_terminal=terminal, to_file=to_file) is expected


def test_force_color_and_no_color_reach_the_command_line(monkeypatch):
    monkeypatch.chdir(REPO)
    runner = CliRunner()
    forced = runner.invoke(cli, ["check"], env={"FORCE_COLOR": "1"})
    assert forced.exit_code == 1 and "\033[31merror\033[0m" in forced.stdout
    both = runner.invoke(cli, ["check"], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\033[" not in both.stdout
    flag = runner.invoke(cli, ["check", "--color"], env={"NO_COLOR": "1"})
    assert "\033[31m" in flag.stdout


# ---------------------------------------------------------------------------
# --statistics


def test_statistics_count_findings_by_rule_with_their_severities():
    graded = _finding("untranslated", ["ko"], ["en"], {"en": 5, "ko": 5}, "x", severity="warning")
    report = _report(TABLE, EARLIER, graded)
    assert [(r.rule, r.count, r.severities()) for r in rule_counts(report)] == [
        ("untranslated", 2, "1 error, 1 warning"),
        ("missing-table", 1, "error"),
    ]
    lines = render_statistics(report).splitlines()
    assert lines[0] == "2  untranslated   1 error, 1 warning"
    assert lines[1] == "1  missing-table  error               A table has no counterpart."
    assert lines[-1].startswith("2 error(s), 1 warning(s)")
    document = json.loads(render_statistics(report, as_json=True))
    assert document["schema"] == "parallelcheck/statistics/v1"
    assert document["rules"][0] == {
        "rule": "untranslated",
        "count": 2,
        "error": 1,
        "warning": 1,
        "info": 0,
        "summary": "",
    }


def test_statistics_on_the_command_line(monkeypatch):
    monkeypatch.chdir(REPO)
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "--no-cache", "--statistics"])
    assert result.exit_code == 1  # the exit status is the check's
    assert result.stdout.splitlines()[0].split()[:3] == ["4", "missing-section", "error"]
    refused = runner.invoke(cli, ["check", "--statistics", "--format", "sarif"])
    assert refused.exit_code == 2 and "--statistics" in refused.stderr


# ---------------------------------------------------------------------------
# Acceptance: on the FastAPI corpus the report is its findings


def test_the_fastapi_report_is_mostly_findings_at_a_fixed_width(fastapi_run):
    """Issue 21: the findings are at least 80 % of the default report's lines (before: 113
    finding lines of 1,192, most of the rest version paths and outline rows)."""
    _, results, findings = fastapi_run
    width = 100
    report = Report([r.shown for r in results], list(findings), width=width)
    lines = FORMATS["text"](report).splitlines()
    starts = [
        i for i, line in enumerate(lines) if re.match(r"\S+:\d+: (error|warning|info) ", line)
    ]
    assert len(starts) == len(findings) > 50
    continuation = [line for line in lines if line.startswith("    ")]
    share = (len(starts) + len(continuation)) / len(lines)
    assert share >= 0.8, share
    articles = {finding.article for finding in findings}
    assert len(lines) == len(starts) + len(continuation) + len(articles) + 1
    for line in lines:  # within the width, but for what is never broken: a location, a word
        head = re.fullmatch(r"\S+:\d+: (error|warning|info) \S+", line)
        assert display_width(line) <= width or head or " " not in line.strip(), line
    for finding in findings:  # every first location is whole on its line
        first = next(loc for loc in finding.locations if loc.lang in finding.langs)
        assert any(line.startswith(f"{first.path}:{first.line}: ") for line in lines)
