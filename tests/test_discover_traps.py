"""Discovery on the repository layouts that misled it: every trap of issue 16, as a small tree.

Each test builds the layout a real repository has (a monorepo with ``go/ js/ py/``, a folder of
command pages, ``README.md`` beside ``README.ja.md`` …) and asserts which article sets are
found, through :func:`discover` and, where the outcome matters to a user, through the command
line.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import CORPUS, invoke, need

from parallelcheck.discover.sets import discover
from parallelcheck.errors import InputError
from parallelcheck.text.langtag import canonical_tag, language_of_name, suggest_tags

EN = "# Guide\n\nThe server answers within 250 ms on 4 cores.\n"
JA = "# ガイド\n\nサーバーは 4 コアで 250 ms 以内に応答します。\n"
JA_CHANGED = "# ガイド\n\nサーバーは 4 コアで 350 ms 以内に応答します。\n"


def write(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def as_dict(sets) -> dict[str, dict[str, str]]:
    return {s.id: s.versions for s in sets}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command line in ``cwd``, through its entry point in this process."""
    return invoke(*args, cwd=cwd, without=("GIT_",))


# ---------------------------------------------------------------------------
# Language tags come from the registry and CLDR, not from their shape


@pytest.mark.parametrize("name", ["go", "js", "py", "ls", "cp", "sh", "tar", "man", "cs-Java"])
def test_words_that_look_like_tags_are_no_languages(name: str) -> None:
    assert language_of_name(name) is None


@pytest.mark.parametrize(
    ("name", "tag"),
    [("zh_TW", "zh-TW"), ("pt_BR", "pt-BR"), ("zh-cn", "zh-CN"), ("ZH-hant", "zh-Hant"),
     ("sr-latn", "sr-Latn"), ("fil", "fil"), ("yue", "yue")],
)  # fmt: skip
def test_common_spellings_of_real_tags_are_languages(name: str, tag: str) -> None:
    assert language_of_name(name) == tag


def test_a_configured_language_is_accepted_though_cldr_lacks_it() -> None:
    assert canonical_tag("nan") == "nan"  # registered (Min Nan Chinese), no CLDR locale
    assert language_of_name("nan") is None
    assert language_of_name("nan", configured=["en", "nan"]) == "nan"


def test_a_region_code_used_as_a_language_suggests_that_region_s_language() -> None:
    assert suggest_tags("jp", ["en", "ja", "ko"])[0] == "ja"
    assert suggest_tags("kr", ["en", "ja", "ko"])[0] == "ko"
    assert suggest_tags("jp", [])[0] == "ja"


# ---------------------------------------------------------------------------
# The traps


