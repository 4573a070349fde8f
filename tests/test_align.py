"""The N-way aligner on small article sets given as Markdown strings."""

from __future__ import annotations

import random

from conftest import parse_versions

from parallelcheck.align.progressive import align_article, version_order


def _row_langs(article):
    """For every aligned section, the langs present; for every block row, the langs present."""
    return [(tuple(s.present()), [tuple(r.present()) for r in s.rows]) for s in article.sections]


EN = """# Serving guide

DeepInfer 2.0 serves DeepSeek V4 on 64 GPUs.

## Hardware

Use NVIDIA SM100 or Huawei Ascend 950.

| GPU | Memory |
|---|---|
| H200 | 141 GB |

## Limits

DeepInfer omits the KV cache system.
"""

JA = """# サービングガイド

DeepInfer 2.0 は DeepSeek V4 を 64 基の GPU で提供する。

## ハードウェア

NVIDIA SM100 または Huawei Ascend 950 を使う。

| GPU | メモリ |
|---|---|
| H200 | 141 GB |

## 制限

DeepInfer には KV cache システムがない。
"""


def test_translations_align_row_for_row():
    article = align_article("a", parse_versions(en=EN, ja=JA), "en")
    rows = _row_langs(article)
    assert len(article.sections) == 4  # preamble + 3 sections
    assert all(present == ("en", "ja") for present, _ in rows[1:])
    assert all(block == ("en", "ja") for _, blocks in rows for block in blocks)


def test_a_table_only_two_of_four_versions_have_is_one_row_naming_both_sides():
    ko = JA.replace("ハードウェア", "하드웨어")
    no_table_ja = JA.replace("| GPU | メモリ |\n|---|---|\n| H200 | 141 GB |\n", "")
    no_table_en = EN.replace("| GPU | Memory |\n|---|---|\n| H200 | 141 GB |\n", "")
    article = align_article(
        "a", parse_versions(en=no_table_en, ja=no_table_ja, ko=ko, zh_Hant=JA), "en"
    )
    hardware = article.sections[2]
    tables = [r for r in hardware.rows if r.present() != r.absent() and r.absent()]
    assert len(tables) == 1
    assert tables[0].present() == ["ko", "zh-Hant"]
    assert tables[0].absent() == ["en", "ja"]


def test_a_table_never_aligns_with_a_paragraph():
    ja = JA.replace("| GPU | メモリ |\n|---|---|\n| H200 | 141 GB |\n", "H200 は 141 GB。\n")
    article = align_article("a", parse_versions(en=EN, ja=ja), "en")
    for row in article.sections[2].rows:
        kinds = {b.kind for b in row.cells.values() if b is not None}
        assert len(kinds) == 1


def test_empty_sections_with_translated_headings_align_by_place_and_level():
    en = (
        "# T\n\nDeepInfer 2.0 text.\n\n## Decision guide\n\n## FAQ\n\n"
        "## Sources\n\n- DeepInfer README\n"
    )
    zh = (
        "# T\n\nDeepInfer 2.0 文字。\n\n## 選擇指引\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "## 常見問題\n\n## 來源\n\n- DeepInfer README\n"
    )
    article = align_article("a", parse_versions(en=en, zh_Hant=zh), "en")
    assert [tuple(s.present()) for s in article.sections[1:]] == [("en", "zh-Hant")] * 4


def test_different_explicit_ids_align_only_when_all_else_says_one_section():
    en = "# A { #a }\n\nText 1.\n\n## B { #b }\n\nSet `alpha` to 2 in `config.toml`.\n"
    other = "# A { #a }\n\nテキスト 1。\n\n## C { #c }\n\n`gamma` を 9 にします。\n"
    article = align_article("a", parse_versions(en=en, ja=other), "en")
    presents = [tuple(s.present()) for s in article.sections[1:]]
    assert ("en",) in presents and ("ja",) in presents  # another section: two missing ones
    renamed = (
        "# A { #a }\n\nテキスト 1。\n\n## B { #b-ja }\n\n`config.toml` の `alpha` を 2 にします。\n"
    )
    article = align_article("a", parse_versions(en=en, ja=renamed), "en")
    assert [tuple(s.present()) for s in article.sections[1:]] == [("en", "ja")] * 2


def test_a_paragraph_split_in_two_is_not_reported_missing():
    en = (
        "# T\n\nDocker builds images incrementally, one layer on top of the other. Just "
        "avoiding the copy of files does not improve things much, but because it used the cache "
        "for that step, it can use the cache for the next step, for example for the "
        "instruction that installs dependencies.\n\nDone.\n"
    )
    ja = (
        "# T\n\nDockerは、イメージを段階的に、レイヤーを重ねてビルドします。"
        "ファイルのコピーを避けるだけではあまり改善されませんが、"
        "そのステップでキャッシュを利用したため、次のステップでもキャッシュを使えます。\n\n"
        "例えば、依存関係をインストールする命令のためにキャッシュを使えます：\n\n終わり。\n"
    )
    article = align_article("a", parse_versions(en=en, ja=ja), "en")
    rows = article.sections[1].rows
    assert all(not row.absent() for row in rows)
    assert any(row.extra.get("ja") for row in rows)


def test_an_added_paragraph_with_its_own_names_is_not_taken_for_a_split():
    en = "# T\n\nLMDeploy 0.9 serves DeepSeek V3 with TurboMind and PyTorch engines.\n"
    zh = (
        "# T\n\nLMDeploy 是最接近的比較對象，具備 PD 分離與 Ascend 路徑。\n\n"
        "LMDeploy 0.9 以 TurboMind 與 PyTorch 引擎服務 DeepSeek V3。\n"
    )
    article = align_article("a", parse_versions(en=en, zh_Hant=zh), "en")
    rows = article.sections[1].rows
    assert [r.present() for r in rows] == [["zh-Hant"], ["en", "zh-Hant"]]


def test_result_does_not_depend_on_the_order_versions_are_given():
    docs = parse_versions(
        en=EN, ja=JA, ko=JA.replace("制限", "제한"), de=EN.replace("Limits", "Grenzen")
    )
    langs = list(docs)
    expected = _row_langs(align_article("a", docs, "en"))
    for seed in range(5):
        random.Random(seed).shuffle(langs)
        shuffled = {lang: docs[lang] for lang in langs}
        assert _row_langs(align_article("a", shuffled, "en")) == expected


def test_version_order_puts_the_source_first_then_tags_alphabetically():
    assert version_order(["zh-Hant", "ko", "en", "ja"], "en") == ("en", "ja", "ko", "zh-Hant")
    assert version_order(["ko", "ja"], "en") == ("ja", "ko")
