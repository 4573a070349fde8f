"""Split and merged paragraphs, continuation fragments (align/splits.py) and moved blocks
(align/moves.py): what is folded or paired, and what must stay a missing block."""

from __future__ import annotations

import pytest
from conftest import parse_versions, rule_findings, write_article

from parallelcheck.align.moves import find_moves
from parallelcheck.align.progressive import align_article
from parallelcheck.align.splits import continues
from parallelcheck.model.aligned import AlignedBlock, AlignedSection


def _rules(findings) -> list[tuple[str, tuple[str, ...]]]:
    return sorted((f.rule, tuple(f.langs)) for f in findings if f.rule != "length-ratio")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("를 실행합니다.", True),
        ("을 입력하면 서버가 시작됩니다.", True),
        ("으로 설치합니다.", True),
        ("이 실행됩니다.", True),  # a subject particle in a short rest
        ("이 예제에서는 서버를 두 번 시작하고, 그 결과를 비교해 봅니다.", False),  # "this"
        ("서버가 시작됩니다.", False),
        ("を実行します。", True),
        ("で起動します。", True),
        ("では、次に進みましょう。", False),
        ("もし失敗したら", False),
        ("will run.", True),
        ("не будет выполнена.", True),
        ("Then open the browser.", False),
        ("", False),
    ],
)
def test_what_continues_a_sentence(text, expected):
    assert continues(text) is expected


SUMMARY_EN = """# Engines

DeepInfer is the Apache-2.0 engine for DeepSeek-V4.1-Flash on NVIDIA SM100 and Ascend 950. \
LMDeploy is the InternLM toolkit with TurboMind and PyTorch engines.

Both are open source.
"""

SUMMARY_KO = """# 엔진

LMDeploy는 가장 가까운 비교 대상이며 DeepInfer는 V4.1-Flash에 특화되어 있습니다.

DeepInfer는 NVIDIA SM100과 Ascend 950에서 DeepSeek-V4.1-Flash를 위한 Apache-2.0 엔진입니다. \
LMDeploy는 TurboMind와 PyTorch 엔진을 갖춘 InternLM의 툴킷입니다.

둘 다 오픈 소스입니다.
"""


def test_an_added_summary_before_a_paragraph_is_no_split(tmp_path, run_check):
    # The added paragraph repeats the names of the next one, which alone carries them all.
    write_article(tmp_path / "a", {"en.md": SUMMARY_EN, "ko.md": SUMMARY_KO})
    _, findings = run_check(tmp_path)
    # the added paragraph is ko's: the version that differs from the source
    assert _rules(findings) == [("missing-paragraph", ("ko",))]


OWN_NUMBERS_EN = """# Limits

Requests time out after 30 seconds and the body may hold up to 16 MB.

Larger uploads go through `/upload`.
"""

OWN_NUMBERS_JA = """# 制限

リクエストは 30 秒でタイムアウトし、本文は最大 16 MB までです。

なお、バージョン 0.95 以降では 8 個の同時接続が上限で、`--limit-concurrency` で変えられます。

大きなアップロードは `/upload` を使います。
"""


def test_a_paragraph_with_numbers_of_its_own_is_no_split(tmp_path, run_check):
    write_article(tmp_path / "a", {"en.md": OWN_NUMBERS_EN, "ja.md": OWN_NUMBERS_JA})
    _, findings = run_check(tmp_path)
    assert _rules(findings) == [("missing-paragraph", ("ja",))]


FRAGMENT = """# Debugging

Run your file with:

```console
$ python myapp.py
```

{rest}

Open http://127.0.0.1:8000 in the browser.
"""


def test_a_fragment_after_code_in_the_source_is_not_missing_where_the_verb_comes_first(
    tmp_path, run_check
):
    # en and de finish the sentence after the code; zh says it all before the code.
    zh = (
        "# 调试\n\n用以下命令运行你的文件，它将会运行：\n\n```console\n$ python myapp.py\n```\n\n"
        "在浏览器中打开 http://127.0.0.1:8000 。\n"
    )
    de = FRAGMENT.replace("Run your file with:", "Führen Sie Ihre Datei so aus:")
    write_article(
        tmp_path / "a",
        {
            "en.md": FRAGMENT.format(rest="will run."),
            "de.md": de.format(rest="wird ausgeführt.").replace("Open", "Öffnen Sie"),
            "zh.md": zh,
        },
    )
    _, findings = run_check(tmp_path)
    assert [f for f in findings if f.rule == "missing-paragraph"] == []


def test_a_fragment_row_is_left_whole_when_one_version_writes_a_sentence(tmp_path, run_check):
    # ko writes a sentence of its own after the code: that row is not folded, so zh's lack of
    # it is still reported once, as it was.
    zh = (
        "# 调试\n\n用以下命令运行你的文件：\n\n```console\n$ python myapp.py\n```\n\n"
        "在浏览器中打开 http://127.0.0.1:8000 。\n"
    )
    ko = (
        "# 디버깅\n\n다음 명령으로 파일을\n\n```console\n$ python myapp.py\n```\n\n"
        "그 후에 다른 디렉터리를 탐색합니다.\n\n브라우저에서 http://127.0.0.1:8000 을 엽니다.\n"
    )
    write_article(
        tmp_path / "a",
        {"en.md": FRAGMENT.format(rest="will run."), "ko.md": ko, "zh.md": zh},
    )
    _, findings = run_check(tmp_path)
    assert _rules(findings) == [("missing-paragraph", ("zh",))]