def test_two_letter_folders_above_the_articles_are_not_a_language_tree(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    for folder in ("go", "js", "py"):
        write(tmp_path / folder / "docs/guide", {"en.md": EN, "ja.md": JA})
    sets = discover(["go/docs"], cwd=str(tmp_path))
    assert as_dict(sets) == {"guide": {"en": "go/docs/guide/en.md", "ja": "go/docs/guide/ja.md"}}
    (tmp_path / "go/docs/guide/ja.md").write_text(JA_CHANGED, encoding="utf-8")
    proc = run("check", "go/docs", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    rules = [f["rule"] for f in json.loads(proc.stdout)["findings"]]
    assert "number-mismatch" in rules


def test_a_folder_of_command_pages_is_no_article(tmp_path: Path) -> None:
    pages = {f"pages/common/{name}.md": f"# {name}\n\nA command.\n" for name in
             ("ls", "cp", "tar", "man", "ar", "id", "as", "acme.sh")}  # fmt: skip
    write(tmp_path, {**pages, "docs/guide/en.md": EN, "docs/guide/ja.md": JA})
    sets = discover(["."], cwd=str(tmp_path))
    assert as_dict(sets) == {"docs/guide": {"en": "docs/guide/en.md", "ja": "docs/guide/ja.md"}}
    with pytest.raises(InputError, match="no article folder"):
        discover(["pages/common/ar.md"], cwd=str(tmp_path))
    with pytest.raises(InputError, match=r"'acme\.sh' is not a language tag"):
        discover(["pages/common/acme.sh.md"], cwd=str(tmp_path))


def test_a_path_whose_parents_siblings_look_like_languages_reads_nothing_above_it(
    tmp_path: Path,
) -> None:
    site = tmp_path / "x"
    write(site, {"de/site/post1/en.md": EN, "de/site/post1/ja.md": JA,
                 "fr/site/post1/en.md": EN, "fr/site/post1/ja.md": JA,
                 "fr/site/other.md": EN, "de/site/other.md": EN})  # fmt: skip
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    sets = discover([str(site / "de/site")], cwd=str(elsewhere))
    assert [s.id for s in sets] == ["post1"]
    assert all("/de/site/" in path for path in sets[0].versions.values())
    # A file stands for its article set: its tree is looked for above it, and the versions of
    # the article folders in the language folders stay their own articles, never tree pages.
    (one,) = discover([str(site / "de/site/other.md")], cwd=str(elsewhere))
    assert (one.id, sorted(one.versions)) == ("site/other", ["de", "fr"])
    full = discover([str(site)], cwd=str(elsewhere))
    assert {s.id: sorted(s.versions) for s in full} == {
        "de/site/post1": ["en", "ja"],
        "fr/site/post1": ["en", "ja"],
        "site/other": ["de", "fr"],
    }
    # Inside a project (a .git above both), the same folder is the German part of a tree.
    (site / ".git").mkdir()
    inside = discover([str(site / "de/site")], cwd=str(elsewhere))
    assert any("/fr/site/" in p for s in inside for p in s.versions.values())


def test_readme_beside_its_suffixed_translations_is_one_article(tmp_path: Path) -> None:
    write(tmp_path, {"README.md": EN, "README.zh-CN.md": JA, "README.ja.md": JA,
                     "CONTRIBUTING.md": EN, "acme.sh.md": EN})  # fmt: skip
    sets = discover(["."], cwd=str(tmp_path))
    assert as_dict(sets) == {
        "README": {"en": "README.md", "ja": "README.ja.md", "zh-CN": "README.zh-CN.md"}
    }
    assert sets[0].layout == "suffix"
    # The untagged file holds the configured source language.
    sets = discover(["README.ja.md"], cwd=str(tmp_path), source="zh-CN")
    assert sets[0].versions["zh-CN"] == "README.zh-CN.md"  # a tagged file wins
    assert "README.md" not in sets[0].versions.values()


def test_pages_beside_pages_ja_through_a_configured_layout(tmp_path: Path) -> None:
    write(tmp_path, {"pages/common/tar.md": EN, "pages/common/ls.md": EN,
                     "pages.ja/common/tar.md": JA, "pages.ko/common/tar.md": JA,
                     "pages/linux/apt.md": EN})  # fmt: skip
    (tmp_path / "parallelcheck.yaml").write_text(
        'root: .\nlanguages: [en, ja, ko]\nlayout:\n  - pattern: "pages.{lang}/{path}"\n'
        '    source: "pages/{path}"\n',
        encoding="utf-8",
    )
    proc = run("ls", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    listed = {a["id"]: a for a in json.loads(proc.stdout)["articles"]}
    assert set(listed) == {"common/ls", "common/tar", "linux/apt"}
    assert listed["common/tar"]["versions"] == {
        "en": "pages/common/tar.md",
        "ja": "pages.ja/common/tar.md",
        "ko": "pages.ko/common/tar.md",
    }
    assert listed["common/tar"]["layout"].startswith("pages.{lang}/{path}")
    # One changed page, as the hook passes it, stands for its set; the missing ko is reported.
    proc = run("check", "pages.ja/common/tar.md", "--format", "json", "--no-cache", cwd=tmp_path)
    assert [a["id"] for a in json.loads(proc.stdout)["articles"]] == ["common/tar"]
    proc = run("check", "pages/common/ls.md", "--format", "json", "--no-cache", cwd=tmp_path)
    missing = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "missing-version"]
    assert sorted(lang for f in missing for lang in f["langs"]) == ["ja", "ko"]


def test_a_bad_layout_pattern_is_an_error_naming_the_line(tmp_path: Path) -> None:
    write(tmp_path, {"a/en.md": EN, "a/ja.md": JA})
    (tmp_path / "parallelcheck.yaml").write_text(
        "root: .\nlayout:\n  - tree\n  - 'pages/{path}'\n", encoding="utf-8"
    )
    proc = run("ls", cwd=tmp_path)
    assert proc.returncode == 2
    assert "parallelcheck.yaml:4:" in proc.stderr and "{lang}" in proc.stderr


def test_the_configuration_two_folders_up_applies(tmp_path: Path) -> None:
    write(tmp_path, {"docs/guide/en.md": EN, "docs/guide/ja.md": JA,
                     "glossary/terms.yaml": "terms:\n  - id: core\n    en: cores\n"
                                            "    ja: 芯\n"})  # fmt: skip
    (tmp_path / "parallelcheck.yaml").write_text(
        "root: docs\nlanguages: [en, ja, ko]\n", encoding="utf-8"
    )
    deeper = tmp_path / "docs" / "guide"
    proc = run("check", ".", "--format", "json", "--no-cache", cwd=deeper)
    findings = json.loads(proc.stdout)["findings"]
    rules = {f["rule"] for f in findings}
    assert "missing-version" in rules  # the configured ko
    assert "term-missing" in rules  # the project's glossary/: コア is not the approved 芯
    assert json.loads(proc.stdout)["articles"][0]["id"] == "guide"  # measured from root: docs


def test_a_language_tag_typo_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"articles/guide/en.md": EN, "articles/guide/ja.md": JA})
    proc = run("check", "--lang", "jp", cwd=tmp_path)
    assert proc.returncode == 2
    assert "did you mean ja?" in proc.stderr
    proc = run("check", "--source", "fr", cwd=tmp_path)
    assert proc.returncode == 2
    assert "no article has a 'fr' version" in proc.stderr


