"""Alignment inside containers (parallelcheck.align.containers) on small article sets, and
what the rules and the HTML report make of the nested rows."""

from __future__ import annotations

import pytest
from conftest import parse_versions, rule_findings

import parallelcheck.align.containers as containers
from parallelcheck.align.progressive import align_article
from parallelcheck.model.document import BlockKind
from parallelcheck.report.html_site.place import Element, lines_of, place_finding


def _shape(rows):
    """Each row as (kind@line or '-' per version, nested rows), recursively."""
    return [
        (
            {lang: f"{b.kind.value}@{b.line}" if b else "-" for lang, b in row.cells.items()},
            _shape(row.rows),
        )
        for row in rows
    ]


TIP_EN = """# Run

Start the app.

/// tip

Reload on every change:

```console
$ uvicorn main:app --reload
```

///

Open the docs.
"""

TIP_JA = """# 実行

アプリを起動します。

/// tip

変更のたびに再読み込みします:

```console
$ uvicorn main:app --reload
```

///

ドキュメントを開きます。
"""

TIP_KO_UNWRAPPED = """# 실행

앱을 시작합니다.

변경할 때마다 다시 불러옵니다:

```console
$ uvicorn main:app --reload
```

문서를 엽니다.
"""


def test_children_of_containers_in_sync_are_paired_without_scoring(monkeypatch):
    def no_features(*args, **kwargs):
        raise AssertionError("features computed for children that line up")

    monkeypatch.setattr(containers, "child_block_features", no_features)
    article = align_article("a", parse_versions(en=TIP_EN, ja=TIP_JA), "en")
    tip = article.sections[1].rows[1]
    assert _shape(tip.rows) == [
        ({"en": "paragraph@7", "ja": "paragraph@7"}, []),
        ({"en": "code@9", "ja": "code@9"}, []),
    ]


def test_a_block_dropped_inside_a_container_is_an_empty_nested_cell_at_its_own_line():
    ko = TIP_KO_UNWRAPPED.replace("변경할 때마다", "/// tip\n\n변경할 때마다").replace(
        "```console\n$ uvicorn main:app --reload\n```\n", "///\n"
    )
    article = align_article("a", parse_versions(en=TIP_EN, ja=TIP_JA, ko=ko), "en")
    (finding,) = rule_findings(article, "code-mismatch")
    assert finding.langs == ("ko",)
    assert {loc.lang: loc.line for loc in finding.locations} == {"en": 9, "ja": 9, "ko": 7}
    # the HTML report places it at the tip's row, where its lines are
    assert finding.block_row == 1
    assert place_finding(article, finding) == Element(1, 1)


def test_content_without_the_wrapper_is_aligned_as_if_wrapped():
    extra = TIP_KO_UNWRAPPED.replace("변경할 때마다", "이 단계는 선택 사항입니다.\n\n변경할 때마다")
    article = align_article("a", parse_versions(en=TIP_EN, ja=TIP_JA, ko=extra), "en")
    rows = article.sections[1].rows
    (wrapper,) = [row for row in rows if row.unwrapped]
    assert wrapper.cells["ko"] is None and wrapper.absent() == []
    assert [b.line for b in wrapper.unwrapped["ko"]] == [7, 9]
    assert _shape(wrapper.rows) == [
        ({"en": "paragraph@7", "ja": "paragraph@7", "ko": "paragraph@7"}, []),
        ({"en": "code@9", "ja": "code@9", "ko": "code@9"}, []),
    ]
    # the ko paragraph before the content is no part of it: a row of its own, before the tip
    before = rows[rows.index(wrapper) - 1]
    assert _shape([before]) == [({"en": "-", "ja": "-", "ko": "paragraph@5"}, [])]
    (warning,) = rule_findings(article, "wrapper-mismatch")
    assert warning.langs == ("ko",) and warning.reference_langs == ("en", "ja")
    assert {loc.lang: loc.line for loc in warning.locations} == {"en": 5, "ja": 5, "ko": 7}
    assert not [f for f in rule_findings(article, "code-mismatch")]
    missing = rule_findings(article, "missing-paragraph")  # ko's, which the source lacks
    assert [(f.langs, f.reference_langs) for f in missing] == [(("ko",), ("en", "ja"))]
    assert {loc.lang: loc.line for loc in missing[0].locations}["ko"] == 5
    # the HTML report shows ko's unwrapped blocks in the tip's row
    index = rows.index(wrapper)
    assert lines_of(article, Element(1, index), "ko") == [(7, 7), (9, 11)]


