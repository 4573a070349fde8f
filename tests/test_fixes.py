"""Fixes (docs/fixes.md): the code repair, how edits meet a file's bytes, which fixes apply,
and ``check --fix`` / ``--diff`` / ``--unsafe-fixes`` end to end."""

from __future__ import annotations

import codecs
import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO, invoke, run_cli, write_article

from parallelcheck.fix import (
    Checked,
    FixPasses,
    not_taken,
    plan_fixes,
    unified_diff,
    write_fixed,
)
from parallelcheck.model.finding import Finding, Location
from parallelcheck.model.fingerprint import finding_fingerprint
from parallelcheck.model.fix import COPY, LINES, SAFE, SPAN, UNSAFE, Edit, Fix, Span
from parallelcheck.rules._fixes import written_code
from parallelcheck.text.listings.merge import repaired_code

# --- the code repair -------------------------------------------------------------------------

SOURCE = '# Start the server\napp = App(port=8080)  # the port\nprint("Hello world")\n'
JA = '# サーバーを起動する\napp = App(port=8080)  # ポート\nprint("こんにちは世界")\n'


def test_a_changed_number_is_repaired_keeping_every_comment_and_string():
    broken = JA.replace("8080", "8081")
    repaired = repaired_code(SOURCE, broken, "python")
    assert repaired is not None and repaired.complete
    assert repaired.text == JA


def test_the_version_s_layout_stays_where_its_code_agrees():
    spaced = JA.replace("App(port=8080)", "App( port = 9090 )")
    repaired = repaired_code(SOURCE, spaced, "python")
    assert repaired.text == JA.replace("App(port=8080)", "App( port = 8080 )")


def test_an_operator_changed_for_another_takes_the_source_s_spacing():
    # The version's " = " was kept around the source's ",": "CommonQueryParams , Depends"
    # (FastAPI 2025's ru classes-as-dependencies page).
    annotated = "commons: Annotated[CommonQueryParams, Depends(CommonQueryParams)]"
    plain = "commons: CommonQueryParams = Depends(CommonQueryParams)"
    assert repaired_code(annotated, plain, "Python").text == annotated
    assert repaired_code(plain, annotated, "Python").text == plain
    # nor the space around a word changed for an operator (Astro's zh-cn nuxtjs page wrote
    # "(pokemon : any)" for the version's "({ name })")
    source = "pokemons.map((pokemon: any) => ({ name: pokemon.name }))"
    assert repaired_code(source, "pokemons.map(({ name }) => ({ name }))", "ts").text == source
    # a value changed for another keeps the version's spacing around it
    assert repaired_code("f(a=1, b=2)", "f( a = 1, b = 3 )", "python").text == "f( a = 1, b = 2 )"


def test_the_version_s_spacing_is_kept_only_between_tokens_side_by_side_in_it():
    # Astro's zh-cn endpoints page: GET and = stand for the version's, but ": APIRoute"
    # stands between them there: the space before "=" is the source's ("GET= ((" before).
    source = "export const GET = (({ params }) => {\n  return x;\n}) satisfies APIRoute;"
    version = "export const GET: APIRoute = ({ params }) => {\n  return x;\n};"
    assert repaired_code(source, version, "ts").text == source


def test_code_the_version_lacks_comes_with_the_source_s_spacing():
    source = "def read(q: Union[str, None] = None):\n    return q\n"
    stale = "def read(q: str = None):  # 古い\n    return q\n"
    repaired = repaired_code(source, stale, "python")
    assert repaired.text == "def read(q: Union[str, None] = None):  # 古い\n    return q\n"
    assert not repaired.complete  # "# 古い" has no place in the source, whose line has none


def test_a_word_the_source_s_code_lacks_makes_the_repair_incomplete():
    renamed = JA.replace("app = App", "application = App")
    repaired = repaired_code(SOURCE, renamed, "python")
    assert repaired.text == JA and not repaired.complete  # maybe a translated name


def test_a_comment_of_the_source_with_no_place_in_the_version_makes_it_incomplete():
    dropped = JA.replace("  # ポート", "").replace("8080", "8081")
    repaired = repaired_code(SOURCE, dropped, "python")
    assert repaired.text == JA.replace("  # ポート", "") and not repaired.complete


