"""The `untranslated` rule: blocks left in another language or copied from another version."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
from conftest import REPO

from parallelcheck.align.progressive import align_article
from parallelcheck.config import Config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.model.document import BlockKind
from parallelcheck.readers import read_document
from parallelcheck.run.pipeline import check_all

ARTICLE = REPO / "articles" / "deepinfer-vs-lmdeploy"
LANGS = ("en", "ja", "ko", "zh-Hant")


def run(folder: Path, select=("untranslated",)):
    sets = discover([str(folder)], root=str(folder), cwd=os.getcwd())
    results = list(check_all(sets, Config(), CheckOptions(select=select)))
    return [f for r in results for f in r.findings]


def write_article(folder: Path, versions: dict[str, str]) -> Path:
    article = folder / "article"
    article.mkdir(parents=True, exist_ok=True)
    for lang, text in versions.items():
        (article / f"{lang}.md").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return article


def located(findings, lang: str, line: int):
    return [
        f
        for f in findings
        if f.langs == (lang,) and any(loc.lang == lang and loc.line == line for loc in f.locations)
    ]


# ---------------------------------------------------------------------------
# The user's article


def test_the_shipped_article_has_no_untranslated_block():
    assert run(ARTICLE) == []


def _paragraph_cases():
    documents = {lang: read_document(str(ARTICLE / f"{lang}.md"), lang) for lang in LANGS}
    aligned = align_article("a", documents, "en")
    cases = []
    for section in aligned.sections:
        for row in section.rows:
            source = row.cells.get("en")
            if source is None or source.kind is not BlockKind.PARAGRAPH:
                continue
            for lang in LANGS[1:]:
                block = row.cells.get(lang)
                if block is not None and block.kind is BlockKind.PARAGRAPH:
                    cases.append(
                        pytest.param(
                            lang,
                            (block.line, block.end_line),
                            (source.line, source.end_line),
                            id=f"{lang}-line{block.line}",
                        )
                    )
    return cases


PARAGRAPHS = _paragraph_cases()


def test_every_translation_has_paragraphs_to_replace():
    assert {case.values[0] for case in PARAGRAPHS} == {"ja", "ko", "zh-Hant"}
    assert len(PARAGRAPHS) >= 30


@pytest.mark.parametrize(("lang", "lines", "source_lines"), PARAGRAPHS)
def test_an_english_paragraph_pasted_into_a_translation_is_reported(
    tmp_path, lang, lines, source_lines
):
    folder = tmp_path / "deepinfer-vs-lmdeploy"
    folder.mkdir()
    english = (ARTICLE / "en.md").read_text(encoding="utf-8").split("\n")
    for version in LANGS:
        text = (ARTICLE / f"{version}.md").read_text(encoding="utf-8").split("\n")
        if version == lang:
            text[lines[0] - 1 : lines[1]] = english[source_lines[0] - 1 : source_lines[1]]
        (folder / f"{version}.md").write_text("\n".join(text), encoding="utf-8")
    findings = run(folder)
    found = located(findings, lang, lines[0])
    assert found, [f.message for f in findings]
    assert found[0].severity == "error"
    assert f" in {lang} is in English" in found[0].message
    assert "identical to en's" in found[0].message
    assert any(loc.lang == "en" and loc.line == source_lines[0] for loc in found[0].locations)
    assert len(findings) == 1, [f.message for f in findings]


# ---------------------------------------------------------------------------
# Wrong language without a copy, and copies without a wrong language

SOURCE = """\
    # Install

    Install the package with pip and run the server with the default settings for a start.

    The server reads its configuration from the environment when it starts up.
    """


def test_an_english_paragraph_that_is_no_copy_is_reported_in_a_latin_version(tmp_path):
    german = """\
        # Installation

        Installieren Sie das Paket mit pip und starten Sie den Server mit den Standardwerten.

        The application writes its log files to the folder you choose when you deploy it.
        """
    findings = run(write_article(tmp_path, {"en": SOURCE, "de": german}))
    assert [(f.langs, f.locations[0].line) for f in findings] == [(("de",), 5)]
    assert "is in English" in findings[0].message
    assert "identical" not in findings[0].message


SETTINGS = """\
    # Settings

    The settings are read from the environment when the server starts, and the defaults are
    used for every value that is not set there.

    The server keeps the settings in memory and reads them again only when it is restarted.

    A value that cannot be read is reported with the name of the variable and the line of
    the file it was read from.

    The settings of a test run are those of the test and are never written to the disk.

    The log of the server is kept for a week and is then removed by the server itself.

    The port and the host of the server are settings like the others and have defaults too.

    The settings file is read with the encoding of the system unless one is given.
    """


def test_english_pasted_into_much_of_a_version_does_not_hide_itself(tmp_path):
    # Three of the seven paragraphs of the de version are English that is no copy of the
    # source (older wording): English words are then common in the de version, and weighed
    # against it the English function words do not stand out.  A paragraph without a single
    # German function word shows signs of another language all the same, and py3langid is
    # asked about it (the version is too short for its size alone to say so: it has German
    # function words enough to tell).
    german = """\
        # Einstellungen

        Die Einstellungen werden beim Start des Servers aus der Umgebung gelesen, und die
        Standardwerte gelten für jeden Wert, der dort nicht gesetzt ist.

        The server holds the configuration in memory and only loads it again after a restart
        of the whole process.

        Ein Wert, der nicht gelesen werden kann, wird mit dem Namen der Variablen und der
        Zeile der Datei gemeldet, aus der er gelesen wurde.

        The configuration of a test run belongs to that test and is never stored on the disk
        of the machine.

        Das Protokoll des Servers wird eine Woche lang aufbewahrt und dann vom Server selbst
        entfernt, und die Datei ist dann leer.

        The port and the host of the process are part of the configuration as well and have
        their own default values.

        Die Datei der Einstellungen wird mit der Kodierung des Systems gelesen, wenn keine
        andere angegeben ist, und die Werte sind dann gesetzt.
        """
    findings = run(write_article(tmp_path, {"en": SETTINGS, "de": german}))
    assert [f.langs for f in findings] == [("de",)] * 3
    assert [loc.line for f in findings for loc in f.locations if loc.lang == "de"] == [6, 12, 18]
    assert all("is in English" in f.message and "identical" not in f.message for f in findings)


def test_a_copied_paragraph_is_reported_in_a_latin_version(tmp_path):
    french = """\
        # Installation

        Install the package with pip and run the server with the default settings for a start.

        Le serveur lit sa configuration depuis l'environnement au démarrage.
        """
    findings = run(write_article(tmp_path, {"en": SOURCE, "fr": french}))
    assert len(findings) == 1
    assert findings[0].langs == ("fr",) and findings[0].reference_langs == ("en",)
    assert "is in English (looks identical to en's)" in findings[0].message


def test_a_korean_paragraph_in_the_japanese_version(tmp_path):
    japanese = """\
        # インストール

        pip でパッケージをインストールし、まずは既定の設定でサーバーを起動します。

        서버는 시작할 때 환경에서 설정을 읽습니다.
        """
    findings = run(write_article(tmp_path, {"en": SOURCE, "ja": japanese}))
    assert [(f.langs, f.locations[0].line) for f in findings] == [(("ja",), 5)]
    assert "is in Korean" in findings[0].message


def test_a_list_left_in_english_is_one_finding(tmp_path):
    source = """\
        # Features

        - Automatic interactive documentation for every path operation you declare.
        - Validation of the request body against the types you wrote in your models.
        """
    japanese = """\
        # 機能

        - Automatic interactive documentation for every path operation you declare.
        - Validation of the request body against the types you wrote in your models.
        """
    findings = run(write_article(tmp_path, {"en": source, "ja": japanese}))
    assert len(findings) == 1
    assert findings[0].message.startswith("list (2 items)")


# ---------------------------------------------------------------------------
# What is excused


def _no_findings(tmp_path, source: str, translation: str, lang: str = "ja"):
    findings = run(write_article(tmp_path, {"en": source, lang: translation}))
    assert findings == [], [f.message for f in findings]


def test_code_blocks_are_excused(tmp_path):
    code = """\
        # Run

        ```python
        # start the application server and print every request that reaches it
        app = create_application(settings=load_settings_from_the_environment())
        ```
        """
    _no_findings(tmp_path, code, code.replace("# Run", "# 実行"))


def test_html_blocks_are_excused(tmp_path):
    source = """\
        # Sponsors

        <p align="center"><em>A modern framework for building reliable services quickly</em></p>
        """
    _no_findings(tmp_path, source, source.replace("# Sponsors", "# スポンサー"))


def test_blocks_mostly_of_code_names_and_urls_are_excused(tmp_path):
    source = """\
        # Links

        See `fastapi.FastAPI`, `APIRouter` and https://fastapi.tiangolo.com/tutorial/ for vLLM.
        """
    _no_findings(tmp_path, source, source.replace("# Links", "# リンク"))


def test_very_short_blocks_are_excused(tmp_path):
    source = """\
        # Result

        It works.

        Run it now to see the whole response body printed in your terminal window.
        """
    japanese = """\
        # 結果

        It works.

        今すぐ実行すると、ターミナルにレスポンス本体全体が表示されます。
        """
    _no_findings(tmp_path, source, japanese)


def test_tables_of_identifiers_are_excused(tmp_path):
    source = """\
        # Types

        | Name | Type | Default |
        |---|---|---|
        | timeout | float | None |
        | retries | int | 3 |
        | verbose | bool | false |
        """
    _no_findings(tmp_path, source, source.replace("# Types", "# 型"))


def test_quotations_are_excused(tmp_path):
    source = """\
        # Quote

        > Premature optimization is the root of all evil, as the well known saying goes.

        The docs say "Use dependency injection whenever you need shared logic".
        """
    japanese = """\
        # 引用

        > Premature optimization is the root of all evil, as the well known saying goes.

        ドキュメントには "Use dependency injection whenever you need shared logic" とある。
        """
    _no_findings(tmp_path, source, japanese)


def test_a_line_every_version_keeps_is_excused(tmp_path):
    kept = "Compared engines: vLLM, SGLang, TensorRT-LLM, TGI, Xinference, Dynamo and others."
    versions = {
        "en": f"# Engines\n\n{kept}\n",
        "ja": f"# エンジン\n\n{kept}\n",
        "ko": f"# 엔진\n\n{kept}\n",
        "de": f"# Engines\n\n{kept}\n",
    }
    assert run(write_article(tmp_path, versions)) == []


def test_admonition_titles_are_excused(tmp_path):
    source = """\
        # Tip

        /// tip | Technical Details

        The dependency runs once per request and its result is cached for the request.

        ///
        """
    japanese = """\
        # ヒント

        /// tip | Technical Details

        依存関係はリクエストごとに一度だけ実行され、その結果はリクエストの間キャッシュされます。

        ///
        """
    _no_findings(tmp_path, source, japanese)


def test_versions_sharing_a_language_may_be_identical(tmp_path):
    _no_findings(tmp_path, SOURCE, SOURCE, lang="en-GB")


def test_two_translations_keeping_the_source_text_copy_the_source_not_each_other(tmp_path):
    english = "The server reads its configuration from the environment when it starts up."
    second = {
        "en": "A second paragraph that every version translates.",
        "ja": "すべての版が翻訳する二つ目の段落です。",
        "ko": "모든 버전이 번역하는 두 번째 단락입니다.",
        "zh-Hant": "每個版本都會翻譯的第二段。",
        "de": "Ein zweiter Absatz, den jede Fassung übersetzt.",
        "fr": "Un second paragraphe que chaque version traduit.",
        "es": "Un segundo párrafo que cada versión traduce.",
    }
    first = {
        "zh-Hant": "伺服器在啟動時從環境讀取設定。",
        "de": "Der Server liest seine Konfiguration beim Start aus der Umgebung.",
        "fr": "Le serveur lit sa configuration depuis l'environnement au démarrage.",
        "es": "El servidor lee su configuración del entorno cuando arranca.",
    }
    versions = {
        lang: f"# Config\n\n{first.get(lang, english)}\n\n{text}\n" for lang, text in second.items()
    }
    findings = run(write_article(tmp_path, versions))
    assert sorted(f.langs for f in findings) == [("ja",), ("ko",)]
    assert all(f.reference_langs == ("en",) for f in findings)


def test_a_copy_needs_running_text_enough_to_matter(tmp_path):
    # 17 letters kept from the source: no copy (and too short for a guess between
    # Latin-script languages to be trusted); 26 letters kept are a copy
    for kept, reported in (
        ("see the results here", []),
        ("see all the results listed here", [("de",)]),
    ):
        versions = {
            "en": f"# Results\n\n{kept}\n",
            "de": f"# Ergebnisse\n\n{kept}\n",
            "fr": "# Résultats\n\nvoir tous les résultats ici\n",
        }
        findings = run(write_article(tmp_path / str(len(kept)), versions))
        assert sorted(f.langs for f in findings) == reported


def test_a_text_most_versions_keep_is_kept_on_purpose(tmp_path):
    english = "The server reads its configuration from the environment when it starts up."
    versions = {
        "en": f"# Config\n\n{english}\n",
        "ja": f"# 設定\n\n{english}\n",
        "ko": f"# 설정\n\n{english}\n",
        "zh-Hant": "# 設定\n\n伺服器在啟動時從環境讀取設定。\n",
    }
    assert run(write_article(tmp_path, versions)) == []


# ---------------------------------------------------------------------------
# Many real pages


def test_fastapi_corpus_stays_under_one_untranslated_error_per_hundred_pairs(fastapi_run):
    # The session's run of every rule: rules run independently, so its untranslated findings
    # are those of a run with --select untranslated.
    sets, _, every = fastapi_run
    findings = [f for f in every if f.rule == "untranslated"]
    pairs = sum(len(s.versions) - 1 for s in sets)
    assert pairs > 1400
    errors = [f for f in findings if f.severity == "error"]
    assert len(errors) * 100 <= pairs, [f.message for f in errors]
    # the rest are short units of a non-Latin-script version left in English (terms kept in
    # English in ko and hi lists): warnings, never a paragraph
    warnings = [f for f in findings if f.severity != "error"]
    assert all(f.severity == "warning" and "list item" in f.message for f in warnings)
    assert all(f.evidence["language"] == "en" for f in warnings)


# ---------------------------------------------------------------------------
# A list left untranslated is one finding, not one per item

ERRORS_EN = """\
    # Errors

    The errors the server reports, each with what it means for the request being made:

    - **NoRouteFound**: the server found no route for the path of the request.
    - **BodyTooLarge**: the body of the request is larger than the server accepts.
    - **TimeoutReached**: the handler did not answer before the configured timeout.
    - **InvalidHeader**: a header of the request could not be read by the server.
    - **RateLimited**: the client sent more requests than the configured rate allows.
    """


def test_a_list_left_mostly_in_english_is_one_finding_with_every_item_s_line(tmp_path):
    # Astro's zh-CN error reference kept 78 of 84 items in English: 78 findings before.
    german = ERRORS_EN.replace("# Errors", "# Fehler").replace(
        "The errors the server reports, each with what it means for the request being made:",
        "Die Fehler, die der Server meldet, jeweils mit ihrer Bedeutung für die Anfrage:",
    )
    german = german.replace(
        "the client sent more requests than the configured rate allows.",
        "der Client hat mehr Anfragen gesendet, als die eingestellte Rate erlaubt.",
    )
    findings = run(write_article(tmp_path, {"en": ERRORS_EN, "de": german}))
    (finding,) = findings
    assert finding.message.startswith(
        "4 of the 5 items of a list in de, from “NoRouteFound: the server found no route"
    )
    assert finding.message.endswith("are in English (they look identical to en's)")
    assert finding.evidence["items"] == [5, 6, 7, 8]
    assert finding.severity == "error"
    assert [(loc.lang, loc.line) for loc in finding.locations] == [("en", 5), ("de", 5)]


def test_two_items_left_in_english_are_reported_each_at_its_line(tmp_path):
    german = ERRORS_EN.replace("# Errors", "# Fehler").replace(
        "The errors the server reports, each with what it means for the request being made:",
        "Die Fehler, die der Server meldet, jeweils mit ihrer Bedeutung für die Anfrage:",
    )
    for english, deutsch in [
        ("the server found no route for the path of the request.", "der Server fand keine Route."),
        ("the body of the request is larger than the server accepts.", "der Inhalt ist zu groß."),
        ("the client sent more requests than the configured rate allows.", "zu viele Anfragen."),
    ]:
        german = german.replace(english, deutsch)
    findings = run(write_article(tmp_path, {"en": ERRORS_EN, "de": german}))
    assert sorted(f.locations[-1].line for f in findings) == [7, 8]
    assert all(f.message.startswith("list item “") for f in findings)
