"""Red team, issue 17 cases 1, 2 and 12: what the tool reads and writes on the file system.

Case 1, inputs are sacred: ``--output`` / ``baseline -o`` naming a version file — as written,
through a symbolic link, as a hard link — or a file a later run would take for a version
(``art/foo/de.md``), the baseline or the configuration, is exit 2 before anything is checked;
the file keeps its bytes and its mtime.  The cache folder inside an article folder is refused
the same way.

Case 2, a boundary for reads: a version that is a symbolic link out of the project (a secret
beside the checkout, ``/etc/passwd``) or into a hidden folder (``.git/config``) is an
``unreadable-version`` finding naming the link; nothing of the target — neither its content
nor its path — reaches any format.  A link inside the project still works; a folder linked
to ``.git`` is never walked.

Case 12, bounded reads: a 5 GB sparse version is a "too large" finding, at once; ``--baseline
/dev/zero`` and a FIFO as ``--baseline``, as a version or as a cache entry are refused without
hanging; a symbolic link to ``/`` inside the root is never walked (so neither is ``/proc``).

Every case runs the command line through its real entry point, in this process
(``conftest.invoke``, stopped if it hangs); ``python -m parallelcheck`` itself refuses a found
configuration (exit 2).  The property test builds random trees of articles with symbolic
links (inside, outside, into ``.git``, to ``/``, to ``/dev/zero``, loops, broken), FIFOs and
hidden folders, runs discovery and the engine in a subprocess whose audit hook records every
``open`` and every folder listing, and holds that nothing outside the project (nor in a
hidden folder, nor a device) is ever opened or listed, and that no input file's bytes or
mtime change.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, invoke, report_options, run_cli, write_article, written_report

#: How long a run may take before it counts as a hang (a guard, not a speed bound: those are
#: measured by bench/bench_time_bounds.py).
TIMEOUT = 120
SECRET = "SECRET-TOKEN-7f3a9c"
GIT_SECRET = "AUTHORIZATION: basic GIT-HEADER-51d2"
FORMATS = ("text", "json", "sarif", "github", "markdown", "html")

EN = """\
# Serving compared

DeepInfer serves 131,072 tokens of context on 8 GPUs.

## Results

Throughput rose by 75% over the baseline.
"""
JA = """\
# サービング比較

DeepInfer は 8 基の GPU で 131,072 トークンのコンテキストを扱います。

## 結果

スループットは 70% 向上しました。
"""


def run(*args: str, cwd: Path, env: dict | None = None, timeout: float = TIMEOUT):
    """``parallelcheck ARGS`` in ``cwd`` (in this process), with a private cache folder."""
    return invoke(*args, cwd=cwd, env=env, timeout=timeout, errors="surrogateescape")


def project(tmp_path: Path) -> Path:
    """``tmp_path/proj``: a git work tree (``.git/config`` holds a credential header) with the
    article ``art/foo`` (en, ja); ``tmp_path/outside/secret.md`` holds a secret beside it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# {SECRET}\n\n{SECRET} 42\n", encoding="utf-8")
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text(
        f'[http]\n\textraheader = "{GIT_SECRET}"\n', encoding="utf-8"
    )
    folder = root / "art" / "foo"
    folder.mkdir(parents=True)
    (folder / "en.md").write_text(EN, encoding="utf-8")
    (folder / "ja.md").write_text(JA, encoding="utf-8")
    return root


def state(path: Path) -> tuple[bytes, int]:
    """A file's bytes and mtime (nanoseconds), not following a link."""
    return path.read_bytes(), path.stat().st_mtime_ns