def test_code_the_version_lacks_is_the_source_s():
    short = "# サーバーを起動する\napp = App(port=8080)  # ポート\n"
    repaired = repaired_code(SOURCE, short, "python")
    assert repaired.text == short + 'print("Hello world")\n' and not repaired.complete


# --- applying edits to files ---------------------------------------------------------------


def _checked(*paths: Path, source: Path | None = None) -> dict[str, Checked]:
    return {
        str(p): Checked(hashlib.sha256(p.read_bytes()).digest(), None, p == source) for p in paths
    }


def _finding(fix: Fix, severity: str = "error", rule: str = "code-mismatch") -> Finding:
    where = (Location("ja", fix.edits[0].at.path, fix.edits[0].at.line),)
    return Finding(rule, "a", "S", ("ja",), ("en",), where, "m", severity=severity, fix=fix)


def _lines_fix(path: Path, line: int, end: int, old: str, new: str, how: str = SAFE) -> Fix:
    return Fix(how, "repair", (Edit(Span(str(path), line, end), LINES, old, new),))


def test_lines_in_a_list_item_and_a_quote_keep_their_prefix(tmp_path):
    page = tmp_path / "ja.md"
    page.write_text("* item\n\n    ```\n    a = 1\n\n    b = 2\n    ```\n\n> ```\n> x = 1\n> ```\n")
    fixes = [
        _lines_fix(page, 4, 6, "a = 1\n\nb = 2", "a = 2\n\nb = 3"),
        _lines_fix(page, 10, 10, "x = 1", "x = 2\ny = 3"),
    ]
    plan = plan_fixes([_finding(f) for f in fixes], _checked(page))
    assert len(plan.applied) == 2
    write_fixed(plan)
    assert page.read_text() == (
        "* item\n\n    ```\n    a = 2\n\n    b = 3\n    ```\n\n> ```\n> x = 2\n> y = 3\n> ```\n"
    )


def test_an_indented_code_block_with_tabs_and_spaces_is_rewritten_in_the_first_lines_indent(
    tmp_path,
):
    page = tmp_path / "ja.md"
    page.write_text("Text.\n\n\t- tab item\n\n    indented code\n\nEnd.\n")
    fix = _lines_fix(page, 3, 5, "- tab item\n\nindented code", "indented code")
    plan = plan_fixes([_finding(fix)], _checked(page))
    assert len(plan.applied) == 1
    write_fixed(plan)
    assert page.read_text() == "Text.\n\n\tindented code\n\nEnd.\n"
    # a line indented less is no line of the block
    page.write_text("Text.\n\n\t- tab item\n\n  indented code\n\nEnd.\n")
    plan = plan_fixes([_finding(fix)], _checked(page))
    assert [reason for _, reason in plan.refused] == [
        f"{page}:5 does not hold what the check read there"
    ]


@pytest.mark.parametrize(
    ("bom", "codec", "newline"),
    [
        (b"", "utf-8", "\r\n"),
        (codecs.BOM_UTF8, "utf-8", "\n"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "\r\n"),
        (b"", "utf-8", "\r"),
    ],
)
def test_encoding_byte_order_mark_and_line_breaks_are_kept(tmp_path, bom, codec, newline):
    page = tmp_path / "ja.md"
    lines = ["# タイトル", "", "```", "v = 1", "```", "", "終わり"]
    page.write_bytes(bom + newline.join(lines).encode(codec))  # no final line break
    fix = _lines_fix(page, 4, 4, "v = 1", "v = 2\nw = 3")
    plan = plan_fixes([_finding(fix)], _checked(page))
    write_fixed(plan)
    lines[3:4] = ["v = 2", "w = 3"]
    assert page.read_bytes() == bom + newline.join(lines).encode(codec)


