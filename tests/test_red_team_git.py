"""Issue 17, the git parts: reading a repository's history never runs the repository's
programs, never crashes on a file name, and never lies about a shallow clone.

Every test runs the command line (``parallelcheck check``, through its real entry point in
this process: ``conftest.invoke``; git itself runs as the check runs it) in a real git
repository built with the helpers of ``test_stale.py`` (fixed author, committer and dates; no
user or system git configuration).

* Case 3 — a repository whose ``.git/config`` names programs (``core.fsmonitor``, a clean
  filter and a textconv driver through ``.gitattributes``, ``diff.external``, ``core.pager``,
  hooks, ``gpg.program`` with a signed commit, a partial clone's ``ext::`` remote): after
  ``check``, none of them has run.  Each setup first proves its trap is armed by springing it
  with plain git.
* Case 8 — an article folder whose name is not UTF-8: findings, no traceback.
* Case 14 — shallow clones (``git clone --depth N``): one info finding saying the history is
  too short and how to fetch more, never a wrong count or a wrong "last change" commit; a
  clone deep enough gives the full clone's answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import invoke
from test_stale import EN, JA, commit, git, make_repo, write

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(os.name == "nt", reason="the traps are POSIX shell scripts"),
]

RULES = ("--select", "stale-translation", "--select", "stale-unknown")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """``test_stale``'s repository: empty, ``articles/guide/`` in it, the working directory."""
    return make_repo(tmp_path / "repo", monkeypatch)


def run_check(cwd: Path, *args: str) -> list[dict]:
    """``parallelcheck check`` (JSON, no cache, the two history rules) in ``cwd``: its
    findings, after checking it neither crashed nor failed."""
    # A name that is not UTF-8 may be written as its own bytes: read them back as a name.
    proc = invoke(
        "check", "--format=json", "--no-cache", *RULES, *args, cwd=cwd, errors="surrogateescape"
    )
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def by_rule(findings: list[dict], rule: str) -> list[dict]:
    return [f for f in findings if f["rule"] == rule]


# ---------------------------------------------------------------------------
# Case 3: the repository's programs never run


def trap(folder: Path, name: str, *, passes_input: bool = False) -> str:
    """A shell script that appends ``name`` to ``folder/ran`` (and, as a filter must, copies
    its input to its output); its path."""
    script = folder / f"{name}.sh"
    body = f'#!/bin/sh\necho {name} >> "{folder / "ran"}"\n'
    body += "exec cat\n" if passes_input else "exit 0\n"
    script.write_text(body, encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def ran(folder: Path) -> list[str]:
    marker = folder / "ran"
    return sorted(set(marker.read_text().split())) if marker.exists() else []


def sign_head(root: Path) -> None:
    """Replace HEAD by the same commit with a (fake) signature header, so that showing it
    with ``log.showSignature`` runs ``gpg.program``."""
    body = git(root, "cat-file", "commit", "HEAD") + "\n"
    header, _, message = body.partition("\n\n")
    signature = (
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
    )
    signed = f"{header}\n{signature}\n\n{message}"
    sha = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=root,
        input=signed.encode(),
        capture_output=True,
        check=True,
    ).stdout.decode()
    git(root, "update-ref", "HEAD", sha.strip())


def test_the_repositorys_configured_programs_never_run(repo, tmp_path):
    traps = tmp_path / "traps"
    hooks = traps / "hooks"
    hooks.mkdir(parents=True)
    (repo / ".gitattributes").write_text("*.md filter=trap diff=trap\n", encoding="utf-8")
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    sign_head(repo)
    settings = {
        "core.fsmonitor": trap(traps, "fsmonitor"),
        "core.pager": trap(traps, "pager"),
        "pager.log": trap(traps, "pager-log"),
        "diff.external": trap(traps, "external-diff"),
        "diff.trap.textconv": trap(traps, "textconv"),
        "filter.trap.clean": trap(traps, "clean-filter", passes_input=True),
        "filter.trap.smudge": trap(traps, "smudge-filter", passes_input=True),
        "gpg.program": trap(traps, "gpg"),
        "log.showSignature": "true",
        "core.hooksPath": str(hooks),
        "core.untrackedCache": "false",
    }
    for hook in ("post-index-change", "reference-transaction", "post-checkout"):
        shutil.copy(trap(traps, hook), hooks / hook)
    for key, value in settings.items():
        git(repo, "config", key, value)

    # The traps are armed: plain git springs them.
    (repo / "articles/guide/en.md").touch()
    git(repo, "status", "--porcelain")
    git(repo, "log", "-1")
    git(repo, "diff", "HEAD~1", "HEAD")
    git(repo, "log", "-p", "--no-ext-diff", "-1")
    assert {"fsmonitor", "clean-filter", "gpg", "external-diff", "textconv"} <= set(ran(traps))
    (traps / "ran").unlink()

    for name in ("en", "ja"):  # stat information no longer matches the index
        (repo / f"articles/guide/{name}.md").touch()
    findings = run_check(repo)
    assert ran(traps) == []
    (found,) = by_rule(findings, "stale-translation")  # and the history was still read
    assert "en has 1 content commit since, changing “FAQ”" in found["message"]

    # Uncommitted changes are found without git looking at the work tree.
    write(repo, "en", EN.replace("MIT", "Apache").replace("two minutes", "five minutes"))
    (found,) = by_rule(run_check(repo), "stale-translation")
    assert "1 content commit and uncommitted changes since" in found["message"]
    assert ran(traps) == []


