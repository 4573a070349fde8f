"""Numeric facts from running text in every language of an article."""

from __future__ import annotations

import itertools
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_numerals import english

from parallelcheck.text.numeric import NumberFact, extract_numbers

SEED = Path(__file__).resolve().parent.parent / "articles" / "deepinfer-vs-lmdeploy"


def facts(text: str, lang: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(f.text, f.kind, f.readings) for f in extract_numbers(text, lang)]


def readings(text: str, lang: str) -> list[str]:
    """The first reading of every fact, in order."""
    return [f.readings[0] for f in extract_numbers(text, lang)]


def one(text: str, lang: str) -> NumberFact:
    found = extract_numbers(text, lang)
    assert len(found) == 1, found
    return found[0]


# ---- the seed article: the same numbers in en, zh-Hant, ja and ko ---------------------------


@pytest.mark.parametrize(
    ("lang", "sentence", "span", "spelled"),
    [
        ("en", "All ten comparisons — vLLM, SGLang", "ten", True),
        ("zh-Hant", "全部十篇比較 — vLLM、SGLang", "十", True),
        ("ja", "10本の比較 — vLLM、SGLang", "10", False),
        ("ko", "열 가지 비교 전체 — vLLM, SGLang", "열", True),
    ],
)
def test_seed_ten_comparisons(lang, sentence, span, spelled):
    fact = one(sentence, lang)
    assert (fact.text, fact.readings, fact.spelled, fact.kind) == (span, ("10",), spelled, "number")


@pytest.mark.parametrize(
    ("lang", "sentence", "span"),
    [
        ("en", "It provides two engines: TurboMind, its high-performance CUDA engine", "two"),
        ("zh-Hant", "它提供兩個引擎：高效能 CUDA 引擎 TurboMind", "兩"),
        ("ja", "エンジンは2つある。高性能な CUDA エンジンの TurboMind", "2"),
        ("ko", "두 가지 엔진을 제공합니다. 고성능 CUDA 엔진인 TurboMind", "두"),
    ],
)
def test_seed_two_engines(lang, sentence, span):
    fact = one(sentence, lang)
    assert (fact.text, fact.readings) == (span, ("2",))


@pytest.mark.parametrize(
    ("lang", "sentence", "span", "unit"),
    [
        ("en", "and cost per million delivered output tokens.", "million", ""),
        ("zh-Hant", "以及每百萬個已交付輸出 token 的成本。", "百萬", "個"),
        ("ja", "送出した出力100万トークンあたりのコストを測る。", "100万", "token"),
        ("ko", "실제 전달된 출력 토큰 백만 개당 비용을 측정하세요.", "백만", "개"),
    ],
)
def test_seed_per_million(lang, sentence, span, unit):
    fact = one(sentence, lang)
    assert (fact.text, fact.readings, fact.unit) == (span, ("1000000",), unit)


