"""Every finding points at its element's own line in each version, not at the first line of
the block holding it: a value changed deep in a long list, a table or a multi-line paragraph
is reported at the line of that item, row or paragraph line in every version, and a version
lacking the value at the same item or row of its own block.

The article is written in six languages (en, the source, and ja, ko, zh-Hant, de, fr) by
:func:`_article`, which records the line of every element in every version; each test changes
one element in one version and compares the finding's lines with the recorded ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_article

LANGS = ("en", "ja", "ko", "zh-Hant", "de", "fr")
ITEMS = 30
ROWS = 30

STEP = {
    "en": "Step {i}",
    "ja": "手順 {i}",
    "ko": "단계 {i}",
    "zh-Hant": "步驟 {i}",
    "de": "Schritt {i}",
    "fr": "Étape {i}",
}
#: A list item's second line, which states the item's value.
ALLOWS = {
    "en": "allows up to {v} requests per minute for this account",
    "ja": "このアカウントでは毎分最大 {v} 件のリクエストを許可します",
    "ko": "이 계정에서는 분당 최대 {v}개의 요청을 허용합니다",
    "zh-Hant": "此帳戶每分鐘最多允許 {v} 個請求",
    "de": "erlaubt für dieses Konto bis zu {v} Anfragen pro Minute",
    "fr": "autorise jusqu'à {v} requêtes par minute pour ce compte",
}
HEADER = {
    "en": "| Region | Limit |",
    "ja": "| リージョン | 上限 |",
    "ko": "| 리전 | 한도 |",
    "zh-Hant": "| 區域 | 上限 |",
    "de": "| Region | Grenze |",
    "fr": "| Région | Limite |",
}
#: A paragraph of six lines: its fourth holds a link, its fifth inline code, its sixth a
#: number.
PARAGRAPH = {
    "en": [
        "The service reads its settings when it starts.",
        "Each setting has a default value.",
        "You can change them in the configuration file.",
        "See the [setup guide]({link}) for the details.",
        "Set `{code}` to limit the number of workers.",
        "The default is {n} connections.",
    ],
    "ja": [
        "サービスは起動時に設定を読み込みます。",
        "各設定には既定値があります。",
        "設定ファイルで変更できます。",
        "詳しくは[セットアップガイド]({link})を参照してください。",
        "ワーカー数を制限するには `{code}` を設定します。",
        "既定値は {n} 接続です。",
    ],
    "ko": [
        "서비스는 시작할 때 설정을 읽습니다.",
        "각 설정에는 기본값이 있습니다.",
        "설정 파일에서 바꿀 수 있습니다.",
        "자세한 내용은 [설정 가이드]({link})를 참고하세요.",
        "워커 수를 제한하려면 `{code}`를 설정하세요.",
        "기본값은 {n}개의 연결입니다.",
    ],
    "zh-Hant": [
        "服務會在啟動時讀取設定。",
        "每個設定都有預設值。",
        "您可以在設定檔中變更它們。",
        "詳情請參閱[安裝指南]({link})。",
        "設定 `{code}` 以限制工作程序的數量。",
        "預設值為 {n} 個連線。",
    ],
    "de": [
        "Der Dienst liest seine Einstellungen beim Start.",
        "Jede Einstellung hat einen Standardwert.",
        "Sie können sie in der Konfigurationsdatei ändern.",
        "Details finden Sie in der [Einrichtungsanleitung]({link}).",
        "Setzen Sie `{code}`, um die Zahl der Worker zu begrenzen.",
        "Der Standardwert ist {n} Verbindungen.",
    ],
    "fr": [
        "Le service lit ses réglages au démarrage.",
        "Chaque réglage a une valeur par défaut.",
        "Vous pouvez les modifier dans le fichier de configuration.",
        "Consultez le [guide d'installation]({link}) pour les détails.",
        "Définissez `{code}` pour limiter le nombre de workers.",
        "La valeur par défaut est de {n} connexions.",
    ],
}
TITLE = {
    "en": "# Rate limits",
    "ja": "# レート制限",
    "ko": "# 속도 제한",
    "zh-Hant": "# 速率限制",
    "de": "# Ratenbegrenzung",
    "fr": "# Limites de débit",
}
CODE = [
    "import service",
    "config = service.load()",
    "config.workers = 8",
    "config.timeout = 30",
    "config.retries = 5",
    'config.region = "eu"',
    "config.port = 8080",
    "service.start(config)",
]
LINK = "https://example.com/guide/setup"


def _value(i: int) -> int:
    return 1000 + 37 * i


def _article(lang: str, change: dict | None = None) -> tuple[str, dict[str, int]]:
    """Version ``lang``'s text and the line of each element (``item-12`` and ``value-12``:
    an item's first line and the line stating its value; ``row-25``; ``para-1`` … ``para-6``;
    ``code-1`` … ``code-8``), with ``change`` applied: ``{"value": {27: "9999"}}`` writes
    another value in item 27, ``{"row": {25: "9999"}}`` in table row 25, ``{"para": {5:
    text}}`` replaces a paragraph line, ``{"code": {7: text}}`` a code line, ``{"item": {20:
    [lines]}}`` an item's two lines, ``{"drop_row": 22}`` leaves table row 22 out."""
    change = change or {}
    lines: list[str] = [TITLE[lang], ""]
    where: dict[str, int] = {}

    def add(text: str, name: str = "") -> None:
        lines.append(text)
        if name:
            where[name] = len(lines)

    for i in range(1, ITEMS + 1):
        value = change.get("value", {}).get(i, str(_value(i)))
        first, second = f"- {STEP[lang].format(i=i)}", "  " + ALLOWS[lang].format(v=value)
        first, second = change.get("item", {}).get(i, (first, second))
        add(first, f"item-{i}")
        add(second, f"value-{i}")
        add("")
    add(HEADER[lang])
    add("|---|---|")
    for i in range(1, ROWS + 1):
        value = change.get("row", {}).get(i, str(2000 + 11 * i))
        if i != change.get("drop_row"):
            add(f"| r{i} | {value} |", f"row-{i}")
    add("")
    paragraph = [text.format(link=LINK, code="max_workers", n=4096) for text in PARAGRAPH[lang]]
    for number, text in enumerate(paragraph, start=1):
        add(change.get("para", {}).get(number, text), f"para-{number}")
    add("")
    add("```python")
    for number, text in enumerate(CODE, start=1):
        add(change.get("code", {}).get(number, text), f"code-{number}")
    add("```")
    return "\n".join(lines) + "\n", where


