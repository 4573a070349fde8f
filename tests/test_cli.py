"""The command line end to end, on the shipped articles/ and on small trees."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, SEEDS, invoke, need, run_cli

ARTICLE = "deepinfer-vs-lmdeploy"

# The acceptance list of the user's article: (rule, section as en or the first version writes
# it).  Everything present in zh-Hant and ko only: those two versions differ from the source
# (en) and ja by an element the source lacks, so they are the deviating versions.
EXPECTED = [
    ("missing-paragraph", "DeepInfer vs LMDeploy: DeepSeek V4.1-Flash Serving Compared"),
    ("missing-table", "Head-to-head: scope, not speed"),
    ("missing-paragraph", "The benchmark trap"),
    ("missing-table", "Decision guide"),
    ("missing-section", "DeepInfer가 LMDeploy보다 빠른가요?"),
    ("missing-section", "LMDeploy가 DeepSeek-V4.1-Flash를 지원하나요?"),
    ("missing-section", "LMDeploy가 Huawei Ascend를 지원하나요?"),
    ("missing-section", "어느 쪽을 골라야 하나요?"),
]


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """``parallelcheck ARGS`` in ``cwd``, in this process (see :func:`conftest.invoke`); the
    tests that must see the installed command itself use :func:`process`."""
    return invoke(*args, cwd=cwd)


def process(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """``python -m parallelcheck ARGS`` in ``cwd``, a process of its own."""
    return run_cli(*args, cwd=cwd)


def _summary(document: dict) -> list[tuple]:
    return sorted(
        (f["rule"], f["section"], tuple(f["langs"]), tuple(f["reference_langs"]))
        for f in document["findings"]
        if f["severity"] in ("error", "warning")
    )


def test_check_in_the_repo_root_reports_exactly_the_acceptance_list():
    result = process("check", "--format", "json")
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    want = sorted((rule, section, ("ko", "zh-Hant"), ("en", "ja")) for rule, section in EXPECTED)
    assert _summary(document) == want
    for finding in document["findings"]:
        assert sorted(loc["lang"] for loc in finding["locations"]) == ["en", "ja", "ko", "zh-Hant"]
        assert "but not in the source en (nor in ja)" in finding["message"]
        for loc in finding["locations"]:
            lines = (REPO / loc["path"]).read_text(encoding="utf-8").splitlines()
            assert 1 <= loc["line"] <= len(lines)


def test_present_versions_point_at_the_element_itself():
    document = json.loads(run("check", "--format", "json").stdout)
    tables = [f for f in document["findings"] if f["rule"] == "missing-table"]
    assert tables
    for finding in tables:
        for loc in finding["locations"]:
            if loc["lang"] in ("ko", "zh-Hant"):  # the versions that have the table
                line = (
                    (REPO / loc["path"]).read_text(encoding="utf-8").splitlines()[loc["line"] - 1]
                )
                assert line.startswith("|")


def test_json_output_has_the_contract_fields():
    document = json.loads(run("check", "--format", "json").stdout)
    assert document["schema"] == "parallelcheck/findings/v1"
    assert document["tool"]["name"] == "parallelcheck"
    assert document["tool"]["version"]
    (article,) = document["articles"]
    assert article["id"] == ARTICLE and article["source"] == "en"
    assert set(article["versions"]) == {"en", "ja", "ko", "zh-Hant"}
    fields = {
        "rule",
        "severity",
        "article",
        "section",
        "langs",
        "reference_langs",
        "locations",
        "message",
        "evidence",
    }
    for finding in document["findings"]:
        assert set(finding) == fields
        assert finding["langs"] and finding["severity"] in ("error", "warning", "info")
        assert all(set(loc) == {"lang", "path", "line"} for loc in finding["locations"])
    summary = document["summary"]
    assert summary["findings"] == len(document["findings"])
    assert summary["error"] + summary["warning"] + summary["info"] == summary["findings"]
    assert summary["articles"] == 1


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_same_input_gives_byte_identical_output(output_format):
    """Two processes (each with its own string hashing, so its own set order), without the
    cache (which would hand the second run the first one's results)."""
    args = ("check", "--format", output_format, "--no-cache")
    first = process(*args)
    assert first.stdout and first.stdout == run(*args).stdout


def test_text_output_is_one_line_per_finding_and_full_shows_every_version_line():
    result = run("check")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    table = (
        f"articles/{ARTICLE}/ko.md:29: error missing-table table (9 rows × 3 columns) is present "
        "in ko and zh-Hant but not in the source en (nor in ja); en changed or dropped it after "
        "it was translated, or ko and zh-Hant added it (also zh-Hant:29; compared with en:25, "
        "ja:25)"
    )
    assert table in lines
    assert lines[0] == f"{ARTICLE}  [en, ja, ko, zh-Hant; source en]"
    assert len(lines) == 1 + 8 + 1  # the article, its 8 findings, the summary
    assert lines[-1] == "8 error(s), 0 warning(s), 0 info in 1 article(s), 4 version(s)"
    full = run("check", "--format", "full").stdout
    assert "§ Head-to-head: scope, not speed" in full
    assert f"articles/{ARTICLE}/zh-Hant.md:29" in full
    assert full.rstrip().endswith("8 error(s), 0 warning(s), 0 info in 1 article(s), 4 version(s)")


def test_a_single_file_stands_for_its_whole_article_set():
    whole = json.loads(run("check", "--format", "json").stdout)
    one = json.loads(run("check", f"articles/{ARTICLE}/ja.md", "--format", "json").stdout)
    assert one["findings"] == whole["findings"]


def test_lang_filter_checks_those_versions_against_the_source():
    result = run("check", "--format", "json", "--lang", "ja")
    document = json.loads(result.stdout)
    assert result.returncode == 0
    assert set(document["articles"][0]["versions"]) == {"en", "ja"}
    assert document["findings"] == []


def test_output_file_gets_the_report_and_stdout_stays_empty(tmp_path):
    target = tmp_path / "report.json"
    result = run("check", "--format", "json", "--output", str(target))
    assert result.stdout == ""
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["error"] == 8


def test_plain_text_seeds_give_the_same_findings_as_the_markdown_articles(tmp_path):
    need(SEEDS)
    folder = tmp_path / ARTICLE
    folder.mkdir()
    names = {"en": "000", "zh-Hant": "001", "ja": "002", "ko": "004"}
    for lang, prefix in names.items():
        (seed,) = SEEDS.glob(f"{prefix}_*.txt")
        shutil.copy(seed, folder / f"{lang}.txt")
    from_text = json.loads(run("check", str(tmp_path), "--format", "json").stdout)
    from_markdown = json.loads(run("check", "--format", "json").stdout)
    assert _summary(from_text) == _summary(from_markdown)
    assert [f["message"] for f in from_text["findings"]] == [
        f["message"] for f in from_markdown["findings"]
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("check", "--format", "yaml"), "unknown format"),
        (("check", "--select", "no-such-rule"), "unknown rule 'no-such-rule'"),
        (("check", "articles/nope"), "articles/nope"),
        (("check", "--lang", "not a tag"), "not a registered language tag"),
        (("explain", "no-such-rule"), "unknown rule"),
    ],
)
def test_bad_input_is_exit_two_with_one_paragraph_and_no_traceback(args, words):
    result = run(*args)
    assert result.returncode == 2
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_config_key_is_exit_two_naming_file_line_and_key(tmp_path):
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    (tmp_path / "parallelcheck.yaml").write_text("root: articles\nlangauges: [en]\n")
    result = process("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "parallelcheck.yaml:2" in result.stderr and "langauges" in result.stderr


def test_configured_severity_and_missing_version(tmp_path):
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    (tmp_path / "parallelcheck.yaml").write_text(
        "languages: [en, zh-Hant, ja, ko, fr]\nrules:\n  missing-table: {severity: warning}\n"
    )
    document = json.loads(run("check", "--format", "json", cwd=tmp_path).stdout)
    rules = {(f["rule"], f["severity"]) for f in document["findings"]}
    assert ("missing-table", "warning") in rules
    (missing,) = [f for f in document["findings"] if f["rule"] == "missing-version"]
    assert missing["langs"] == ["fr"] and missing["severity"] == "error"


def test_ignore_and_select_limit_the_rules():
    ignored = json.loads(run("check", "--format", "json", "--ignore", "missing-section").stdout)
    assert {f["rule"] for f in ignored["findings"]} == {"missing-paragraph", "missing-table"}
    selected = json.loads(run("check", "--format", "json", "--select", "missing-table").stdout)
    assert {f["rule"] for f in selected["findings"]} == {"missing-table"}


def test_check_never_modifies_its_inputs():
    before = {p: p.read_bytes() for p in (REPO / "articles").rglob("*") if p.is_file()}
    run("check")
    assert before == {p: p.read_bytes() for p in (REPO / "articles").rglob("*") if p.is_file()}


def test_rules_lists_every_rule_and_explain_prints_its_documentation():
    listing = run("rules").stdout
    for rule in ("missing-section", "missing-table", "code-mismatch", "link-mismatch"):
        assert rule in listing
    explained = run("explain", "code-mismatch")
    assert explained.returncode == 0
    assert "mermaid" in explained.stdout
    # plain text, not the docstring's reStructuredText: "(``{* ../src/app.py hl[3] *}``)"
    assert "such as {* ../src/app.py hl[3] *})" in " ".join(explained.stdout.split())
    assert "``" not in explained.stdout
    assert max(len(line) for line in explained.stdout.splitlines()) <= 88


def test_version_flag_says_the_version_the_project_declares():
    import tomllib

    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    result = process("--version")
    assert result.returncode == 0 and declared in result.stdout.split()


def test_baseline_accepts_todays_findings_and_survives_shifted_lines(tmp_path):
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    written = run("baseline", "--output", "base.json", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    entries = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))["findings"]
    assert len(entries) == 8
    clean = run("check", "--baseline", "base.json", cwd=tmp_path)
    assert clean.returncode == 0 and "0 error(s)" in clean.stdout
    # Shift every line of one version: the baseline still matches.
    ko = tmp_path / "articles" / ARTICLE / "ko.md"
    ko.write_text("\n\n\n" + ko.read_text(encoding="utf-8"), encoding="utf-8")
    assert run("check", "--baseline", "base.json", cwd=tmp_path).returncode == 0
    # A new difference is still reported.
    ja = tmp_path / "articles" / ARTICLE / "ja.md"
    ja.write_text(ja.read_text(encoding="utf-8").replace("## FAQ\n", ""), encoding="utf-8")
    fresh = json.loads(
        run("check", "--baseline", "base.json", "--format", "json", cwd=tmp_path).stdout
    )
    assert fresh["findings"] and all("ja" in f["langs"] for f in fresh["findings"])