def test_an_edit_that_does_not_meet_what_was_checked_is_refused(tmp_path):
    page = tmp_path / "ja.md"
    page.write_text("```\nv = 1\n```\n[a](/x/) and [b](/x/y/)\n[c](/z/) /z/\n")
    checked = _checked(page)
    wrong = _lines_fix(page, 2, 2, "v = 9", "v = 2")
    twice = Fix(SAFE, "t", (Edit(Span(str(page), 4, 4), SPAN, "/x/", "/w/"),))
    target = Fix(SAFE, "t", (Edit(Span(str(page), 5, 5), SPAN, "/z/", "/w/"),))
    plan = plan_fixes([_finding(f) for f in (wrong, twice, target)], checked)
    reasons = [reason for _, reason in plan.refused]
    assert reasons == [
        f"{page}:2 does not hold what the check read there",
        f"{page}:4 holds more than once “/x/”",
    ]
    write_fixed(plan)  # the one as a link target is found: after "]("
    assert page.read_text().endswith("[c](/w/) /z/\n")


def test_a_file_changed_since_it_was_checked_the_source_and_html_are_never_edited(tmp_path):
    page, source, html = tmp_path / "ja.md", tmp_path / "en.md", tmp_path / "ja.html"
    for path in (page, source, html):
        path.write_text("x\n")
    checked = _checked(page, source, html, source=source)
    page.write_text("y\n")
    fixes = [
        Fix(SAFE, "t", (Edit(Span(str(p), 1, 1), SPAN, "x", "z"),)) for p in (page, source, html)
    ]
    plan = plan_fixes([_finding(f) for f in fixes], checked)
    assert not plan.files
    assert [reason for _, reason in plan.refused] == [
        f"{page} changed since it was checked; run the check again",
        f"{source} is its article's source version, which fixes never edit",
        f"{html}: fixes are applied to Markdown and MDX files only",
    ]


def test_of_two_overlapping_fixes_the_first_in_the_file_wins_and_unsafe_ones_wait(tmp_path):
    page = tmp_path / "ja.md"
    page.write_text("```\na = 1\nb = 2\n```\n")
    first = _lines_fix(page, 2, 3, "a = 1\nb = 2", "a = 5\nb = 6")
    second = _lines_fix(page, 3, 3, "b = 2", "b = 7")
    unsafe = _lines_fix(page, 2, 2, "a = 1", "a = 0", UNSAFE)
    findings = [_finding(second), _finding(first, "warning"), _finding(unsafe)]
    plan = plan_fixes(findings, _checked(page))
    assert [f.fix for f in plan.applied] == [first]
    assert [(f.fix, won.fix) for f, won in plan.overlapped] == [(second, first)]
    assert [f.fix for f in plan.hidden] == [unsafe]
    assert unified_diff(plan) == (
        f"--- {page}\n+++ {page}\n@@ -1,4 +1,4 @@\n ```\n-a = 1\n-b = 2\n+a = 5\n+b = 6\n ```\n"
    )


def test_a_copy_takes_the_source_s_lines_as_written_into_the_version_s_container(tmp_path):
    source, page = tmp_path / "en.md", tmp_path / "ja.md"
    source.write_text("{* ../src/a.py  ln[1:3] hl[2] *}\n")
    page.write_text("/// tip\n\n    {* ../src/b.py hl[2] *}\n\n///\n")
    edit = Edit(Span(str(page), 3, 3), COPY, copy=Span(str(source), 1, 1))
    plan = plan_fixes([_finding(Fix(SAFE, "c", (edit,)))], _checked(page, source, source=source))
    write_fixed(plan)
    assert page.read_text() == "/// tip\n\n    {* ../src/a.py  ln[1:3] hl[2] *}\n\n///\n"


# --- the command line ----------------------------------------------------------------------

EN = """# Guide { #guide }

Install it with [the installer](/docs/install/).

## Run { #run }

```console
$ webkit serve --port 8080
```
"""
TRANSLATION = """# ガイド { #guide }

[インストーラー](/ja/docs/install/)でインストールします。

## 実行 { #run }

```console
$ webkit serve --port 8080
```
"""


def _broken(tmp_path: Path) -> Path:
    broken = (
        TRANSLATION.replace("/ja/docs/install/", "/ja/docs/setup/")
        .replace("{ #run }", "{ #jikkou }")
        .replace("8080", "8000")
    )
    return write_article(tmp_path / "articles" / "guide", {"en.md": EN, "ja.md": broken})


