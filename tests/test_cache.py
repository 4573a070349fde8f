"""The content-hash result cache: same findings with and without it, invalidated by every
input it depends on, and never left corrupt by a run that is killed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import CORPUS, REPO, invoke, need

from parallelcheck.model.finding import Finding
from parallelcheck.model.outline import Outline
from parallelcheck.run.cache import KEPT, LAYOUT, PATTERNS, Cache


def run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in ``cwd`` (in this process: :func:`conftest.invoke`), caching into
    ``cwd/cache`` unless ``env`` says otherwise."""
    return invoke(
        *args, cwd=cwd, env={"PARALLELCHECK_CACHE_DIR": str(cwd / "cache"), **(env or {})}
    )


def _project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    shutil.copytree(REPO / "glossary", tmp_path / "glossary")
    return tmp_path


def _entries(folder: Path) -> list[Path]:
    """The result entries in *folder*'s cache (not the patterns' compiled forms)."""
    return sorted((folder / "cache" / LAYOUT).rglob("*.json"))


def test_a_warm_run_uses_the_cache_and_gives_byte_identical_output(tmp_path):
    project = _project(tmp_path)
    cold = run("check", "--format", "json", cwd=project)
    assert len(_entries(project)) == 1
    entry = _entries(project)[0]
    written, content = entry.stat(), entry.read_bytes()
    os.utime(entry, (written.st_atime - 3600, written.st_mtime - 3600))
    warm = run("check", "--format", "json", cwd=project)
    assert warm.stdout == cold.stdout and warm.returncode == cold.returncode == 1
    read = entry.stat()
    assert read.st_ino == written.st_ino and entry.read_bytes() == content  # not rewritten
    assert read.st_mtime > written.st_mtime - 60  # but marked as used (cache clear --older-than)
    bypass = run("check", "--format", "json", "--no-cache", cwd=project)
    assert bypass.stdout == cold.stdout
    assert run("check", cwd=project).stdout == run("check", "--no-cache", cwd=project).stdout


def test_every_input_of_a_result_is_part_of_its_key(tmp_path):
    project = _project(tmp_path)
    run("check", cwd=project)
    keys = {p.name for p in _entries(project)}
    ja = project / "articles" / "deepinfer-vs-lmdeploy" / "ja.md"
    ja.write_text(ja.read_text(encoding="utf-8").replace("## FAQ\n", ""), encoding="utf-8")
    changed = json.loads(run("check", "--format", "json", cwd=project).stdout)
    assert any(f["rule"] == "missing-section" and "ja" in f["langs"] for f in changed["findings"])
    (project / "parallelcheck.yaml").write_text("rules:\n  missing-table: off\n")
    configured = json.loads(run("check", "--format", "json", cwd=project).stdout)
    assert all(f["rule"] != "missing-table" for f in configured["findings"])
    glossary = project / "glossary" / "deepinfer.yaml"
    extra_term = "\n  - id: zz-extra\n    keep: Zzyzx\n"
    glossary.write_text(glossary.read_text(encoding="utf-8") + extra_term, encoding="utf-8")
    run("check", cwd=project)
    assert len({p.name for p in _entries(project)} - keys) == 3


def test_a_damaged_entry_is_a_miss_not_an_error(tmp_path):
    project = _project(tmp_path)
    expected = run("check", "--format", "json", cwd=project).stdout
    (entry,) = _entries(project)
    entry.write_bytes(entry.read_bytes()[:40])
    assert run("check", "--format", "json", cwd=project).stdout == expected


def test_cache_put_and_get_round_trip_and_leave_no_temporary_files(tmp_path):
    article = Outline(
        id="a", source="en", langs=("en",), expected=("en", "ja"), paths={"en": "a/en.md"},
        sections=(), link_prefixes=("/{lang}/",),
    )  # fmt: skip
    found = Finding("missing-version", "a", "", ("ja",), ("en",), (), "no ja", {"n": [1, 2.5]})
    cache = Cache(tmp_path)
    assert cache.put("ab" * 32, article, [found])
    assert cache.get("ab" * 32) == (article, [found])
    assert cache.get("cd" * 32) is None
    assert not list(tmp_path.rglob(".tmp-*"))


