"""Numeral systems to exact values: digits with separators, CJK, Korean, number words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from parallelcheck.text.numerals import (
    canonical,
    digit_readings,
    native_korean_is_prenominal,
    parse_cjk,
    parse_native_korean,
    parse_number_words,
    parse_sino_korean,
)


def keys(readings):
    return tuple(canonical(r) for r in readings) if readings is not None else None


# ---- canonical keys -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "key"),
    [
        (Decimal("1.80"), "1.8"),
        (Decimal("1E+6"), "1000000"),
        (Decimal("0.50"), "0.5"),
        (Decimal("0"), "0"),
        (Decimal("0.000"), "0"),
        (Decimal("18000.0"), "18000"),
        (131072, "131072"),
    ],
)
def test_canonical_is_the_minimal_decimal(value, key):
    assert canonical(value) == key


# ---- digits with separators -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "decimal_comma", "expected"),
    [
        ("131072", False, ("131072",)),
        ("131,072", False, ("131072", "131.072")),  # en: a group first, a decimal second
        ("131,072", True, ("131.072", "131072")),  # de: the other way round
        ("131.072", True, ("131072", "131.072")),
        ("131.072", False, ("131.072", "131072")),
        ("1,000.5", False, ("1000.5",)),
        ("1,000.5", True, ("1000.5",)),  # both marks: the last one is the decimal mark
        ("1.000,5", True, ("1000.5",)),
        ("1.000,5", False, ("1000.5",)),
        ("1,000,000", False, ("1000000",)),
        ("1.000.000", True, ("1000000",)),
        ("1\u202f000,5", True, ("1000.5",)),
        ("1\u00a0000.5", False, ("1000.5",)),
        ("1 000 000", True, ("1000000",)),
        ("1,5", True, ("1.5",)),
        ("1.5", True, ("1.5",)),  # a point that cannot group is a decimal point everywhere
        ("1.5", False, ("1.5",)),
        ("0.5", False, ("0.5",)),
        ("0,500", True, ("0.5",)),  # a leading 0 never starts a group
    ],
)
def test_digit_readings(token, decimal_comma, expected):
    assert keys(digit_readings(token, decimal_comma=decimal_comma)) == expected


@pytest.mark.parametrize(
    ("token", "decimal_comma"),
    [
        ("1,5", False),  # en: not a group, and a comma is no decimal mark: a list
        ("1,2,3", False),
        ("1,2,3", True),
        ("3.11.7", False),
        ("3.11.7", True),
        ("12 34", True),
        ("1,000.5.2", False),
        ("2026 100", True),  # a first group of four digits is no grouping
    ],
)
def test_digit_forms_that_are_no_single_number(token, decimal_comma):
    assert digit_readings(token, decimal_comma=decimal_comma) is None


# ---- Chinese and Japanese -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("十三萬一千零七十二", "131072"),  # zh-Hant, the seed article's 131,072
        ("十三万一千零七十二", "131072"),  # zh-Hans
        ("十三万千七十二", "131072"),  # ja: the 一 of 千 left out
        ("1.8萬", "18000"),
        ("13万1072", "131072"),
        ("100万", "1000000"),  # ja: 出力100万トークン
        ("百萬", "1000000"),  # zh: 每百萬個
        ("一百萬", "1000000"),
        ("兩個"[:1], "2"),
        ("两千", "2000"),
        ("十", "10"),
        ("十篇"[:1], "10"),
        ("二十", "20"),
        ("一百零五", "105"),
        ("一千零一", "1001"),
        ("一億二千萬", "120000000"),
        ("三億", "300000000"),
        ("一萬億", "1000000000000"),
        ("一兆", "1000000000000"),  # ja 兆
        ("一點八萬", "18000"),
        ("〇", "0"),
        ("零", "0"),
        ("壹佰貳拾參", "123"),  # financial forms
    ],
)
def test_parse_cjk(numeral, value):
    assert canonical(parse_cjk(numeral)) == value


def test_parse_cjk_colloquial_abbreviation_is_chinese_only():
    assert canonical(parse_cjk("一萬二")) == "12000"
    assert canonical(parse_cjk("三千五")) == "3500"
    assert canonical(parse_cjk("兩百五")) == "250"
    assert canonical(parse_cjk("一萬二", colloquial=False)) == "10002"
    assert canonical(parse_cjk("一萬零二")) == "10002"  # 零 marks the gap: no abbreviation


def test_parse_cjk_positional_only_when_asked():
    assert parse_cjk("二〇二六") is None
    assert canonical(parse_cjk("二〇二六", positional=True)) == "2026"
    assert canonical(parse_cjk("一九九九", positional=True)) == "1999"


@pytest.mark.parametrize(
    "numeral",
    ["一二", "兩三", "三四十", "萬萬", "千千", "十百", "億萬", "一一", "百十百", "點", "一些", ""],
)
def test_parse_cjk_refuses_what_is_no_numeral(numeral):
    assert parse_cjk(numeral) is None


# ---- Korean ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("백만", "1000000"),  # ko seed: 토큰 백만 개당
        ("천만", "10000000"),
        ("십억", "1000000000"),
        ("이십", "20"),
        ("삼백오십", "350"),
        ("십삼만천칠십이", "131072"),
        ("13만1072", "131072"),
        ("1.8만", "18000"),
        ("1억2345만6789", "123456789"),
        ("3천", "3000"),
    ],
)
def test_parse_sino_korean(numeral, value):
    assert canonical(parse_sino_korean(numeral)) == value


@pytest.mark.parametrize("numeral", ["이이", "사이", "오이", "천천", "일일", "구구", "조"])
def test_parse_sino_korean_refuses_everyday_words(numeral):
    assert parse_sino_korean(numeral) is None


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("하나", 1),
        ("한", 1),
        ("둘", 2),
        ("두", 2),
        ("셋", 3),
        ("세", 3),
        ("넷", 4),
        ("네", 4),
        ("다섯", 5),
        ("아홉", 9),
        ("열", 10),  # ko seed: 열 가지 비교
        ("열하나", 11),
        ("열두", 12),
        ("스물", 20),
        ("스무", 20),
        ("스물둘", 22),
        ("서른세", 33),
        ("아흔아홉", 99),
    ],
)
def test_parse_native_korean(word, value):
    assert parse_native_korean(word) == value


@pytest.mark.parametrize("word", ["스무하나", "하나둘", "이", "일", "한국", "열열"])
def test_parse_native_korean_refuses(word):
    assert parse_native_korean(word) is None


def test_prenominal_forms():
    assert native_korean_is_prenominal("한")
    assert native_korean_is_prenominal("열두")
    assert native_korean_is_prenominal("스무")
    assert not native_korean_is_prenominal("하나")
    assert not native_korean_is_prenominal("열하나")
    assert not native_korean_is_prenominal("다섯")


# ---- number words ---------------------------------------------------------------------------


def words(text: str, lang: str = "en"):
    split = text.replace("-", " ").split()
    return [(" ".join(split[a:b]), canonical(v)) for a, b, v in parse_number_words(split, lang)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("All ten comparisons", [("ten", "10")]),  # en seed
        ("two engines", [("two", "2")]),
        ("per million delivered output tokens", [("million", "1000000")]),
        ("a million", [("a million", "1000000")]),
        ("a hundred", [("a hundred", "100")]),
        ("two million", [("two million", "2000000")]),
        ("twenty-one", [("twenty one", "21")]),
        ("one hundred and five", [("one hundred and five", "105")]),
        ("twelve hundred", [("twelve hundred", "1200")]),
        ("zero", [("zero", "0")]),
        ("two three", [("two", "2"), ("three", "3")]),
        ("zero one", [("zero", "0"), ("one", "1")]),
        # greedy: the longest well-formed number first, then what is left
        ("two thousand five million", [("two thousand five", "2005"), ("million", "1000000")]),
        ("bread and butter", []),
        ("a couple of", []),
        ("one and two", [("one", "1"), ("two", "2")]),
    ],
)
def test_english_words(text, expected):
    assert words(text) == expected


@pytest.mark.parametrize(
    ("text", "lang", "value"),
    [
        ("zwei", "de", "2"),
        ("zwölf", "de", "12"),
        ("drei Millionen", "de", "3000000"),
        ("deux", "fr", "2"),
        ("deux cents", "fr", "200"),
        ("trois mille", "fr", "3000"),
        ("dos", "es", "2"),
        ("mil millones", "es", "1000000000"),
        ("duas", "pt", "2"),
        ("dez", "pt", "10"),
        ("dodici", "it", "12"),
        ("twee", "nl", "2"),
        ("één", "nl", "1"),
    ],
)
def test_european_words(text, lang, value):
    assert words(text, lang) == [(text, value)]


@pytest.mark.parametrize(
    ("word", "lang"),
    [
        ("ein", "de"),
        ("eine", "de"),
        ("null", "de"),
        ("un", "fr"),
        ("une", "fr"),
        ("neuf", "fr"),
        ("un", "es"),
        ("um", "pt"),
        ("uno", "it"),
        ("sei", "it"),
        ("een", "nl"),
    ],
)
def test_articles_and_homographs_are_no_number_words(word, lang):
    assert parse_number_words([word], lang) == []


def english(n: int) -> str:
    """An independent writer of English numbers, the oracle of the property test."""
    ones = "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    ones += "fourteen fifteen sixteen seventeen eighteen nineteen"
    small = ones.split()
    tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()

    def below_thousand(x: int) -> list[str]:
        out = []
        if x >= 100:
            out += [small[x // 100], "hundred"]
            x %= 100
        if x >= 20:
            out.append(tens[x // 10 - 2] + (f"-{small[x % 10]}" if x % 10 else ""))
        elif x:
            out.append(small[x])
        return out

    if n == 0:
        return "zero"
    parts: list[str] = []
    for scale, name in ((10**6, "million"), (10**3, "thousand"), (1, "")):
        chunk = n // scale % 1000
        if chunk:
            parts += below_thousand(chunk) + ([name] if name else [])
    return " ".join(parts)


@given(st.integers(min_value=0, max_value=999_999_999))
def test_english_words_round_trip(n):
    split = english(n).replace("-", " ").split()
    assert [(a, b, canonical(v)) for a, b, v in parse_number_words(split, "en")] == [
        (0, len(split), str(n))
    ]


@given(st.lists(st.text(max_size=12), max_size=8), st.sampled_from(["en", "de", "fr", "xx"]))
def test_parse_number_words_never_fails(tokens, lang):
    for a, b, value in parse_number_words(tokens, lang):
        assert 0 <= a < b <= len(tokens)
        assert value >= 0


@given(st.text(alphabet="〇零一二三四五六七八九十百千萬万億兩點0123456789.", max_size=12))
@example("一點〇點〇")  # a second point after a fraction: no number, not an error
def test_parse_cjk_never_fails(numeral):
    value = parse_cjk(numeral)
    assert value is None or value >= 0


def test_a_numeral_with_two_points_is_no_number():
    assert parse_cjk("一點五") == Decimal("1.5")
    assert parse_cjk("一點〇點〇") is None
    assert parse_cjk("三點一四點一五") is None
