"""The pre-commit hook, end to end, as a user meets it.

A temporary git repository uses this project as a pre-commit hook repository, the way a user's
``.pre-commit-config.yaml`` does (``repo:`` + ``rev:`` + ``hooks: [{id: parallelcheck}]``), so
the real ``pre-commit`` tool reads our ``.pre-commit-hooks.yaml``, builds its own virtualenv and
pip-installs the project.  Because the working tree may hold uncommitted changes, the hook
repository is a fresh git repository holding a copy of the project's current files.

Then plain ``git commit`` (with ``pre-commit install``'s hook) must pass for an in-sync article,
be blocked once ``ja.md`` loses its table, pass again once the table is back, and be blocked
when the commit deletes ``ja.md`` while the configuration lists ``ja`` (pre-commit passes no
deleted file, so only the hook's own look at git's staged deletions can see it).

A second test runs ``pre-commit run`` with the ``repo: local`` hook that the README and
docs/cli.md show (taken from the README, so the example is what is tested): it uses the
``parallelcheck`` of the project's own environment (``language: system``; here, this test's
interpreter's), so nothing is installed, and it fails on the article with a dropped table and
passes once the table is back.

Skipped, saying why, when ``git`` or ``pre-commit`` is not installed — except under CI (``CI``
set), where that is a failure: the ``test`` extra installs pre-commit.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
# What a clone of the project needs for ``pip install .`` and for pre-commit to find the hook.
PROJECT_FILES = ["pyproject.toml", "README.md", ".pre-commit-hooks.yaml"]
PROJECT_TREES = ["src"]

GIT_TIMEOUT = 60
INSTALL_TIMEOUT = 600  # pre-commit builds a virtualenv and pip-installs the project
COMMIT_TIMEOUT = 180

EN = """\
# Getting started

Install the tool, then run it on the folder that holds your articles.

| Option | Default |
| --- | --- |
| `--jobs` | 0 |
| `--format` | text |
"""

JA = """\
# はじめに

ツールをインストールしてから、記事のあるフォルダーに対して実行します。

| オプション | 既定値 |
| --- | --- |
| `--jobs` | 0 |
| `--format` | text |
"""

# The edit under test rewords the paragraph (an ordinary change) and drops the table (the
# mistake); the fix keeps the new wording and puts the table back.
JA_REWORDED = JA.replace("実行します。", "実行してください。")
JA_WITHOUT_TABLE = JA_REWORDED.split("\n| ")[0].rstrip() + "\n"


def _unavailable(what: str, how: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed; CI must provide it ({how})")
    pytest.skip(f"{what} is not installed ({how}); needed to run the pre-commit hook end to end")


def _git() -> str:
    found = shutil.which("git")
    if not found:
        _unavailable("git", "apt-get install git")
    return found


def _pre_commit() -> list[str]:
    if importlib.util.find_spec("pre_commit") is None:
        _unavailable("pre-commit", "pip install '.[test]'")
    return [sys.executable, "-m", "pre_commit"]


def _environment(tmp: Path) -> dict[str, str]:
    """The caller's environment without anything that would point git or pre-commit elsewhere
    (this test may itself run inside a git hook), with the global git config, pre-commit's
    cache and virtualenv's seed-wheel cache kept inside ``tmp``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GIT_", "PRE_COMMIT"))
    }
    gitconfig = tmp / "gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test\n\temail = test@example.invalid\n"
        "[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n",
        encoding="utf-8",
    )
    env.update(
        GIT_CONFIG_GLOBAL=str(gitconfig),
        GIT_CONFIG_NOSYSTEM="1",
        PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
        VIRTUALENV_OVERRIDE_APP_DATA=str(tmp / "virtualenv-app-data"),
        PRE_COMMIT_COLOR="never",
        NO_COLOR="1",
    )
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float):
    return subprocess.run(
        args,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
    )