def _check(run_check, folder: Path, changed: str, change: dict, extra: dict | None = None):
    """Write the article with ``change`` in version ``changed`` (and ``extra`` files), check
    it, and return its findings and each version's element lines."""
    files, where = {}, {}
    for lang in LANGS:
        text, where[lang] = _article(lang, change if lang == changed else None)
        files[f"{lang}.md"] = text
    files.update(extra or {})
    write_article(folder, files)
    _, findings = run_check(folder)
    return findings, where


def _lines(finding) -> dict[str, int]:
    return {loc.lang: loc.line for loc in finding.locations}


def _only(findings, rule: str):
    found = [f for f in findings if f.rule == rule]
    assert len(found) == 1, [(f.rule, f.message, _lines(f)) for f in findings]
    return found[0]


def test_the_unchanged_article_gives_no_finding(run_check, tmp_path):
    findings, _ = _check(run_check, tmp_path, "en", {})
    assert [(f.rule, f.message) for f in findings] == []


@pytest.mark.parametrize("changed", ["ko", "de"])
def test_a_number_changed_deep_in_a_list_is_at_its_item_line(run_check, tmp_path, changed):
    findings, where = _check(run_check, tmp_path, changed, {"value": {27: "9999"}})
    finding = _only(findings, "number-mismatch")
    assert finding.langs == (changed,)
    assert _lines(finding) == {lang: where[lang]["value-27"] for lang in LANGS}
    assert where["en"]["value-27"] > where["en"]["item-1"] + 70  # deep in the list


def test_a_number_a_version_drops_points_at_its_own_item(run_check, tmp_path):
    dropped = (f"- {STEP['fr'].format(i=12)}", "  autorise des requêtes pour ce compte")
    findings, where = _check(run_check, tmp_path, "fr", {"item": {12: dropped}})
    finding = _only(findings, "number-mismatch")
    assert finding.langs == ("fr",)
    expected = {lang: where[lang]["value-12"] for lang in LANGS}
    expected["fr"] = where["fr"]["item-12"]  # where the value should be: the same item
    assert _lines(finding) == expected


def test_a_number_changed_in_a_table_row_is_at_that_row(run_check, tmp_path):
    findings, where = _check(run_check, tmp_path, "ja", {"row": {25: "7777"}})
    finding = _only(findings, "number-mismatch")
    assert finding.langs == ("ja",)
    assert _lines(finding) == {lang: where[lang]["row-25"] for lang in LANGS}