@pytest.mark.parametrize(
    ("lang", "sentence", "span"),
    [
        ("en", "claims “up to 1.8× higher request throughput than vLLM”", "1.8×"),
        ("zh-Hant", "聲稱「請求吞吐量最高可達 vLLM 的 1.8 倍」", "1.8 倍"),
        ("ja", "「vLLM 比で最大 1.8 倍のリクエストスループット」と主張している", "1.8 倍"),
        ("ko", "“vLLM보다 최대 1.8× 높은 요청 처리량”을 주장합니다", "1.8×"),
        ("ko", "LMDeploy의 1.8x 처리량 주장은", "1.8x"),
        ("ko", "처리량이 1.8배 높다", "1.8배"),
    ],
)
def test_seed_multiplier(lang, sentence, span):
    fact = one(sentence, lang)
    assert (fact.text, fact.kind, fact.readings) == (span, "multiplier", ("1.8x",))


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "en",
            "DeepInfer's charts use 4 SM100 GPUs for prefill and 64 for decode, a 131,072-token "
            "context, and a decode configuration with nextn=3 and 75% draft acceptance.",
        ),
        (
            "zh-Hant",
            "DeepInfer 的圖表用 4 張 SM100 GPU 做 prefill、64 張做 decode，上下文 131,072 "
            "token，decode 設定為 nextn=3、草稿接受率 75%。",
        ),
        (
            "ja",
            "DeepInfer のグラフは prefill に 4 基、decode に 64 基の SM100 GPU を使い、"
            "コンテキストは 131,072 トークン、デコード設定は nextn=3 とドラフト受入率 75% だ。",
        ),
        (
            "ko",
            "DeepInfer의 차트는 프리필에 SM100 GPU 4장, 디코드에 64장, 131,072 토큰 컨텍스트, "
            "nextn=3과 75% 드래프트 수용률을 쓰는 디코드 구성을 사용합니다.",
        ),
    ],
)
def test_seed_benchmark_setup(lang, sentence):
    found = extract_numbers(sentence, lang)
    assert [f.readings for f in found] == [("4",), ("64",), ("131072", "131.072"), ("75%",)]
    assert found[2].unit == "token"
    assert found[3].kind == "percent"


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "ja", "ko"])
def test_seed_date_and_split(lang):
    assert facts("Accessed 2026-10-20.", lang) == [("2026-10-20", "date", ("2026-10-20",))]
    assert readings("split 64+64 in the reference deployment", lang) == ["64", "64"]


def seed_values(lang: str) -> Counter[str]:
    text = (SEED / f"{lang}.md").read_text(encoding="utf-8")
    return Counter(f.readings[0] for f in extract_numbers(text, lang))


def test_seed_article_states_the_same_numbers_in_every_version():
    english = seed_values("en")
    assert {"10", "2", "1000000", "1.8x", "131072", "2026-10-20", "75%", "64", "950"} <= set(
        english
    )
    for lang in ("zh-Hant", "ja", "ko"):
        assert set(seed_values(lang)) == set(english), lang
    # en and ja have the same sections, and say every number as often — but for "one",
    # which translations say or leave out as they like ("one model" = 単一 / 専用)
    ja = seed_values("ja")
    del ja["1"], english["1"]
    assert ja == english


# ---- digits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("a 131,072-token context", "en", [("131072", "131.072")]),
        ("ein Kontext von 131.072 Token", "de", [("131072", "131.072")]),
        ("1,000.5 and 1.000,5", "en", [("1000.5",), ("1000.5",)]),
        ("1.000,5", "de", [("1000.5",)]),
        ("1 000,5 et 1\u202f000,5 et 1\u00a0000,5", "fr", [("1000.5",)] * 3),
        ("1\u2009000.5 and 1\u202f000.5", "en", [("1000.5",)] * 2),
        ("１３１，０７２ トークン", "ja", [("131072", "131.072")]),
        ("75％", "zh", [("75%",)]),
        ("1,5 Millionen", "de", [("1500000",)]),
        ("1.8 million tokens", "en", [("1800000",)]),
        ("a 128K context", "en", [("128000", "131072")]),
        ("the 7B model", "en", [("7000000000",)]),
        ("version 1,5", "en", [("1",), ("5",)]),  # a list in a decimal-point language
        ("1,5", "de", [("1.5",)]),
        ("1.5", "de", [("1.5",)]),
        ("in 2026 100 people", "fr", [("2026",), ("100",)]),
        ("Python 3.10+", "en", [("3.1",)]),
    ],
)
def test_digit_numbers(text, lang, expected):
    assert [f.readings for f in extract_numbers(text, lang)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "NVIDIA SM100 and H200",
        "p99 latency and p50/p95/p99",
        "DeepSeek V4.1-Flash, DeepSeek-V4",
        "GPT4 on x86_64",
        "Apache-2.0 license",
        "the /v1/chat/completions endpoint",
        "nextn=3",
        "Python 3.11.7",
        "Llama-3-70B-Instruct",
        "http://127.0.0.1:8000/docs and localhost:8000",
        "2FA, 3D, 1080p, 0x1F, 1e-5",
        "see issue #123 by @user42",
        "Qwen2.5-72B",
    ],
)
def test_identifiers_are_no_numbers(text):
    assert extract_numbers(text, "en") == []