#: The baseline 0.1 wrote for the shipped article: the first schema, whose fingerprints hashed
#: the messages' words, and its messages as 0.1 worded them.
_FIRST_SCHEMA_MESSAGES = [
    (
        "missing-paragraph",
        "paragraph “LMDeploy는 중국 생태계에서 가장 가까운 비교 대상입니다. "
        "DeepSeek V3…” present in ko, zh-Hant has no counterpart in en, ja",
    ),
    (
        "missing-paragraph",
        "paragraph “정확한 버전, 엔진 선택, PD 구성, 캐시 설정을 명시한 외부의 "
        "동일 하드웨어 De…” present in ko, zh-Hant has no counterpart in en, ja",
    ),
    (
        "missing-section",
        "section “DeepInfer가 LMDeploy보다 빠른가요?” (level 3) present in ko, "
        "zh-Hant has no counterpart in en, ja; it belongs after “FAQ”",
    ),
    (
        "missing-section",
        "section “LMDeploy가 DeepSeek-V4.1-Flash를 지원하나요?” (level 3) "
        "present in ko, zh-Hant has no counterpart in en, ja; it belongs after “FAQ”",
    ),
    (
        "missing-section",
        "section “LMDeploy가 Huawei Ascend를 지원하나요?” (level 3) present in "
        "ko, zh-Hant has no counterpart in en, ja; it belongs after “FAQ”",
    ),
    (
        "missing-section",
        "section “어느 쪽을 골라야 하나요?” (level 3) present in ko, zh-Hant has "
        "no counterpart in en, ja; it belongs after “FAQ”",
    ),
    (
        "missing-table",
        "table (9 rows × 3 columns) present in ko, zh-Hant has no counterpart in en, ja",
    ),
    (
        "missing-table",
        "table (5 rows × 3 columns) present in ko, zh-Hant has no counterpart in en, ja",
    ),
]


