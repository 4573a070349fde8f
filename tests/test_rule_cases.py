"""Rule cases as data: ``tests/cases/<rule-id>/<case>/`` is a small article set.

Every registered rule has a folder named by its id, holding at least one case; ``in-sync/``
holds cases that must give no finding at all.  A case folder holds its version files (the
article), an ``expected.yaml``, and what the article needs: a ``parallelcheck.yaml`` (which
may name a ``glossary.yaml`` beside it), and for rules that read git history, older versions
of the files that a ``setup`` in ``expected.yaml`` commits first.

``expected.yaml``:

* ``about``: what the case shows;
* ``findings``: every finding the run must give — nothing missing, nothing extra — each with
  its ``rule``, deviating ``langs``, ``reference_langs`` and the line in every version
  (``lines``); optionally ``message_contains`` and ``severity``; ``unmarked: <why>`` when no
  inline marker can stand at any of its locations (see below);
* ``setup`` (optional): ``git``, a list of commits made in a fresh repository holding the
  case, each a mapping of version file to the case file whose text it commits (``en.md:
  earlier/en.md``), then the case's own version files are written as they are (uncommitted
  changes show); ``clone_depth``, check a ``--depth`` clone of that repository instead.

Inline markers put the expectation beside the text it concerns: in a version file, an HTML
comment ``<!-- expect: RULE[, RULE] -->`` at the end of a line says that a finding of RULE
has its location in this version at this line; ``<!-- expect-next-line: RULE -->`` alone on
a line says the same of the line below (for a code fence, whose info string a comment would
change).  Every marker must match a finding's location, and every expected finding carries a
marker at one of its locations unless it says why not.  Readers drop HTML comments, so markers
change no block; the runner checks this by running each case again with its markers blanked
out (same lines) and comparing the findings.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import isolate_git

CASES = Path(__file__).parent / "cases"

#: Folders of tests/cases that are not named by a rule id.
NOT_RULES = {"in-sync"}

MARKER = re.compile(r"<!--\s*expect(-next-line)?:\s*([a-z0-9, -]+?)\s*-->")
VERSION_SUFFIXES = {".md", ".markdown", ".mdx", ".html", ".htm", ".txt"}


def _cases() -> list[str]:
    return sorted(p.parent.relative_to(CASES).as_posix() for p in CASES.rglob("expected.yaml"))


def _expected(name: str) -> dict:
    return yaml.safe_load((CASES / name / "expected.yaml").read_text(encoding="utf-8"))


def _markers(folder: Path) -> set[tuple[str, int, str]]:
    """(file relative to ``folder``, line, rule) of every inline marker in the version files."""
    found = set()
    for path in sorted(folder.rglob("*")):
        if path.suffix not in VERSION_SUFFIXES or not path.is_file():
            continue
        relative = path.relative_to(folder).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            for match in MARKER.finditer(line):
                target = number + 1 if match.group(1) else number
                for rule in match.group(2).split(","):
                    found.add((relative, target, rule.strip()))
    return found


def _blank_markers(folder: Path) -> None:
    """Remove every marker from the version files under ``folder``, keeping every line where
    it is (a marker alone on its line leaves an empty line)."""
    for path in folder.rglob("*"):
        if path.suffix not in VERSION_SUFFIXES or not path.is_file():
            continue
        data = path.read_bytes()
        if b"<!--" not in data:
            continue
        lines = data.decode("utf-8", errors="surrogateescape").split("\n")
        blanked = [MARKER.sub("", line).rstrip() if MARKER.search(line) else line for line in lines]
        path.write_bytes("\n".join(blanked).encode("utf-8", errors="surrogateescape"))


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _prepare(source: Path, setup: dict, where: Path, monkeypatch) -> Path:
    """The case's folder ``source``, checked where it is; or, with a ``setup``, a copy under
    ``where`` with the git history the setup asks for."""
    if not setup:
        return source
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    isolate_git(monkeypatch)
    repo = where / "repo"
    case = repo / "case"
    case.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    for day, commit in enumerate(setup.get("git", []), start=1):
        for target, origin in commit.items():
            shutil.copyfile(source / origin, case / target)
        _git(repo, "add", "-A")
        monkeypatch.setenv("GIT_AUTHOR_DATE", f"2026-10-{day:02d}T12:00:00+00:00")
        monkeypatch.setenv("GIT_COMMITTER_DATE", f"2026-10-{day:02d}T12:00:00+00:00")
        _git(repo, "commit", "-q", "-m", f"commit {day}")
    if "clone_depth" in setup:
        clone = where / "clone"
        _git(where, "clone", "-q", f"--depth={setup['clone_depth']}", f"file://{repo}", str(clone))
        return clone / "case"
    for path in source.iterdir():
        if path.is_file() and path.name != "expected.yaml":
            shutil.copyfile(path, case / path.name)
    return case


def _got(findings) -> list[tuple]:
    return sorted(
        (
            (f.rule, list(f.langs), list(f.reference_langs), {x.lang: x.line for x in f.locations})
            for f in findings
        ),
        key=repr,
    )


@pytest.mark.parametrize("name", _cases())
def test_rule_case(name, run_check, tmp_path, monkeypatch):
    expected = _expected(name)
    setup = expected.get("setup") or {}
    folder = _prepare(CASES / name, setup, tmp_path / "run", monkeypatch)
    monkeypatch.chdir(folder)  # as a user checking the case would: its paths from there
    _, findings = run_check(folder)
    want = [(e["rule"], e["langs"], e["reference_langs"], e["lines"]) for e in expected["findings"]]
    assert _got(findings) == sorted(want, key=repr), expected["about"]
    for entry in expected["findings"]:
        if "message_contains" in entry:
            messages = [f.message for f in findings if f.rule == entry["rule"]]
            assert any(entry["message_contains"] in m for m in messages), messages
        if "severity" in entry:  # optional: the severity the rule gives that finding
            graded = {
                f.severity
                for f in findings
                if f.rule == entry["rule"]
                and {x.lang: x.line for x in f.locations} == entry["lines"]
            }
            assert graded == {entry["severity"]}, (entry, graded)

    # Every inline marker is a location of a finding of its rule.
    located = {
        (Path(loc.path).resolve().relative_to(folder.resolve()).as_posix(), loc.line, f.rule): f
        for f in findings
        for loc in f.locations
        if loc.path and Path(loc.path).resolve().is_relative_to(folder.resolve())
    }
    markers = _markers(folder)
    assert markers <= set(located), f"markers where no finding is: {sorted(markers - set(located))}"
    # Every expected finding is marked at one of its locations, unless it says why not.
    marked = {id(located[m]) for m in markers}
    for finding in findings:
        (entry,) = [
            e
            for e in expected["findings"]
            if e["rule"] == finding.rule
            and e["langs"] == list(finding.langs)
            and e["lines"] == {x.lang: x.line for x in finding.locations}
        ]
        assert id(finding) in marked or entry.get("unmarked"), (
            f"{finding.rule} in {list(finding.langs)} has no inline marker and no `unmarked`"
        )

    # The markers change nothing: without them, the same findings at the same lines.
    if markers:
        bare_source = tmp_path / "bare-source"
        shutil.copytree(CASES / name, bare_source)
        _blank_markers(bare_source)
        assert not _markers(bare_source)
        bare = _prepare(bare_source, setup, tmp_path / "bare-run", monkeypatch)
        monkeypatch.chdir(bare)
        _, without = run_check(bare)
        assert _got(without) == _got(findings)


def test_every_registered_rule_has_a_case_folder():
    from parallelcheck.rules import REGISTRY

    folders = {p.name for p in CASES.iterdir() if p.is_dir()}
    assert set(REGISTRY) <= folders, sorted(set(REGISTRY) - folders)
    assert folders <= set(REGISTRY) | NOT_RULES, sorted(folders - set(REGISTRY) - NOT_RULES)
    for rule in REGISTRY:
        cases = [name for name in _cases() if name.startswith(f"{rule}/")]
        assert cases, f"tests/cases/{rule}/ holds no case"
        # each rule's folder shows the rule at work in at least one of its cases
        assert any(rule in {e["rule"] for e in _expected(name)["findings"]} for name in cases), rule


def test_in_sync_cases_expect_no_finding():
    for name in _cases():
        if name.startswith("in-sync/"):
            assert _expected(name)["findings"] == [], name
