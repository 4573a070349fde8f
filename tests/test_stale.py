"""stale-translation: the source's content changed after the translation's last commit.

Every test builds a real git repository under tmp_path, with fixed author, committer and dates,
and runs discovery and the engine end to end from inside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import isolate_git

from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.history.git import changed_sections, outline
from parallelcheck.readers import parse_text
from parallelcheck.run.pipeline import check_all

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

EN = """\
# Guide

This guide explains how to install and choose the tool.

## Install

Run the installer with `pip install tool`. It takes about two minutes on a typical laptop
and needs no administrator rights.

* download the package
* run the installer

## Decision guide

| Need | Choice |
|------|--------|
| speed | DeepInfer |
| scope | LMDeploy |

## FAQ

Is it free? Yes, under the MIT license.
"""

JA = """\
# ガイド

このガイドではツールのインストールと選び方を説明します。

## インストール

`pip install tool` でインストーラーを実行します。一般的なノートパソコンで約2分かかり、
管理者権限は不要です。

* パッケージをダウンロードする
* インストーラーを実行する

## 選択ガイド

| 必要 | 選択 |
|------|------|
| 速度 | DeepInfer |
| 範囲 | LMDeploy |

## よくある質問

無料ですか？はい、MIT ライセンスです。
"""

# The same content as EN, formatted differently: re-wrapped paragraphs, other list markers,
# extra blank lines, trailing spaces (written ␠), a re-padded table.
EN_REFORMATTED = """\
# Guide␠␠␠

This guide explains how to
install and choose the tool.


## Install

Run the installer with `pip install tool`.
It takes about two minutes on a typical laptop and needs no administrator rights.␠␠

- download the package
- run the installer



## Decision guide

| Need  | Choice    |
| ----- | --------- |
| speed | DeepInfer |
| scope | LMDeploy  |

## FAQ

Is it free?    Yes, under the MIT license.
""".replace("␠", " ")

DAY = "2026-10-0{}T12:00:00+00:00"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """An empty repository with the article folder, as the working directory."""
    return make_repo(tmp_path / "repo", monkeypatch)


def make_repo(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Create an empty repository at ``root`` holding ``articles/guide/``, with fixed names
    and no user or system git configuration, and make it the working directory."""
    (root / "articles" / "guide").mkdir(parents=True)
    isolate_git(monkeypatch)
    git(root, "init", "-q", "-b", "main")
    monkeypatch.chdir(root)
    return root


def git(root: Path, *args: str, day: int | None = None) -> str:
    env = dict(os.environ)
    if day is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = DAY.format(day)
    result = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def write(root: Path, lang: str, text: str) -> None:
    (root / "articles" / "guide" / f"{lang}.md").write_text(text, encoding="utf-8")


def commit(root: Path, day: int, message: str, **versions: str) -> str:
    for lang, text in versions.items():
        write(root, lang, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, day=day)
    return git(root, "rev-parse", "HEAD")


def check(select=("stale-translation",)):
    sets = discover([], root="articles")
    return list(check_all(sets, Config(), CheckOptions(select=select)))


def stale(select=("stale-translation",)):
    return [f for result in check(select) for f in result.findings]


def heading_line(text: str, heading: str) -> int:
    return text.splitlines().index(heading) + 1


# ---------------------------------------------------------------------------
# End to end


def test_translation_older_than_content_changes_is_reported(repo):
    first = commit(repo, 1, "both", en=EN, ja=JA)
    changed = EN.replace("| scope | LMDeploy |", "| scope | LMDeploy |\n| price | both free |")
    second = commit(repo, 2, "en: price row", en=changed)
    newest = changed.replace("Yes, under the MIT license.", "Yes, under the Apache license.")
    third = commit(repo, 3, "en: license", en=newest)

    (found,) = stale()
    assert found.rule == "stale-translation" and found.severity == "warning"
    assert found.langs == ("ja",) and found.reference_langs == ("en",)
    assert found.message == (
        f"ja was last changed in {first[:7]} (2026-10-01); en has 2 content commits since, "
        "changing “Decision guide”, “FAQ”"
    )
    lines = {loc.lang: loc.line for loc in found.locations}
    assert lines == {"en": heading_line(newest, "## Decision guide"), "ja": 1}
    assert found.evidence["source_commits"] == [third, second]
    assert found.evidence["last_commit"] == first
    assert found.evidence["uncommitted"] is False