def test_digits_glued_to_non_ascii_letters_are_numbers():
    assert [(f.text, f.unit) for f in extract_numbers("SM100 GPU 4장, 64張, 10本, 2つ", "ko")] == [
        ("4", "장"),
        ("64", "張"),
        ("10", "本"),
        ("2", "つ"),
    ]
    assert [(f.text, f.unit) for f in extract_numbers("64張と10本と2つ", "ja")] == [
        ("64", "張"),
        ("10", "本"),
        ("2", "つ"),
    ]


def test_words_before_a_hyphen_or_year_stay_numbers():
    assert readings("by mid-2026, pre-2020 hardware", "en") == ["2026", "2020"]
    assert readings("a 64-bit build, 3-way split", "en") == ["64", "3"]


# ---- percent, multiplier, ranges ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("75%", "en"),
        ("75 %", "de"),
        ("75％", "ja"),
        ("75 percent", "en"),
        ("75 per cent", "en"),
        ("75パーセント", "ja"),
        ("75퍼센트", "ko"),
        ("75 Prozent", "de"),
        ("75 pour cent", "fr"),
        ("75 por ciento", "es"),
        ("75 por cento", "pt"),
        ("75 per cento", "it"),
        ("75 procent", "nl"),
        ("75 процентов", "ru"),
        ("%75", "tr"),
        ("百分之七十五", "zh"),
        ("百分之75", "zh"),
        ("seventy-five percent", "en"),
    ],
)
def test_percent(text, lang):
    fact = one(text, lang)
    assert (fact.kind, fact.readings, fact.text) == ("percent", ("75%",), text)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("1.8× higher", "en"),
        ("1.8 × higher", "en"),
        ("1.8x higher", "en"),
        ("1.8 x higher", "en"),
        ("1.8 times higher", "en"),
        ("×1.8", "en"),
        ("1,8-mal höher", "de"),
        ("1,8-fach", "de"),
        ("1,8 fois plus rapide", "fr"),
        ("1,8 veces más", "es"),
        ("1,8 vezes mais", "pt"),
        ("1,8 volte più", "it"),
        ("1,8 keer sneller", "nl"),
        ("1.8 倍", "zh"),
        ("1.8倍", "ja"),
        ("1.8배", "ko"),
    ],
)
def test_multiplier(text, lang):
    fact = one(text, lang)
    assert (fact.kind, fact.readings) == ("multiplier", ("1.8x",))


def test_spelled_multipliers_and_counted_times():
    assert facts("兩倍", "zh") == [("兩倍", "multiplier", ("2x",))]
    assert facts("두 배", "ko") == [("두", "multiplier", ("2x",))]
    assert facts("two times faster", "en") == [("two times", "multiplier", ("2x",))]
    # an integer count of "times" without a comparison is a count, not a multiplier; it
    # matches a multiplier too ("by 10 times" = 10倍)
    called = one("it is called 3 times", "en")
    assert (called.kind, called.readings, called.unit) == ("number", ("3", "3x"), "times")
    assert set(one("speeding up by 10 times", "en").readings) & set(one("10倍", "ja").readings)


@pytest.mark.parametrize(
    "text",
    ["3–5", "3-5", "3 to 5", "3～5", "3〜5", "3~5", "between 3 and 5", "3 bis 5", "de 3 à 5"],
)
def test_ranges_are_two_endpoints(text):
    lang = "de" if "bis" in text else "fr" if "à" in text else "en"
    assert [(f.kind, f.readings) for f in extract_numbers(text, lang)] == [
        ("number", ("3",)),
        ("number", ("5",)),
    ]


def test_a_range_shares_the_percent_of_its_end():
    assert readings("200–300%", "ru") == ["200%", "300%"]
    assert readings("约 200% 至 300%", "zh") == ["200%", "300%"]
    assert readings("2–3×", "en") == ["2x", "3x"]


