"""Glossary files: YAML (docs/configuration.md), TBX 2008, TBX v3 and CSV; malformed input
stops the run with exit 2 naming file, line and term id; `glossary lint` and `glossary import`
end to end."""

from __future__ import annotations

import random
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from parallelcheck.cli import cli
from parallelcheck.errors import InputError
from parallelcheck.glossary import (
    Glossary,
    LangTerms,
    Term,
    lint,
    load_file,
    load_glossaries,
    to_yaml,
)
from parallelcheck.glossary import build as glossary_build
from parallelcheck.glossary import load_yaml as glossary_load_yaml


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding=encoding)
    return path


CONTRACT_EXAMPLE = """
terms:
  - id: deepinfer
    keep: DeepInfer                 # must appear exactly like this in every version
  - id: pd-disaggregation
    en: PD disaggregation           # a string: the one approved form
    zh-Hant: {term: PD 分離, forbidden: [PD 分离]}
    ja: [PD 分離, PD分離]           # a list: all approved forms (first is preferred)
    ko: PD 분리
    note: prefill/decode split
"""

EXPECTED = Glossary(
    (
        Term("deepinfer", keep="DeepInfer"),
        Term(
            "pd-disaggregation",
            langs={
                "en": LangTerms(("PD disaggregation",)),
                "zh-Hant": LangTerms(("PD 分離",), ("PD 分离",)),
                "ja": LangTerms(("PD 分離", "PD分離")),
                "ko": LangTerms(("PD 분리",)),
            },
            note="prefill/decode split",
        ),
    )
)


# ---------------------------------------------------------------------------
# Loading the four formats


def test_yaml_contract_example(tmp_path):
    path = write(tmp_path / "g.yaml", CONTRACT_EXAMPLE)
    glossary = load_glossaries([str(path)])
    assert glossary == EXPECTED
    assert glossary.terms[1].origin == f"{path}:4"
    assert glossary.terms[1].entry("zh-TW") == LangTerms(("PD 分離",), ("PD 分离",))
    assert glossary.terms[0].entry("fr") == LangTerms(("DeepInfer",), (), True)
    assert glossary.terms[1].suggestion("zh-Hant") == "PD 分離"


def test_yaml_mapping_options_and_term_level_forbidden(tmp_path):
    path = write(
        tmp_path / "g.yml",
        """
        terms:
          - id: api
            en: {term: [API, APIs], case_sensitive: true}
            'no': API-et
          - id: lmdeploy
            keep: LMDeploy
            forbidden: [LM Deploy]
        """,
    )
    api, lmdeploy = load_glossaries([str(path)]).terms
    assert api.langs["en"] == LangTerms(("API", "APIs"), (), True)
    assert api.langs["no"] == LangTerms(("API-et",))  # Norwegian, not false
    assert lmdeploy.entry("ja") == LangTerms(("LMDeploy",), ("LM Deploy",), True)


def test_folders_are_read_in_sorted_order_and_empty_files_are_empty(tmp_path):
    write(tmp_path / "b.yaml", "terms:\n  - id: b\n    keep: B\n")
    write(tmp_path / "a.csv", "id,keep\na,A\n")
    write(tmp_path / "empty.yaml", "")
    write(tmp_path / "notes.txt", "ignored")
    glossary = load_glossaries([str(tmp_path)])
    assert [t.id for t in glossary.terms] == ["a", "b"]


TBX_2008 = """
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">
<martif type="TBX" xml:lang="en">
  <martifHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></martifHeader>
  <text>
    <body>
      <termEntry id="pd-disaggregation">
        <descrip type="definition">prefill/decode split</descrip>
        <langSet xml:lang="en">
          <tig><term>PD disaggregation</term>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
        </langSet>
        <langSet xml:lang="zh-Hant">
          <tig><term>PD 分离</term>
            <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
          <tig><term>PD 分離</term>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
        </langSet>
        <langSet xml:lang="ja">
          <tig><term>PD分離</term>
            <termNote type="administrativeStatus">admittedTerm-admn-sts</termNote></tig>
          <tig><term>PD 分離</term>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
        </langSet>
        <langSet xml:lang="ko">
          <ntig><termGrp><term>PD 분리</term></termGrp></ntig>
        </langSet>
      </termEntry>
    </body>
  </text>
</martif>
"""