@pytest.mark.parametrize("dropped", [None, 6])
def test_a_baseline_of_the_first_schema_still_matches_reworded_findings(tmp_path, dropped):
    """0.2 reworded every message; a baseline 0.1 wrote is matched by what its messages name
    (their fingerprints are made again from them), and an entry taken out lets its finding
    through."""
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    entries = [
        {
            "rule": rule,
            "article": ARTICLE,
            "langs": ["en", "ja"],
            "reference_langs": ["ko", "zh-Hant"],
            "fingerprint": "0" * 32,  # 0.1's hash of section and message: not used
            "message": message,
        }
        for index, (rule, message) in enumerate(_FIRST_SCHEMA_MESSAGES)
        if index != dropped
    ]
    document = {"schema": "parallelcheck/baseline/v1", "findings": entries}
    (tmp_path / "old.json").write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    report = json.loads(
        run("check", "--baseline", "old.json", "--format", "json", cwd=tmp_path).stdout
    )
    if dropped is None:
        assert report["findings"] == []
    else:
        assert [f["rule"] for f in report["findings"]] == ["missing-table"]
        assert "9 rows × 3 columns" in report["findings"][0]["message"]


def test_a_broken_baseline_is_exit_two_naming_the_file(tmp_path):
    (tmp_path / "base.json").write_text("{not json", encoding="utf-8")
    result = run("check", "--baseline", str(tmp_path / "base.json"))
    assert result.returncode == 2 and "base.json:1" in result.stderr