# ---- dates, times, fractions ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "key"),
    [
        ("2026-10-20", "en", "2026-10-20"),
        ("2026/10/20", "ja", "2026-10-20"),
        ("October 20, 2026", "en", "2026-10-20"),
        ("Oct. 20, 2026", "en", "2026-10-20"),
        ("20 October 2026", "en", "2026-10-20"),
        ("2026年10月20日", "zh", "2026-10-20"),
        ("2026年10月20日", "ja", "2026-10-20"),
        ("2026년 10월 20일", "ko", "2026-10-20"),
        ("20 octobre 2026", "fr", "2026-10-20"),
        ("20. Oktober 2026", "de", "2026-10-20"),
        ("20.10.2026", "de", "2026-10-20"),
        ("20 de octubre de 2026", "es", "2026-10-20"),
        ("20 de outubro de 2026", "pt", "2026-10-20"),
        ("20 ottobre 2026", "it", "2026-10-20"),
        ("20 oktober 2026", "nl", "2026-10-20"),
        ("October 2026", "en", "2026-10"),
        ("2026年10月", "zh", "2026-10"),
        ("2026-10", "en", "2026-10"),
        ("10月20日", "ja", "--10-20"),
        ("(Stand: 26.08.2023)", "de", "2023-08-26"),
    ],
)
def test_dates_are_one_fact(text, lang, key):
    fact = one(text, lang)
    assert (fact.kind, fact.readings) == ("date", (key,))


def test_ambiguous_slash_dates_keep_both_readings_in_the_language_order():
    assert one("05/06/2026", "en").readings == ("2026-05-06", "2026-06-05")
    assert one("05/06/2026", "fr").readings == ("2026-06-05", "2026-05-06")
    assert one("10/20/2026", "fr").readings == ("2026-10-20",)


def test_a_month_name_alone_is_no_number():
    assert extract_numbers("十月", "zh") == []
    assert extract_numbers("10月に公開", "ja") == []
    assert extract_numbers("10월에 공개", "ko") == []
    assert readings("3か月と3個月と3개월", "ja") == ["3", "3", "3"]


@pytest.mark.parametrize(
    ("text", "key"),
    [("14:30", "14:30"), ("2:30 pm", "14:30"), ("2 pm", "14:00"), ("12 am", "00:00")],
)
def test_times(text, key):
    fact = one(text, "en")
    assert (fact.kind, fact.readings) == ("time", (key,))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1/2", ("1/2", "0.5")), ("½", ("1/2", "0.5")), ("3/4", ("3/4", "0.75")), ("1/3", ("1/3",))],
)
def test_fractions(text, expected):
    fact = one(text, "en")
    assert (fact.kind, fact.readings) == ("fraction", expected)


