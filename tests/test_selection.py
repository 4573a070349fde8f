"""Exit control and rule selection (issue 21): ``--fail-on``, ``--exit-zero``, ``--select`` /
``--ignore`` with comma lists and tags, "did you mean" for rule ids everywhere,
``--report-unused-suppressions``, and the configuration's ``exclude:`` and ``overrides:``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, write_article

from parallelcheck.cli import cli
from parallelcheck.config import OFF, ON, Config, RuleConfig, load_config
from parallelcheck.engine import CheckOptions, active_rules, selected_rules
from parallelcheck.errors import InputError
from parallelcheck.model.exit_status import ExitPolicy
from parallelcheck.model.finding import Finding
from parallelcheck.rules import REGISTRY

EN = """# Guide

## Setup

Install the tool with `pip install fastcache` first.

- `uvicorn` 0.30 or newer
- `redis` 7.0 or newer

Then run it every day, and read what it reports before you commit your changes to the
repository.
"""
# ja: the list has a third item (list-shape, a warning), the last paragraph is missing
# (missing-paragraph, an error).
JA = """# ガイド

## セットアップ

まず `pip install fastcache` でツールをインストールします。

- `uvicorn` 0.30 以降
- `redis` 7.0 以降
- `memcached` 1.6 以降
"""


def _site(root: Path, config: str = "", **extra: dict[str, str]) -> Path:
    write_article(root / "articles" / "guide", {"en.md": EN, "ja.md": JA})
    for folder, files in extra.items():
        write_article(root / "articles" / folder, files)
    if config:
        (root / "parallelcheck.yaml").write_text(config, encoding="utf-8")
    return root


def _check(root: Path, *args: str, monkeypatch) -> tuple[int, dict, str]:
    """Exit status, findings document and stderr of ``check --format json ARGS`` in root."""
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    document = json.loads(result.stdout) if result.exit_code != 2 else {}
    return result.exit_code, document, result.stderr


def _rules(document: dict) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["severity"]) for f in document["findings"])


# ---------------------------------------------------------------------------
# Exit status


def _finding(severity: str) -> Finding:
    return Finding("r", "a", "", ("ja",), ("en",), (), "m", {}, severity)


@pytest.mark.parametrize(
    ("fail_on", "severities", "status"),
    [
        ("error", ["warning", "info"], 0),
        ("error", ["info", "error"], 1),
        ("warning", ["info"], 0),
        ("warning", ["warning"], 1),
        ("info", ["info"], 1),
        ("info", [], 0),
    ],
)
def test_a_run_fails_on_a_finding_of_the_chosen_severity_or_a_graver_one(
    fail_on, severities, status
):
    assert ExitPolicy(fail_on).status([_finding(s) for s in severities]) == status
    assert ExitPolicy(fail_on, exit_zero=True).status([_finding(s) for s in severities]) == 0


def test_fail_on_and_exit_zero_on_the_command_line(tmp_path, monkeypatch):
    _site(tmp_path, "rules:\n  missing-paragraph: off\n")  # only the list-shape warning left
    status, document, _ = _check(tmp_path, "articles", monkeypatch=monkeypatch)
    assert (status, _rules(document)) == (0, [("list-shape", "warning")])
    assert _check(tmp_path, "--fail-on", "warning", monkeypatch=monkeypatch)[0] == 1
    assert _check(tmp_path, "--fail-on", "info", monkeypatch=monkeypatch)[0] == 1
    (tmp_path / "parallelcheck.yaml").unlink()
    assert _check(tmp_path, monkeypatch=monkeypatch)[0] == 1  # the missing paragraph
    assert _check(tmp_path, "--exit-zero", monkeypatch=monkeypatch)[0] == 0
    assert _check(tmp_path, "--exit-zero", "--lang", "xx", monkeypatch=monkeypatch)[0] == 2


# ---------------------------------------------------------------------------
# --select / --ignore


def test_select_takes_ids_tags_and_comma_lists_and_ignore_removes_from_them():
    structure = {r for r, spec in REGISTRY.items() if "structure" in spec.tags}
    assert structure and selected_rules(["structure"], "--select") == structure
    options = CheckOptions(select=("structure", "number-mismatch"), ignore=("missing-section",))
    active = set(active_rules(Config(), options))
    assert active == (structure | {"number-mismatch"}) - {"missing-section"}


def test_a_rule_that_runs_only_when_asked_runs_when_selected_or_configured():
    assert "suppression-unused" not in active_rules(Config(), CheckOptions())
    assert "suppression-unused" in active_rules(
        Config(), CheckOptions(enable=("suppression-unused",))
    )
    assert "suppression-unused" in active_rules(Config(), CheckOptions(select=("suppression",)))
    asked = CheckOptions(select=("missing-table",), enable=("suppression-unused",))
    assert set(active_rules(Config(), asked)) == {"missing-table", "suppression-unused"}
    ignored = CheckOptions(ignore=("suppression",), enable=("suppression-unused",))
    assert "suppression-unused" not in active_rules(Config(), ignored)
    configured = Config(rules={"suppression-unused": RuleConfig(severity="error")})
    assert active_rules(configured, CheckOptions())["suppression-unused"] == "error"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("missing-tabel", "did you mean 'missing-table'?"),
        ("value", "did you mean 'values'?"),
        ("nothing-alike-at-all", "a rule id, see 'parallelcheck rules', or a tag: history, "),
    ],
)
def test_an_unknown_rule_or_tag_is_an_error_offering_the_closest(name, said):
    with pytest.raises(InputError) as caught:
        selected_rules([name], "--ignore")
    assert f"--ignore {name}: unknown rule '{name}'" in caught.value.message
    assert said in caught.value.message


def test_select_on_the_command_line(monkeypatch):
    monkeypatch.chdir(REPO)
    runner = CliRunner()
    result = runner.invoke(
        cli, ["check", "--format", "json", "--select", "missing-table,missing-section"]
    )
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert rules == {"missing-table", "missing-section"}
    repeated = runner.invoke(
        cli, ["check", "--format", "json", "--select", "structure", "--ignore", "missing-section"]
    )
    rules = {f["rule"] for f in json.loads(repeated.stdout)["findings"]}
    assert rules == {"missing-table", "missing-paragraph"}
    typo = runner.invoke(cli, ["check", "--select", "missing-tabel"])
    assert typo.exit_code == 2
    assert "did you mean 'missing-table'?" in typo.stderr and "Traceback" not in typo.output
    explain = runner.invoke(cli, ["explain", "missing-tabel"])
    assert explain.exit_code == 2 and "did you mean 'missing-table'?" in explain.stderr


# ---------------------------------------------------------------------------
# Suppression comments: unknown ids and unused comments


def test_unused_suppressions_are_reported_only_when_asked_and_not_for_a_partial_run(
    tmp_path, monkeypatch
):
    comment = "<!-- parallelcheck-disable-next-block link-mismatch -->\n"
    _site(tmp_path)
    with_comment = JA.replace("- `uvicorn`", comment + "\n- `uvicorn`")
    (tmp_path / "articles/guide/ja.md").write_text(with_comment, encoding="utf-8")
    _, plain, _ = _check(tmp_path, monkeypatch=monkeypatch)
    assert "suppression-unused" not in {f["rule"] for f in plain["findings"]}
    _, asked, _ = _check(tmp_path, "--report-unused-suppressions", monkeypatch=monkeypatch)
    (unused,) = [f for f in asked["findings"] if f["rule"] == "suppression-unused"]
    assert unused["severity"] == "warning" and unused["locations"][0]["line"] == 7
    assert "silences no finding of link-mismatch: remove it" in unused["message"]
    for limited in (["--lang", "ja"], ["--ignore", "link-mismatch"]):
        _, document, _ = _check(
            tmp_path, "--report-unused-suppressions", *limited, monkeypatch=monkeypatch
        )
        assert "suppression-unused" not in {f["rule"] for f in document["findings"]}, limited


def test_a_misspelt_rule_in_a_comment_is_an_error_finding_in_the_text_report(tmp_path, monkeypatch):
    comment = "<!-- parallelcheck-disable list-shap -->\n\n"
    _site(tmp_path)
    (tmp_path / "articles/guide/ja.md").write_text(comment + JA, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-color"])
    assert result.exit_code == 1
    line = next(x for x in result.stdout.splitlines() if "suppression-unknown-rule" in x)
    assert line.startswith("articles/guide/ja.md:1: error suppression-unknown-rule ")
    assert "names “list-shap”, which is no rule id" in line
    assert "(Did you mean “list-shape”?)" in line
    assert "list-shape" in result.stdout.replace(line, "")  # the finding it meant is reported


# ---------------------------------------------------------------------------
# exclude:


def test_excluded_files_and_folders_are_not_checked(tmp_path, monkeypatch):
    draft = {"en.md": "# Draft\n\nOne.\n", "ja.md": "# 下書き\n"}
    _site(tmp_path, "exclude:\n  - drafts/\n  - '**/ja.md'\n", **{"drafts/post": draft})
    status, document, stderr = _check(tmp_path, monkeypatch=monkeypatch)
    assert status == 2 and "no articles found" in stderr  # every ja.md left: single versions
    (tmp_path / "parallelcheck.yaml").write_text("exclude: [drafts]\n", encoding="utf-8")
    _, document, _ = _check(tmp_path, monkeypatch=monkeypatch)
    assert [a["id"] for a in document["articles"]] == ["guide"]
    named = _check(tmp_path, "articles/drafts/post/ja.md", monkeypatch=monkeypatch)
    assert named[0] == 2 and "articles/drafts/post/ja.md: is excluded by" in named[2]
    hook = CliRunner().invoke(cli, ["check", "--skip-non-articles", "articles/drafts/post/ja.md"])
    assert hook.exit_code == 0 and "excluded by the configuration" in hook.stderr


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (
            "exclude:\n  - ok/**\n  - '../up'\n",
            3,
            "the pattern '../up' in 'exclude' names a parent",
        ),
        ("exclude: 'a[b'\n", 1, "has an unclosed '['"),
        ("exclude: 3\n", 1, "'exclude' must be a list of strings"),
        ("overrides: {paths: a}\n", 1, "'overrides' must be a list of {paths, rules} mappings"),
        ("overrides:\n  - paths: a\n", 2, "overrides[1] has no 'rules'"),
        ("overrides:\n  - paths: a\n    rule: {}\n", 3, "unknown key 'rule' in overrides[1]"),
        (
            "overrides:\n  - paths: a\n    rules: {}\n"
            "  - paths: b\n    rules:\n      list-shap: off\n",
            6,
            "unknown rule id 'list-shap' (expected one of",
        ),
        (
            "overrides:\n  - paths: a\n    rules:\n      link-mismatch: {ignore_targets: [x]}\n",
            4,
            "unknown option 'ignore_targets' for rule 'link-mismatch'",
        ),
    ],
)
def test_bad_exclude_or_overrides_name_the_file_and_line(tmp_path, text, line, words):
    (tmp_path / "parallelcheck.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)
    assert (caught.value.path, caught.value.line) == ("parallelcheck.yaml", line)
    assert words in caught.value.message, caught.value.message


def test_overrides_in_toml_are_read_with_the_line_of_each_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.parallelcheck]\nexclude = ['drafts']\n\n"
        "[[tool.parallelcheck.overrides]]\npaths = ['a/**']\nrules = {list-shape = 'off'}\n\n"
        "[[tool.parallelcheck.overrides]]\npaths = ['b/**']\nrules = {list-shap = 'off'}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)
    assert caught.value.line == 10 and "did you mean 'list-shape'?" in caught.value.message


# ---------------------------------------------------------------------------
# overrides:


def test_overrides_set_rules_for_the_files_they_match_later_ones_winning(tmp_path):
    (tmp_path / "parallelcheck.yaml").write_text(
        "overrides:\n"
        "  - paths: ['articles/**/ja.md', docs/]\n"
        "    rules: {list-shape: off, missing-paragraph: warning}\n"
        "  - paths: articles/guide/\n"
        "    rules: {list-shape: error}\n",
        encoding="utf-8",
    )
    config = load_config(None, cwd=str(tmp_path), known_rules=REGISTRY)
    guide = tmp_path / "articles/guide"
    by_version = config.rules_by_version(
        {"en": str(guide / "en.md"), "ja": str(guide / "ja.md"), "ko": str(tmp_path / "ko.md")}
    )
    assert by_version == {
        "en": {"list-shape": "error"},
        "ja": {"list-shape": "error", "missing-paragraph": "warning"},
    }
    assert config.rules_by_version({"ja": str(tmp_path / "articles/other/ja.md")}) == {
        "ja": {"list-shape": OFF, "missing-paragraph": "warning"}
    }
    assert config.overrides[0].rules["missing-paragraph"].setting() == "warning"
    assert RuleConfig().setting() == ON


def test_overrides_change_the_findings_of_the_versions_they_match(tmp_path, monkeypatch):
    other = {"en.md": EN, "ja.md": JA}
    _site(
        tmp_path,
        "rules:\n  list-shape: off\n"
        "overrides:\n"
        "  - paths: articles/guide/ja.md\n"
        "    rules: {missing-paragraph: info, list-shape: on}\n",
        other=other,
    )
    status, document, _ = _check(tmp_path, monkeypatch=monkeypatch)
    found = sorted((f["article"], f["rule"], f["severity"]) for f in document["findings"])
    assert found == [
        ("guide", "list-shape", "warning"),  # off for the run, on for guide's ja
        ("guide", "missing-paragraph", "info"),
        ("other", "missing-paragraph", "error"),
    ]
    assert status == 1