def test_an_unrelated_paragraph_is_no_unwrapped_content():
    ko = "# 실행\n\n앱을 시작합니다.\n\n포트는 8000 입니다.\n\n문서를 엽니다.\n"
    article = align_article("a", parse_versions(en=TIP_EN, ko=ko), "en")
    assert not any(row.unwrapped for row in article.sections[1].rows)
    assert not rule_findings(article, "wrapper-mismatch")


def test_list_items_and_the_blocks_inside_them_are_aligned():
    en = "# A\n\n- one\n- two:\n\n    ```\n    run 2\n    ```\n\n- three\n"
    de = "# A\n\n- eins\n- drei\n"
    article = align_article("a", parse_versions(en=en, de=de), "en")
    (lst,) = article.sections[1].rows
    assert _shape(lst.rows) == [
        ({"en": "item@3", "de": "item@3"}, []),
        ({"en": "item@4", "de": "-"}, []),
        ({"en": "item@10", "de": "item@4"}, []),
    ]
    # a missing item is list-shape's (its count), not a missing paragraph
    assert not rule_findings(article, "missing-paragraph")
    assert [f.rule for f in rule_findings(article, "list-shape")] == ["list-shape"]


def test_a_versions_other_block_takes_no_part_in_nested_rows():
    en = "# A\n\n- one\n- two\n"
    ja = "# A\n\n一つ目と二つ目。\n"
    article = align_article("a", parse_versions(en=en, ja=ja), "en")
    for row in article.sections[1].rows:
        for nested in row.rows:
            assert "ja" not in nested.cells


def test_an_items_second_paragraph_written_into_its_text_is_no_missing_paragraph():
    en = (
        "# A\n\n- Stop the container when you are done.\n\n    Otherwise it keeps running.\n"
        "- Next\n"
    )
    ja = "# A\n\n- 終わったらコンテナを停止してください。停止しないと動き続けます。\n- 次へ\n"
    article = align_article("a", parse_versions(en=en, ja=ja), "en")
    first = article.sections[1].rows[0].rows[0]
    assert first.cells["en"].kind is BlockKind.ITEM and first.rows == []
    assert not rule_findings(article, "missing-paragraph")


def test_an_empty_item_takes_in_no_paragraph_another_version_lacks():
    # "2. 42." is an item holding an empty list of its own: no text to have merged a
    # missing paragraph into (its length once went into a logarithm)
    top = "# T\n\nAlpha.\n\nAlpha.\n\nAlpha Alpha Alpha Alpha Alpha.\n\n"
    en, ja = top + "1. Alpha.\n2. Alpha.\n\n1. Alpha.\n2. 42.\n", top + "1. Alpha.\n2. 42.\n"
    article = align_article("a", parse_versions(en=en, de=en, ja=ja), "en")
    # en's two lists are one of four items (a list goes on across a blank line)
    (shape,) = rule_findings(article, "list-shape")
    assert (shape.langs, shape.reference_langs) == (("ja",), ("en", "de"))


def test_a_version_whose_prose_is_all_in_one_container_is_no_ratio_of_zero():
    # de has no prose outside its lists: how long it is against another version cannot be
    # told (it once divided by zero)
    code = "```python\nx = 1\n```\n\n"
    en = code + "1. Alpha.\n\n- 3.\n\n1. Alpha.\n"
    de = "1. Alpha.\n\n- 3.\n\n1. Alpha.\n"
    ja = code + "- 3.\n\n- 3.\n"
    article = align_article("a", parse_versions(en=en, de=de, ja=ja), "en")
    (dropped,) = rule_findings(article, "code-mismatch")
    assert (dropped.langs, dropped.reference_langs) == (("de",), ("en", "ja"))