def test_a_lone_version_without_configuration_is_no_article(tmp_path: Path) -> None:
    write(tmp_path, {"articles/a/en.md": EN})
    with pytest.raises(InputError, match="only version of its article"):
        discover([], cwd=str(tmp_path))
    assert as_dict(discover([], cwd=str(tmp_path), languages=["en", "ja"])) == {
        "a": {"en": "articles/a/en.md"}
    }
    # Beside an article with several versions, a lone English page is corroborated by it.
    write(tmp_path, {"articles/b/en.md": EN, "articles/b/ja.md": JA})
    assert sorted(s.id for s in discover([], cwd=str(tmp_path))) == ["a", "b"]


# ---------------------------------------------------------------------------
# A real site


def test_astro_docs_has_one_set_per_english_page_and_nothing_else() -> None:
    root = need(CORPUS / "astro-docs")
    sets = discover([str(root)], root=str(root), cwd=str(root))
    english = {
        p.relative_to(root / "en").with_suffix("").as_posix() for p in (root / "en").rglob("*.md*")
    }
    assert {s.id for s in sets} == english
    on_disk = {p for p in root.rglob("*.md*") if p.parent != root}
    listed = {root / path for s in sets for path in s.versions.values()}
    assert listed == on_disk  # every translation that exists, and nothing else
    assert {s.layout for s in sets} == {"tree"}


def test_a_file_given_outside_any_project_is_checked_with_its_whole_tree(tmp_path: Path) -> None:
    # What a hook or a user in another folder does: absolute files, no .git, no configuration.
    site = tmp_path / "site"
    write(site, {"en/guide.md": EN, "ja/guide.md": JA_CHANGED, "ko/guide.md": EN})
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    proc = run("check", str(site / "en/guide.md"), "--format", "json", "--no-cache", cwd=elsewhere)
    report = json.loads(proc.stdout)
    assert sorted(report["articles"][0]["versions"]) == ["en", "ja", "ko"]
    rules = {f["rule"] for f in report["findings"]}
    assert "unreadable-version" not in rules
    assert "number-mismatch" in rules