# ---- spelled numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        # real sentences of the FastAPI documentation
        ("Python 就已经知道这两个字符串不相同了", "zh", ["2"]),
        ('<dfn title="一種機器學習方法">', "zh-Hant", ["1"]),
        ("注意上面程式碼裡我們寫了兩次", "zh-Hant", ["2"]),
        ("同样，如果我们使用了三个点", "zh", ["3"]),
        ("### 第三步：建立一個*路徑操作*", "zh-Hant", ["3", "1"]),
        ("十三萬一千零七十二個 token", "zh-Hant", ["131072"]),
        ("この二つは人気で安定したもの", "ja", ["2"]),
        ("Pythonパッケージのひとつです", "ja", ["1"]),
        ("先ほどのコードから一行変更してみましょう", "ja", ["1"]),
        ("十三万千七十二トークン", "ja", ["131072"]),
        ("이 두 가지는 꽤 대중적이고", "ko", ["2"]),
        ("이는 이 코드가 **한 번**만 실행되며", "ko", ["1"]),
        ("Python은 두 문자열이 같지 않다는", "ko", ["2"]),
        ("둘은 동등하며 내부적으로", "ko", ["2"]),
        ("지원 모델도 하나뿐입니다.", "ko", ["1"]),
        ("점 세 개를 사용했다면", "ko", ["3"]),
        ("열하나 스무 살", "ko", ["11", "20"]),
        ("핵심 단서: 한 줄 요약", "ko", ["1"]),  # 한 줄 = one line: intended
        ("이 두 수치를 같은 리더보드에", "ko", ["2"]),
        ("It supports only one model.", "en", ["1"]),
        ("just one or two lines of code", "en", ["1", "2"]),
        ("one hundred and five requests, a hundred, two million", "en", ["105", "100", "2000000"]),
        ("Sie haben vier API-Endpunkte", "de", ["4"]),
        ("Les deux sont équivalents", "fr", ["2"]),
        ("una o dos líneas de código", "es", ["2"]),
        ("OAuth2 com dois escopos", "pt", ["2"]),
    ],
)
def test_spelled_numbers(text, lang, expected):
    found = extract_numbers(text, lang)
    assert [f.readings[0] for f in found] == expected
    assert all(f.spelled for f in found if not f.text[0].isdigit())


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "一些 一樣 一定 一起 統一 唯一 一般 一直 一旦 萬一 一切 一致 一部分 一方面 一向",
            "zh-Hant",
        ),
        ("一些 一样 一定 一起 统一 唯一 一般 一直 一旦 万一 一切 一致 一部分 一方面", "zh"),
        ("十分重要 進一步 进一步 下一個 下一步 前一章 同一種 第三方 這一行為 千萬不要", "zh-Hant"),
        ("數百萬 数百万 十多個 幾十個 成千上萬 十六進制", "zh"),
        ("一番 一部 一方 一緒 一般 十分に 唯一 第三者 もう一度 一度 一時的 一層 二次元", "ja"),
        ("数千〜数百万回", "ja"),
        ("이 일 한국 한국어 이미 일반 사이트 구조 구조체 천천히 만약 만일 천사 오만", "ko"),
        ("수백만 백엔드 백오피스 하나님 하나같이 셋업 넷플릭스 네이티브", "ko"),
        ("네, 맞습니다. 열 수 있습니다. 열 이름. 가능한 한 많이. 기반으로 한)", "ko"),
        ("둘 다 좋습니다. 프록시를 둘 수도 있습니다. 중점을 둘 것입니다.", "ko"),
        ("a couple of ideas, no one, one another, one-to-many, zero-copy, the one above", "en"),
        ("hundreds of tests, thousands of users, millions of requests", "en"),
        ("oder Millionen Tests", "de"),
        ("desde cero, cada uno", "es"),
        ("do zero", "pt"),
        ("à partir de zéro", "fr"),
    ],
)
def test_no_nonsense_numbers(text, lang):
    assert extract_numbers(text, lang) == []


def test_korean_man_after_digits_can_be_only():
    assert readings("Python 3만 지원합니다", "ko") == ["3"]
    assert readings("3만 명, 1.8만 토큰, 13만1072개, 100만", "ko") == [
        "30000",
        "18000",
        "131072",
        "1000000",
    ]


def test_korean_sino_numerals_need_a_word_of_their_own():
    assert readings("백만이 넘는 요청", "ko") == ["1000000"]
    assert readings("십억 개", "ko") == ["1000000000"]


def test_ordinal_after_di_is_a_number():
    assert [(f.text, f.readings) for f in extract_numbers("第三章", "zh")] == [("三", ("3",))]
    assert readings("1st and 2nd", "en") == ["1", "2"]


def test_positional_year_in_chinese():
    assert facts("二〇二六年", "zh") == [("二〇二六", "number", ("2026",))]


def test_units():
    assert [(f.text, f.unit) for f in extract_numbers("4 GB, 100ms, 10 seconds, 3 GPUs", "en")] == [
        ("4", "gb"),
        ("100", "ms"),
        ("10", "second"),
        ("3", "gpu"),
    ]
    assert one("2.0 häufig", "de").unit == ""  # "h" begins a word: no unit


# ---- properties -----------------------------------------------------------------------------

LANGS = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "tr", "zh", "zh-Hant", "ja", "ko", "hi"]