TBX_V3 = """
<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
  <text>
    <body>
      <conceptEntry id="pd-disaggregation">
        <descrip type="definition">prefill/decode split</descrip>
        <langSec xml:lang="en">
          <termSec><term>PD disaggregation</term></termSec>
        </langSec>
        <langSec xml:lang="zh-Hant">
          <termSec><term>PD 分離</term>
            <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></termSec>
          <termSec><term>PD 分离</term>
            <termNote type="administrativeStatus">supersededTerm-admn-sts</termNote></termSec>
        </langSec>
        <langSec xml:lang="ja">
          <termSec><term>PD 分離</term></termSec>
          <termSec><term>PD分離</term></termSec>
        </langSec>
        <langSec xml:lang="ko">
          <termSec><term>PD 분리</term></termSec>
        </langSec>
      </conceptEntry>
    </body>
  </text>
</tbx>
"""

CSV = """
id,en,zh-Hant,ja,ko,note
pd-disaggregation,PD disaggregation,PD 分離|!PD 分离,PD 分離|PD分離,PD 분리,prefill/decode split
"""


@pytest.mark.parametrize(("name", "text", "line"), [("g.tbx", TBX_2008, 7), ("g3.tbx", TBX_V3, 6)])
def test_tbx_2008_and_v3(tmp_path, name, text, line):
    path = write(tmp_path / name, text)
    glossary = load_glossaries([str(path)])
    assert glossary.terms == EXPECTED.terms[1:]
    assert glossary.terms[0].line == line


def test_csv(tmp_path):
    path = write(tmp_path / "g.csv", CSV)
    glossary = load_glossaries([str(path)])
    assert glossary.terms == EXPECTED.terms[1:]
    assert glossary.terms[0].origin == f"{path}:2"


def test_csv_keep_column_derived_ids_and_escapes(tmp_path):
    path = write(
        tmp_path / "g.csv",
        """
        en,ja,keep,case_sensitive
        ,,DeepInfer,
        Tensor parallelism,テンソル並列|!テンソルパラレル,,
        a \\| b,\\!bang,,true
        """,
    )
    keep, tensor, odd = load_glossaries([str(path)]).terms
    assert keep == Term("deepinfer", keep="DeepInfer")
    assert tensor.id == "tensor-parallelism"
    assert tensor.langs["ja"] == LangTerms(("テンソル並列",), ("テンソルパラレル",))
    assert odd.langs["en"] == LangTerms(("a | b",), (), True)
    assert odd.langs["ja"] == LangTerms(("!bang",), (), True)


# ---------------------------------------------------------------------------
# Malformed input: file, line and term id


MALFORMED_YAML = [
    ("terms:\n  - id: a\n    en: [x\n", 4, None, "invalid YAML"),
    ("- a\n- b\n", 1, None, "must be a mapping"),
    ("terms: []\nversion: 2\n", 2, None, "unknown key 'version'"),
    ("terms:\n  - just a string\n", 2, None, "each term must be a mapping"),
    ("terms:\n  - en: x\n", 2, None, "term has no 'id'"),
    ("terms:\n  - id: bad id\n    en: x\n", 2, "bad id", "invalid term id"),
    ("terms:\n  - id: t1\n    english: x\n", 3, "t1", "invalid language tag 'english'"),
    ("terms:\n  - id: t2\n    ja: [ok, [nested]]\n", 3, "t2", "item 2 is a list"),
    ("terms:\n  - id: t3\n    ja: {term: x, forbid: [y]}\n", 3, "t3", "unknown key 'forbid'"),
    ("terms:\n  - id: t4\n    keep: X\n    ja: Y\n", 4, "t4", "keep term"),
    ("terms:\n  - id: t5\n    en: a\n    en: b\n", 4, "t5", "duplicate key 'en'"),
    (
        "terms:\n  - id: t6\n    en: {term: a, case_sensitive: maybe}\n",
        3,
        "t6",
        "must be true or false",
    ),
    ("terms:\n  - id: t7\n    term: a\n", 3, "t7", "belongs inside a language mapping"),
    ("terms:\n  - id: t8\n    en: ''\n", 3, "t8", "empty value"),
    ("terms:\n  - id: t9\n", 2, "t9", "neither 'keep' nor any language"),
    ("terms:\n  - id: d\n    en: a\n  - id: d\n    en: b\n", 4, "d", "duplicate term id"),
    ("terms:\n  - id: c\n    en: {term: a, forbidden: [A]}\n", 2, "c", "approved and forbidden"),
    (
        "terms:\n  - id: k\n    keep: Ascend\n  - id: l\n    en: ascend\n",
        4,
        "l",
        "also an approved form of term 'k' (",
    ),
    (
        "terms:\n  - id: e\n    en: same\n  - id: f\n    en: Same\n",
        4,
        "f",
        "also an approved form of term 'e'",
    ),
    (
        "terms:\n  - id: g\n    en: good\n  - id: h\n    en: {term: x, forbidden: [good]}\n",
        4,
        "h",
        "forbidden form 'good' is an approved form of term 'g'",
    ),
]