def test_a_run_killed_midway_leaves_no_corrupt_entry(tmp_path):
    # 15 articles of the FastAPI corpus (13 languages each), checked one at a time: a run
    # polled every 50 ms is killed after its fifth cache entry and well before its last, and
    # its warm and cold runs stay short.
    articles = 15
    source = need(CORPUS / "fastapi")
    root = tmp_path / "fastapi"
    for article in sorted(p for p in source.iterdir() if p.is_dir())[:articles]:
        shutil.copytree(article, root / article.name)
    cache_dir = tmp_path / "cache"
    env = {"PARALLELCHECK_CACHE_DIR": str(cache_dir)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parallelcheck",
            "check",
            str(root),
            "--format",
            "json",
            "--jobs",
            "1",
        ],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **env},
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list((cache_dir / LAYOUT).rglob("*.json"))) < 5:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    written = list((cache_dir / LAYOUT).rglob("*.json"))
    assert 5 <= len(written) < articles, "the run was not killed midway"
    cache = Cache(cache_dir)
    for entry in written:
        assert cache.get(entry.stem) is not None, f"{entry} is corrupt"
    warm = run("check", str(root), "--format", "json", "--jobs", "1", cwd=tmp_path, env=env)
    cold = run("check", str(root), "--format", "json", "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert warm.stdout == cold.stdout


def test_the_cache_lives_outside_the_checked_repository(tmp_path):
    """A repository must not be able to ship results for the tool to report."""
    project = _project(tmp_path / "repo")
    home = tmp_path / "xdg"
    invoke("check", cwd=project, env={"PARALLELCHECK_CACHE_DIR": None, "XDG_CACHE_HOME": str(home)})
    assert list((home / "parallelcheck" / LAYOUT).rglob("*.json"))
    assert not [p for p in project.rglob("*") if "cache" in p.name.lower()]


def _aged(path: Path, days: float) -> None:
    then = time.time() - days * 86400
    os.utime(path, (then, then))


def test_cache_info_and_clear_report_and_remove_what_the_cache_holds(tmp_path):
    project = _project(tmp_path)
    run("check", cwd=project)
    (entry,) = _entries(project)
    leftover = entry.parent / ".tmp-killed-run"  # a run killed while writing an entry
    leftover.write_bytes(b"half")
    (forms,) = (project / "cache" / PATTERNS).iterdir()  # the run's compiled patterns
    (facts,) = (project / "cache" / KEPT).iterdir()  # facts of CLDR and OpenCC data
    info = run("cache", "info", cwd=project)
    size = entry.stat().st_size + 4 + forms.stat().st_size + facts.stat().st_size
    assert info.returncode == 0
    assert info.stdout == f"{project / 'cache'}: 4 file(s), {size / 1024:.1f} KiB\n"
    cleared = run("cache", "clear", cwd=project)
    assert cleared.returncode == 0 and "removed 4 file(s)" in cleared.stdout
    assert not any(path.exists() for path in (entry, leftover, forms, facts))
    assert not (project / "cache" / KEPT).exists()
    assert run("cache", "info", cwd=project).stdout.startswith(f"{project / 'cache'}: 0 file(s)")
    run("check", cwd=project)
    assert len(_entries(project)) == 1  # computed and stored again


def test_cache_clear_older_than_keeps_what_was_used_recently(tmp_path):
    project = _project(tmp_path)
    run("check", cwd=project)
    (entry,) = _entries(project)
    _aged(entry, 10)
    assert "removed 0 file(s)" in run("cache", "clear", "--older-than", "30", cwd=project).stdout
    run("check", cwd=project)  # a hit: the entry counts as used today
    assert "removed 0 file(s)" in run("cache", "clear", "--older-than", "7", cwd=project).stdout
    _aged(entry, 10)
    assert "removed 1 file(s)" in run("cache", "clear", "--older-than", "7", cwd=project).stdout
    assert not entry.exists()


def test_a_cache_that_cannot_be_cleared_is_one_error_line(tmp_path):
    project = _project(tmp_path)
    cache = project / "cache"
    cache.write_text("not a folder")  # the configured cache folder is a file
    result = run("cache", "clear", cwd=project, env={"PARALLELCHECK_CACHE_DIR": str(cache / "x")})
    assert result.returncode == 2
    assert result.stderr.startswith("parallelcheck: error: ") and "Traceback" not in result.stderr
    assert str(cache) in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_an_entry_keeps_each_findings_place_and_one_of_another_version_is_a_miss(tmp_path):
    import dataclasses

    from parallelcheck.run import cache as cache_module

    article = Outline(
        id="a", source="en", langs=("en",), expected=("en",), paths={"en": "a/en.md"},
        sections=(), link_prefixes=(),
    )  # fmt: skip
    found = Finding("missing-table", "a", "S", ("ja",), ("en",), (), "no table")
    placed = dataclasses.replace(found, section_row=2, block_row=5)
    cache = Cache(tmp_path)
    assert cache.put("ab" * 32, article, [placed])
    _, (again,) = cache.get("ab" * 32)
    assert (again.section_row, again.block_row) == (2, 5)
    entry = json.loads(cache.path("ab" * 32).read_text(encoding="ascii"))
    assert entry["version"] == cache_module.VERSION == 4
    assert entry["findings"][0]["at"] == [2, 5]
    entry["version"] = 2  # an entry written before findings kept their place
    cache.path("ab" * 32).write_text(json.dumps(entry), encoding="ascii")
    assert cache.get("ab" * 32) is None


def test_the_run_decides_the_cache_from_what_the_format_reads(tmp_path, monkeypatch):
    from parallelcheck.config import Config
    from parallelcheck.engine import CheckOptions
    from parallelcheck.report import FORMATS
    from parallelcheck.run.plan import make_plan
    from parallelcheck.run.session import CACHE_OFF, CACHE_ON, Session

    monkeypatch.setenv("PARALLELCHECK_CACHE_DIR", str(tmp_path / "cache"))
    assert Session.start(needs=FORMATS["text"].needs).cache is not None
    assert Session.start(needs=FORMATS["html"].needs).cache is not None
    assert Session.start(needs="aligned").cache is None
    assert Session.start(no_cache=True).cache is None
    options = CheckOptions(select=("untranslated", "term-missing"))
    plan = make_plan(Config(), options, needs=FORMATS["json"].needs)
    assert (plan.cache, plan.outlines, plan.glossary, plan.langid) == (CACHE_ON, True, True, True)
    assert not plan.keeps_article([]) and not plan.keeps_article(["a finding"])
    plan = make_plan(Config(), options, needs=FORMATS["html"].needs)
    assert (plan.cache, plan.outlines, plan.history) == (CACHE_ON, False, False)
    assert not plan.keeps_article([]) and plan.keeps_article(["a finding"])
    plan = make_plan(Config(), options, needs="aligned")
    assert plan.cache == CACHE_OFF and plan.keeps_article([])


def test_html_with_the_cache_answers_for_articles_without_findings(tmp_path):
    """The html site reads the cache: an article without findings is answered from its entry,
    one with findings is checked again for its text; no entry is rewritten, and the site is
    the one a run without the cache writes."""
    project = _project(tmp_path)
    tidy = project / "articles" / "tidy"
    tidy.mkdir()
    (tidy / "en.md").write_text("# Tidy\n\nVersion 3.1 ships.\n", encoding="utf-8")
    for lang in ("ja", "ko", "zh-Hant"):
        (tidy / f"{lang}.md").write_text("# 整\n\n3.1 版。\n", encoding="utf-8")
    assert run("check", "--format", "json", cwd=project).returncode == 1
    entries = {p: (p.stat().st_ino, p.read_bytes()) for p in _entries(project)}
    assert len(entries) == 2
    for path in entries:
        os.utime(path, (1, 1))
    cached = run("check", "--format", "html", "--output", "cached", cwd=project)
    assert cached.returncode == 1, cached.stderr
    assert {p: (p.stat().st_ino, p.read_bytes()) for p in _entries(project)} == entries
    assert all(p.stat().st_mtime > 1 for p in entries)  # both looked up (a use)
    fresh = run("check", "--format", "html", "--output", "fresh", "--no-cache", cwd=project)
    assert fresh.returncode == 1, fresh.stderr
    for site in ("cached", "fresh"):
        assert sorted(p.name for p in (project / site / "pages").iterdir()) == [
            "deepinfer-vs-lmdeploy-5bf9b358.html"
        ]
    for name in ("index.html", "pages/deepinfer-vs-lmdeploy-5bf9b358.html"):
        assert (project / "cached" / name).read_bytes() == (project / "fresh" / name).read_bytes()
    page = (project / "cached" / "pages" / "deepinfer-vs-lmdeploy-5bf9b358.html").read_text()
    assert "pc-aligned" in page and "比較表：速度ではなく適用範囲" in page
    assert "tidy" in (project / "cached" / "index.html").read_text()


def _flagged_runs(tmp_path, monkeypatch):
    """A project with the user's article (findings) and one without; the flagged plan (the
    html format's) and a function checking it in this process with the cache."""
    import contextlib

    from parallelcheck.config import Config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.run.pipeline import check_all
    from parallelcheck.run.plan import make_plan

    project = _project(tmp_path)
    tidy = project / "articles" / "tidy"
    tidy.mkdir()
    (tidy / "en.md").write_text("# Tidy\n\nVersion 3.1 ships.\n", encoding="utf-8")
    (tidy / "ja.md").write_text("# 整\n\n3.1 版。\n", encoding="utf-8")
    monkeypatch.setenv("PARALLELCHECK_CACHE_DIR", str(tmp_path / "cache"))
    options = CheckOptions(jobs=1)
    plan = make_plan(Config(), options, needs="flagged")

    def checked() -> list:
        with contextlib.chdir(project):
            sets = discover(["articles"], root="articles", cwd=str(project))
            return list(check_all(sets, Config(), options, Cache(), plan=plan))

    return checked


def test_an_article_with_findings_from_the_cache_is_aligned_again_not_checked(
    tmp_path, monkeypatch
):
    from parallelcheck.report.base import Report
    from parallelcheck.report.html_site import render_site
    from parallelcheck.run import pipeline

    checked = _flagged_runs(tmp_path, monkeypatch)
    cold = checked()
    assert [r.article is not None for r in cold] == [True, False]  # findings, none
    entries = {p: p.stat().st_ino for p in (tmp_path / "cache").rglob("*.json")}
    calls = []
    real = pipeline.check_article
    monkeypatch.setattr(pipeline, "check_article", lambda *a: calls.append(a) or real(*a))
    warm = checked()
    assert calls == []  # no rule ran
    assert [r.findings for r in warm] == [r.findings for r in cold]
    assert [r.outline for r in warm] == [r.outline for r in cold]
    assert warm[0].article is not None and warm[1].article is None

    def site(results: list) -> dict[str, str]:
        shown = [r.article or r.outline for r in results]
        return render_site(Report(shown, [f for r in results for f in r.findings]))

    assert site(warm) == site(cold)
    assert {p: p.stat().st_ino for p in (tmp_path / "cache").rglob("*.json")} == entries


def test_an_article_edited_since_its_entry_was_looked_up_is_checked_in_full(tmp_path, monkeypatch):
    from parallelcheck.run import pipeline

    checked = _flagged_runs(tmp_path, monkeypatch)
    cold = checked()
    calls = []
    real_check, real_digests = pipeline.check_article, pipeline.take_digests
    monkeypatch.setattr(pipeline, "check_article", lambda *a: calls.append(a) or real_check(*a))
    # The bytes read differ from those the key was made of, as when a file is edited then.
    monkeypatch.setattr(
        pipeline,
        "take_digests",
        lambda versions: {lang: b"edited" for lang in real_digests(versions)},
    )
    warm = checked()
    assert [context.id for _, _, context in calls] == ["deepinfer-vs-lmdeploy"]
    assert [r.findings for r in warm] == [r.findings for r in cold]


def test_the_key_changes_with_the_optional_matching_packages(tmp_path, monkeypatch):
    """Installing the ja or lemmas extra (or another dictionary version) changes what a
    glossary matches: an entry written without it is not read back with it."""
    from click.testing import CliRunner

    from parallelcheck.cli import cli
    from parallelcheck.run import pipeline

    project = _project(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setenv("PARALLELCHECK_CACHE_DIR", str(project / "cache"))
    installed = pipeline.optional_distributions()
    CliRunner().invoke(cli, ["check", "--jobs", "1"])
    assert len(_entries(project)) == 1
    CliRunner().invoke(cli, ["check", "--jobs", "1"])
    assert len(_entries(project)) == 1  # the same packages: the entry is read back
    without_ja = tuple((name, None if "sudachi" in name else v) for name, v in installed)
    monkeypatch.setattr(pipeline, "optional_distributions", lambda: without_ja)
    CliRunner().invoke(cli, ["check", "--jobs", "1"])
    assert len(_entries(project)) == 2


def test_the_key_changes_with_the_code(tmp_path):
    """Every key includes a digest of the package's files: an edited rule never answers from
    entries an earlier version of the code wrote."""
    from parallelcheck.run.cache import code_digest

    package = tmp_path / "pkg"
    (package / "rules").mkdir(parents=True)
    (package / "rules" / "a.py").write_text("X = 1\n", encoding="utf-8")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"compiled")
    first = code_digest(package)
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"recompiled")
    assert code_digest(package) == first  # compiled files do not count
    (package / "rules" / "a.py").write_text("X = 2\n", encoding="utf-8")
    assert code_digest(package) != first
    assert code_digest() == code_digest()  # this package's, stable within a run
