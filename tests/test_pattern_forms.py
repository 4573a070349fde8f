"""Patterns written in a form that compiles faster match what their plain form matches.

``re`` compiles a character class in time proportional to the characters of the Basic
Multilingual Plane it names, so a few classes are written as the complement of a smaller set.
Each is compared here with its plain form on every code point (a class matches one character,
so that is every input it can see)."""

from __future__ import annotations

import random
import re

import pytest

from parallelcheck.rules import untranslated
from parallelcheck.text import numeric, script

#: Every code point of the Basic Multilingual Plane, and every 97th above it.
CODE_POINTS = "".join(chr(c) for c in [*range(0x10000), *range(0x10000, 0x110000, 97)])


def _matched(pattern: re.Pattern[str]) -> str:
    return "".join(pattern.findall(CODE_POINTS))


@pytest.mark.parametrize(
    "floor",
    [
        "\x01",
        "\x7f",
        "\u02bc",
        "\u0370",
        "\u2010",
        "\u7fff",
        "\u8000",
        "\ub124",
        "\uff01",
        "\U0010ffff",
    ],
)
def test_reaching_matches_every_character_from_its_floor_up(floor: str) -> None:
    found = _matched(script.reaching(floor))
    assert found == "".join(ch for ch in CODE_POINTS if ch >= floor)
    assert found == _matched(re.compile(f"[{re.escape(floor)}-\U0010ffff]"))


def test_the_floors_of_a_run_read_as_their_plain_classes() -> None:
    floors = {numeric._MAP_FLOOR}
    for lang in ("en", "de", "ko", "ja", "zh-Hant", "ru", "hi"):
        floors.update(p.floor for p in numeric._profile_of(lang).passes if p.floor)
    assert len(floors) > 2
    for floor in floors:
        plain = re.compile(f"[{re.escape(floor)}-\U0010ffff]")
        assert _matched(script.reaching(floor)) == _matched(plain), repr(floor)


def test_past_the_latin_script_is_from_greek_up() -> None:
    plain = re.compile("[\u0370-\U0010ffff]")
    assert _matched(untranslated._FROM_GREEK) == _matched(plain)
    assert not untranslated._FROM_GREEK.search("Ünïcödé ſtraße ǅ ɐ ʯ \u036f")
    assert untranslated._FROM_GREEK.search("a α")


def _found_from_each_position(pattern: re.Pattern[str], text: str) -> list[tuple[int, int] | None]:
    """The span *pattern* finds searching from each position of *text* (number reading's
    passes search from where the last match left off)."""
    found = (pattern.search(text, pos) for pos in range(len(text) + 1))
    return [match.span() if match else None for match in found]


@pytest.mark.parametrize(
    ("words", "not_before", "others"),
    [
        # The Korean native numerals (their pass uses the form with the guard once), with
        # Hangul syllables at both ends of the guard's range, jamo and what lies beside it.
        (numeric._KO_NATIVE, "[가-힣]", ["가", "힣", "각", "\uabff", "\ud7a4", "ᄀ", "ㄱ", "명"]),
        (["one", "two", "twenty", "twelve", "ten", "three"], r"[\w-]", ["x", "é", "_", "-", "1"]),
    ],
)
def test_word_branches_with_the_guard_once_match_as_the_plain_form(
    words: list[str], not_before: str, others: list[str]
) -> None:
    plain = re.compile(numeric._word_branches(words, not_before))
    once = re.compile(numeric._word_branches(words, not_before, guard_once=True))
    pieces = [*words, *(w[:-1] for w in words if len(w) > 1), *others, " ", "\n", "  ", ".", ""]
    rng = random.Random(18)
    texts = [a + b for a in pieces for b in pieces]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    for text in texts:
        assert _found_from_each_position(once, text) == _found_from_each_position(plain, text), text


def test_the_korean_native_numerals_pass_uses_the_guard_once() -> None:
    native = re.compile(numeric._word_branches(numeric._KO_NATIVE, "[가-힣]", guard_once=True))
    assert native in [scan.pattern for scan in numeric._profile_of("ko").passes]


_PATTERNS_OF = """
import dataclasses, re, sys
from parallelcheck.text import numeric
for lang in sys.argv[1:]:
    profile = numeric._profile_of(lang)
    for field in dataclasses.fields(profile):
        value = getattr(profile, field.name)
        for item in value if isinstance(value, tuple) else (value,):
            pattern = getattr(item, "pattern", item)
            if isinstance(pattern, re.Pattern):
                print(lang, field.name, pattern.pattern)
"""


def test_number_patterns_are_the_same_in_every_process():
    """A language's number patterns are written the same whatever the process's string
    hashing: words of one length stand in alphabetical order, not in a set's order."""
    import os
    import subprocess
    import sys

    langs = ["en", "de", "es", "fr", "ja", "ko", "zh", "ru"]  # ja: its kana counts
    found = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", _PATTERNS_OF, *langs],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        found.append(result.stdout)
    assert found[0].count("\n") > 20
    assert found[0] == found[1]
