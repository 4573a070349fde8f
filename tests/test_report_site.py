"""Where ``check --format html`` writes its site, and how: a folder or an index file with its
pages beside it, replaced in one step, never over the inputs or over files it did not write."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from parallelcheck.cli import cli
from parallelcheck.errors import InputError
from parallelcheck.files.site_folder import Site
from parallelcheck.report import FORMATS
from parallelcheck.report.html_site.common import page_name

ARTICLE = "deepinfer-vs-lmdeploy"
PAGE = page_name(ARTICLE)


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_output_names_a_folder_or_the_index(tmp_path):
    with contextlib.chdir(tmp_path):
        for given in ("out", "out/", "report.d"):
            site = Site.at(given)
            assert (site.index, site.pages, site.own_folder) == (
                Path(given) / "index.html",
                Path(given) / "pages",
                True,
            )
        site = Site.at("review.html")
        assert (site.index, site.pages, site.own_folder) == (
            Path("review.html"),
            Path("review_files"),
            False,
        )
        Path("old.html").mkdir()  # an existing folder is a folder, whatever its name
        assert Site.at("old.html").index == Path("old.html/index.html")
        Path("taken").write_text("x", encoding="utf-8")
        for wrong, why in (("taken", "is a file"), ("missing/out", "does not exist")):
            with pytest.raises(InputError, match=why):
                Site.at(wrong)


def test_a_site_replaces_the_earlier_one_in_one_step(tmp_path):
    site = Site.at(str(tmp_path / "out"))
    site.add("a-00000000.html", "first a")
    site.add("b-00000000.html", "first b")
    assert not (tmp_path / "out" / "pages").exists()  # nothing in place before the commit
    site.commit("first index")
    again = Site.at(str(tmp_path / "out"))
    again.add("b-00000000.html", "second b")
    assert (tmp_path / "out" / "pages" / "a-00000000.html").read_text() == "first a"
    again.commit("second index")
    out = tmp_path / "out"
    assert (out / "index.html").read_text() == "second index"
    assert sorted(p.name for p in (out / "pages").iterdir()) == ["b-00000000.html"]
    assert _hidden(out) == []  # no temporary folder or file left
    mask = os.umask(0)
    os.umask(mask)
    assert (out / "pages" / "b-00000000.html").stat().st_mode & 0o777 == 0o666 & ~mask
    assert (out / "pages").stat().st_mode & 0o777 == 0o777 & ~mask


def test_a_run_that_stops_leaves_the_earlier_site(tmp_path):
    first = Site.at(str(tmp_path / "review.html"))
    first.add("a-00000000.html", "kept")
    first.commit("kept index")
    second = Site.at(str(tmp_path / "review.html"))
    second.add("c-00000000.html", "never shown")
    second.discard()
    assert (tmp_path / "review.html").read_text() == "kept index"
    assert [p.name for p in (tmp_path / "review_files").iterdir()] == ["a-00000000.html"]
    assert _hidden(tmp_path) == []
    with pytest.raises(ValueError):
        second.add("../escape.html", "x")


def test_a_pages_folder_it_did_not_write_is_never_replaced(tmp_path):
    pages = tmp_path / "out" / "pages"
    pages.mkdir(parents=True)
    (pages / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match=r"notes\.txt"):
        Site.at(str(tmp_path / "out"))
    (pages / "notes.txt").unlink()
    (pages / "sub").mkdir()
    with pytest.raises(InputError, match="sub"):
        Site.at(str(tmp_path / "out"))
    shutil.rmtree(pages)
    pages.symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(InputError, match="not a folder of pages"):
        Site.at(str(tmp_path / "out"))
    assert (tmp_path / "out" / "pages").is_symlink()


# ---------------------------------------------------------------------------
# The command line


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(REPO / "articles", tmp_path / "articles")
    return tmp_path


def check(project: Path, *args: str):
    with contextlib.chdir(project):
        return CliRunner().invoke(cli, ["check", "--format", "html", *args])


def test_check_writes_the_site_where_output_says(project):
    result = check(project, "--output", "site")
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in (project / "site" / "pages").iterdir()) == [PAGE]
    index = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert f'href="pages/{PAGE}"' in index
    result = check(project, "--output", "review.html")
    assert result.exit_code == 1, result.output
    assert (project / "review_files" / PAGE).exists()
    assert f'href="review_files/{PAGE}"' in (project / "review.html").read_text(encoding="utf-8")
    page = (project / "review_files" / PAGE).read_text(encoding="utf-8")
    assert 'href="../review.html"' in page
    assert _hidden(project) == [] and _hidden(project / "site") == []


def test_check_without_output_says_where_a_site_can_go(project):
    result = check(project)
    assert result.exit_code == 2
    assert "--format html writes a site" in result.output and "--output DIR" in result.output
    assert sorted(p.name for p in project.iterdir()) == ["articles"]


@pytest.mark.parametrize(
    ("output", "why"),
    [
        ("articles", "holds articles/deepinfer-vs-lmdeploy/"),
        (f"articles/{ARTICLE}/review", "lies in the article folder"),
        (f"articles/{ARTICLE}", "lies in the article folder"),
    ],
)
def test_check_never_writes_a_site_among_the_inputs(project, output, why):
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    result = check(project, "--output", output)
    assert result.exit_code == 2, result.output
    assert why in result.output and "never written among the inputs" in result.output
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_a_failed_run_leaves_the_earlier_site(project, monkeypatch):
    assert check(project, "--output", "site").exit_code == 1
    before = {p: p.read_bytes() for p in (project / "site").rglob("*") if p.is_file()}

    def broken(report):
        raise RuntimeError("the index could not be made")

    monkeypatch.setitem(FORMATS, "html", dataclasses.replace(FORMATS["html"], render=broken))
    result = check(project, "--output", "site")
    assert isinstance(result.exception, RuntimeError)
    assert {p: p.read_bytes() for p in (project / "site").rglob("*") if p.is_file()} == before
    assert _hidden(project / "site") == []


def test_baselined_findings_get_no_page(project):
    with contextlib.chdir(project):
        assert CliRunner().invoke(cli, ["baseline", "-o", "base.json"]).exit_code == 0
    result = check(project, "--output", "site", "--baseline", "base.json")
    assert result.exit_code == 0, result.output
    assert list((project / "site" / "pages").iterdir()) == []
    assert "0 finding(s) in 1 article(s)" in (project / "site" / "index.html").read_text()