def chinese(n: int, traditional: bool = True) -> str:
    """An independent writer of Chinese numerals (sections of four digits, 零 for gaps)."""
    digits = "零一二三四五六七八九"
    big = ["", "萬", "億", "萬億"] if traditional else ["", "万", "亿", "万亿"]
    if n == 0:
        return "零"

    def section(x: int, leading: bool) -> str:
        out = ""
        zero = False
        for value, mark in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            digit = x // value % 10
            if digit:
                if zero and out:
                    out += "零"
                if not (leading and not out and value == 10 and digit == 1):
                    out += digits[digit]
                out += mark
                zero = False
            else:
                zero = True
        return out

    sections = []
    x = n
    while x:
        sections.append(x % 10000)
        x //= 10000
    out = ""
    for index in range(len(sections) - 1, -1, -1):
        value = sections[index]
        if value == 0:
            continue
        if out and value < 1000:
            out += "零"
        out += section(value, leading=not out) + big[index]
    return out


def japanese(n: int) -> str:
    """Japanese kanji numerals: no 零, no 一 before 十/百/千, but 一 before 万/億/兆."""
    digits = "〇一二三四五六七八九"
    if n == 0:
        return "〇"
    out = ""
    for scale, mark in ((10**12, "兆"), (10**8, "億"), (10**4, "万"), (1, "")):
        chunk = n // scale % 10000
        if not chunk:
            continue
        part = ""
        for value, small in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            digit = chunk // value % 10
            if digit:
                part += ("" if digit == 1 and small else digits[digit]) + small
        out += part + mark
    return out


def korean_mixed(n: int) -> str:
    """Digits with 억/만: 131072 → 13만1072."""
    out = ""
    for scale, mark in ((10**8, "억"), (10**4, "만"), (1, "")):
        chunk = n // scale % 10000
        if chunk or (not out and scale == 1):
            out += str(chunk) + mark
    return out


def full_width(text: str) -> str:
    return text.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789,."})


def found_values(text: str, lang: str) -> set[str]:
    return {r for f in extract_numbers(text, lang) for r in f.readings}


integers = st.integers(min_value=0, max_value=10**12)


@given(integers)
def test_round_trip_english_grouping(n):
    assert str(n) in found_values(f"We served {n:,} requests.", "en")


@given(integers)
def test_round_trip_german_grouping(n):
    written = f"{n:,}".replace(",", ".")
    assert str(n) in found_values(f"Wir haben {written} Anfragen bedient.", "de")


@given(integers, st.sampled_from([" ", "\u00a0", "\u202f", "\u2009"]))
def test_round_trip_french_space_grouping(n, space):
    written = f"{n:,}".replace(",", space)
    assert str(n) in found_values(f"Nous avons servi {written} requêtes.", "fr")


@given(integers)
def test_round_trip_full_width_digits(n):
    assert str(n) in found_values(f"合計{full_width(f'{n:,}')}件", "ja")


@given(
    st.decimals(min_value=0, max_value=10**9, places=3, allow_nan=False, allow_infinity=False),
    st.sampled_from(["en", "de", "fr", "ko"]),
)
def test_round_trip_decimals(value, lang):
    key = format(value.normalize(), "f")
    key = key.rstrip("0").rstrip(".") if "." in key else key
    written = f"{value:,.3f}"
    if lang in ("de", "fr"):
        written = written.replace(",", "\u202f" if lang == "fr" else "_").replace(".", ",")
        written = written.replace("_", ".")
    assert (key or "0") in found_values(f"value {written} here", lang)


@given(integers, st.booleans())
def test_round_trip_chinese_numerals(n, traditional):
    numeral = chinese(n, traditional)
    assert str(n) in found_values(f"我們有{numeral}個項目", "zh-Hant" if traditional else "zh")


@given(integers)
def test_round_trip_japanese_numerals(n):
    assert str(n) in found_values(f"合計{japanese(n)}個のトークン", "ja")


@given(st.integers(min_value=0, max_value=10**12 - 1))
def test_round_trip_korean_mixed(n):
    assert str(n) in found_values(f"요청 {korean_mixed(n)}개를 처리했습니다", "ko")