def test_a_number_changed_in_a_paragraph_is_at_its_line(run_check, tmp_path):
    text = PARAGRAPH["zh-Hant"][5].format(n=4097)
    findings, where = _check(run_check, tmp_path, "zh-Hant", {"para": {6: text}})
    finding = _only(findings, "number-mismatch")
    assert _lines(finding) == {lang: where[lang]["para-6"] for lang in LANGS}


def test_inline_code_changed_in_a_paragraph_is_at_its_line(run_check, tmp_path):
    text = PARAGRAPH["fr"][4].format(code="max_threads")
    findings, where = _check(run_check, tmp_path, "fr", {"para": {5: text}})
    finding = _only(findings, "token-mismatch")
    assert finding.langs == ("fr",)
    assert _lines(finding) == {lang: where[lang]["para-5"] for lang in LANGS}


def test_a_link_changed_in_a_paragraph_is_at_its_line(run_check, tmp_path):
    text = PARAGRAPH["ko"][3].format(link="https://example.com/guide/install")
    findings, where = _check(run_check, tmp_path, "ko", {"para": {4: text}})
    finding = _only(findings, "link-mismatch")
    assert finding.langs == ("ko",)
    assert _lines(finding) == {lang: where[lang]["para-4"] for lang in LANGS}


def test_a_changed_code_line_is_at_that_line(run_check, tmp_path):
    findings, where = _check(run_check, tmp_path, "de", {"code": {7: "config.port = 9090"}})
    finding = _only(findings, "code-mismatch")
    assert finding.langs == ("de",)
    assert _lines(finding) == {lang: where[lang]["code-7"] for lang in LANGS}


def test_an_untranslated_item_deep_in_a_list_is_at_its_line(run_check, tmp_path):
    english = (f"- {STEP['en'].format(i=20)}", "  " + ALLOWS["en"].format(v=_value(20)))
    findings, where = _check(run_check, tmp_path, "ja", {"item": {20: english}})
    finding = _only(findings, "untranslated")
    assert finding.langs == ("ja",)
    assert _lines(finding) == {"ja": where["ja"]["item-20"], "en": where["en"]["item-20"]}


def test_a_simplified_character_deep_in_a_list_is_at_its_line(run_check, tmp_path):
    simplified = "  此帐户每分钟最多允许 1851 个请求"
    first = f"- {STEP['zh-Hant'].format(i=23)}"
    config = "regional:\n  zh-Hant: {script: true, vocabulary: false}\n"
    findings, where = _check(
        run_check,
        tmp_path,
        "zh-Hant",
        {"item": {23: (first, simplified)}},
        {"parallelcheck.yaml": config},
    )
    finding = _only(findings, "regional-variant")
    assert _lines(finding) == {"zh-Hant": where["zh-Hant"]["value-23"]}


GLOSSARY = """terms:
  - id: request
    en: {term: requests}
    ja: {term: リクエスト}
    ko: {term: 요청}
    zh-Hant: {term: 請求, forbidden: [请求]}
    de: {term: Anfragen, forbidden: [Requests]}
    fr: {term: requêtes}
"""


def _glossary() -> dict[str, str]:
    return {"parallelcheck.yaml": "glossary: glossary.yaml\n", "glossary.yaml": GLOSSARY}


