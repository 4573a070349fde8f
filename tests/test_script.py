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


# ---------------------------------------------------------------------------
# One definition per primitive (text/lexicon.py, text/script.py), and the deliberate second
# forms: each test shows what the general definition would get wrong for its reader.


def test_a_url_token_is_ascii_so_a_particle_after_it_is_not_part_of_it():
    from parallelcheck.text.lexicon import URL, URL_ASCII

    text = "자세한 내용은 https://example.org/docs에 있습니다"
    # As running text, the URL runs to the space: the particle is blanked with it, which is
    # right for telling the script of the prose (에 is one Hangul letter among many) ...
    assert URL.search(text).group() == "https://example.org/docs에"
    # ... but a token compared between versions must be what the English has too.
    assert URL_ASCII.search(text).group() == "https://example.org/docs"


def test_running_text_urls_stop_at_cjk_punctuation_and_closing_brackets():
    from parallelcheck.text.lexicon import URL

    assert URL.search("见（https://example.org/a）。").group() == "https://example.org/a"
    assert URL.search("see www.example.org, then").group() == "www.example.org,"


def test_anchors_need_a_space_after_a_full_stop_to_see_a_sentence_start():
    from parallelcheck.text.lexicon import SENTENCE_START, SENTENCE_START_SPACED, starts_sentence

    # Alignment's anchors: "e.g.Foo" or "v1.Foo" keep Foo as a name (an anchor shared with a
    # translation); the script profile takes any full stop for a sentence end, since CJK text
    # puts no space after 。 and a capitalised word after one is ordinary prose.
    text = "e.g.Foo"
    assert starts_sentence(text, 4, SENTENCE_START)
    assert not starts_sentence(text, 4, SENTENCE_START_SPACED)
    assert starts_sentence("完成。Then", 3, SENTENCE_START)
    assert not starts_sentence("完成。Then", 3, SENTENCE_START_SPACED)
    assert starts_sentence("Done. Then", 6, SENTENCE_START_SPACED)


def test_the_script_of_a_character_is_told_one_way():
    from parallelcheck.text.script import (
        HAN_CHAR,
        HANGUL,
        LATIN,
        char_script,
        count_letters,
        is_hangul_syllable,
    )

    assert char_script("é") == LATIN and char_script("7") == LATIN
    assert char_script("한") == HANGUL and char_script("ㅎ") == HANGUL  # compatibility jamo
    assert char_script("漢") is None and char_script("") is None
    assert is_hangul_syllable("가") and is_hangul_syllable("힣") and not is_hangul_syllable("ㅎ")
    assert HAN_CHAR.search("ab漢") and not HAN_CHAR.search("かな")
    assert count_letters("漢字かな한국") == {"Han": 2, "Kana": 2, "Hangul": 2}


def test_mostly_non_latin_counts_letters_of_every_script_unlike_count_letters():
    from parallelcheck.text.script import count_letters, mostly_non_latin

    # Georgian is no script count_letters weighs, yet a version in it is written in a
    # non-Latin script: alignment must know (every capitalised Latin word is then a name).
    text = "ქართული ენა API"
    assert count_letters(text) == {"Latin": 3}
    assert mostly_non_latin(text)


def test_name_like_words_are_three_readings_for_three_purposes():
    from parallelcheck.text.landmarks import anchors_of
    from parallelcheck.text.lexicon import NAME_LIKE
    from parallelcheck.text.tokens import extract_tokens

    # Running text sets aside every name-like token, "64GB" included (no prose to translate);
    # tokens compare what must be carried over exactly, and "64GB" is a number (another
    # rule's); anchors keep even a capitalised word, weakly, to align a Japanese version.
    text = "Use 64GB with DeepInfer in Huawei clusters"
    assert [m.group() for m in NAME_LIKE.finditer(text)] == ["64GB", "DeepInfer"]
    assert extract_tokens(text).names == {"DeepInfer"} and not extract_tokens(text).strong
    assert anchors_of(text, non_latin=False) == {"#64": 1, "gb": 1, "deepinfer": 1, "~huawei": 1}


def test_a_sentence_keeps_the_stop_after_a_url_that_running_text_blanks_with_it():
    from parallelcheck.text.lexicon import URL, URL_IN_SENTENCE
    from parallelcheck.text.sentences import split_sentences

    text = "Read https://example.org/a. Then go on, see www.example.org, and stop."
    # The script profile blanks the URL with what sticks to it, a stop included ...
    assert URL.search(text).group() == "https://example.org/a."
    # ... the sentence splitter protects only the URL: its stop ends the sentence.
    assert URL_IN_SENTENCE.search(text).group() == "https://example.org/a"
    assert [s.text for s in split_sentences(text)] == [
        "Read https://example.org/a.",
        "Then go on, see www.example.org, and stop.",
    ]


def test_code_spans_are_found_in_order_or_anywhere_when_out_of_order():
    from parallelcheck.text.lexicon import find_spans

    text = "run `a` then `b` then `a`"
    assert list(find_spans(text, ["a", "b", "a"])) == [(5, 6), (14, 15), (23, 24)]
    # a span before the previous one (a reader's order differs) is still found; an empty
    # or absent one is skipped
    assert list(find_spans(text, ["b", "", "run", "zz"])) == [(14, 15), (0, 3)]


@pytest.mark.parametrize(
    "text",
    [
        "See WWW.Example.com for more.",
        "Www.example.com is the site.",
        "Open wWw.example.org/path now.",
        "https://example.com and more",
        "HTTP://EXAMPLE.COM",
    ],
)
def test_the_url_pretest_lets_through_every_text_the_url_pattern_matches(text: str) -> None:
    """The pattern ignores case, so the cheap test before it must too: an upper-case
    ``WWW.`` address is blanked like a lower-case one."""
    from parallelcheck.text.lexicon import URL, might_hold_url

    assert URL.search(text)
    assert might_hold_url(text)


def test_the_url_pretest_holds_whenever_the_url_pattern_matches() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from parallelcheck.text.lexicon import URL, might_hold_url

    pieces = st.sampled_from(["www.", "WWW.", "Www.", "wWw.", "http://", "HTTPS://", "a", " ", "."])

    @given(st.lists(pieces | st.text(max_size=3), max_size=8).map("".join))
    def check(text: str) -> None:
        if URL.search(text):
            assert might_hold_url(text)

    check()