@given(st.integers(min_value=0, max_value=999_999_999))
def test_round_trip_english_words(n):
    assert str(n) in found_values(f"There are {english(n)} items.", "en")


@settings(max_examples=examples(300))
@given(st.text(), st.sampled_from(LANGS))
def test_any_text_gives_facts_inside_it(text, lang):
    for fact in extract_numbers(text, lang):
        assert 0 <= fact.start < fact.end <= len(text)
        assert text[fact.start : fact.end] == fact.text
        assert fact.readings
        assert fact.kind in ("number", "percent", "multiplier", "fraction", "date", "time")


NUMERIC = (
    "0123456789０１２３,.，．%％×x/-–~ :一二三四五六七八九十百千萬万億亿兩两零〇第個倍つ年月日分之"
    "만억천백일이삼하나두한열개번년월"
)


@settings(max_examples=300)
@given(
    st.text(alphabet=NUMERIC + "abpmAMOctober가나 \u00a0\u202f", max_size=40),
    st.sampled_from(LANGS),
)
def test_number_like_text_never_fails(text, lang):
    found = extract_numbers(text, lang)
    for fact in found:
        assert text[fact.start : fact.end] == fact.text
        for key in fact.readings:
            number = key.rstrip("%x")
            if fact.kind in ("number", "percent", "multiplier"):
                assert Decimal(number) >= 0
    for first, second in itertools.pairwise(found):
        assert first.end <= second.start  # in order, never overlapping


# ---- numbers in context (issue 20) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("120 万", "zh", "1200000"),
        ("38 萬美金", "zh-Hant", "380000"),
        ("1.2 億", "ja", "120000000"),
        ("120 만", "ko", "1200000"),
        ("약 120 만 사용자", "ko", "1200000"),  # spaced 만 is never the particle "only"
    ],
)
def test_a_space_before_a_cjk_magnitude(text, lang, value):
    assert readings(text, lang) == [value]


@pytest.mark.parametrize(
    ("text", "lang"),
    [("16진수 값", "ko"), ("16進数の値", "ja"), ("8进制", "zh"), ("base 32 encoding", "en")],
)
def test_the_name_of_a_numeral_system_is_no_number(text, lang):
    assert extract_numbers(text, lang) == []


@pytest.mark.parametrize(
    ("text", "lang"),
    [("Double the speed", "en"), ("twice as fast", "en"), ("doppelt so schnell", "de")],
)
def test_multiplier_words_are_weak_multipliers(text, lang):
    fact = one(text, lang)
    assert (fact.kind, fact.readings, fact.weak) == ("multiplier", ("2x",), True)
    assert set(fact.readings) & set(one("2배 빠름", "ko").readings)


def test_double_click_is_no_multiplier():
    assert extract_numbers("double-click the icon", "en") == []


@pytest.mark.parametrize(
    ("text", "lang", "malformed"),
    [
        ("100,0000", "zh", True),
        ("1,00,000", "en", True),
        ("1,00,000", "de", True),
        ("1,00,000", "hi", False),  # Indian numbering (the CLDR's #,##,##0)
        ("131,072", "en", False),
        ("1,000,000", "en", False),
    ],
)
def test_impossible_digit_grouping(text, lang, malformed):
    fact = one(text, lang)
    assert fact.malformed is malformed
    if not malformed:
        assert fact.readings[0] in ("100000", "131072", "1000000")


def test_a_list_of_numbers_is_no_grouping():
    assert readings("sizes 10,20,30 and 1,5", "en") == ["10", "20", "30", "1", "5"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("upgrade to v13", ["13"]), ("removed in v2.0", ["2"]), ("the /v1/chat endpoint", [])],
)
def test_a_lone_v_before_digits_is_a_version_number(text, expected):
    assert readings(text, "en") == expected


@pytest.mark.parametrize("text", ["The Twelve-Factor App", "two-factor authentication"])
def test_a_number_word_in_a_hyphenated_compound_is_no_number(text):
    assert extract_numbers(text, "en") == []