def cannot_run(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


def unreadable(proc: subprocess.CompletedProcess) -> list[dict]:
    """The ``unreadable-version`` findings of a ``--format json`` run."""
    assert proc.returncode in (0, 1), proc.stderr
    document = json.loads(proc.stdout)
    return [f for f in document["findings"] if f["rule"] == "unreadable-version"]


# ---------------------------------------------------------------------------
# Case 1: inputs are sacred


def test_output_naming_a_version_is_refused_and_the_version_is_untouched(tmp_path):
    root = project(tmp_path)
    version = root / "art" / "foo" / "ja.md"
    before = state(version)
    proc = run("check", "art", "--output", "art/foo/ja.md", cwd=root)
    cannot_run(proc, "--output art/foo/ja.md", "an input of this run")
    assert state(version) == before
    assert sorted(p.name for p in version.parent.iterdir()) == ["en.md", "ja.md"]  # no temp


def test_output_as_a_hard_link_or_a_symbolic_link_to_a_version_is_refused(tmp_path):
    root = project(tmp_path)
    version = root / "art" / "foo" / "ja.md"
    os.link(version, root / "report.md")
    (root / "report.txt").symlink_to(version)
    before = state(version)
    for output in ("report.md", "report.txt"):
        proc = run("check", "art", "--output", output, cwd=root)
        cannot_run(proc, f"--output {output}", "art/foo/ja.md", "an input of this run")
        assert state(version) == before
    # the single-file form of the check (what a hook passes) guards its whole set too
    proc = run("check", "art/foo/en.md", "--output", "report.md", cwd=root)
    cannot_run(proc, "an input of this run")
    assert state(version) == before


def test_baseline_o_naming_a_version_is_refused(tmp_path):
    root = project(tmp_path)
    version = root / "art" / "foo" / "ja.md"
    before = state(version)
    proc = run("baseline", "art", "-o", "art/foo/ja.md", cwd=root)
    cannot_run(proc, "art/foo/ja.md", "an input of this run")
    assert state(version) == before


def test_output_where_a_later_run_would_find_a_version_is_refused(tmp_path):
    root = project(tmp_path)
    proc = run("check", "art", "--output", "art/foo/de.md", cwd=root)
    cannot_run(proc, "lies in the article folder art/foo")
    assert not (root / "art" / "foo" / "de.md").exists()
    # an untagged report name beside the versions is no version: written as asked
    proc = run("check", "art", "--output", "art/foo/report.txt", cwd=root)
    assert proc.returncode == 1, proc.stderr
    assert (root / "art" / "foo" / "report.txt").is_file()


def test_output_naming_the_baseline_or_the_configuration_is_refused(tmp_path):
    root = project(tmp_path)
    (root / "parallelcheck.yaml").write_text("root: art\n", encoding="utf-8")
    proc = run("baseline", "-o", "base.json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    baseline, config = state(root / "base.json"), state(root / "parallelcheck.yaml")
    proc = run("check", "--baseline", "base.json", "--output", "base.json", cwd=root)
    cannot_run(proc, "--output base.json", "an input of this run")
    proc = run("check", "--output", "parallelcheck.yaml", cwd=root)
    cannot_run(proc, "--output parallelcheck.yaml", "an input of this run")
    assert state(root / "base.json") == baseline
    assert state(root / "parallelcheck.yaml") == config


def test_a_cache_folder_inside_an_article_folder_is_refused(tmp_path):
    root = project(tmp_path)
    proc = run("check", "art", cwd=root, env={"PARALLELCHECK_CACHE_DIR": "art/foo/cache"})
    cannot_run(proc, "cache folder", "art/foo")
    assert not (root / "art" / "foo" / "cache").exists()


# ---------------------------------------------------------------------------
# Case 2: a boundary for reads


def test_a_link_to_a_secret_outside_the_project_reaches_no_format(tmp_path):
    root = project(tmp_path)
    (root / "art" / "foo" / "ko.md").symlink_to(tmp_path / "outside" / "secret.md")
    site = tmp_path / "site"
    for output_format in FORMATS:
        for cache in ((), ("--no-cache",)):
            options = report_options(output_format, site)
            proc = run("check", "art", *options, *cache, cwd=root)
            assert proc.returncode == 1, (output_format, proc.stderr)
            report = written_report(proc, output_format, site)
            both = report + proc.stderr
            assert SECRET not in both, output_format
            assert "outside/secret" not in both and str(tmp_path / "outside") not in both
            assert "art/foo/ko.md" in report, output_format  # the finding names the link
    (finding,) = unreadable(run("check", "art", "--format", "json", cwd=root))
    assert finding["langs"] == ["ko"]
    assert finding["locations"][0]["path"] == "art/foo/ko.md"
    assert "symbolic link to a file outside the project; not read" in finding["message"]


def test_a_link_to_git_config_or_etc_passwd_is_not_read(tmp_path):
    root = project(tmp_path)
    (root / "art" / "foo" / "ko.md").symlink_to("../../.git/config")
    if os.path.exists("/etc/passwd"):
        (root / "art" / "foo" / "de.md").symlink_to("/etc/passwd")
    site = tmp_path / "site"
    for output_format in FORMATS:
        proc = run("check", "art", *report_options(output_format, site), cwd=root)
        assert proc.returncode == 1, proc.stderr
        report = written_report(proc, output_format, site)
        assert "GIT-HEADER" not in report and "root:x:" not in report
        assert "/etc/passwd" not in report and ".git/config" not in report
    proc = run("check", "art", "--format", "json", cwd=root)
    found = {f["langs"][0]: f["message"] for f in unreadable(proc)}
    assert "hidden" in found["ko"] and "not read" in found["ko"]
    if "de" in found:
        assert "outside the project" in found["de"]


def test_a_link_to_a_file_inside_the_project_still_works(tmp_path):
    root = project(tmp_path)
    store = root / "store"
    store.mkdir()
    version = root / "art" / "foo" / "ja.md"
    version.rename(store / "ja.md")
    version.symlink_to("../../store/ja.md")
    proc = run("check", "art", "--format", "json", cwd=root)
    assert proc.returncode == 1, proc.stderr
    document = json.loads(proc.stdout)
    assert not unreadable(proc)
    assert document["articles"][0]["versions"] == {"en": "art/foo/en.md", "ja": "art/foo/ja.md"}
    assert any(f["rule"] == "number-mismatch" for f in document["findings"])


def test_a_folder_linked_to_git_is_never_walked(tmp_path):
    root = project(tmp_path)
    leak = root / ".git" / "leak"
    leak.mkdir()
    (leak / "en.md").write_text(f"# {GIT_SECRET}\n", encoding="utf-8")
    (leak / "ja.md").write_text(f"# {GIT_SECRET} ja\n", encoding="utf-8")
    (root / "art" / "git").symlink_to("../.git", target_is_directory=True)
    (root / "art" / "gitleak").symlink_to("../.git/leak", target_is_directory=True)
    listed = run("ls", "art", "--format", "json", cwd=root)
    assert [a["id"] for a in json.loads(listed.stdout)["articles"]] == ["foo"], listed.stderr
    site = tmp_path / "site"
    for output_format in FORMATS:
        proc = run("check", "art", *report_options(output_format, site), cwd=root)
        assert proc.returncode == 1, proc.stderr
        report = written_report(proc, output_format, site)
        assert "GIT-HEADER" not in report and "gitleak" not in report


# ---------------------------------------------------------------------------
# Case 12: bounded reads


def test_a_5_gb_sparse_version_is_too_large_at_once(tmp_path):
    root = project(tmp_path)
    big = root / "art" / "foo" / "ko.md"
    try:
        with open(big, "wb") as handle:
            handle.truncate(5 * 1024**3)
    except OSError as error:
        pytest.skip(f"the file system refuses a 5 GB sparse file: {error}")
    # its speed: bench/bench_time_bounds.py --only sparse-5gb
    proc = run("check", "art", "--format", "json", cwd=root)
    assert "MemoryError" not in proc.stderr and "internal error" not in proc.stderr
    (finding,) = unreadable(proc)
    assert finding["langs"] == ["ko"] and "too large" in finding["message"]


def test_the_size_cap_is_checked_while_reading_not_by_stat():
    from parallelcheck.files.safe_read import TOO_LARGE, ReadRefused, read_capped

    pseudo = "/proc/self/status"  # stat says 0 bytes; it holds more than 16
    if not os.path.exists(pseudo) or os.stat(pseudo).st_size:
        pytest.skip("needs a file whose size stat does not tell")
    with pytest.raises(ReadRefused) as caught:
        read_capped(pseudo, 16)
    assert caught.value.kind == TOO_LARGE
    assert read_capped(pseudo, 1 << 20).startswith(b"Name:")


def test_baseline_dev_zero_is_refused_at_once(tmp_path):
    root = project(tmp_path)
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    # its speed: bench/bench_time_bounds.py --only baseline-dev-zero
    proc = run("check", "art", "--baseline", "/dev/zero", cwd=root)
    cannot_run(proc, "/dev/zero", "character device", "not read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_baseline_does_not_hang(tmp_path):
    root = project(tmp_path)
    os.mkfifo(root / "base.json")
    proc = run("check", "art", "--baseline", "base.json", cwd=root)
    cannot_run(proc, "base.json", "named pipe (FIFO)", "not read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_a_version_does_not_hang(tmp_path):
    root = project(tmp_path)
    os.mkfifo(root / "art" / "foo" / "ko.md")
    proc = run("check", "art/foo/ko.md", cwd=root)  # named: a clear error
    cannot_run(proc, "art/foo/ko.md", "named pipe (FIFO)")
    proc = run("check", "art", "--format", "json", cwd=root)  # in a folder: passed over
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["articles"][0]["versions"] == {
        "en": "art/foo/en.md",
        "ja": "art/foo/ja.md",
    }


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_as_cache_entries_do_not_hang(tmp_path):
    root = project(tmp_path)
    cache = tmp_path / "cache"
    env = {"PARALLELCHECK_CACHE_DIR": str(cache)}
    first = run("check", "art", "--format", "json", cwd=root, env=env)
    assert first.returncode == 1, first.stderr
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert entries, "the first run wrote no cache entry"
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry)
    again = run("check", "art", "--format", "json", cwd=root, env=env)
    assert again.returncode == 1, again.stderr
    assert json.loads(again.stdout)["findings"] == json.loads(first.stdout)["findings"]


def test_a_link_to_the_root_folder_is_not_walked(tmp_path):
    root = project(tmp_path)
    (root / "art" / "everything").symlink_to("/", target_is_directory=True)
    # its speed: bench/bench_time_bounds.py --only link-to-root
    proc = run("check", "art", "--format", "json", cwd=root)
    assert proc.returncode == 1, proc.stderr
    document = json.loads(proc.stdout)
    assert [a["id"] for a in document["articles"]] == ["foo"]
    assert "everything" not in proc.stdout and "/proc" not in proc.stdout


def test_a_pseudo_filesystem_named_as_a_path_is_an_error(tmp_path):
    if not os.path.isdir("/proc"):
        pytest.skip("no /proc")
    proc = run("check", "/proc", cwd=tmp_path)
    cannot_run(proc, "/proc", "pseudo-filesystem")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_boundary_resolves_paths_as_realpath_does(tmp_path):
    # Boundary.real_path resolves each folder once; whatever the path, it must say what
    # os.path.realpath says, and a link turned up after its folder was resolved is seen.
    from parallelcheck.files.safe_read import Boundary

    (tmp_path / "proj" / "art").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("s")
    art = tmp_path / "proj" / "art"
    (art / "en.md").write_text("e")
    (art / "linked").symlink_to(tmp_path / "outside", target_is_directory=True)
    (art / "de.md").symlink_to(tmp_path / "outside" / "secret.md")
    (art / "ja.md").symlink_to("ko.md")  # dangling
    (art / "loop.md").symlink_to("loop.md")
    (art / "up").symlink_to(tmp_path / "outside" / "..", target_is_directory=True)
    paths = [
        art / "en.md",
        art / "de.md",
        art / "ja.md",
        art / "loop.md",
        art / "missing.md",
        art / "linked" / "secret.md",
        art / "linked" / ".." / "proj" / "art" / "en.md",
        art / "up" / "outside" / "secret.md",
        art / "linked" / "missing" / "x.md",
        art / ".",
        art / "..",
    ]
    boundary = Boundary.of([str(tmp_path / "proj")])
    for path in [*paths, *paths]:  # the second time from the folders resolved the first
        assert boundary.real_path(str(path)) == os.path.realpath(path), path
    assert boundary.real_path("relative/en.md") == os.path.realpath("relative/en.md")
    (art / "fr.md").symlink_to(tmp_path / "outside" / "secret.md")  # a link made since
    assert boundary.real_path(str(art / "fr.md")) == str(tmp_path / "outside" / "secret.md")
    assert not boundary.admits(boundary.real_path(str(art / "fr.md")))


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_boundary_gives_the_stat_of_a_real_path_only_from_a_look_at_no_link(tmp_path):
    # Boundary.resolve hands read_capped the lstat of the file's own name when that name is
    # no link (then it is the real path's stat, and read_capped asks for no second one);
    # for a link, a missing file or a path resolved in full it gives none.
    from parallelcheck.files.safe_read import _DESCRIPTOR_PATHS, Boundary, read_capped

    art = tmp_path / "art"
    art.mkdir()
    (art / "en.md").write_text("english")
    (art / "de.md").symlink_to(art / "en.md")
    boundary = Boundary.of([str(tmp_path)])
    real, status = boundary.resolve(str(art / "en.md"))
    assert real == os.path.realpath(art / "en.md")
    if _DESCRIPTOR_PATHS:
        assert status is not None
        assert (status.st_ino, status.st_mode) == (os.stat(real).st_ino, os.stat(real).st_mode)
    for path in (art / "de.md", art / "missing.md"):
        assert boundary.resolve(str(path)) == (os.path.realpath(path), None)
    assert boundary.resolve("relative/en.md") == (os.path.realpath("relative/en.md"), None)
    assert read_capped(str(art / "en.md"), 64, within=boundary) == b"english"
    assert read_capped(str(art / "de.md"), 64, within=boundary) == b"english"


# ---------------------------------------------------------------------------
# Property: random trees of links, FIFOs and hidden folders; every open and listing traced

#: What a version file may be: a file, or a link to somewhere; ``fifo`` a named pipe.
VERSION_KINDS = (
    "file",
    "link-inside",
    "link-outside",
    "link-git",
    "link-hidden",
    "link-dev",
    "link-loop",
    "broken",
    "fifo",
)
#: Extra entries of the checked root.
EXTRAS = ("dir-outside", "dir-git", "dir-root", "dir-loop", "hidden-folder", "dir-inside")


def _build(base: Path, articles: list[dict[str, str]], extras: list[str]) -> Path:
    """The tree of one example below *base*; returns the project folder."""
    outside = base / "outside"
    (outside / "dir").mkdir(parents=True)
    for name in ("secret.md", "dir/en.md", "dir/ja.md"):
        (outside / name).write_text(f"# {SECRET}\n\n{SECRET}\n", encoding="utf-8")
    proj = base / "proj"
    (proj / ".git").mkdir(parents=True)
    (proj / ".git" / "config").write_text(GIT_SECRET + "\n", encoding="utf-8")
    (proj / ".env").write_text(SECRET + "\n", encoding="utf-8")
    (proj / "store").mkdir()
    (proj / "store" / "shared.md").write_text(EN, encoding="utf-8")
    art = proj / "art"
    art.mkdir()
    for index, versions in enumerate(articles):
        folder = art / f"a{index}"
        folder.mkdir()
        for lang, kind in versions.items():
            path = folder / f"{lang}.md"
            if kind == "file":
                path.write_text(EN if lang == "en" else JA, encoding="utf-8")
            elif kind == "fifo":
                os.mkfifo(path)
            else:
                target = {
                    "link-inside": proj / "store" / "shared.md",
                    "link-outside": outside / "secret.md",
                    "link-git": proj / ".git" / "config",
                    "link-hidden": proj / ".env",
                    "link-dev": Path("/dev/zero"),
                    "link-loop": path,
                    "broken": proj / "gone.md",
                }[kind]
                path.symlink_to(target)
    for extra in extras:
        if extra == "hidden-folder":
            (art / ".drafts").mkdir(exist_ok=True)
            (art / ".drafts" / "en.md").write_text(SECRET, encoding="utf-8")
            (art / ".drafts" / "ja.md").write_text(SECRET, encoding="utf-8")
            continue
        target = {
            "dir-outside": outside / "dir",
            "dir-git": proj / ".git",
            "dir-root": Path("/"),
            "dir-loop": art,
            "dir-inside": proj / "store",
        }[extra]
        link = art / extra
        if not os.path.lexists(link):
            link.symlink_to(target, target_is_directory=True)
    return proj


def _snapshot(base: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every regular file below *base* (links not followed)."""
    found = {}
    for folder, dirs, files in os.walk(base):
        for name in files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    found[path] = (handle.read(), info.st_mtime_ns)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
    return found


def _forbidden(path: str, base: str, proj: str) -> str | None:
    """Why a path the run opened or listed breaks the boundary, or ``None``."""
    if not isinstance(path, str):
        return None
    real = os.path.realpath(path)
    if real in ("/", "/dev/zero") or real.startswith(("/proc/", "/sys/")) or real == "/proc":
        return f"{path} (a system path)"
    if not real.startswith(base + os.sep):
        return None  # Python's own modules and data, the language model
    if not real.startswith(proj + os.sep) and real != proj:
        return f"{path} (outside the project)"
    rest = real[len(proj) + 1 :]
    if any(part.startswith(".") for part in rest.split(os.sep)):
        return f"{path} (a hidden file or folder)"
    return None


def _property_main() -> None:
    """Run in a subprocess (audit hooks cannot be removed): hypothesis builds trees, and for
    each one discovery and the engine run in this process while an audit hook records every
    ``open`` and folder listing.  Exits non-zero (hypothesis's report on stderr) on a
    breach."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from parallelcheck.config import load_config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.errors import InputError
    from parallelcheck.rules import REGISTRY
    from parallelcheck.run.pipeline import check_all

    events: list[str] = []

    def hook(event: str, args: tuple) -> None:
        traced = event in ("open", "os.scandir", "os.listdir")
        if traced and args and isinstance(args[0], str):
            events.append(args[0])

    sys.addaudithook(hook)
    versions = st.dictionaries(
        st.sampled_from(("en", "ja", "ko", "de")), st.sampled_from(VERSION_KINDS), min_size=1
    )

    @settings(
        max_examples=30,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.lists(versions, min_size=1, max_size=3),
        st.lists(st.sampled_from(EXTRAS), max_size=4),
    )
    def check(articles: list[dict[str, str]], extras: list[str]) -> None:
        base = Path(tempfile.mkdtemp(prefix="pc-prop-")).resolve()
        try:
            proj = _build(base, articles, extras)
            before = _snapshot(base)
            events.clear()
            cwd = os.getcwd()
            os.chdir(proj)
            try:
                config = load_config(None, cwd=str(proj), known_rules=REGISTRY)
                results = []
                try:  # no article, or no readable version: an input error (exit 2), fine
                    sets = discover(["art"], root="art", cwd=str(proj))
                    results.extend(check_all(sets, config, CheckOptions(jobs=1)))
                except InputError as error:
                    assert SECRET not in error.message and "GIT-HEADER" not in error.message
            finally:
                os.chdir(cwd)
            breaches = [why for path in events if (why := _forbidden(path, str(base), str(proj)))]
            assert not breaches, breaches
            for result in results:
                for finding in result.findings:
                    assert SECRET not in finding.message and "GIT-HEADER" not in finding.message
            assert _snapshot(base) == before
        finally:
            shutil.rmtree(base)

    check()
    print("ok")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symbolic links")
def test_property_no_read_leaves_the_project_and_no_input_changes(tmp_path):
    code = "import test_red_team_files as t; t._property_main()"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), str(REPO / "src")])}
    env.pop("PARALLELCHECK_DEBUG", None)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stderr[-4000:]


def test_a_found_configuration_cannot_widen_what_is_read(tmp_path: Path) -> None:
    # A pull request can add parallelcheck.yaml; its root and glossary stay inside its folder.
    outside = tmp_path / "outside"
    write_article(
        outside / "guide", {"en.md": "# Guide\n\nText.\n", "ja.md": "# ガイド\n\n本文。\n"}
    )
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "parallelcheck.yaml").write_text("languages: [en, ja]\nroot: ../outside\n")
    proc = run_cli("check", cwd=repo)
    assert proc.returncode == 2
    assert proc.stderr.startswith("parallelcheck: error: parallelcheck.yaml:2: 'root' path")
    assert "outside the folder of the configuration" in proc.stderr
    (repo / "parallelcheck.yaml").write_text("glossary: [/etc]\n")
    proc = run("check", cwd=repo)
    assert proc.returncode == 2 and "parallelcheck.yaml:1: 'glossary' path" in proc.stderr
    # Named on the command line, the same file is the user's own choice.
    (repo / "parallelcheck.yaml").write_text("languages: [en, ja]\nroot: ../outside\n")
    proc = run("check", "--config", "parallelcheck.yaml", "--no-cache", cwd=repo)
    assert proc.returncode == 0, proc.stderr