@pytest.mark.parametrize(("text", "line", "term", "words"), MALFORMED_YAML)
def test_malformed_yaml_names_file_line_and_term(tmp_path, text, line, term, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_glossaries([str(path)])
    error = caught.value
    assert (error.path, error.line) == (str(path), line), error.describe()
    assert words in error.message
    if term is not None:
        assert f"term '{term}'" in error.message


def test_alias_bomb_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 7):
        below = f"*a{level - 1}"
        lines.append(f"a{level}: &a{level} [{', '.join([below] * 10)}]")
    lines.append("terms: []")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_glossaries([str(path)])
    assert "aliases" in caught.value.message and caught.value.line is not None


def test_large_yaml_file_is_refused(tmp_path, monkeypatch):
    """Files past the byte bound (64 MB; lowered here so the test writes little) are refused."""
    monkeypatch.setattr(glossary_load_yaml, "MAX_YAML_BYTES", 1_000_000)
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * 1_000_001 + "\nterms: []\n", encoding="utf-8")
    with pytest.raises(InputError, match="too large"):
        load_glossaries([str(path)])


def test_glossaries_are_bounded_by_term_count(tmp_path, monkeypatch):
    """The bound is on terms, counted while reading, across the files of a run."""
    monkeypatch.setattr(glossary_build, "MAX_TERMS", 5)
    first = tmp_path / "a.yaml"
    first.write_text("terms:\n" + "".join(f"  - {{id: a{n}, en: a{n}}}\n" for n in range(3)))
    second = tmp_path / "b.csv"
    second.write_text("id,en\n" + "".join(f"b{n},b{n}\n" for n in range(3)), encoding="utf-8")
    assert len(load_glossaries([str(first)])) == 3
    with pytest.raises(InputError) as caught:
        load_glossaries([str(first), str(second)])
    assert (caught.value.path, caught.value.line) == (str(second), 4)
    assert "more than 5 terms" in caught.value.message


def test_non_utf8_is_refused_with_its_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("terms:\n  - id: a\n    fr: café\n".encode("latin-1"))
    with pytest.raises(InputError) as caught:
        load_glossaries([str(path)])
    assert caught.value.line == 3


MALFORMED_TBX = [
    ("<root/>", 1, None, "not a TBX file"),
    ("<martif><text><body><termEntry id='x'>", 1, None, "invalid XML"),
    (
        "<martif><text><body>\n<termEntry id='t1'>\n<langSet>\n<tig><term>a</term></tig>"
        "</langSet></termEntry></body></text></martif>",
        3,
        "t1",
        "has no xml:lang",
    ),
    (
        "<martif><text><body>\n<termEntry id='t2'><langSet xml:lang='english'>\n"
        "<tig><term>a</term></tig></langSet></termEntry></body></text></martif>",
        2,
        "t2",
        "invalid language tag",
    ),
    (
        "<martif><text><body>\n<termEntry id='t3'><langSet xml:lang='en'><tig><term>a</term>\n"
        "<termNote type='administrativeStatus'>approvedish</termNote></tig></langSet>"
        "</termEntry></body></text></martif>",
        3,
        "t3",
        "unknown administrativeStatus",
    ),
    (
        '<?xml version="1.0"?>\n<!DOCTYPE martif [\n<!ENTITY lol "lol">\n]>\n'
        "<martif><text><body/></text></martif>",
        None,
        None,
        "refusing unsafe XML",
    ),
]