# ---------------------------------------------------------------------------
# Moves, on hand-made rows


EN = """# A

The port is 8000 on `127.0.0.1`, set by `PORT` and `HOST`.

Other text here.

Last words.
"""

JA = """# A

ポートは `127.0.0.1` の 8000 で、`PORT` と `HOST` で設定します。

ほかの文章。

最後の言葉。
"""


def _article(rows):
    article = align_article("a", parse_versions(en=EN, ja=JA), "en")
    section = article.sections[1]
    en, ja = (article.documents[lang].sections[1].blocks for lang in ("en", "ja"))
    section.rows = [
        AlignedBlock(
            {"en": en[e] if e is not None else None, "ja": ja[j] if j is not None else None}
        )
        for e, j in rows
    ]
    return article, section


def test_a_block_two_rows_away_past_a_shared_row_is_a_move():
    article, section = _article([(0, None), (1, 1), (None, 0), (2, 2)])
    moves = find_moves(article)
    assert [(m.langs, m.reference) for m in moves] == [(("ja",), ("en",))]
    assert moves[0].at is section.rows[0] and moves[0].to is section.rows[2]


def test_complementary_rows_side_by_side_are_not_a_move():
    # Nothing aligned stands between them: the same place, a pair alignment left apart.
    article, _ = _article([(0, None), (None, 0), (1, 1), (2, 2)])
    assert find_moves(article) == []


def test_rows_unlike_each_other_are_not_a_move():
    article, _ = _article([(0, None), (1, 1), (None, 2), (2, None)])
    assert find_moves(article) == []


def test_a_move_is_told_against_the_source():
    # The source holds neither block: no move is claimed between two translations.
    article, section = _article([(0, None), (1, 1), (None, 0), (2, 2)])
    article.sections[1] = AlignedSection(
        cells=section.cells,
        rows=[AlignedBlock({"en": r.cells["ja"], "ja": r.cells["en"]}) for r in section.rows],
    )
    article.source = "xx"
    assert find_moves(article) == []


def test_the_in_sync_corpus_has_few_splits_and_moves(fastapi_run):
    sets, _, findings = fastapi_run
    pairs = sum(len(s.versions) - 1 for s in sets)
    ours = [f for f in findings if f.rule in {"split-paragraph", "moved-block"}]
    assert len(ours) * 100 <= pairs  # at most 1 per 100 translation pairs


# ---------------------------------------------------------------------------
# Moves between levels (a block inside a container in some versions only)

RUN_EN = """# Run

Start the server:

```console
$ uvicorn main:app --port 80
INFO: Uvicorn running on http://0.0.0.0:80
```

/// note

The command names the module `main` and the object `app`.

///
"""

RUN_ES = """# Ejecutar

Inicia el servidor:

```console
$ uvicorn main:app --port 80
INFO: Uvicorn corriendo en http://0.0.0.0:80
```

/// note

El comando nombra el módulo `main` y el objeto `app`.

///
"""

RUN_DE = """# Ausführen

Starten Sie den Server:

/// note

Der Befehl nennt das Modul `main` und das Objekt `app`.

```console
$ uvicorn main:app --port 80
INFO: Uvicorn running on http://0.0.0.0:80
```

///
"""


def test_code_written_inside_a_box_in_one_version_is_a_move_not_two_missing_blocks():
    # es translated the console output: the move is told against the source's code alone.
    article = align_article("a", parse_versions(en=RUN_EN, es=RUN_ES, de=RUN_DE), "en")
    article.moves = find_moves(article)
    assert [(m.langs, m.reference) for m in article.moves] == [(("de",), ("en", "es"))]
    move = article.moves[0]
    assert move.at_parent is None and move.to_parent is not None
    assert move.to.cells["de"].line == 9
    codes = [f for f in rule_findings(article, "code-mismatch") if "counterpart" in f.message]
    assert codes == []
    (found,) = rule_findings(article, "moved-block")
    assert "inside the admonition (note)" in found.message
    assert "at the top level of the section (en line 5, es line 5)" in found.message


YIELD_EN = """# Dependencies

## Raising

If you catch an exception in a dependency with `yield`, re-raise it unless you raise \
another `HTTPException`.

## Order

/// tip

The code before `yield` runs before the response is sent, with FastAPI 0.106.0 and later.

///

The code runs from top to bottom.
"""

YIELD_JA = """# 依存関係

## 順序

/// tip

`HTTPException` を含む例外は `yield` の前なら発生させられますが、後ではできません。

`yield` の前のコードは、FastAPI 0.106.0 以降ではレスポンスを送る前に実行されます。

///

コードは上から下へ実行されます。
"""


def test_prose_is_no_move_on_one_name_written_twice():
    # `HTTPException` as inline code and as a name is one value: two values in all, too few.
    article = align_article("a", parse_versions(en=YIELD_EN, ja=YIELD_JA), "en")
    assert find_moves(article) == []
