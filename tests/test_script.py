"""Script profiles and language decisions (parallelcheck.text.script)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO

from parallelcheck.text.script import (
    CYRILLIC,
    HAN,
    HANGUL,
    KANA,
    LATIN,
    block_language,
    count_letters,
    script_profile,
    strip_untranslatable,
)

ARTICLE = REPO / "articles" / "deepinfer-vs-lmdeploy"
ALL = ("en", "de", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-Hant", "hi")

SENTENCES = {
    # (text, dominant script, expected version, the language it is)
    "ja": (
        "DeepInfer と LMDeploy はどちらも DeepSeek モデル向けに最適化されているが、"
        "同じ製品ではない。",
        KANA,
        "ja",
        "ja",
    ),
    "zh-Hant": (
        "DeepInfer 與 LMDeploy 都針對 DeepSeek 模型優化，但不是同一種產品。",
        HAN,
        "zh-Hant",
        "zh",
    ),
    "zh": ("测试时，我们需要一个单独的数据库会话，并在测试结束后清理它。", HAN, "zh", "zh"),
    "ko": (
        "DeepInfer와 LMDeploy는 모두 DeepSeek 모델에 최적화되어 있지만 같은 제품이 아닙니다.",
        HANGUL,
        "ko",
        "ko",
    ),
    "ru": (
        "Этот документ проверяет, понимает ли модель, переводящая документацию, общий промпт.",
        CYRILLIC,
        "ru",
        "ru",
    ),
    "uk": ("Цей документ перевіряє, чи розуміє модель загальний промпт.", CYRILLIC, "uk", "uk"),
    "el": ("Αυτό το έγγραφο ελέγχει αν το μοντέλο κατανοεί τις οδηγίες.", "Greek", "el", "el"),
    "ar": ("هذه الوثيقة تختبر ما إذا كان النموذج يفهم التعليمات.", "Arabic", "ar", "ar"),
    "he": ("מסמך זה בודק אם המודל מבין את ההוראות.", "Hebrew", "he", "he"),
    "hi": ("यह दस्तावेज़ जाँचता है कि मॉडल निर्देशों को समझता है या नहीं।", "Devanagari", "hi", "hi"),
    "th": ("เอกสารนี้ตรวจสอบว่าแบบจำลองเข้าใจคำสั่งหรือไม่", "Thai", "th", "th"),
    "en": (
        "DeepInfer and LMDeploy are both optimized for DeepSeek models, but they are not the "
        "same product.",
        LATIN,
        "ja",
        "en",
    ),
    "de": (
        "DeepInfer und LMDeploy sind beide für DeepSeek-Modelle optimiert, aber nicht dasselbe "
        "Produkt.",
        LATIN,
        "de",
        "de",
    ),
    "tr": (
        "Bu belge, belgeleri çeviren modelin genel talimatları anlayıp anlamadığını test eder.",
        LATIN,
        "tr",
        "tr",
    ),
}


@pytest.mark.parametrize("name", sorted(SENTENCES))
def test_real_sentences_have_their_script_and_language(name):
    text, script, version, language = SENTENCES[name]
    profile = script_profile(text)
    assert profile.dominant == script, profile
    guess, confidence = block_language(text, version, languages=ALL)
    assert guess == language
    assert confidence > 0.5


def test_untranslatable_parts_are_set_aside():
    text = (
        "The engine uses `nextn=3` with V4.1-Flash on SM100, see https://example.org/a/b, "
        "main.py and /v1/models: 131,072 tokens, DeepSeek's LMDeploy."
    )
    running, removed = strip_untranslatable(text, ["nextn=3"])
    for gone in ("nextn", "V4.1", "SM100", "https", "main.py", "/v1/models", "131", "DeepSeek"):
        assert gone not in running
    for kept in ("engine", "uses", "Flash", "with", "tokens"):
        assert kept in running
    assert removed > 50


def test_capitalised_words_are_names_only_where_asked_and_not_at_a_sentence_start():
    text = "Sources say Huawei Ascend works. Next, the plan."
    plain, _ = strip_untranslatable(text)
    assert "Huawei" in plain and "Ascend" in plain
    names, _ = strip_untranslatable(text, capitalised_are_names=True)
    assert "Huawei" not in names and "Ascend" not in names
    assert "Sources" in names and "Next" in names  # sentence starts are words


def test_non_ascii_latin_words_are_running_text():
    running, removed = strip_untranslatable("Dolayısıyla tarayıcıda çalışan Größe Łódź")
    assert running.split() == ["Dolayısıyla", "tarayıcıda", "çalışan", "Größe", "Łódź"]
    assert removed == 0


def test_letters_are_counted_per_script():
    letters = count_letters("Aé 漢字 かな カナ 한국 Жж Ωω ا א क ก ・×")
    assert letters == {
        LATIN: 2,
        HAN: 2,
        KANA: 4,
        HANGUL: 2,
        CYRILLIC: 2,
        "Greek": 2,
        "Arabic": 1,
        "Hebrew": 1,
        "Devanagari": 1,
        "Thai": 1,
    }


def test_han_only_text_in_a_japanese_version():
    assert block_language("概要", "ja")[0] == "ja"  # a heading-like label
    chinese = "這個版本沒有快取系統與資料平行負載平衡，而且只支援一個模型。"
    assert block_language(chinese, "ja")[0] == "zh"  # a Chinese sentence has no kana
    assert block_language(chinese, "zh-Hant")[0] == "zh"


def test_latin_text_is_told_apart_among_the_article_languages():
    english = "You can declare a parameter of type Response in your path operation function."
    assert block_language(english, "de", languages=ALL)[0] == "en"
    assert block_language(english, "fr", languages=ALL)[0] == "en"
    spanish = "Puedes declarar un parámetro de tipo Response en tu función de operación de path."
    assert block_language(spanish, "es", languages=ALL)[0] == "es"


def test_other_scripts_in_a_version():
    assert block_language("Это фрагмент кода и ещё один фрагмент", "ja", languages=ALL)[0] in (
        "ru",
        "uk",
    )
    assert block_language("LMDeploy는 중국 생태계에서 가장 가까운 비교 대상입니다", "ja")[0] == "ko"
    assert block_language("foo 42 https://example.org", "ja", code_spans=["foo"]) == ("und", 0.0)


def test_siblings_sharing_a_non_latin_script_are_not_guessed_apart():
    russian = SENTENCES["ru"][0]
    assert block_language(russian, "uk", languages=ALL)[0] == "uk"


def test_the_identifier_is_not_loaded_for_script_decisions():
    code = (
        "from parallelcheck.text import langid as identifier, script\n"
        "for text, lang in [('テストです', 'ja'), ('測試', 'zh-Hant'), ('테스트', 'ko'),"
        " ('English words here', 'ja'), ('Тест', 'ru')]:\n"
        "    script.block_language(text, lang, languages=['en', 'ja', 'ko', 'zh-Hant', 'ru'])\n"
        "assert not identifier.is_loaded()\n"
        "script.block_language('English words here', 'de', languages=['en', 'de'])\n"
        "assert identifier.is_loaded()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_script_pass_over_the_fastapi_corpus(fastapi_run):
    """script_profile over every prose block of the FastAPI corpus (the documents the session's
    run read).  Its speed (best of two passes under 2.5 s) is measured by
    ``bench/bench_time_bounds.py --only script-profile-fastapi``."""
    from parallelcheck.model.document import BlockKind
    from parallelcheck.text.script import is_latin_language

    texts = []
    for result in fastapi_run[1]:
        for lang, document in sorted(result.article.documents.items()):
            names = not is_latin_language(lang)
            for block in document.iter_blocks():
                if block.kind not in (BlockKind.CODE, BlockKind.HTML):
                    texts.append((block.text, block.all_code_spans(), names))
    assert len(texts) > 40_000
    for text, spans, names in texts:
        profile = script_profile(text, spans, capitalised_are_names=names)
        assert profile is not None