@pytest.mark.parametrize(("text", "line", "term", "words"), MALFORMED_TBX)
def test_malformed_tbx_names_file_line_and_term(tmp_path, text, line, term, words):
    path = tmp_path / "bad.tbx"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_glossaries([str(path)])
    error = caught.value
    assert error.path == str(path)
    if line is not None:
        assert error.line == line, error.describe()
    assert words in error.message
    if term is not None:
        assert f"term '{term}'" in error.message


MALFORMED_CSV = [
    ("id,english\na,x\n", 1, None, "unknown column 'english'"),
    ("id,note\na,x\n", 1, None, "names no language column"),
    ("id,en,en\na,x,y\n", 1, None, "given twice"),
    ("id,en\na,x\nb,y,extra\n", 3, "b", "row has 3 cells"),
    ("id,en,keep\nk,Z,Keep\n", 2, "k", "keep term"),
    ("id,en,case_sensitive\nc,x,perhaps\n", 2, "c", "case_sensitive"),
    ("id,en\nbad id,x\n", 2, "bad id", "invalid term id"),
]


@pytest.mark.parametrize(("text", "line", "term", "words"), MALFORMED_CSV)
def test_malformed_csv_names_file_line_and_term(tmp_path, text, line, term, words):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_glossaries([str(path)])
    error = caught.value
    assert (error.path, error.line) == (str(path), line), error.describe()
    assert words in error.message
    if term is not None:
        assert f"term '{term}'" in error.message


def test_missing_path_and_unknown_extension(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        load_glossaries([str(tmp_path / "nope.yaml")])
    other = write(tmp_path / "terms.json", "{}")
    with pytest.raises(InputError, match="unknown glossary format"):
        load_glossaries([str(other)])


# ---------------------------------------------------------------------------
# Through the command line: `check --glossary`, the configured glossary


def _article(root: Path) -> Path:
    write(root / "articles/demo/en.md", "# Demo\n\nDeepInfer uses PD disaggregation.\n")
    write(root / "articles/demo/ja.md", "# デモ\n\nDeepInfer は PD 分離を使う。\n")
    return root


@pytest.mark.parametrize(
    ("text", "line", "term"),
    [(text, line, term) for text, line, term, _ in MALFORMED_YAML if term],
)
def test_check_with_a_malformed_glossary_exits_2_naming_file_line_and_term(
    tmp_path, monkeypatch, text, line, term
):
    _article(tmp_path)
    write(tmp_path / "glossary/bad.yaml", text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "articles"])
    assert result.exit_code == 2, result.output
    assert f"glossary/bad.yaml:{line}:" in result.stderr
    assert f"term '{term}'" in result.stderr
    assert "Traceback" not in result.output


def test_check_reads_glossary_option_and_reports_terms(tmp_path, monkeypatch):
    _article(tmp_path)
    write(
        tmp_path / "terms.yaml",
        """
        terms:
          - id: pd
            en: PD disaggregation
            ja: {term: PD 分離, forbidden: [PD 分割]}
        """,
    )
    write(tmp_path / "articles/demo/ja.md", "# デモ\n\nDeepInfer は PD 分割を使う。\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "articles", "--glossary", "terms.yaml", "-q"])
    assert result.exit_code == 1, result.output
    assert "term-forbidden" in result.stdout and "PD 分割" in result.stdout
    assert "articles/demo/ja.md:3" in result.stdout


def test_without_the_ja_extra_a_note_says_japanese_forms_matched_as_written(tmp_path, monkeypatch):
    """A Japanese version checked against a glossary with Japanese forms, Sudachi not
    installed: the run says that variants were not matched and how to get them; with Sudachi,
    without a Japanese version, or with Japanese keep-as-is names only, it says nothing."""
    from parallelcheck.cli import JAPANESE_VARIANTS_NOTE
    from parallelcheck.run import pipeline

    _article(tmp_path)
    write(tmp_path / "terms.yaml", "terms:\n  - id: pd\n    ja: PD 分離\n")
    write(tmp_path / "keeps.yaml", "terms:\n  - id: deepinfer\n    keep: DeepInfer\n")
    write(tmp_path / "english/demo/en.md", "# Demo\n\nPD disaggregation.\n")
    write(tmp_path / "english/demo/de.md", "# Demo\n\nPD-Disaggregation.\n")
    monkeypatch.chdir(tmp_path)

    def stderr(*args: str, sudachi: bool) -> str:
        monkeypatch.setattr(pipeline, "japanese_variants_available", lambda: sudachi)
        result = CliRunner().invoke(cli, ["check", "--no-cache", *args])
        assert result.exit_code in (0, 1), result.output
        return result.stderr

    assert JAPANESE_VARIANTS_NOTE in stderr("articles", "--glossary", "terms.yaml", sudachi=False)
    assert "parallelcheck[ja]" in JAPANESE_VARIANTS_NOTE
    assert "note" not in stderr("articles", "--glossary", "terms.yaml", sudachi=True)
    assert "note" not in stderr("english", "--glossary", "terms.yaml", sudachi=False)
    assert "note" not in stderr("articles", "--glossary", "keeps.yaml", sudachi=False)
    assert "note" not in stderr("articles", "--glossary", "terms.yaml", "-q", sudachi=False)


def test_a_glossary_that_does_not_exist_exits_2(tmp_path, monkeypatch):
    _article(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "articles", "--glossary", "missing.yaml"])
    assert result.exit_code == 2
    assert "missing.yaml" in result.stderr