def test_text_outline_colour_and_quiet():
    plain = run("check", "--show-outline").stdout
    assert "outline" in plain and "\033[" not in plain
    assert "      ·       ·       1       1  ### DeepInfer가 LMDeploy보다 빠른가요?" in plain
    assert "outline" not in run("check").stdout
    coloured = run("check", "--color").stdout
    assert "\033[31m" in coloured
    quiet = run("check", "--quiet", "--format", "full").stdout
    assert "outline" not in quiet and "missing-table" in quiet


def test_shards_split_the_articles_and_their_union_is_the_whole_run(tmp_path):
    # The cases of one rule in three, copied: three shards of some ten articles with findings.
    for rule in sorted(p for p in (REPO / "tests" / "cases").iterdir() if p.is_dir())[::3]:
        shutil.copytree(rule, tmp_path / "cases" / rule.name)

    def check(*args: str) -> dict:
        shown = run("check", "cases", "--format", "json", "--no-cache", *args, cwd=tmp_path)
        return json.loads(shown.stdout)

    whole = check()
    assert len(whole["articles"]) >= 6 and whole["findings"]
    articles, findings = [], []
    for k in (1, 2, 3):
        part = check("--shard", f"{k}/3")
        articles += [a["id"] for a in part["articles"]]
        findings += part["findings"]
    assert sorted(articles) == sorted(a["id"] for a in whole["articles"])
    assert len(articles) == len(set(articles))
    key = lambda f: json.dumps(f, sort_keys=True)  # noqa: E731
    assert sorted(findings, key=key) == sorted(whole["findings"], key=key)
    assert run("check", "cases", "--shard", "4/3", cwd=tmp_path).returncode == 2


def test_a_finished_command_spares_the_collector_its_last_pass():
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "sys.argv = ['parallelcheck', '--version']\n"
        "from parallelcheck.cli import main\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "frozen True"


def test_a_stop_signal_swallowed_during_the_check_still_stops_the_run(tmp_path, monkeypatch):
    """A SIGINT whose Interrupted is swallowed (raised inside a generator being closed, as
    when it lands while the worker pool shuts down) still ends the run with 130 and no
    report written."""
    import signal as signals

    from parallelcheck import cli as cli_module
    from parallelcheck.report.base import Report

    def swallowed(*_request, **_run):
        cli_module._stopped_by = signals.SIGINT  # the handler ran; its exception was lost
        return Report(articles=[], findings=[])  # a report the run would otherwise write

    monkeypatch.setattr(cli_module, "_run", swallowed)
    monkeypatch.setattr(cli_module, "_stopped_by", None)
    monkeypatch.setattr(cli_module, "_reported", False)
    output = tmp_path / "report.json"
    monkeypatch.setattr(
        "sys.argv", ["parallelcheck", "check", str(REPO / "articles"), "--output", str(output)]
    )
    with pytest.raises(SystemExit) as stopped:
        cli_module.main()
    assert stopped.value.code == 128 + signals.SIGINT
    assert not output.exists()