def test_check_without_fix_changes_nothing_and_says_what_fix_would_do(tmp_path):
    folder = _broken(tmp_path)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    proc = run_cli("check", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 1
    assert "3 findings can be fixed with --fix; --diff shows how" in proc.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_diff_prints_the_patch_exits_1_and_writes_nothing(tmp_path):
    folder = _broken(tmp_path)
    before = (folder / "ja.md").read_bytes()
    proc = run_cli("check", "--no-cache", "--diff", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("--- articles/guide/ja.md\n+++ articles/guide/ja.md\n@@")
    changed = [line for line in proc.stdout.splitlines() if line[:1] in "+-"][2:]
    assert changed == [
        "-[インストーラー](/ja/docs/setup/)でインストールします。",
        "+[インストーラー](/ja/docs/install/)でインストールします。",
        "-## 実行 { #jikkou }",
        "+## 実行 { #run }",
        "-$ webkit serve --port 8000",
        "+$ webkit serve --port 8080",
    ]
    assert "would fix 3 findings in 1 file" in proc.stderr
    assert (folder / "ja.md").read_bytes() == before
    clean = run_cli("check", "articles", "--no-cache", "--diff", cwd=REPO)  # errors, no fix
    assert (clean.returncode, clean.stdout) == (0, ""), clean.stderr


def test_fix_repairs_the_translation_and_reports_what_is_left(tmp_path):
    folder = _broken(tmp_path)
    source = (folder / "en.md").read_bytes()
    proc = run_cli("check", "--no-cache", "--fix", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "fixed 3 findings in 1 file" in proc.stderr
    assert json.loads(proc.stdout)["findings"] == []
    assert (folder / "ja.md").read_text(encoding="utf-8") == TRANSLATION
    assert (folder / "en.md").read_bytes() == source


INDENTED_EN = """# Install

Install the tool with the package manager first.

    pip install webkit
    webkit serve --port 8080

Then open the page in a browser.

| option | default |
|---|---|
| port | 8080 |
"""
INDENTED_DE = """# Installation

Installieren Sie das Werkzeug zuerst mit dem Paketmanager.

Öffnen Sie dann die Seite in einem Browser.

| Option | Standard |
|---|---|
| port | 8080 |
"""


def _fixed_twice(
    tmp_path: Path, files: dict[str, str], fixed: str = "1 finding"
) -> tuple[Path, list[dict]]:
    """An article of ``files`` fixed with ``--fix --unsafe-fixes`` (``fixed`` findings in
    one file), then fixed once more: the second pass must find nothing left to fix and
    change no byte."""
    folder = write_article(tmp_path / "articles" / "install", files)
    first = invoke("check", "--no-cache", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert f"fixed {fixed} in 1 file\n" in first.stderr, first.stderr
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = invoke(
        "check", "--no-cache", "--fix", "--unsafe-fixes", "--format", "json", cwd=tmp_path
    )
    assert "fixed 0 findings in 0 files" in again.stderr, again.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == after
    return folder, json.loads(again.stdout)["findings"]


def test_a_missing_indented_code_block_is_copied_as_code_and_only_once(tmp_path):
    # Copied as other blocks are, its lines lost the indentation that makes them code: the
    # copy was a paragraph, the block stayed missing, and every --fix pass added another.
    folder, left = _fixed_twice(tmp_path, {"en.md": INDENTED_EN, "de.md": INDENTED_DE})
    assert not [f for f in left if f["rule"] == "code-mismatch"]
    lines = (folder / "de.md").read_text(encoding="utf-8").split("\n")
    start = lines.index("<!-- parallelcheck: translation needed (en) -->")
    assert lines[start - 2 : start + 7] == [
        "Installieren Sie das Werkzeug zuerst mit dem Paketmanager.",
        "",
        "<!-- parallelcheck: translation needed (en) -->",
        "",
        "```",
        "pip install webkit",
        "webkit serve --port 8080",
        "```",
        "",
    ]


def test_a_copied_code_block_does_not_run_into_the_indented_code_after_it(tmp_path):
    # Indented, the copy and de's code block after it were one block, the copy still
    # missing: every pass inserted it again.
    en = INDENTED_EN.split("Then")[0] + "| a | b |\n|---|---|\n| 1 | 2 |\n\n    webkit serve\n"
    de = INDENTED_DE.split("Öffnen")[0] + "    webkit serve\n"
    folder, left = _fixed_twice(tmp_path, {"en.md": en, "de.md": de}, "2 findings")
    assert not [f for f in left if f["rule"] in ("code-mismatch", "missing-table")]
    assert (folder / "de.md").read_text(encoding="utf-8") == de.replace(
        "    webkit serve\n",
        "<!-- parallelcheck: translation needed (en) -->\n\n```\npip install webkit\n"
        "webkit serve --port 8080\n```\n\n<!-- parallelcheck: translation needed (en) -->\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n    webkit serve\n",
    )


def test_a_copy_into_mdx_is_marked_with_a_javascript_comment(tmp_path):
    # MDX takes "<!--" for a syntax error.
    folder, left = _fixed_twice(tmp_path, {"en.md": INDENTED_EN, "de.mdx": INDENTED_DE})
    assert not [f for f in left if f["rule"] == "code-mismatch"]
    text = (folder / "de.mdx").read_text(encoding="utf-8")
    assert "<!--" not in text
    assert (
        "Paketmanager.\n\n{/* parallelcheck: translation needed (en) */}\n\n"
        "```\npip install webkit\nwebkit serve --port 8080\n```\n\nÖffnen" in text
    )
    no_code = INDENTED_EN.replace("    pip install webkit\n    webkit serve --port 8080\n\n", "")
    no_table = INDENTED_DE.replace("\n| Option | Standard |\n|---|---|\n| port | 8080 |\n", "")
    folder, left = _fixed_twice(tmp_path / "table", {"en.mdx": no_code, "de.mdx": no_table})
    assert not [f for f in left if f["rule"] == "missing-table"]
    text = (folder / "de.mdx").read_text(encoding="utf-8")
    assert "{/* parallelcheck: translation needed (en) */}\n\n| option | default |" in text


def test_a_fix_that_does_not_take_is_applied_once_and_then_refused_with_its_place(tmp_path):
    # de leaves a component open: the table copied after its last block lands inside the
    # component, where it is still missing, and each pass wrote another copy.
    en = "# Setup\n\nInstall the tool first, then read below.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    de = (
        '# Einrichtung\n\n<Tabs>\n<TabItem label="a">\n\n'
        "Installieren Sie zuerst das Werkzeug, dann lesen Sie weiter.\n"
    )
    folder = write_article(tmp_path / "articles" / "t", {"en.mdx": en, "de.mdx": de})
    proc = invoke("check", "--no-cache", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert proc.returncode == 1
    said = proc.stderr.splitlines()
    assert said[0] == "parallelcheck: fixed 1 finding in 1 file", said
    assert said[1].startswith(
        "parallelcheck: note: the fix of a missing-table finding was not applied: "
        "articles/t/de.mdx:3: applied by an earlier pass"
    )
    assert (folder / "de.mdx").read_text(encoding="utf-8").count("| a | b |") == 1
    # a new run knows nothing of this one, but finds the copy standing where it would go
    again = invoke("check", "--no-cache", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert again.stderr.splitlines() == [
        "parallelcheck: fixed 0 findings in 0 files",
        "parallelcheck: note: the fix of a missing-table finding was not applied: "
        "articles/t/de.mdx:7: the lines from here are already what the fix would insert "
        "after them (an earlier --fix put them there, where the check does not see them: "
        "inside a container left open?)",
    ]
    assert (folder / "de.mdx").read_text(encoding="utf-8").count("| a | b |") == 1


def test_a_fix_counts_as_taken_when_fewer_findings_of_its_kind_are_left():
    one = _finding(Fix(UNSAFE, "c", (Edit(Span("ja.md", 3, 2), LINES, new="x"),)))
    same = replace(one, locations=(Location("ja", "ja.md", 9),))  # same identity, elsewhere
    other = replace(one, message="m “other”")
    assert not_taken([one], [one, same], [same]) == set()  # two before, one left: taken
    assert not_taken([one], [one, other], [same, other]) == {finding_fingerprint(one)}
    assert not_taken([one, other], [one, other], [one]) == {finding_fingerprint(one)}


def test_code_is_not_written_over_a_version_s_template_directive(tmp_path):
    # ko includes the file with a Hugo shortcode where en writes the code out: the code put
    # in the shortcode's line stood unfenced, as a paragraph (k8s-drift's redis page).
    en = (
        "# Redis\n\nCreate the configuration first:\n\n```shell\ncat <<EOF >./redis.yaml\n"
        "kind: ConfigMap\nEOF\n```\n\nThen apply it.\n"
    )
    ko = (
        "# Redis\n\n먼저 구성을 만듭니다:\n\n"
        '{{< codenew file="pods/config/redis-config" >}}\n\n그런 다음 적용합니다.\n'
    )
    write_article(tmp_path / "articles" / "r", {"en.md": en, "ko.md": ko})
    proc = invoke("check", "--no-cache", "--format", "json", cwd=tmp_path)
    code = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "code-mismatch"]
    differs = [f for f in code if f["message"].startswith("the code in ko differs")]
    assert differs and all(f.get("fix") is None for f in code)


def test_an_info_string_fix_writes_the_source_s_as_written(tmp_path):
    # Its words joined by one space were another info string than the source's: the check
    # after the fix found the same difference, and the fix was applied again and again.
    code = "from fastapi import FastAPI\napp = FastAPI()\n```\n"
    en = '# T\n\nText of the page.\n\n```Python hl_lines="9  14"\n' + code
    it = '# T\n\nTesto della pagina.\n\n```Python hl_lines="7"\n' + code
    folder, left = _fixed_twice(tmp_path, {"en.md": en, "it.md": it})
    assert (folder / "it.md").read_text(encoding="utf-8") == it.replace('"7"', '"9  14"')
    assert not [f for f in left if f["rule"] == "code-mismatch"]


def test_fixes_going_round_in_a_circle_are_refused_once_they_would_undo_a_pass(tmp_path):
    # Two code blocks paired crosswise (tabs in another order than the source's) are each
    # made the other's code, then back: FastAPI 2025's ru classes-as-dependencies page.
    page = tmp_path / "ru.md"
    page.write_text("```\na = 1\n```\n")
    there = _finding(_lines_fix(page, 2, 2, "a = 1", "a = 2"))
    passes = FixPasses(unsafe=False)
    plan = passes.plan([there], _checked(page))
    assert plan.applied == [there]
    write_fixed(plan)
    back = replace(_finding(_lines_fix(page, 2, 2, "a = 2", "a = 1")), message="m “back”")
    passes.written(plan, [there], [back])
    undo = passes.plan([back], _checked(page))
    assert (undo.applied, undo.files) == ([], {})
    ((refused, why),) = undo.refused
    assert refused is back and why.startswith(f"{page}:2: with the other fixes of its pass")
    further = _finding(_lines_fix(page, 2, 2, "a = 2", "a = 3"))  # not back: applied
    assert passes.plan([further], _checked(page)).applied == [further]


def test_code_holding_a_fence_is_fenced_by_more_backticks():
    code = "```\nx = 1\n```\n\n  ````\n    `````\nend"
    assert written_code(code) == f"`````\n{code}\n`````"
    assert written_code("a\n\n  b") == "```\na\n\n  b\n```"


def test_fix_on_nothing_fixable_says_so_and_keeps_the_exit_status(tmp_path):
    folder = write_article(
        tmp_path / "articles" / "guide",
        {"en.md": EN, "ja.md": TRANSLATION.replace("## 実行 { #run }\n\n", "")},
    )
    before = (folder / "ja.md").read_bytes()
    proc = run_cli("check", "--no-cache", "--fix", cwd=tmp_path)
    assert proc.returncode == 1  # the section is still missing
    assert "fixed 0 findings in 0 files" in proc.stderr
    assert (folder / "ja.md").read_bytes() == before


# --- fixes as data ---------------------------------------------------------------------------


def test_the_cache_keeps_a_finding_s_fix(tmp_path):
    from parallelcheck.model.outline import Outline
    from parallelcheck.run.cache import Cache

    article = Outline(
        id="a", source="en", langs=("en", "ja"), expected=("en", "ja"),
        paths={"en": "a/en.md", "ja": "a/ja.md"}, sections=(), link_prefixes=(),
    )  # fmt: skip
    edits = (
        Edit(Span("a/ja.md", 3, 2), LINES, new="\n<!-- x -->\n"),
        Edit(Span("a/ja.md", 3, 2), COPY, copy=Span("a/en.md", 4, 9)),
    )
    found = _finding(Fix(UNSAFE, "copy the table", edits))
    cache = Cache(tmp_path)
    assert cache.put("cd" * 32, article, [found])
    _, (again,) = cache.get("cd" * 32)
    assert again.fix == found.fix
    assert again.as_dict() == found.as_dict()


def test_a_rule_may_fix_only_deviating_translations_with_fixes_it_declares():
    from conftest import parse_versions

    from parallelcheck.align.progressive import align_article
    from parallelcheck.rules import REGISTRY
    from parallelcheck.rules.base import RuleContext

    article = align_article("a", parse_versions(en="# A\n", ja="# A\n"), "en")
    context = RuleContext(REGISTRY["heading-id"], article, None)  # type: ignore[arg-type]
    on = {
        lang: Fix(SAFE, "t", (Edit(Span(article.paths[lang], 1, 1), SPAN, "A", "B"),))
        for lang in ("en", "ja")
    }
    assert context.finding(None, ["ja"], ["en"], {"ja": 1}, "m", fix=on["ja"]).fix == on["ja"]
    with pytest.raises(ValueError, match="not a deviating translation"):
        context.finding(None, ["ja"], ["en"], {"ja": 1}, "m", fix=on["en"])
    unsafe = Fix(UNSAFE, "t", on["ja"].edits)
    with pytest.raises(ValueError, match=r"makes a fix it does not declare \(unsafe\)"):
        context.finding(None, ["ja"], ["en"], {"ja": 1}, "m", fix=unsafe)


# --- what the rules' fixes say -----------------------------------------------------------------


def _link_fix(en_target: str, ja_target: str) -> Fix | None:
    from conftest import parse_versions, rule_findings

    from parallelcheck.align.progressive import align_article

    en = f"# Guide\n\nRead [the guide]({en_target}) first.\n"
    ja = f"# ガイド\n\nまず[ガイド]({ja_target})を読んでください。\n"
    article = align_article("a", parse_versions(en=en, ja=ja), "en")
    (finding,) = rule_findings(article, "link-mismatch")
    return finding.fix


@pytest.mark.parametrize(
    ("en", "ja", "fixed", "applicability"),
    [
        ("/docs/new/", "/ja/docs/old/", "/ja/docs/new/", SAFE),  # the localised prefix stays
        ("../setup.md#install", "../start.md#インストール", "../setup.md#インストール", SAFE),
        (
            "https://example.org/v2/api",
            "https://example.org/v1/api",
            "https://example.org/v2/api",
            SAFE,
        ),
        (
            "https://vite.dev/guide/",
            "https://cn.vite.dev/guides/",
            "https://vite.dev/guide/",
            UNSAFE,
        ),
        (
            "https://mdn.example/en/docs/a",
            "https://mdn.example/ja/docs/b",
            "https://mdn.example/ja/docs/a",
            UNSAFE,
        ),
        ("../setup.md#install", "../setup.md", None, None),  # the version's own id is not known
    ],
)
def test_a_link_fix_keeps_the_version_s_localisation(en, ja, fixed, applicability):
    fix = _link_fix(en, ja)
    if fixed is None:
        assert fix is None
        return
    (edit,) = fix.edits
    assert (edit.kind, edit.old, edit.new, fix.applicability) == (SPAN, ja, fixed, applicability)
    assert edit.at == Span("ja.md", 3, 3)