def test_formatting_only_changes_do_not_count(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: reformat", en=EN_REFORMATTED)

    (result,) = check()
    assert result.findings == []
    assert result.history["ja"].changes == 0  # the commit was looked at, and ignored


def test_only_content_commits_are_counted_among_formatting_ones(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: reformat", en=EN_REFORMATTED)
    renamed = EN_REFORMATTED.replace("## FAQ", "## Questions")
    commit(repo, 3, "en: rename FAQ", en=renamed)
    commit(repo, 4, "en: reformat back", en=EN.replace("## FAQ", "## Questions"))

    (found,) = stale()
    assert "en has 1 content commit since, changing “Questions”" in found.message


def test_translation_updated_after_the_source_change_is_not_reported(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    commit(repo, 3, "ja: license", ja=JA.replace("MIT", "Apache"))

    assert stale() == []


def test_outside_a_git_work_tree_nothing_is_reported(tmp_path, monkeypatch):
    (tmp_path / "articles" / "guide").mkdir(parents=True)
    write(tmp_path, "en", EN)
    write(tmp_path, "ja", JA)
    monkeypatch.chdir(tmp_path)

    (result,) = check()
    assert result.findings == []
    assert result.history is None


def test_without_git_nothing_is_reported(repo, monkeypatch):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    empty = repo.parent / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))

    (result,) = check()
    assert result.findings == []
    assert result.history is None


def test_uncommitted_source_changes_count_as_one_more(repo):
    first = commit(repo, 1, "both", en=EN, ja=JA)
    write(repo, "en", EN.replace("about two minutes", "about five minutes"))

    (found,) = stale()
    assert found.message == (
        f"ja was last changed in {first[:7]} (2026-10-01); en has uncommitted content changes "
        "since, changing “Install”"
    )
    assert found.evidence["uncommitted"] is True

    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    write(repo, "en", EN.replace("MIT", "Apache").replace("two minutes", "five minutes"))
    (found,) = stale()
    assert "en has 1 content commit and uncommitted changes since" in found.message
    assert "changing “Install”, “FAQ”" in found.message


def test_uncommitted_formatting_and_untracked_files_do_not_count(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    write(repo, "en", EN_REFORMATTED)
    write(repo, "ko", EN.replace("MIT", "BSD"))  # a new, untracked translation
    assert stale() == []


def test_a_translation_being_edited_counts_as_up_to_date(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    write(repo, "ja", JA.replace("MIT", "Apache"))  # not committed yet

    (result,) = check()
    assert result.findings == []
    assert "ja" not in result.history


def test_source_change_on_another_branch_counts_whatever_the_dates(repo):
    """The translation was updated on a branch after (by date) a source change on main that
    the branch does not contain: the merged result's translation still lacks that change."""
    commit(repo, 1, "both", en=EN, ja=JA)
    git(repo, "checkout", "-q", "-b", "translate")
    update = commit(repo, 5, "ja: wording", ja=JA.replace("約2分", "およそ2分"))
    git(repo, "checkout", "-q", "main")
    source = commit(repo, 3, "en: license", en=EN.replace("MIT", "Apache"))
    git(repo, "merge", "-q", "--no-edit", "translate", day=6)

    (found,) = stale()
    assert f"ja was last changed in {update[:7]} (2026-10-05)" in found.message
    assert "en has 1 content commit since, changing “FAQ”" in found.message
    assert found.evidence["source_commits"] == [source]


def test_a_clean_merge_is_not_a_content_change_of_its_own(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    git(repo, "checkout", "-q", "-b", "side")
    one = commit(repo, 2, "en: install", en=EN.replace("two minutes", "five minutes"))
    git(repo, "checkout", "-q", "main")
    other = commit(repo, 3, "en: license", en=EN.replace("MIT", "Apache"))
    git(repo, "merge", "-q", "--no-edit", "side", day=4)
    assert "five minutes" in (repo / "articles/guide/en.md").read_text(encoding="utf-8")

    (found,) = stale()
    assert sorted(found.evidence["source_commits"]) == sorted([one, other])
    assert "changing “Install”, “FAQ”" in found.message


def test_history_is_read_only_when_the_rule_runs(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))

    (result,) = check(select=("missing-section",))
    assert result.history is None
    assert len(stale(select=())) == 1  # every rule, this one included


def test_several_translations_each_get_their_own_count(repo):
    commit(repo, 1, "all", en=EN, ja=JA, de=EN.replace("Guide", "Anleitung"))
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    commit(repo, 3, "de: license", de=EN.replace("Guide", "Anleitung").replace("MIT", "Apache"))
    commit(repo, 4, "en: install", en=EN.replace("MIT", "Apache").replace("two", "five"))

    found = {f.langs[0]: f for f in stale()}
    assert set(found) == {"de", "ja"}
    assert "en has 1 content commit since, changing “Install”" in found["de"].message
    assert "en has 2 content commits since, changing “Install”, “FAQ”" in found["ja"].message


# ---------------------------------------------------------------------------
# Content versus formatting, without git


def _outline(text: str):
    return outline(parse_text(text, "en.md", "en", "markdown"))


def test_formatting_is_not_content():
    assert changed_sections(_outline(EN), _outline(EN_REFORMATTED)) == ()
    emphasis = EN.replace("Is it free?", "*Is it free?*").replace("# Guide", "Guide\n=====")
    assert changed_sections(_outline(EN), _outline(emphasis)) == ()


@pytest.mark.parametrize(
    ("before", "after", "sections"),
    [
        ("## FAQ", "### FAQ", ("FAQ",)),  # heading level
        ("`pip install tool`", "`pipx install tool`", ("Install",)),  # inline code
        ("| scope | LMDeploy |\n", "", ("Decision guide",)),  # a table row
        ("## FAQ\n\nIs it free? Yes, under the MIT license.\n", "", ("FAQ (removed)",)),
        ("two minutes", "two minutes ([docs](https://example.com/docs))", ("Install",)),
    ],
)
def test_content_changes_name_their_sections(before, after, sections):
    assert before in EN
    assert changed_sections(_outline(EN), _outline(EN.replace(before, after))) == sections


def test_link_targets_are_content():
    linked = EN.replace("two minutes", "two [minutes](https://example.com/a)")
    moved = linked.replace("https://example.com/a", "https://example.com/b")
    assert changed_sections(_outline(linked), _outline(moved)) == ("Install",)


def test_moving_the_files_in_separate_commits_is_no_content_change(repo):
    commit(repo, 1, "both", en=EN, ja=JA)
    (repo / "articles" / "howto").mkdir()
    git(repo, "mv", "articles/guide/ja.md", "articles/howto/ja.md")
    git(repo, "commit", "-q", "-m", "move ja", day=2)
    git(repo, "mv", "articles/guide/en.md", "articles/howto/en.md")
    git(repo, "commit", "-q", "-m", "move en", day=3)

    (result,) = check()
    assert result.findings == []
    assert result.history["ja"].translation.last_date == "2026-10-02"


def test_an_article_in_step_costs_two_git_calls_once_the_work_tree_is_known(repo, monkeypatch):
    import parallelcheck.history.git as history

    commit(repo, 1, "both", en=EN, ja=JA, de=EN)
    check()  # finds the work tree
    calls = []
    popen = subprocess.Popen

    def counting(command, *args, **kwargs):
        # every git process starts here: its subcommand follows ``-C <work tree>``
        calls.append(command[command.index("-C") + 2])
        return popen(command, *args, **kwargs)

    monkeypatch.setattr(history.subprocess, "Popen", counting)
    assert stale() == []
    assert calls == ["cat-file", "log"]  # never `git status`, which runs filters


def test_a_repository_without_commits_gives_nothing(repo):
    write(repo, "en", EN)
    write(repo, "ja", JA)
    (result,) = check()
    assert result.findings == [] and result.history is None


def test_only_the_newest_commits_are_examined(repo, monkeypatch):
    import parallelcheck.history.git as history

    monkeypatch.setattr(history, "MAX_COMMITS", 1)
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    commit(repo, 3, "en: install", en=EN.replace("MIT", "Apache").replace("two", "five"))

    (found,) = stale()
    assert "en has at least 1 content commit since, changing “Install”" in found.message
