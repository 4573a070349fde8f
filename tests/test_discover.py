"""Discovery of article sets in the three layouts of docs/layouts.md."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from parallelcheck.discover.sets import discover
from parallelcheck.errors import InputError

CORPUS = Path("/work/shared/corpus/fastapi")


def make(base: Path, *names: str) -> None:
    """Create the files *names* (relative to *base*) with a line of text each."""
    for name in names:
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {name}\n", encoding="utf-8")


def ids(sets) -> list[str]:
    return [s.id for s in sets]


def as_dict(sets) -> dict[str, dict[str, str]]:
    return {s.id: s.versions for s in sets}


# ---------------------------------------------------------------------------
# The three layouts


def test_folder_per_article(tmp_path: Path) -> None:
    make(
        tmp_path,
        "articles/foo/en.md",
        "articles/foo/ja.md",
        "articles/foo/zh-hant.md",
        "articles/foo/README.md",
        "articles/foo/index.md",
        "articles/foo/_index.md",
        "articles/foo/notes.pdf",
        "articles/bar/en.md",
        "articles/bar/ko.md",
        "articles/LICENSE",
        "articles/MANIFEST.tsv",
        "articles/README.md",
    )
    sets = discover([], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "bar": {"en": "articles/bar/en.md", "ko": "articles/bar/ko.md"},
        "foo": {
            "en": "articles/foo/en.md",
            "ja": "articles/foo/ja.md",
            "zh-Hant": "articles/foo/zh-hant.md",
        },
    }
    assert all(s.ignored == () for s in sets)


def test_nested_article_folders_get_their_path_as_id(tmp_path: Path) -> None:
    make(tmp_path, "articles/blog/2024/foo/en.md", "articles/blog/2024/foo/ja.md")
    sets = discover([], cwd=str(tmp_path))
    assert ids(sets) == ["blog/2024/foo"]


def test_language_suffix(tmp_path: Path) -> None:
    make(
        tmp_path,
        "docs/install.en.md",
        "docs/install.zh-Hant.md",
        "docs/setup.v2.ja.markdown",
        "docs/setup.v2.en.markdown",
        "docs/README.md",
        "docs/changelog.md",
    )
    sets = discover(["docs"], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "install": {"en": "docs/install.en.md", "zh-Hant": "docs/install.zh-Hant.md"},
        "setup.v2": {"en": "docs/setup.v2.en.markdown", "ja": "docs/setup.v2.ja.markdown"},
    }


def test_tree_per_language(tmp_path: Path) -> None:
    make(
        tmp_path,
        "docs/en/index.md",
        "docs/en/tutorial/first-steps.md",
        "docs/ja/index.md",
        "docs/ja/tutorial/first-steps.md",
        "docs/zh-hant/tutorial/first-steps.html",
        "docs/mkdocs.yml",
    )
    sets = discover([], root="docs", cwd=str(tmp_path))
    assert as_dict(sets) == {
        "index": {"en": "docs/en/index.md", "ja": "docs/ja/index.md"},
        "tutorial/first-steps": {
            "en": "docs/en/tutorial/first-steps.md",
            "ja": "docs/ja/tutorial/first-steps.md",
            "zh-Hant": "docs/zh-hant/tutorial/first-steps.html",
        },
    }


def test_mixed_layouts_in_one_tree(tmp_path: Path) -> None:
    make(
        tmp_path,
        "site/a/en.md",
        "site/a/ja.md",
        "site/b.en.md",
        "site/b.ko.md",
        "site/guide/en/x.md",
        "site/guide/ja/x.md",
        "site/guide/en/y/z.txt",
        "site/guide/ko/y/z.txt",
    )
    sets = discover(["site"], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "a": {"en": "site/a/en.md", "ja": "site/a/ja.md"},
        "b": {"en": "site/b.en.md", "ko": "site/b.ko.md"},
        "guide/x": {"en": "site/guide/en/x.md", "ja": "site/guide/ja/x.md"},
        "guide/y/z": {"en": "site/guide/en/y/z.txt", "ko": "site/guide/ko/y/z.txt"},
    }


def test_folder_and_suffix_files_of_one_article_are_merged(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo.ja.md")
    assert as_dict(discover([], cwd=str(tmp_path))) == {
        "foo": {"en": "articles/foo/en.md", "ja": "articles/foo.ja.md"}
    }


def test_article_folder_named_like_a_language_is_an_article(tmp_path: Path) -> None:
    # "go" is a two-letter word; the folder holds versions, so it is the article "go".
    make(tmp_path, "articles/go/en.md", "articles/go/ja.md", "articles/go/README.md")
    assert as_dict(discover([], cwd=str(tmp_path))) == {
        "go": {"en": "articles/go/en.md", "ja": "articles/go/ja.md"}
    }


def test_article_folders_named_like_languages_are_not_a_tree(tmp_path: Path) -> None:
    make(
        tmp_path, "articles/go/en.md", "articles/go/ja.md", "articles/ai/en.md", "articles/ai/ko.md"
    )
    assert as_dict(discover([], cwd=str(tmp_path))) == {
        "ai": {"en": "articles/ai/en.md", "ko": "articles/ai/ko.md"},
        "go": {"en": "articles/go/en.md", "ja": "articles/go/ja.md"},
    }


def test_a_lone_language_like_folder_is_not_a_tree(tmp_path: Path) -> None:
    # docs/ui holds pages but has no sibling language folder: not a tree per language.
    make(tmp_path, "docs/ui/buttons.md", "docs/guide/en.md", "docs/guide/ja.md")
    assert ids(discover(["docs"], cwd=str(tmp_path))) == ["guide"]


def test_folder_passed_directly_is_named_by_its_name(tmp_path: Path) -> None:
    make(tmp_path, "elsewhere/my-post/en.md", "elsewhere/my-post/ko.md")
    sets = discover(["elsewhere/my-post"], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "my-post": {"en": "elsewhere/my-post/en.md", "ko": "elsewhere/my-post/ko.md"}
    }


# ---------------------------------------------------------------------------
# A single file stands for its article set


def test_single_file_folder_layout(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ja.md", "articles/bar/en.md")
    sets = discover(["articles/foo/ja.md"], cwd=str(tmp_path))
    assert as_dict(sets) == {"foo": {"en": "articles/foo/en.md", "ja": "articles/foo/ja.md"}}


def test_single_file_id_is_measured_from_the_root(tmp_path: Path) -> None:
    make(tmp_path, "articles/blog/foo/en.md", "articles/blog/foo/ja.md")
    full = discover([], cwd=str(tmp_path))
    one = discover(["articles/blog/foo/ja.md"], cwd=str(tmp_path))
    assert ids(one) == ids(full) == ["blog/foo"]


def test_single_file_suffix_layout(tmp_path: Path) -> None:
    make(
        tmp_path,
        "docs/install.en.md",
        "docs/install.ja.md",
        "docs/install.zh-Hant.txt",
        "docs/upgrade.ja.md",
        "docs/install.md",
    )
    sets = discover(["docs/install.ja.md"], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "install": {
            "en": "docs/install.en.md",
            "ja": "docs/install.ja.md",
            "zh-Hant": "docs/install.zh-Hant.txt",
        }
    }


def test_single_file_tree_layout(tmp_path: Path) -> None:
    make(
        tmp_path,
        "docs/en/tutorial/x.md",
        "docs/ja/tutorial/x.md",
        "docs/ko/tutorial/x.md",
        "docs/en/tutorial/x/deeper.md",
        "docs/ja/tutorial/y.md",
    )
    sets = discover(["docs/ja/tutorial/x.md"], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "tutorial/x": {
            "en": "docs/en/tutorial/x.md",
            "ja": "docs/ja/tutorial/x.md",
            "ko": "docs/ko/tutorial/x.md",
        }
    }


def test_folder_inside_a_language_tree(tmp_path: Path) -> None:
    make(
        tmp_path,
        "docs/en/tutorial/x.md",
        "docs/ja/tutorial/x.md",
        "docs/en/tutorial/new.md",
        "docs/en/other.md",
        "docs/ja/other.md",
    )
    sets = discover(["docs/ja/tutorial"], cwd=str(tmp_path))
    assert ids(sets) == ["tutorial/new", "tutorial/x"]
    assert sets[0].versions == {"en": "docs/en/tutorial/new.md"}


def test_file_fitting_no_layout_is_an_input_error(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/notes.md")
    with pytest.raises(InputError) as caught:
        discover(["articles/foo/notes.md"], cwd=str(tmp_path))
    assert caught.value.path == "articles/foo/notes.md"
    assert "fits no article layout" in caught.value.message
    assert "'notes' is not a language tag" in caught.value.message


def test_file_with_unsupported_extension_is_an_input_error(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ja.pdf")
    with pytest.raises(InputError, match="extension"):
        discover(["articles/foo/ja.pdf"], cwd=str(tmp_path))


# ---------------------------------------------------------------------------
# Tags, duplicates, order


def test_tags_are_case_insensitive(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/EN.MD", "articles/foo/ZH-hant.md", "articles/foo/pt_br.md")
    assert as_dict(discover([], cwd=str(tmp_path))) == {
        "foo": {
            "en": "articles/foo/EN.MD",
            "pt-BR": "articles/foo/pt_br.md",
            "zh-Hant": "articles/foo/ZH-hant.md",
        }
    }


def test_two_files_for_one_language_keep_the_preferred(tmp_path: Path) -> None:
    make(
        tmp_path,
        "articles/foo/en.md",
        "articles/foo/ja.txt",
        "articles/foo/ja.md",
        "articles/foo/ko.txt",
        "articles/foo/ko.html",
        "articles/foo/ru.markdown",
        "articles/foo/ru.htm",
    )
    (foo,) = discover([], cwd=str(tmp_path))
    assert foo.versions == {
        "en": "articles/foo/en.md",
        "ja": "articles/foo/ja.md",
        "ko": "articles/foo/ko.html",
        "ru": "articles/foo/ru.markdown",
    }
    assert foo.ignored == ("articles/foo/ja.txt", "articles/foo/ko.txt", "articles/foo/ru.htm")


def test_same_language_spelled_twice_keeps_one_deterministically(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/zh-hant.md", "articles/foo/zh-Hant.md")
    (foo,) = discover([], cwd=str(tmp_path))
    assert foo.versions["zh-Hant"] == "articles/foo/zh-Hant.md"  # "H" sorts before "h"
    assert foo.ignored == ("articles/foo/zh-hant.md",)


def test_several_paths_naming_one_set_give_it_once(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ja.md", "articles/bar/en.md")
    sets = discover(
        ["articles/foo/ja.md", "articles", "./articles/foo", "articles/foo/en.md"],
        cwd=str(tmp_path),
    )
    assert ids(sets) == ["bar", "foo"]
    assert sets[1].versions == {"en": "articles/foo/en.md", "ja": "articles/foo/ja.md"}
    assert sets[1].ignored == ()


def test_result_is_sorted_and_repeatable(tmp_path: Path) -> None:
    make(tmp_path, *(f"articles/{name}/{lang}.md" for name in "zmab" for lang in ("ko", "en")))
    first = discover([], cwd=str(tmp_path))
    assert ids(first) == ["a", "b", "m", "z"]
    assert all(list(s.versions) == ["en", "ko"] for s in first)
    assert discover([], cwd=str(tmp_path)) == first


def test_two_different_articles_with_one_id_are_refused(tmp_path: Path) -> None:
    make(tmp_path, "x/foo/en.md", "y/foo/en.md")
    with pytest.raises(InputError, match="both be called 'foo'"):
        discover(["x/foo", "y/foo"], cwd=str(tmp_path))


def test_paths_outside_cwd_are_absolute_posix(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ja.md")
    (tmp_path / "work").mkdir()
    sets = discover([str(tmp_path / "articles")], cwd=str(tmp_path / "work"))
    assert sets[0].versions == {
        "en": (tmp_path / "articles/foo/en.md").as_posix(),
        "ja": (tmp_path / "articles/foo/ja.md").as_posix(),
    }


# ---------------------------------------------------------------------------
# Bad input


def test_missing_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        discover(["articles/nope"], cwd=str(tmp_path))
    assert caught.value.path == "articles/nope"
    assert "no such file or directory" in caught.value.message


def test_missing_default_root(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        discover([], cwd=str(tmp_path))
    assert caught.value.path == "articles"


def test_empty_folder_has_no_articles(tmp_path: Path) -> None:
    (tmp_path / "articles").mkdir()
    make(tmp_path, "articles/README.md", "articles/LICENSE")
    with pytest.raises(InputError, match="no articles found in articles"):
        discover([], cwd=str(tmp_path))


def test_hidden_and_vendored_folders_are_skipped(tmp_path: Path) -> None:
    make(
        tmp_path,
        "articles/foo/en.md",
        "articles/foo/ja.md",
        "articles/.git/en.md",
        "articles/.cache/bar/en.md",
        "articles/node_modules/pkg/en.md",
        "articles/__pycache__/x/en.md",
    )
    assert ids(discover([], cwd=str(tmp_path))) == ["foo"]


# ---------------------------------------------------------------------------
# Symbolic links


def test_file_symlinks_are_followed(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "shared/ja.md")
    (tmp_path / "articles/foo/ja.md").symlink_to(tmp_path / "shared/ja.md")
    (tmp_path / "articles/foo/ko.md").symlink_to(tmp_path / "missing.md")  # broken: skipped
    (foo,) = discover([], cwd=str(tmp_path))
    assert foo.versions == {"en": "articles/foo/en.md", "ja": "articles/foo/ja.md"}


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="needs SIGALRM")
def test_directory_symlink_cycle_does_not_hang(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ja.md", "docs/en/a.md", "docs/ja/a.md")
    (tmp_path / "articles/foo/loop").symlink_to(tmp_path / "articles", target_is_directory=True)
    (tmp_path / "articles/self").symlink_to(tmp_path / "articles", target_is_directory=True)
    (tmp_path / "docs/ja/back").symlink_to(tmp_path / "docs", target_is_directory=True)

    def timeout(*_):
        raise AssertionError("discovery did not finish: symlink loop")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(10)
    try:
        sets = discover([], cwd=str(tmp_path))
        tree = discover(["docs"], cwd=str(tmp_path))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert ids(sets) == ["foo"]
    assert "a" in ids(tree)


# ---------------------------------------------------------------------------
# Real corpus


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_fastapi_corpus() -> None:
    # its speed (under 0.5 s): bench/bench_time_bounds.py --only discover-fastapi
    sets = discover([str(CORPUS)], cwd=str(CORPUS.parent))
    assert len(sets) == 124
    assert {len(s.versions) for s in sets} == {13}
    assert all(s.ignored == () for s in sets)
    assert sets[0].versions["zh-Hant"] == f"{CORPUS.name}/{sets[0].id}/zh-hant.md"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_fastapi_corpus_single_file() -> None:
    sets = discover([f"{CORPUS.name}/index/ja.md"], root=CORPUS.name, cwd=str(CORPUS.parent))
    assert ids(sets) == ["index"]
    assert len(sets[0].versions) == 13


def test_discovery_uses_the_given_cwd_not_the_process_cwd(tmp_path: Path) -> None:
    make(tmp_path, "articles/foo/en.md", "articles/foo/ko.md")
    assert os.getcwd() != str(tmp_path)
    assert ids(discover([], cwd=str(tmp_path))) == ["foo"]


def test_skipped_list_collects_files_that_are_no_article_version(tmp_path):
    from parallelcheck.discover.sets import discover

    folder = tmp_path / "articles" / "guide"
    folder.mkdir(parents=True)
    (folder / "en.md").write_text("# Guide\n", encoding="utf-8")
    (folder / "ja.md").write_text("# ガイド\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# Readme\n", encoding="utf-8")
    skipped: list[str] = []
    sets = discover(["README.md", "articles/guide/ja.md"], cwd=str(tmp_path), skipped=skipped)
    assert [s.id for s in sets] == ["guide"]
    assert len(skipped) == 1 and skipped[0].startswith("README.md: fits no article layout")
    with pytest.raises(InputError):
        discover(["README.md"], cwd=str(tmp_path))