# ---------------------------------------------------------------------------
# glossary lint


def test_lint_clean_glossary(tmp_path):
    path = write(tmp_path / "g.yaml", CONTRACT_EXAMPLE)
    result = CliRunner().invoke(cli, ["glossary", "lint", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "2 terms OK"


def test_lint_lists_every_problem_with_file_and_line(tmp_path):
    path = write(
        tmp_path / "g.yaml",
        """
        terms:
          - id: a
            en: {term: x, forbidden: [X]}
          - id: a
            en: y
          - id: b
            english: z
          - id: c
            en: w
          - id: d
            en: w2
            ko: 캐시
          - id: e
            en: w2 w3
            ko: 캐시설정
        """,
    )
    result = CliRunner().invoke(cli, ["glossary", "lint", str(path)])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert f"{path}:7: term 'b': invalid language tag 'english'" in lines[0]
    assert any(line.startswith(f"{path}:2: term 'a':") and "forbidden" in line for line in lines)
    assert any(line.startswith(f"{path}:4: term 'a': duplicate term id") for line in lines)
    assert any(line.startswith(f"{path}:10: warning: term 'd':") for line in lines)


def test_lint_warns_about_shadowing_that_differs_between_languages(tmp_path):
    path = write(
        tmp_path / "g.yaml",
        """
        terms:
          - id: kv-cache
            en: KV cache
            ko: KV 캐시
          - id: kv-cache-quantization
            en: KV-cache quantization
            ko: KV 양자화
        """,
    )
    problems = lint(load_file(str(path)))
    assert [p.severity for p in problems] == ["warning"]
    assert "part of term 'kv-cache-quantization'" in problems[0].message
    assert "in en but not in ko" in problems[0].message
    result = CliRunner().invoke(cli, ["glossary", "lint", str(path)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "2 terms OK (1 warning(s))"


def test_consistent_nesting_is_no_warning(tmp_path):
    path = write(
        tmp_path / "g.yaml",
        """
        terms:
          - id: kv-cache
            en: KV cache
            ko: KV 캐시
          - id: kv-cache-quantization
            en: KV-cache quantization
            ko: KV 캐시 양자화
        """,
    )
    assert lint(load_file(str(path))) == []


def test_lint_defaults_to_the_configured_glossary(tmp_path, monkeypatch):
    write(tmp_path / "glossary/g.yaml", CONTRACT_EXAMPLE)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["glossary", "lint"])
    assert result.exit_code == 0 and "2 terms OK" in result.stdout
    (tmp_path / "glossary/g.yaml").unlink()
    (tmp_path / "glossary").rmdir()
    result = CliRunner().invoke(cli, ["glossary", "lint"])
    assert result.exit_code == 2 and "no glossary configured" in result.stderr


# ---------------------------------------------------------------------------
# glossary import (round trip: import → load gives the same Glossary)


@pytest.mark.parametrize(
    ("name", "text"), [("g.tbx", TBX_2008), ("g3.tbx", TBX_V3), ("g.csv", CSV)]
)
def test_import_round_trip(tmp_path, name, text):
    source = write(tmp_path / name, text)
    out = tmp_path / "glossary/imported.yaml"
    out.parent.mkdir()
    result = CliRunner().invoke(cli, ["glossary", "import", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert load_glossaries([str(out)]) == load_glossaries([str(source)])
    assert load_glossaries([str(out)]).terms == EXPECTED.terms[1:]
    again = CliRunner().invoke(cli, ["glossary", "import", str(source), "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.stderr
    forced = CliRunner().invoke(cli, ["glossary", "import", str(source), "-o", str(out), "--force"])
    assert forced.exit_code == 0
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]


def test_import_to_stdout_and_awkward_values_survive(tmp_path):
    glossary = Glossary(
        (
            Term("yes", langs={"no": LangTerms(("no", "1.8", "null"), ("~",), True)}),
            Term("k", keep="true", forbidden=("True",), note="a: b"),
        )
    )
    path = tmp_path / "g.yaml"
    path.write_text(to_yaml(glossary), encoding="utf-8")
    assert load_glossaries([str(path)]) == glossary
    csv_path = write(tmp_path / "g.csv", CSV)
    result = CliRunner().invoke(cli, ["glossary", "import", str(csv_path)])
    assert result.exit_code == 0
    assert result.stdout.startswith("terms:\n- id: pd-disaggregation\n")


def test_import_of_a_malformed_file_exits_2(tmp_path):
    source = write(tmp_path / "bad.csv", "id,english\na,b\n")
    result = CliRunner().invoke(cli, ["glossary", "import", str(source), "-o", "x.yaml"])
    assert result.exit_code == 2
    assert f"{source}:1:" in result.stderr


# ---------------------------------------------------------------------------
# The engine reads the glossary once per run and sends it to worker processes


def test_glossary_is_plain_picklable_data(tmp_path):
    import pickle

    glossary = load_glossaries([str(write(tmp_path / "g.yaml", CONTRACT_EXAMPLE))])
    again = pickle.loads(pickle.dumps(glossary))
    assert again == glossary and again.fingerprint == glossary.fingerprint != ""


def test_check_all_reads_the_glossary_once_per_run(tmp_path, monkeypatch):
    from parallelcheck import engine
    from parallelcheck.config import Config
    from parallelcheck.discover.sets import discover
    from parallelcheck.run import pipeline

    for name in ("a", "b", "c", "d"):
        write(tmp_path / f"articles/{name}/en.md", "# T\n\nDeepInfer here.\n")
        write(tmp_path / f"articles/{name}/ja.md", "# T\n\nDeepinfer ここ。\n")
    glossary = write(tmp_path / "g.yaml", "terms:\n  - id: deepinfer\n    keep: DeepInfer\n")
    calls = []
    real = pipeline.load_glossaries

    def counting(paths):
        calls.append(list(paths))
        return real(paths)

    monkeypatch.setattr(pipeline, "load_glossaries", counting)
    sets = discover([str(tmp_path / "articles")], root=str(tmp_path / "articles"))
    options = engine.CheckOptions(glossaries=(str(glossary),), select=("term-altered",))
    results = list(pipeline.check_all(sets, Config(), options))
    assert calls == [[str(glossary)]]
    assert [len(r.findings) for r in results] == [1, 1, 1, 1]
    # worker processes get the same glossary and give the same findings
    parallel = list(pipeline.check_all(sets, Config(), replace(options, jobs=2)))
    assert len(calls) == 2
    assert [r.findings for r in parallel] == [r.findings for r in results]


# ---------------------------------------------------------------------------
# Lint's shadowing warnings: the indexed search gives what comparing every pair gave


def _pairwise_shadowing(glossary: Glossary) -> list:
    """The shadowing check as it was before the index (every ordered pair of terms): the
    test oracle, kept here and nowhere in src."""
    from parallelcheck.glossary import Problem, match_key
    from parallelcheck.glossary.match import form_contains

    langs = sorted(glossary.languages())
    terms = list(glossary.terms)
    loose: dict[tuple[str, str], list[str]] = {}
    for term in terms:
        for tag in langs:
            entry = term.entry(tag)
            if entry is not None:
                loose[(term.id, tag)] = [match_key(f).replace(" ", "") for f in entry.approved]
    found = []
    for outer in terms:
        for inner in terms:
            if inner.id == outer.id:
                continue
            if not any(
                short in long
                for tag in langs
                for short in loose.get((inner.id, tag), ())
                for long in loose.get((outer.id, tag), ())
            ):
                continue
            nested = {}
            for tag in langs:
                inner_entry, outer_entry = inner.entry(tag), outer.entry(tag)
                if inner_entry is None or outer_entry is None:
                    continue
                if inner.keep is not None and outer.keep is not None:
                    continue
                nested[tag] = any(
                    form_contains(long, short, tag, inner_entry.case_sensitive)
                    for short in inner_entry.approved
                    for long in outer_entry.approved
                )
            inside = sorted(tag for tag, value in nested.items() if value)
            outside = sorted(tag for tag, value in nested.items() if not value)
            if inside and outside:
                found.append(
                    Problem(
                        inner.path,
                        inner.line,
                        f"term '{inner.id}': its form is part of term '{outer.id}' "
                        f"({outer.origin}) in {', '.join(inside)} but not in "
                        f"{', '.join(outside)}: longest-match counting will differ between "
                        "these languages",
                        "warning",
                    )
                )
    return found


_WORDS = {
    "en": ["cache", "Cache", "KV", "policy", "key", "box", "tree", "tensor", "fast", "city", "i"],
    "tr": ["ıslak", "İzmir", "fıx", "kedi", "fix"],
    "ja": ["キャッシュ", "テンソル", "並列", "高速", "木", "キー"],
    "ko": ["캐시", "텐서", "병렬", "고속", "트리", "키", "는", "를", "타"],
    "zh-Hant": ["快取", "張量", "並行", "高速", "樹", "鍵"],
}
_JOINERS = {"en": [" ", "-", ""], "tr": [" ", ""], "ja": ["", " ", "・"], "ko": [" ", ""]}


def _random_glossary(seed: int, count: int) -> Glossary:
    """Terms built from a small vocabulary, so that forms nest in one another often: cases,
    plurals (policy → policies), hyphens, keep terms, case-sensitive entries, Korean
    particles, the Turkish dotless and dotted i."""
    rng = random.Random(seed)
    terms = []
    for number in range(count):
        origin = f"g.yaml:{number + 1}"
        if rng.random() < 0.08:
            keep = rng.choice(["DeepInfer", "KV", "Cache", "TensorRT", "Tree"]) + rng.choice(
                ["", "2", " Pro", "-X"]
            )
            terms.append(Term(f"k{number}", keep=keep, origin=origin))
            continue
        langs = {}
        for lang in rng.sample(sorted(_WORDS), rng.randint(1, 5)):
            forms = []
            for _ in range(rng.choice([1, 1, 2])):
                parts = [rng.choice(_WORDS[lang]) for _ in range(rng.choice([1, 2, 2, 3]))]
                form = rng.choice(_JOINERS.get(lang, [""])).join(parts)
                if lang == "en" and rng.random() < 0.1:
                    form += rng.choice(["s", "ies", "'s", "es"])
                forms.append(form.strip(" -") or parts[0])
            langs[lang] = LangTerms(tuple(dict.fromkeys(forms)), (), rng.random() < 0.15)
        terms.append(Term(f"t{number}", langs=langs, origin=origin))
    return Glossary.of(terms)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shadowing_warnings_are_those_of_the_pairwise_check(seed):
    # 180 terms: some 2,200 to 2,800 shadowing warnings (the pairwise check is quadratic)
    glossary = _random_glossary(seed, 180)
    warnings = [problem for problem in lint(glossary) if problem.severity == "warning"]
    expected = _pairwise_shadowing(glossary)
    assert len(expected) > 1000  # the glossary does exercise the check
    assert warnings == expected


def test_certain_containment_answers_agree_with_the_matcher():
    """Every answer the index's shortcut gives without the matcher is the matcher's."""
    from parallelcheck.glossary.linter import _contains_for_sure, _FormTexts
    from parallelcheck.glossary.match import form_contains

    rng = random.Random(17)
    pieces = [*(w for words in _WORDS.values() for w in words), "s", "'s", "-", " ", "ß", "é"]
    texts = _FormTexts()
    answered = 0
    for _ in range(3000):
        short = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3))).strip(" -") or "a"
        long = rng.choice(["", "x", "KV "]) + (short if rng.random() < 0.6 else rng.choice(pieces))
        long += rng.choice(["", " ", "s", "는", "타", "x", "ies"])
        sensitive = rng.random() < 0.3
        sure = _contains_for_sure(texts[long], texts[short], sensitive)
        if sure is not None:
            answered += 1
            assert sure == form_contains(long, short, "und", sensitive), (long, short, sensitive)
    assert answered > 1500
