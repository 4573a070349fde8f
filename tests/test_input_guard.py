"""The input guard's lookups give the answers of comparing every input's real path.

``run.guard._Inputs`` looks inputs up by device and inode and works out real paths only where
it must; these tests build a tree of files, symbolic links, hard links and missing inputs and
compare each lookup with the plain computation over all real paths.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from parallelcheck.errors import InputError
from parallelcheck.model.article import ArticleSet
from parallelcheck.run.guard import _Inputs, refuse_writes_over_inputs


def _input_at_by_real_paths(inputs: list[str], path: str) -> str | None:
    """The plain computation: every input's real path, then device and inode."""
    by_path = {os.path.realpath(p): p for p in inputs}
    found = by_path.get(os.path.realpath(path))
    if found is None:
        by_inode: dict[tuple[int, int], str] = {}
        for p in inputs:
            try:
                info = os.stat(p)
            except OSError:
                continue
            by_inode.setdefault((info.st_dev, info.st_ino), p)
        try:
            info = os.stat(path)
        except OSError:
            return None
        found = by_inode.get((info.st_dev, info.st_ino))
    return found


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """art/{en,de}.md, a linked folder, a linked version, a hard link, a missing version."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "en.md").write_text("# A\n")
    (tmp_path / "art" / "de.md").write_text("# B\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "ja.md").write_text("# C\n")
    (tmp_path / "art" / "ja.md").symlink_to(tmp_path / "elsewhere" / "ja.md")
    (tmp_path / "linked").symlink_to(tmp_path / "art", target_is_directory=True)
    os.link(tmp_path / "art" / "de.md", tmp_path / "hard.md")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "art" / "ko.md")
    return tmp_path


INPUTS = ["art/en.md", "art/de.md", "art/ja.md", "art/ko.md", "linked/en.md"]
PROBES = [
    "art/en.md",
    "linked/en.md",
    "linked/de.md",
    "hard.md",
    "art/ja.md",
    "elsewhere/ja.md",
    "art/ko.md",
    "linked/ko.md",
    "dangling.md",
    "art/fr.md",
    "art",
    "elsewhere",
    "nowhere/x.json",
]


@pytest.mark.parametrize("probe", PROBES)
def test_an_input_is_found_as_comparing_every_real_path_finds_it(tree: Path, probe: str) -> None:
    inputs = _Inputs(INPUTS, INPUTS)
    assert inputs.at(probe) == _input_at_by_real_paths(INPUTS, probe)


def test_the_probes_meet_every_kind_of_link(tree: Path) -> None:
    # the comparison above means something only if the tree holds each case
    found = {probe: _input_at_by_real_paths(INPUTS, probe) for probe in PROBES}
    assert found["hard.md"] == "art/de.md"  # a hard link
    assert found["elsewhere/ja.md"] == "art/ja.md"  # the file a version links to
    assert found["dangling.md"] == "art/ko.md"  # a link to a version that does not exist
    assert found["linked/en.md"] == "linked/en.md"  # two spellings: the last one named
    assert found["art/fr.md"] is None


def test_article_folders_are_the_real_folders_of_the_versions(tree: Path) -> None:
    versions = ["art/en.md", "linked/de.md", "art/ja.md", "art/ko.md"]
    expected = sorted({os.path.dirname(os.path.realpath(p)) for p in versions})
    assert _Inputs(versions, versions).homes == expected
    assert str(tree / "elsewhere") in expected  # a linked version's home is its file's


def test_a_cache_folder_in_a_linked_article_folder_is_refused(tree: Path) -> None:
    article = ArticleSet(id="art", versions={"en": "art/en.md", "de": "art/de.md"})
    with pytest.raises(InputError, match="lies in art"):
        refuse_writes_over_inputs(
            [], reads=[], article_sets=[article], cache_folder="linked/.cache"
        )
    refuse_writes_over_inputs([], reads=[], article_sets=[article], cache_folder="cache")