def test_a_term_missing_deep_in_a_list_is_at_its_item(run_check, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the configuration names the glossary from there
    other = (f"- {STEP['ko'].format(i=24)}", "  이 계정에서는 분당 최대 1888개의 호출을 허용합니다")
    findings, where = _check(run_check, tmp_path, "ko", {"item": {24: other}}, _glossary())
    finding = _only(findings, "term-missing")
    assert finding.langs == ("ko",)
    lines = _lines(finding)
    assert lines["en"] == where["en"]["value-24"]  # the occurrence
    assert lines["ko"] == where["ko"]["item-24"]  # where it should be: the same item


def test_a_forbidden_term_deep_in_a_list_is_at_its_line(run_check, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    forbidden = "  erlaubt für dieses Konto bis zu 1999 Requests pro Minute"
    first = f"- {STEP['de'].format(i=29)}"
    findings, where = _check(
        run_check, tmp_path, "de", {"item": {29: (first, forbidden)}}, _glossary()
    )
    finding = _only(findings, "term-forbidden")
    assert _lines(finding) == {"de": where["de"]["value-29"]}


def test_a_row_dropped_deep_in_a_table_is_at_that_row(run_check, tmp_path):
    findings, where = _check(run_check, tmp_path, "ko", {"drop_row": 22})
    finding = _only(findings, "table-shape")
    assert finding.langs == ("ko",)
    expected = {lang: where[lang]["row-22"] for lang in LANGS if lang != "ko"}
    expected["ko"] = where["ko"]["row-23"]  # the row the dropped one stood before
    assert _lines(finding) == expected


def test_a_dropped_row_of_a_table_without_names_is_at_the_table(run_check, tmp_path):
    words = {"en": "yes", "ja": "はい", "ko": "예", "zh-Hant": "是", "de": "ja", "fr": "oui"}
    files = {}
    for lang in LANGS:
        rows = [f"| {words[lang]} | {words[lang]} |"] * (4 if lang == "fr" else 5)
        files[f"{lang}.md"] = "\n".join([TITLE[lang], "", HEADER[lang], "|---|---|", *rows, ""])
    write_article(tmp_path, files)
    _, findings = run_check(tmp_path)
    finding = _only(findings, "table-shape")
    assert _lines(finding) == {lang: 3 for lang in LANGS}  # no row tells where the gap is


# ---------------------------------------------------------------------------------------------
# What the readers record: the file line of each line of a block's text


def _text_lines(document) -> list[tuple[str, list[tuple[str, int]]]]:
    """(kind, [(text line, file line)]) of every block, nested ones after their container."""
    found = []

    def walk(block):
        lines = zip(block.text.split("\n"), block.file_lines(), strict=True)
        found.append((block.kind.value, list(lines)))
        for child in block.children:
            walk(child)

    for block in document.iter_blocks():
        walk(block)
    return found


def _first_of_each_kind(document) -> dict[str, list[tuple[str, int]]]:
    found: dict[str, list[tuple[str, int]]] = {}
    for kind, lines in _text_lines(document):
        found.setdefault(kind, lines)
    return found


def test_markdown_records_breaks_loose_items_code_and_admonitions():
    from parallelcheck.readers.markdown import parse_markdown

    text = "\n".join(
        [
            "# T",  # 1
            "",
            "one",  # 3
            "two<br>three  ",  # 4: a <br>, then a hard break
            "four",  # 5
            "",
            "- a",  # 7
            "",
            "  more of a",  # 9: the item's second paragraph
            "",
            "  ```",
            "  code 1",  # 12
            "  ```",
            "",
            "/// tip | Tip",  # 15
            "",
            "inside",  # 17
            "",
            "///",
            "",
            "<div>",  # 21
            "<p>html text</p>",  # 22
            "</div>",
            "",
        ]
    )
    blocks = _first_of_each_kind(parse_markdown(text, "x.md", "en"))
    assert blocks["paragraph"] == [("one", 3), ("two", 4), ("three", 4), ("four", 5)]
    assert blocks["item"] == [("a", 7), ("more of a", 9), ("code 1", 12)]
    assert blocks["admonition"] == [("Tip", 15), ("inside", 17)]
    assert blocks["html"] == [("html text", 22)]


def test_mdx_html_and_plain_text_record_their_lines():
    from parallelcheck.readers.html_pages import parse_html
    from parallelcheck.readers.mdx import parse_mdx
    from parallelcheck.readers.plaintext import parse_plaintext

    mdx = "# T\n\n<Steps>\n\n1. first\n\n2. second\n   continued\n\n</Steps>\n"
    items = [b for kind, b in _text_lines(parse_mdx(mdx, "x.mdx", "en")) if kind == "item"]
    assert items == [[("first", 5)], [("second", 7), ("continued", 8)]]
    html = "<p>one<br>\ntwo</p>\n<table>\n<tr><th>h</th></tr>\n\n<tr><td>1</td></tr>\n</table>\n"
    blocks = _first_of_each_kind(parse_html(html, "x.html", "en"))
    assert blocks["paragraph"] == [("one", 1), ("two", 2)]
    assert blocks["table"] == [("h", 4), ("1", 6)]
    plain = "Title\n\n| h |\n|---|\n| 1 |\n| 2 |\n"
    blocks = _first_of_each_kind(parse_plaintext(plain, "x.txt", "en"))
    assert blocks["table"] == [("h", 3), ("1", 5), ("2", 6)]