def _ok(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, (
        f"{result.args} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    )
    return result


def _output(result: subprocess.CompletedProcess) -> str:
    # git runs the hook with its output on stderr; git's own summary goes to stdout.
    return result.stdout + result.stderr


def _passed(result: subprocess.CompletedProcess) -> bool:
    """pre-commit ran our hook on some files and it passed (not "(no files to check)Skipped")."""
    return any(
        line.startswith("parallelcheck") and line.endswith("Passed")
        for line in _output(result).splitlines()
    )


def _hook_repository(tmp: Path, git: str, env: dict[str, str]) -> tuple[Path, str]:
    """A git repository holding the project's current files (committed or not); its HEAD."""
    clone = tmp / "parallelcheck-hook-repo"
    clone.mkdir()
    for name in PROJECT_FILES:
        shutil.copy2(PROJECT / name, clone / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in PROJECT_TREES:
        shutil.copytree(PROJECT / name, clone / name, ignore=ignore)
    _ok(_run([git, "init", "-q"], clone, env, GIT_TIMEOUT))
    _ok(_run([git, "add", "-A"], clone, env, GIT_TIMEOUT))
    _ok(_run([git, "commit", "-q", "-m", "snapshot"], clone, env, GIT_TIMEOUT))
    sha = _ok(_run([git, "rev-parse", "HEAD"], clone, env, GIT_TIMEOUT)).stdout.strip()
    return clone, sha


def test_pre_commit_hook_blocks_a_commit_that_drops_a_table(tmp_path: Path) -> None:
    git, pre_commit = _git(), _pre_commit()
    env = _environment(tmp_path)
    hook_repo, sha = _hook_repository(tmp_path, git, env)

    repo = tmp_path / "repo"
    (repo / "articles" / "guide").mkdir(parents=True)
    en, ja = repo / "articles" / "guide" / "en.md", repo / "articles" / "guide" / "ja.md"
    en.write_text(EN, encoding="utf-8")
    ja.write_text(JA, encoding="utf-8")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo.as_posix()}\n    rev: {sha}\n"
        "    hooks:\n      - id: parallelcheck\n",
        encoding="utf-8",
    )

    def git_in_repo(*args: str) -> subprocess.CompletedProcess:
        return _run([git, *args], repo, env, GIT_TIMEOUT)

    def commit(message: str) -> subprocess.CompletedProcess:
        return _run([git, "commit", "-m", message], repo, env, COMMIT_TIMEOUT)

    def commits() -> int:
        return int(_ok(git_in_repo("rev-list", "--count", "HEAD")).stdout)

    _ok(git_in_repo("init", "-q"))
    started = time.monotonic()
    _ok(_run([*pre_commit, "install", "--install-hooks"], repo, env, INSTALL_TIMEOUT))
    print(f"pre-commit install --install-hooks: {time.monotonic() - started:.1f} s")
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()
    # the hook's environment has the core dependencies only: no Sudachi dictionary (the ja
    # extra, 200 MB) unless the configuration adds it (bench/bench_install_size.py: its size)
    (hook_env,) = (tmp_path / "pre-commit-home").glob("repo*/py_env-*")
    site = hook_env / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    assert (site / "parallelcheck").is_dir() and (site / "yaml").is_dir()
    assert not list(site.glob("sudachi*")), sorted(p.name for p in site.iterdir())

    # 1. The article in sync, and a README that is no article: the hook passes.
    (repo / "README.md").write_text("# A project with a guide\n", encoding="utf-8")
    (repo / "parallelcheck.yaml").write_text("languages: [en, ja]\n", encoding="utf-8")
    _ok(git_in_repo("add", "-A"))
    first = _ok(commit("Add the guide in en and ja"))
    assert _passed(first), _output(first)
    assert commits() == 1

    # 2. ja.md is reworded and loses its table: only ja.md is staged; the hook checks the whole
    #    article and blocks the commit.
    ja.write_text(JA_WITHOUT_TABLE, encoding="utf-8")
    _ok(git_in_repo("add", "articles/guide/ja.md"))
    blocked = commit("Shorten the Japanese guide")
    output = _output(blocked)
    print(output)
    assert blocked.returncode != 0, output
    assert "parallelcheck" in output and "Failed" in output, output
    assert "missing-table" in output, output
    assert "articles/guide/ja.md" in output
    assert commits() == 1

    # 3. The table is back: the commit goes through.
    ja.write_text(JA_REWORDED, encoding="utf-8")
    _ok(git_in_repo("add", "articles/guide/ja.md"))
    fixed = commit("Shorten the Japanese guide, keeping its table")
    assert fixed.returncode == 0, _output(fixed)
    assert _passed(fixed), _output(fixed)
    assert commits() == 2

    # 4. The whole Japanese version is deleted: no staged file is left for pre-commit to pass,
    #    yet the hook sees the deletion and blocks the commit.
    _ok(git_in_repo("rm", "-q", "articles/guide/ja.md"))
    dropped = commit("Drop the Japanese guide")
    output = _output(dropped)
    print(output)
    assert dropped.returncode != 0, output
    assert "missing-version" in output, output
    assert commits() == 2

    # 5. A commit that touches no article at all runs the hook, which finds nothing to do.
    _ok(git_in_repo("reset", "-q", "--hard"))
    (repo / "notes.py").write_text("print('hi')\n", encoding="utf-8")
    _ok(git_in_repo("add", "notes.py"))
    unrelated = _ok(commit("Add a script"))
    assert "missing-version" not in _output(unrelated)
    assert commits() == 3


def _readme_local_hook() -> str:
    """The README's ``repo: local`` example (a fenced YAML block), also in docs/cli.md."""
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    (local,) = [block for block in blocks if "repo: local" in block]
    assert local in (PROJECT / "docs" / "cli.md").read_text(encoding="utf-8")
    return local


def test_pre_commit_run_with_the_documented_local_hook(tmp_path: Path) -> None:
    git, pre_commit = _git(), _pre_commit()
    env = _environment(tmp_path)
    # the project's environment: the parallelcheck beside this test's interpreter
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])

    repo = tmp_path / "repo"
    guide = repo / "articles" / "guide"
    guide.mkdir(parents=True)
    (guide / "en.md").write_text(EN, encoding="utf-8")
    (guide / "ja.md").write_text(JA_WITHOUT_TABLE, encoding="utf-8")
    (repo / "README.md").write_text("# A project with a guide\n", encoding="utf-8")
    (repo / ".pre-commit-config.yaml").write_text(_readme_local_hook(), encoding="utf-8")
    _ok(_run([git, "init", "-q"], repo, env, GIT_TIMEOUT))
    _ok(_run([git, "add", "-A"], repo, env, GIT_TIMEOUT))

    failed = _run([*pre_commit, "run", "--all-files"], repo, env, COMMIT_TIMEOUT)
    output = _output(failed)
    assert failed.returncode == 1, output
    assert re.search(r"^parallelcheck\.+Failed$", output, re.M), output
    assert "missing-table" in output and "articles/guide/ja.md" in output, output

    (guide / "ja.md").write_text(JA_REWORDED, encoding="utf-8")
    _ok(_run([git, "add", "-A"], repo, env, GIT_TIMEOUT))
    passed = _run([*pre_commit, "run", "--all-files"], repo, env, COMMIT_TIMEOUT)
    assert passed.returncode == 0, _output(passed)
    assert _passed(passed), _output(passed)