def test_a_number_changed_inside_a_container_points_at_its_paragraph():
    en = "# A\n\n!!! note\n    First part.\n\n    Wait 5 seconds.\n"
    fr = "# A\n\n!!! note\n    Première partie.\n\n    Attendez 9 secondes.\n"
    article = align_article("a", parse_versions(en=en, fr=fr), "en")
    (finding,) = rule_findings(article, "number-mismatch")
    assert {loc.lang: loc.line for loc in finding.locations} == {"en": 6, "fr": 6}
    assert finding.block_row == 0


@pytest.mark.parametrize("seed", range(3))
def test_nested_alignment_is_deterministic(seed):
    texts = {"en": TIP_EN, "ja": TIP_JA, "ko": TIP_KO_UNWRAPPED}
    order = list(texts)
    shapes = set()
    for turn in range(2):
        (order.reverse() if (seed + turn) % 2 else None)
        article = align_article("a", parse_versions(**{lang: texts[lang] for lang in order}), "en")
        shapes.add(repr([_shape(s.rows) for s in article.sections]))
    assert len(shapes) == 1


MERGE_EN = """# A

The client library talks to the server over a single connection that it opens for you.

Every call goes through that connection, so opening one per request is slow.

/// tip

Call `connect()` first and keep the returned handle for the whole session of the app.

Call `close()` when the app stops.

///
"""


def _zh(tip: str) -> str:
    return (
        "# A\n\n用戶端程式庫透過它替你開啟的單一連線與伺服器溝通。\n\n"
        "每次呼叫都經過這條連線，所以每個請求各開一條會很慢。\n\n"
        f"/// tip\n\n{tip}\n\n///\n"
    )


def test_two_paragraphs_merged_in_a_box_are_no_missing_paragraph():
    zh = _zh(
        "先呼叫 `connect()`，並在整個應用程式工作階段中保留傳回的控制代碼。"
        "應用程式停止時呼叫 `close()`。"
    )
    article = align_article("a", parse_versions(en=MERGE_EN, zh_Hant=zh), "en")
    (row,) = article.sections[1].rows[2].rows
    assert [b.line for b in row.blocks("en")] == [9, 11]
    assert not rule_findings(article, "missing-paragraph")


def test_a_paragraph_dropped_from_a_box_is_still_missing_when_its_code_is_nowhere():
    zh = _zh("先呼叫 `connect()`，並在整個應用程式工作階段中保留傳回的控制代碼。")
    article = align_article("a", parse_versions(en=MERGE_EN, zh_Hant=zh), "en")
    (finding,) = rule_findings(article, "missing-paragraph")
    assert {loc.lang: loc.line for loc in finding.locations} == {"en": 11, "zh-Hant": 9}


def test_a_value_difference_repeated_in_list_items_is_one_finding_at_the_first():
    en = "# Codes\n\nIn short:\n\n* `100 - 199` are informational.\n* `200 - 299` are successes.\n"
    ko = (
        "# 코드\n\n요약하자면:\n\n* `1xx` 상태 코드는 정보용입니다.\n"
        "* `2xx` 상태 코드는 성공입니다.\n"
    )
    article = align_article("a", parse_versions(en=en, ko=ko), "en")
    (finding,) = rule_findings(article, "token-mismatch")
    assert {loc.lang: loc.line for loc in finding.locations} == {"en": 5, "ko": 5}


def test_the_values_of_a_paragraph_dropped_from_a_box_are_not_reported_again():
    en = (
        "# A\n\nIntro.\n\n!!! note\n    Use port 8000.\n\n"
        "    Or set `PORT=9000` in the `.env` file.\n"
    )
    de = "# A\n\nEinleitung.\n\n!!! note\n    Verwenden Sie Port 8000.\n"
    article = align_article("a", parse_versions(en=en, de=de), "en")
    assert [f.rule for f in rule_findings(article, "missing-paragraph")] == ["missing-paragraph"]
    assert not rule_findings(article, "token-mismatch")
    assert not rule_findings(article, "number-mismatch")
