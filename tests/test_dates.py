"""Dates and times as every language of the shared corpora writes them (CLDR, via babel).

The acceptance tests are generated: every date format and era-free skeleton the CLDR gives a
language of the corpora, written by babel for a date and for the next day, must give one
date fact that matches the same date written in English and does not match the shifted one
(what ``number-mismatch`` compares: two values match when they share a reading).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

import pytest
from babel import Locale
from babel.dates import format_date, format_skeleton, format_time

from parallelcheck.text.dates import date_profile, zone_at, zone_offsets
from parallelcheck.text.numeric import extract_code_numbers, extract_numbers

#: The languages of the shared corpora and the user's articles (their folders and files).
CORPUS_LANGS = (
    "ar az bn de en es fa fr he hi hu id it ja ko nl pl pt pt-BR ru tr uk ur vi yo zh "
    "zh-Hans zh-Hant"
).split()
FORMATS = ("full", "long", "medium", "short")
SKELETONS = "yMMMMEEEEd yMMMMd yMMMd yMMMM yMMM MMMMd yMd".split()
DAYS = (date(2020, 8, 11), date(2026, 12, 31), date(2023, 3, 7))


def _written(day: date, lang: str) -> list[tuple[str, str]]:
    """(how, text) for every date format and skeleton of *lang* that gives a four-digit
    year or none, with the digits babel uses (a two-digit year is not read: too ambiguous
    in running text)."""
    locale = Locale.parse(lang.replace("-", "_"))
    found = []
    for name in FORMATS:
        pattern = locale.date_formats[name].pattern
        if "yy" in pattern.replace("yyyy", "") or _spaced_digits(pattern):
            continue
        found.append((name, format_date(day, name, locale=locale)))
    for skeleton in SKELETONS:
        if skeleton in locale.datetime_skeletons:
            found.append((skeleton, format_skeleton(skeleton, day, locale=locale)))
    return found


def _date_readings(text: str, lang: str) -> set[str]:
    dates = [f for f in extract_numbers(text, lang) if f.kind == "date"]
    assert len(dates) == 1, (text, extract_numbers(text, lang))
    return set(dates[0].readings)


def _english(day: date, how: str) -> set[str]:
    """The readings of the same date in English with the same fields (year? day?)."""
    if "y" not in how and how not in FORMATS:
        text = f"{day:%B} {day.day}"
    elif "d" not in how and how not in FORMATS:
        text = f"{day:%B} {day.year}"
    else:
        text = f"{day:%B} {day.day}, {day.year}"
    return _date_readings(text, "en")


def _spaced_digits(pattern: str) -> bool:
    """``d MM y`` (yo): numbers apart by spaces alone, which running text cannot tell from a
    list of numbers — not read as a date."""
    return not re.search("MMM|LLL|'", pattern) and not re.search(r"[^\sdMy]", pattern)


CASES = [
    (lang, day, how, text)
    for lang in CORPUS_LANGS
    for day in DAYS
    for how, text in _written(day, lang)
]


@pytest.mark.parametrize("lang", CORPUS_LANGS)
def test_every_cldr_date_format_reads_as_its_date(lang):
    """One test per language (the formats in a loop: some 900 pairs in all)."""
    for _, day, how, text in (case for case in CASES if case[0] == lang):
        readings = _date_readings(f"Released {text}.", lang)
        assert readings & _english(day, how), (text, readings)
        # Shifted by a day (by a month where the format shows no day).
        step = timedelta(days=1 if "d" in how or how in FORMATS else 31)
        shifted = dict(_written(day + step, lang))[how]
        assert not _date_readings(f"Released {shifted}.", lang) & readings, (text, shifted)


def test_cases_cover_every_corpus_language_with_words_or_literals():
    covered = {lang for lang, *_ in CASES}
    assert covered == set(CORPUS_LANGS)
    assert len(CASES) > 400


@pytest.mark.parametrize(
    ("text", "lang", "key"),
    [
        ("11 sierpnia 2020", "pl", "2020-08-11"),  # genitive (format) form
        ("sierpień 2020", "pl", "2020-08"),  # nominative (stand-alone) form
        ("w sierpniu 2020", "pl", "2020-08"),  # locative: a stem of the CLDR forms
        ("в апреле 2023 года", "ru", "2023-04"),
        ("11 августа 2020 г.", "ru", "2020-08-11"),
        ("у квітні 2023", "uk", "2023-04"),
        ("Abril de 2023", "pt-BR", "2023-04"),
        ("ngày 11 tháng 8 năm 2020", "vi", "2020-08-11"),
        ("11 Ağustos 2020", "tr", "2020-08-11"),
        ("11 Agustus 2020", "id", "2020-08-11"),
        ("11 अगस्त, 2020", "hi", "2020-08-11"),
        ("2022년 10월에", "ko", "2022-10"),
        ("2026年10月20日に", "ja", "2026-10-20"),
        ("11 August 2020", "en", "2020-08-11"),  # day first, though en's CLDR writes it last
        ("August 11th, 2020", "en", "2020-08-11"),
    ],
)
def test_inflected_and_running_text_dates(text, lang, key):
    assert _date_readings(text, lang) == {key}


def test_english_month_names_are_read_case_sensitively():
    assert not [f for f in extract_numbers("you may 10 times retry", "en") if f.kind == "date"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Tue Dec  1 18:20:01 UTC 2026", "2026-12-01T18:20:01Z"),
        ("Tue Dec  1 18:20:01 2026", "2026-12-01T18:20:01"),
        ("Wed Dec  2 03:20:01 JST 2026", "2026-12-01T18:20:01Z"),
        ("Tue, 01 Dec 2026 18:20:01 +0000", "2026-12-01T18:20:01Z"),
        ("Wed, 02 Dec 2026 03:20:01 +0900", "2026-12-01T18:20:01Z"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "de", "ja", "ru"])
def test_unix_date_and_rfc_2822_in_every_language(text, key, lang):
    assert _date_readings(f"$ date → {text}", lang) == {key}


# ---- times with their zone -------------------------------------------------------------------


def _time(text: str, lang: str) -> set[str]:
    times = [f for f in extract_numbers(text, lang) if f.kind == "time"]
    assert len(times) == 1, (text, times)
    return set(times[0].readings)


#: Time formats not read: id writes 15.05 (a decimal to any reader), yo 15:5.
UNREAD_TIMES = {"id", "yo"}


@pytest.mark.parametrize("lang", [lang for lang in CORPUS_LANGS if lang not in UNREAD_TIMES])
@pytest.mark.parametrize("width", ["short", "medium"])
def test_every_cldr_time_format_reads_as_its_time(lang, width):
    locale = Locale.parse(lang.replace("-", "_"))
    for hour, minute in ((0, 5), (9, 30), (12, 0), (15, 45), (23, 59)):
        text = format_time(time(hour, minute), width, locale=locale)
        later = format_time(time((hour + 1) % 24, minute), width, locale=locale)
        readings = {r[:5] for r in _time(f"at {text} today", lang)}
        assert f"{hour:02d}:{minute:02d}" in readings, (text, readings)
        assert not readings & {r[:5] for r in _time(f"at {later} today", lang)}, (text, later)


@pytest.mark.parametrize("hour", range(0, 24, 5))
def test_utc_and_jst_pairs(hour):
    jst = (hour + 9) % 24
    utc = _time(f"at {hour:02d}:30 UTC", "en")
    assert utc & _time(f"{jst:02d}:30 JST から", "ja")
    assert utc & _time(f"{jst:02d}:30 (UTC+9)", "ko")
    assert utc & _time(f"{jst:02d}:30 GMT+09:00", "zh")
    assert utc & _time(f"{hour:02d}:30", "de")  # a time in UTC = the time without a zone
    assert not utc & _time(f"{hour:02d}:30 JST", "ja")
    assert not utc & _time(f"{(hour + 1) % 24:02d}:30 UTC", "fr")


def test_zone_abbreviations_come_with_every_offset_they_stand_for():
    zones = zone_offsets()
    assert zones["UTC"] == (0,) and zones["JST"] == (540,) and zones["KST"] == (540,)
    assert {-360, 480} <= set(zones["CST"])  # US Central and China: either matches
    assert zone_at("09:00 XYZ", 5) is None
    assert zone_at("09:00 (UTC", 5) is None


def test_date_profiles_are_built_once_per_language():
    assert date_profile("pl") is date_profile("pl")
    assert date_profile("pl").months["sierpnia"] == date_profile("pl").months["sierpień"] == 8


# ---- numbers inside code ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "fr", "ru", "pt", "tr", "en", "ja"])
def test_numbers_in_code_are_code_text_in_every_language(lang):
    from parallelcheck.facts import ArticleFacts
    from parallelcheck.model.document import Section

    hunk = "@@ -138,7 +138,7 @@"
    section = Section(title=f"Hunk `{hunk}` and `1,5`", level=2, line=1, code_spans=[hunk, "1,5"])
    code = [f.readings for _, facts in ArticleFacts().numbers(section, lang).code for f in facts]
    assert code == [("138,7",), ("138,7",), ("1,5",)]


def test_code_numbers_keep_their_value_where_it_is_plain():
    assert [f.readings for f in extract_code_numbers("--port 8000 v3.10 1,000 0x1F x86_64")] == [
        ("8000",),
        ("1,000", "1000"),
    ]


def test_times_in_a_day_are_not_dates():
    moment = datetime.combine(date(2026, 12, 1), time(9, 0))
    assert not [f for f in extract_numbers(f"{moment:%H:%M}", "en") if f.kind == "date"]