def test_a_partial_clone_never_fetches_from_its_remote(repo, tmp_path):
    """A blobless clone lacks the source's old versions; git would fetch them from the
    remote, whose URL (``ext::``) is a command.  The check runs nothing and says why it cannot
    tell."""
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    git(repo, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "partial"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{repo}", str(clone))
    marker = tmp_path / "fetched"
    git(clone, "config", "remote.origin.url", f"ext::sh -c touch% {marker}")
    git(clone, "config", "protocol.ext.allow", "always")
    git(clone, "config", "protocol.allow", "always")

    old = git(clone, "rev-parse", "HEAD~1:articles/guide/en.md")
    subprocess.run(["git", "cat-file", "-p", old], cwd=clone, capture_output=True, check=False)
    assert marker.exists()  # armed: plain git runs the remote's command
    marker.unlink()

    findings = run_check(clone)
    assert not marker.exists()
    assert by_rule(findings, "stale-translation") == []
    (unknown,) = by_rule(findings, "stale-unknown")
    assert unknown["severity"] == "info" and unknown["langs"] == ["ja"]
    assert "partial clone" in unknown["message"] and "never fetches" in unknown["message"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_safe_directory_is_respected(repo, tmp_path, monkeypatch):
    """A repository owned by someone else is refused by git unless the user's own
    configuration lists it in ``safe.directory``; the check says so, and never overrides it."""
    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    for folder, _, names in os.walk(repo):
        for name in [".", *names]:
            os.chown(os.path.join(folder, name), 65534, 65534)
    monkeypatch.delenv("SUDO_UID", raising=False)

    (unknown,) = by_rule(run_check(repo), "stale-unknown")
    assert "dubious ownership" in unknown["message"]

    user_config = tmp_path / "gitconfig"
    user_config.write_text(f"[safe]\n\tdirectory = {repo}\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    findings = run_check(repo)
    assert by_rule(findings, "stale-unknown") == []
    assert len(by_rule(findings, "stale-translation")) == 1


# ---------------------------------------------------------------------------
# Case 8: a folder name that is not UTF-8


def test_an_article_folder_named_with_bytes_that_are_not_utf8(repo):
    folder = os.path.join(os.fsencode(repo), b"articles", b"caf\xe9")
    try:
        os.mkdir(folder)
    except (OSError, UnicodeError):
        pytest.skip("this file system does not take names that are not UTF-8")
    for lang, text in (("en", EN), ("ja", JA)):
        with open(os.path.join(folder, f"{lang}.md".encode()), "w", encoding="utf-8") as out:
            out.write(text)
    first = commit(repo, 1, "both", en=EN, ja=JA)
    with open(os.path.join(folder, b"en.md"), "w", encoding="utf-8") as out:
        out.write(EN.replace("MIT", "Apache"))
    git(repo, "commit", "-q", "-am", "en: license", day=2)

    findings = run_check(repo)
    stale = {f["article"]: f for f in by_rule(findings, "stale-translation")}
    assert set(stale) == {os.fsdecode(b"caf\xe9")}
    assert f"ja was last changed in {first[:7]}" in stale[os.fsdecode(b"caf\xe9")]["message"]
    assert by_rule(findings, "stale-unknown") == []

    with open(os.path.join(folder, b"en.md"), "a", encoding="utf-8") as out:
        out.write("\nOne more paragraph of new content.\n")
    (found,) = by_rule(run_check(repo), "stale-translation")
    assert "1 content commit and uncommitted changes since" in found["message"]


# ---------------------------------------------------------------------------
# Case 14: shallow clones


def shallow_clone(origin: Path, target: Path, depth: int) -> Path:
    git(target.parent, "clone", "-q", f"--depth={depth}", f"file://{origin}", str(target))
    assert git(target, "rev-parse", "--is-shallow-repository") == "true"
    return target


def assert_too_short(findings: list[dict], langs: list[str]) -> None:
    assert by_rule(findings, "stale-translation") == []
    (unknown,) = by_rule(findings, "stale-unknown")
    assert unknown["severity"] == "info" and unknown["langs"] == langs
    assert unknown["evidence"]["shallow_clone"] is True
    message = unknown["message"]
    assert "too short" in message
    assert "git fetch --unshallow" in message and "fetch-depth: 0" in message


@pytest.mark.parametrize("depth", [1, 5])
def test_a_shallow_clone_says_its_history_is_too_short(repo, tmp_path, depth):
    """Six source commits after the translation's last change: a one-commit clone used to say
    nothing, a five-commit clone named its boundary as the translation's last change."""
    commit(repo, 1, "both", en=EN, ja=JA)
    text = EN
    for day in range(2, 8):
        text = text.replace("## FAQ", f"## FAQ\n\nNew paragraph number {day}.", 1)
        commit(repo, day, f"en: paragraph {day}", en=text)
    (full,) = by_rule(run_check(repo), "stale-translation")
    assert "en has 6 content commits since" in full["message"]

    findings = run_check(shallow_clone(repo, tmp_path / f"depth{depth}", depth))
    assert_too_short(findings, ["ja"])


def test_a_shallow_clone_deep_enough_gives_the_full_answer(repo, tmp_path):
    commit(repo, 1, "both", en=EN, ja=JA)
    (repo / "other.txt").write_text("unrelated\n", encoding="utf-8")
    commit(repo, 2, "unrelated")
    update = commit(repo, 3, "ja: license", ja=JA.replace("MIT", "BSD"))
    commit(repo, 4, "en: license", en=EN.replace("MIT", "Apache"))
    commit(repo, 5, "en: install", en=EN.replace("MIT", "Apache").replace("two", "five"))
    (full,) = by_rule(run_check(repo), "stale-translation")
    assert f"ja was last changed in {update[:7]}" in full["message"]

    # The boundary (commit 2) is older than the translation's last change (commit 3).
    findings = run_check(shallow_clone(repo, tmp_path / "deep-enough", 4))
    assert by_rule(findings, "stale-unknown") == []
    (found,) = by_rule(findings, "stale-translation")
    assert found["message"] == full["message"]
    assert found["evidence"] == full["evidence"]

    # One commit less, and the translation's last change is the boundary: too short.
    assert_too_short(run_check(shallow_clone(repo, tmp_path / "too-short", 3)), ["ja"])


def test_a_shallow_clone_with_a_branch_cut_off_is_too_short(repo, tmp_path):
    """The translation was updated on main; the source changed on a branch merged later,
    whose older commits the clone cut off.  Counting only what is left would name the cut
    commit as the change."""
    commit(repo, 1, "both", en=EN, ja=JA)
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    (repo / "side.txt").write_text("1\n", encoding="utf-8")
    commit(repo, 3, "side 1")
    (repo / "side.txt").write_text("2\n", encoding="utf-8")
    commit(repo, 4, "side 2")
    git(repo, "checkout", "-q", "main")
    commit(repo, 5, "ja: wording", ja=JA.replace("約2分", "およそ2分"))
    git(repo, "merge", "-q", "--no-edit", "side", day=6)
    (full,) = by_rule(run_check(repo), "stale-translation")
    assert "en has 1 content commit since" in full["message"]

    # depth 3: the merge, ja's update and commit 1 on main; side 2 and side 1 on the branch.
    assert_too_short(run_check(shallow_clone(repo, tmp_path / "cut-branch", 3)), ["ja"])


# ---------------------------------------------------------------------------
# Bounded in time


def test_a_git_that_hangs_is_abandoned_once_and_said_so(repo, monkeypatch):
    """The repository's configuration includes a named pipe nobody writes to: every git call
    there blocks.  Each call is killed after the timeout, no later call is made in that work
    tree, and the articles say why their staleness is unknown."""
    import parallelcheck.history.git as history
    from parallelcheck.config import Config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.run.pipeline import check_all

    commit(repo, 1, "both", en=EN, ja=JA)
    commit(repo, 2, "en: license", en=EN.replace("MIT", "Apache"))
    (repo / "articles" / "other").mkdir()
    for lang, text in (("en", EN), ("ja", JA)):
        (repo / "articles" / "other" / f"{lang}.md").write_text(text, encoding="utf-8")
    commit(repo, 3, "other")
    fifo = repo.parent / "blocks"
    os.mkfifo(fifo)
    git(repo, "config", "include.path", str(fifo))
    monkeypatch.setattr(history, "TIMEOUT", 1.0)
    history.clear_cache()
    timeouts = []  # every git call that ran past the timeout and was killed
    timed_out = history._timed_out

    def counted(name: str):
        timeouts.append(name)
        return timed_out(name)

    monkeypatch.setattr(history, "_timed_out", counted)

    results = list(
        check_all(
            discover([], root="articles"),
            Config(),
            CheckOptions(select=("stale-translation", "stale-unknown"), jobs=1),
        )
    )
    assert len(timeouts) == 1, timeouts  # abandoned once: no later call in that work tree
    findings = [f for result in results for f in result.findings]
    assert {f.rule for f in findings} == {"stale-unknown"} and len(findings) == 2
    assert all("took longer than 1 s" in f.message for f in findings)
