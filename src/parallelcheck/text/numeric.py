"""Numeric facts of running text, in any of the article's languages.

:func:`extract_numbers` finds the numbers a sentence states — digits, dates, times, percents,
multipliers, fractions and spelled-out numbers — and gives each the canonical keys it can be
compared by across languages.  The values come from :mod:`parallelcheck.text.numerals`; this
module decides *where* a number is.  Per language it scans the text once or twice with
patterns that begin with a literal or a character set (digits; number words on the
lower-cased text; CJK numerals; Korean number words), each followed by a little work per
match; facts of a later scan never overlap those of an earlier one.

Keys (:attr:`NumberFact.readings`): plain numbers as minimal decimals (``"131072"``,
``"1.8"``), percents ``"75%"``, multipliers ``"1.8x"``, dates ``"2026-10-20"`` (``"2026-10"``
for a month, ``"--10-20"`` for a day without a year), times ``"14:30"``, fractions ``"1/2"``
with their decimal value (``"0.5"``) as a second reading.  A form that several conventions
read differently keeps every reading, the language's own first: ``131,072`` in English is
``("131072", "131.072")``, in German ``("131.072", "131072")``.

What is a number, and what is not (the policy, with the reasons):

* Digits glued to an identifier are not numbers: after an ASCII letter or ``_`` (``SM100``,
  ``p99``, ``x86_64``), anywhere after a letter-led run of ``- . / : = # @ ~ +`` (``Apache-2.0``,
  ``V4.1-Flash``, ``Llama-3-70B``, ``/v1/chat``, ``nextn=3``, ``localhost:8000``), right after
  ``#`` / ``@`` (``#123``), after an address (``127.0.0.1:8000``), followed by letters that
  are no unit (``2FA``, ``3D``, ``1080p``, ``0x1F``, ``1e-5``), dotted versions with two or
  more points (``3.11.7``; in a decimal-comma language only when the groups are not
  thousands).  ``mid-2026``, ``pre-2020`` … are numbers.  Digits glued to non-ASCII letters are
  numbers (``4장``, ``64張``, ``2つ``).
* Signs are not part of a value: ``3-5`` is the range 3 to 5 and ``-5%`` states the same 5%
  as ``下降5%``.  Ranges (``3–5``, ``3~5``, ``3 to 5``) and sums (``64+64``) give one fact per
  endpoint; the first endpoint takes the ``%`` or ``×`` of the second (``200–300%``).
* ``1,5`` in a decimal-point language (en, zh, ja, ko …) is the list of 1 and 5 (as in
  ``1,2,3``); ``1.5`` in a decimal-comma language (de, fr …) is 1.5, since versions and
  English-style decimals are everywhere in technical text.  Plain spaces group thousands
  only in languages that write ``1 000`` (fr, ru, pl, sv …); no-break, narrow no-break and thin
  spaces group in every language.
* ``128K`` reads as 128000 or 131072, ``1.5M`` as 1500000, ``70B`` as 70000000000;
  ``1.8 million`` / ``1,8 Millionen`` as 1800000; ``1st``, ``2nd`` as 1, 2.
* Dates written with month names or a language's literals are read first, from the CLDR's
  names and patterns for the language (:mod:`parallelcheck.text.dates`: ``11 sierpnia 2020``,
  ``в апреле 2023 года``, ``ngày 11 tháng 8 năm 2020``, Unix ``date`` and RFC 2822 output);
  numeric dates (``2026-10-20``, ``20.10.2026``, ``10/20/2026`` with both readings where the
  order is ambiguous) here.  A time takes the zone written after it and is keyed in UTC
  (``09:00 UTC`` and ``18:00 JST`` are ``"09:00Z"``; a UTC time also has the plain key), and
  the CLDR's words for before and after noon (``오후 3:05``, ``下午3:05``, ``3:05 م``).
* Inline code is read by :func:`extract_code_numbers`, as code, not in the text's language.
* A lone ``v`` before digits is a version number (``v13``); ``base 32``, ``16진수``,
  ``16進数`` name a numeral system and are no numbers; ``100,0000`` and ``1,00,000`` (outside
  the CLDR's Indian-numbering languages) are kept as *malformed* (their reading is the text,
  marked), ``1,00,000`` in hi, bn … is 100000.
* Multiplier words (``twice``, ``double``, ``doppelt``, ``вдвое``) are *weak* multipliers
  (:attr:`NumberFact.weak`); ``10 times`` is a count that also reads as ``10x``.
* ``N月`` / ``N월`` alone is a month name (``三月``, ``10월``), not a number; inside a date it
  is part of the date.  A date is one fact, its parts are not numbers of their own.
* ``N times`` / ``N mal`` / ``N fois`` … are multipliers when the number has a fraction or a
  comparative follows (``1.8 times higher``); otherwise a count with the unit ``times``.
* Spelled numbers (:attr:`NumberFact.spelled`) come only from strict patterns:

  - English and de/fr/es/pt/it/nl number words as whole words (``two engines``, ``a million``,
    ``per million``); not the words that are mostly articles (``a``, ``ein``, ``un``, ``een``
    …), not plurals (``hundreds of``), not idioms (``no one``, ``one another``, ``the one``,
    ``one-to-many``, ``one-off``, ``zero-copy``), not ordinals (``first``).
  - Chinese/Japanese numerals: a multi-character numeral that parses (``十三萬``, ``百萬``,
    ``二十``), or a single numeral followed by a counter (``一個``, ``十篇``, ``兩倍``,
    ``一つ``) or preceded by 第; never in a word of the stop list (``一些``, ``統一``, ``唯一``,
    ``一定``, ``十分``, ``萬一``, ``進一步``, ``下一個``, ``同一``, ``第三方``, ``一番`` …, see
    ``_STOP_ZH`` / ``_STOP_JA``), never approximate (``數百萬``, ``十多個``, ``幾十``), never
    a numeral base (``十六進制``); a stop word inside a longer numeral does not count (the
    萬一 of 十三萬一千).  ``一個`` is 1 even where the English says "a": a rule comparing
    versions should treat a spelled 1 as weak evidence.
  - Korean: Sino-Korean in Hangul only as a multi-syllable numeral with 십/백/천/만/억 standing
    as its own word (``백만``, ``십억``; not ``천사``, ``만일``, ``오만``, ``이만``, never a single
    syllable such as 이 "this" or 일 "work"); digits with 만/억/천/백 (``1.8만``, ``13만1072``;
    ``3만`` before a word that is no counter is 3 "only").  Native numbers as standalone
    words with particles (``하나뿐``, ``둘이``, ``셋``, ``다섯``; not ``하나님``, ``셋업``,
    ``둘 다`` "both"; 둘 before another word only in ``둘 중``, ``둘 이상`` …, as elsewhere it
    is the verb 두다: ``둘 수``, ``중점을 둘 것``), or the prenominal forms 한/세/네/열/스무 …
    before a counter (``한 줄``, ``세 개``, ``열 가지``); ``두`` also before any noun, since as
    a word of its own it has no other meaning (``두 수치``).  ``한 줄`` = 1 is intended.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, partial

from parallelcheck.text.dates import (
    DateProfile,
    date_profile,
    day_period,
    may_hold_date,
    month_of,
    read_date,
    shift_time,
    zone_at,
)
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.lexicon import LETTER_RUN, word_trie
from parallelcheck.text.numerals import (
    MULTIPLIER_WORDS,
    NUMBER_WORDS,
    SCALE_WORDS,
    canonical,
    cjk_numeral_chars,
    digit_readings,
    grouping_of,
    indian_groups,
    misgrouped,
    native_korean_is_prenominal,
    parse_cjk,
    parse_native_korean,
    parse_number_words,
    parse_sino_korean,
)
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.script import is_hangul_syllable as _is_hangul
from parallelcheck.text.script import reaching

__all__ = ["NumberFact", "extract_code_numbers", "extract_numbers"]


@dataclass(frozen=True)
class NumberFact:
    """One number a text states (see the module documentation for the keys)."""

    text: str  # the span as written
    start: int  # offsets of the span in the text
    end: int
    kind: str  # "number" | "percent" | "multiplier" | "fraction" | "date" | "time"
    readings: tuple[str, ...]  # canonical keys; the language's own reading first
    spelled: bool  # words / CJK numerals / Korean native numbers rather than digits
    unit: str = ""  # a unit or counter right after it, normalised lower-case
    #: A word that may state the number or mean something else ("double" = 2×, but also
    #: "double quotes"): it matches, and is never a difference on its own.
    weak: bool = False
    #: Digits grouped the way no convention groups them (``100,0000``; ``1,00,000`` outside
    #: Indian numbering): its one reading is the text itself, marked (``"≠100,0000"``).
    malformed: bool = False

    def counts_up_to(self, limit: int) -> bool:
        """Whether this is a plain number (not a date, percent, multiplier …) no larger than
        *limit* (its first reading; a malformed one's is none)."""
        if self.kind != "number":
            return False
        try:
            return abs(float(self.readings[0])) <= limit
        except ValueError:
            return False


# --------------------------------------------------------------------------------------------
# Languages

_DECIMAL_COMMA = frozenset(
    "de fr es pt it nl ru uk tr pl cs sk sl hr sr bs sv nb nn no da fi et lv lt ro bg hu el "
    "id vi az kk be ca gl eu is mk sq ka hy".split()
)
_SPACE_GROUPS = frozenset("fr ru uk pl cs sk sv nb nn no fi et lv lt bg hu be kk".split())
_CJK_LANGS = frozenset({"zh", "ja"})
_ENGLISH_INSIDE = frozenset({"zh", "ja", "ko"})

# Other decimal digits (full-width, Arabic-Indic, Devanagari, Bengali) become ASCII, one
# character for one, so offsets stay those of the original text.
_DIGIT_MAP: dict[int, int] = {}
for _base in (0xFF10, 0x0660, 0x06F0, 0x0966, 0x09E6):
    for _i in range(10):
        _DIGIT_MAP[_base + _i] = ord("0") + _i
_DIGIT_MAP.update({ord("％"): ord("%"), ord("，"): ord(","), ord("．"): ord(".")})
_DIGIT_MAP.update({ord("～"): ord("~"), ord("："): ord(":"), ord("／"): ord("/")})
_DIGIT_MAP.update({ord("＋"): ord("+"), ord("－"): ord("-")})
del _base, _i
# Full-width punctuation is everywhere in CJK text; it only matters next to a digit.
_NEEDS_MAP = compile_pattern("[０-９٠-٩۰-۹०-९০-৯％]|[0-9][，．：／～＋－][0-9]|[＋－][0-9]")
#: Every match of _NEEDS_MAP holds a character of the map, and none is below this one: a text
#: whose characters are all below it (every Latin-script text without curly quotes or dashes)
#: is not searched.
_MAP_FLOOR = chr(min(_DIGIT_MAP))


_MAP_REACH = reaching(_MAP_FLOOR)

# --------------------------------------------------------------------------------------------
# Pieces of the patterns

_D = "[0-9]"
_YEAR = "[12][0-9]{3}"
_SP = "[ \u00a0\u202f\u2009]"

_PERCENT = (
    r"%|‰|percent\b|per[ \u00a0]cent\b|パーセント|퍼센트|[Pp]rozent\b|pour[ \u00a0]cent\b"
    r"|por[ \u00a0]ciento\b|por[ \u00a0]cento\b|per[ \u00a0]cento\b|procent\b|процент[а-я]*"
)
_MULTIPLIER_SIGN = r"×|x(?![A-Za-z0-9])|倍|배(?![가-힣])|배(?=[는를의로가도만])"
_MULTIPLIER_WORD = r"times\b|-?fach\b|-?[Mm]al\b|fois\b|veces\b|vezes\b|volte\b|keer\b|раза?\b"
_COMPARATIVES = frozenset(
    "more less higher lower faster slower larger smaller bigger greater better worse cheaper "
    "fewer longer shorter quicker as "
    "mehr weniger höher niedriger schneller langsamer größer kleiner besser so "
    "plus moins mieux más menos mejor mais melhor più meno migliore "
    "meer minder sneller trager groter kleiner hoger lager beter zo "
    "больше меньше быстрее медленнее выше ниже лучше".split()
)

_ASCII_UNITS: dict[str, str] = {}
for _group in (
    "b kb mb gb tb pb kib mib gib tib bit byte gbps mbps kbps ns us µs μs ms s sec second min "
    "minute h hr hour day week month year hz khz mhz ghz token gpu cpu npu core node request "
    "req rps qps tps fps rpm px pt em rem dpi cm mm km kg w kw times line page step"
).split():
    _ASCII_UNITS[_group] = _group
    _ASCII_UNITS[_group + "s"] = _group
for _alias, _unit in {"secs": "sec", "mins": "min", "hrs": "hr", "bits": "bit"}.items():
    _ASCII_UNITS[_alias] = _unit
del _group, _alias, _unit
_ASCII_UNITS.pop("ss", None)

_WORD_UNITS = {
    "トークン": "token",
    "토큰": "token",
    "バイト": "byte",
    "바이트": "byte",
    "ミリ秒": "ms",
    "밀리초": "ms",
    "ギガバイト": "gb",
    "기가바이트": "gb",
}

# Counters that make a single Chinese/Japanese numeral a number (一個, 十篇, 兩倍, 一つ).
_COUNTERS = set(
    "個个張张篇本つ人名件次回倍年日天週周種种項项台枚位家章節节行段條条款層层步歩歲岁秒頁页份套"
    "組组列欄栏筆笔則则句部輪轮期代版類类基機机軒匹羽冊册號号顆颗座塊块封場场輛辆遍趟届屆間间"
)
_MULTI_COUNTERS = sorted(
    "個月 个月 ヶ月 か月 カ月 ヵ月 ケ月 分鐘 分钟 小時 小时 時間 種類 种类 週間 年間 日間 箇所 "
    "か所 カ所 ヶ所 ヵ所 文字 毫秒 ミリ秒 位元組 字節 字节".split(),
    key=len,
    reverse=True,
)
# Further units after digits only (10分 is ten minutes, but 十分 is "very").
_DIGIT_COUNTERS = set("分字度時点點番円元月号號歳割票条")

_KO_COUNTERS = sorted(
    "가지 개월 개 명 번 장 대 권 편 줄 살 시간 달 해 분 초 주일 주 차례 곳 군데 마리 잔 병 쪽 "
    "글자 단어 문장 단계 칸 행 쌍 벌 배 종류 회 건 층 통 자리 원 달러 바이트 토큰 비트 년 월 일 "
    "코어 세대 퍼센트".split(),
    key=len,
    reverse=True,
)
#: Korean native numerals: the tens, the units, and each ten with a unit (스무 stands alone).
_KO_TENS = "열 스물 스무 서른 마흔 쉰 예순 일흔 여든 아흔".split()
_KO_UNITS = "하나 한 둘 두 셋 세 넷 네 다섯 여섯 일곱 여덟 아홉".split()
_KO_NATIVE = _KO_TENS + _KO_UNITS + [a + b for a in _KO_TENS for b in _KO_UNITS if a != "스무"]
_KO_SINO_ONLY = frozenset("년 월 일 초 원 달러 퍼센트 회 층 세대 바이트 비트 토큰 코어".split())
_KO_ATTACHED_COUNTERS = frozenset("개 가지 번 명 줄 장 달 배 권 살".split())
_KO_PARTICLE = frozenset(
    "은는이가을를의에와과도만뿐씩째로으당까부보처마나라요입인였고지일야여며면서든랑께"
)

_STOP_ZH = (
    "一些 一樣 一样 一定 一起 統一 统一 唯一 一般 一直 一旦 萬一 万一 一切 一致 一部 一方 "
    "十分(?![鐘钟]) 一向 一度 同一 一下 一同 一律 一再 一貫 一贯 一邊 一边 一體 一体 一概 一面 "
    "一時 一时 一會 一会 進一步 进一步 下一 上一 前一 後一 后一 另一 每一 任一 逐一 單一 单一 "
    "第三方 一共 一一 千萬(?![個个倍元]) 千万(?![個个倍元]) 一次性 一條龍 一条龙 一手 第一手 "
    "一流 一併 一并 一道 一番 一頭 一头 第一級 第一级 第一線 第一线 一系列 一齊 一齐 一口 一旁 "
    "一步一步 一遍又一遍"
)
_STOP_JA = (
    "一番 一部 一方 一緒 一般 一応 一旦 一瞬 一貫 一致 統一 唯一 同一 一定 一時 一層 一段 "
    "一本化 一度 一切 万一 一向 十分 一通 一体 一連 一斉 一律 一括 一枚岩 一環 一面 一見 "
    "一気 一生 一流 一人前 人称 一次 二次 次元 一歩 第一級 第一線 第一人者 第三者 一目 一品 "
    "一人ひとり 二人三脚 一日中 何一つ 一つ一つ 一般的 一時的"
)
_STOP_KO = "천사 만일 만사 오만 이만 천만에 억만 일일 십시"
#: Words that begin with a counter character but are no counter (這一行為, 那一位置).
_COUNTER_WORDS = frozenset(
    "位置 行為 行为 類型 类型 組織 组织 條件 条件 項目 项目 代碼 代码 人員 人员 名稱 名称 名字 "
    "次數 次数 期間 期间 代表 回應 回应 日誌 日志 本身 本地 部分 部署 家庭 台灣 台湾 層級 层级 "
    "段落 行動 行动 行業 行业 列表 種子 种子 場景 场景 節點 节点 年代 日期 人気 本当 回答".split()
)
_STOPS: dict[str, str] = {
    # word lists, compiled as tries (see _stop_pattern)
    "zh": _STOP_ZH,
    "ja": _STOP_JA,
    "ko": _STOP_KO,
    "en": (
        r"\bno[ \u00a0]one\b|\bone[ \u00a0]another\b"
        r"|\b(?:the|this|that|which|every)[ \u00a0]one\b"
        r"(?![ \u00a0-]+(?:hundred|thousand|million|billion|trillion)\b)"
        r"|\bone-(?:to|on|off|shot|liner?s?)\b|-to-one\b|\bzero-\w"
    ),
    "fr": r"\bpartir de zéro\b",
    "es": r"\bdesde cero\b|\bde cero\b|\bcada uno\b",
    "pt": r"\bdo zero\b|\bdesde o zero\b",
    "it": r"\bda zero\b",
    "nl": r"\bvanaf nul\b",
}
#: Scale words in the plural mean "millions of", not a number, when no number precedes.
_PLURAL_SCALES = frozenset(
    "millionen milliarden billionen millions milliards millones billones milhões bilhões "
    "biliões milioni miliardi".split()
)
_NOT_BEFORE_DIGITS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_RANGE_JOIN = compile_pattern(
    r"[ \u00a0\u202f\u2009]*(?:[-–—~〜～]|to|bis|à|a|al|tot|до|から|에서)[ \u00a0\u202f\u2009]*"
)

#: After digits, the word for a numeral system (16진수 "hexadecimal", 2進数, 8进制).
_BASE_WORDS = ("진수", "진법", "進数", "進制", "进制", "進法", "進位", "进位")
_BASE_BEFORE = compile_pattern(r"(?<![\w-])[Bb]ase[ \u00a0-]$")
_APPROXIMATE_BEFORE = frozenset("數数幾几何上成好")
_APPROXIMATE_AFTER = frozenset("多餘余幾几來来数數")
_BASE_AFTER = ("進", "进", "次元")

_KANA_NUMBERS = {
    "ひとつ": 1,
    "ふたつ": 2,
    "みっつ": 3,
    "よっつ": 4,
    "いつつ": 5,
    "むっつ": 6,
    "ななつ": 7,
    "やっつ": 8,
    "ここのつ": 9,
}

_GLUE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:=#@~+")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_ADDRESS = compile_pattern(r"[0-9]+(?:\.[0-9]+){2,}[:/]")
_FREE_PREFIX = compile_pattern(r"^(?:(?i:mid|pre|post|early|late)-|v)$")  # mid-2026, v13
_TAIL = compile_pattern(r"[A-Za-z_µμ][A-Za-z0-9_]*")
_ORDINAL_TAILS = {
    "en": ("st", "nd", "rd", "th"),
    "fr": ("er", "re", "e", "ème", "eme", "nd", "nde"),
}
_VULGAR = {
    "½": (1, 2),
    "⅓": (1, 3),
    "⅔": (2, 3),
    "¼": (1, 4),
    "¾": (3, 4),
    "⅕": (1, 5),
    "⅖": (2, 5),
    "⅗": (3, 5),
    "⅘": (4, 5),
    "⅙": (1, 6),
    "⅚": (5, 6),
    "⅐": (1, 7),
    "⅛": (1, 8),
    "⅜": (3, 8),
    "⅝": (5, 8),
    "⅞": (7, 8),
    "⅑": (1, 9),
    "⅒": (1, 10),
}
_DIGIT_RUN = compile_pattern(r"[0-9]+")


def _alternation(words) -> str:
    """*words* as a regex alternation, longest first (so that the longest word at a place
    matches), words of one length in their alphabetical order: the same pattern in every
    process (ordered by length alone, they came in the set's order, which string hashing
    makes differ from one process to the next; two words of one length that both match at
    a place match the same characters, so the order never changed a match)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def _word_branches(words, not_before: str, *, guard_once: bool = False) -> str:
    """A trie of literal words, none starting right after a character of *not_before*.

    The look-behind sits after each word's first character, so every branch starts with a
    literal and the regex engine can skip to the possible first characters quickly.

    With *guard_once*, for a *not_before* class that is costly to compile (``re`` compiles a
    class in time proportional to the characters it names: the 11,172 Hangul syllables of
    ``[가-힣]`` cost about 3 M instructions each time), the pattern starts with the class of
    the words' first characters instead (the same quick skip), the look-behind follows it
    once, and each branch after it is chosen by a look-behind at the first character read.
    The matches are the same, at the same places: the branches start with different
    characters, so exactly one of them goes on from the character read, and it goes on as
    its branch of the plain form does (``tests/test_pattern_forms.py`` compares the two).
    For the Korean native numerals this compiles in 17 M instructions instead of 101 M and
    searches the Korean texts of the FastAPI corpus in 7 M more (338 M against 331 M); the
    plain form stays where the class is cheap (``[\\w-]``), since it searches faster."""
    children: dict[str, list[str]] = {}
    for word in set(words):
        children.setdefault(word[0], []).append(word[1:])
    parts = []
    for first in sorted(children):
        rests = children[first]
        longer = [rest for rest in rests if rest]
        if guard_once:
            head = f"(?<={re.escape(first)})"
        else:
            head = f"{re.escape(first)}(?<!{not_before}{re.escape(first)})"
        if not longer:
            parts.append(head)
            continue
        optional = "?" if len(longer) < len(rests) else ""
        parts.append(f"{head}(?:{word_trie(longer)}){optional}")
    if not guard_once:
        return "|".join(parts)
    firsts = re.escape("".join(sorted(children)))
    return f"[{firsts}](?<!{not_before}(?s:.))(?:{'|'.join(parts)})"


@dataclass(frozen=True)
class _Pass:
    """One scan of the text (of its lower-cased form when *lowered*) with *pattern*, whose
    matches go to *handler*.  Every pattern starts with a literal or a character set, so the
    regex engine skips quickly to the characters a number can start with.  *floor* is the
    smallest character a match can start with: a text whose characters are all below it (a
    Latin-script text for the Han, Kana and Hangul passes) is not scanned at all.  Every
    match holds one of the characters *holds* (of a pass that is not *lowered*; a date
    holds a digit): see :attr:`_Profile.numberish`."""

    pattern: re.Pattern[str]
    handler: Callable[..., int]
    lowered: bool = False
    floor: str = ""
    holds: str = ""
    #: Whether a text may hold a match (dates: a digit and a month name); a text it
    #: refuses is not scanned.
    admits: Callable[[str], bool] | None = None
    #: Finds a character from *floor* up (``None`` without a floor).
    reach: re.Pattern[str] | None = field(init=False, default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reach", reaching(self.floor) if self.floor else None)


@dataclass(frozen=True)
class _Profile:
    lang: str
    dates: DateProfile
    passes: tuple[_Pass, ...]
    #: Finds a character some match of a pass that is not *lowered* holds, or a character
    #: the digit map changes (:data:`_NEEDS_MAP`'s first): in a text it finds nothing in,
    #: only the number words' passes (:attr:`word_passes`) can find a number, and the text
    #: needs no mapping.
    numberish: re.Pattern[str]
    #: Finds a digit, a character the digit map changes, ``×`` or a vulgar fraction: in a
    #: text it finds nothing in, only the passes of :attr:`numeral_passes` can find a
    #: number (no date, no digits), and the text needs no mapping.
    digitish: re.Pattern[str]
    #: The passes of :attr:`passes` but those whose matches hold what :attr:`digitish`
    #: finds (the numerals of a script, and the number words).
    numeral_passes: tuple[_Pass, ...]
    #: The passes of :attr:`passes` that read the lower-cased text (number words).
    word_passes: tuple[_Pass, ...]
    #: Finds in lower-cased text a word that a match of :attr:`word_passes` starts with, or
    #: ``None`` without such passes: in a text it finds nothing in, they find nothing.
    words_anywhere: re.Pattern[str] | None
    decimal_comma: bool
    digit_re: re.Pattern[str]  # tried where a digit run starts
    month_date_re: re.Pattern[str] | None  # tried where a month name starts
    month_before: re.Pattern[str] | None  # a month name right before a digit run
    months: dict[str, int]
    number_words: frozenset[str]
    words_next: re.Pattern[str] | None
    scale_re: re.Pattern[str] | None
    scales: dict[str, int]
    stop_re: re.Pattern[str] | None
    percent_before: bool
    indian: bool  # digits grouped 1,00,000 (the CLDR's #,##,##0)


# Lower case, one character for one (str.lower can change lengths: İ → i̇).
_LOWER = {
    cp: ord(ch.lower())
    for cp in range(0x41, 0x250)
    if (ch := chr(cp)).lower() != ch and len(ch.lower()) == 1
}
_DIGITS = "0123456789"
_DIGIT_STARTS = _DIGITS + "×" + "".join(_VULGAR)


def _one_of(characters: set[str]) -> re.Pattern[str]:
    return compile_pattern(f"[{re.escape(''.join(sorted(characters)))}]")


def _stop_pattern(lang: str) -> re.Pattern[str] | None:
    stop = _STOPS.get(lang)
    if not stop:
        return None
    if lang in ("zh", "ja", "ko"):
        words = stop.split()
        plain = [w for w in words if "(" not in w]
        return compile_pattern("|".join([word_trie(plain), *(w for w in words if "(" in w)]))
    return compile_pattern(stop, re.IGNORECASE)


@cache
def _profile(lang: str) -> _Profile:
    """The number patterns of a primary language subtag.  Cached: a function of the language
    alone (the patterns are built from this module's constants), one entry per language of the
    run; building them costs milliseconds, and every text of the language needs them."""
    decimal_comma = lang in _DECIMAL_COMMA
    group_space = _SP if lang in _SPACE_GROUPS else "[\u00a0\u202f\u2009]"
    # Space groups come before any point or comma (1 000 000,5), never after a decimal part.
    num = rf"{_D}+(?:{group_space}{_D}{{3}}(?![0-9]))*(?:[.,]{_D}+)*"
    case = 0 if lang == "en" else re.IGNORECASE
    passes: list[_Pass] = []
    dates = date_profile(lang)
    if dates.pattern is not None:  # dates with words or literals (CLDR), before anything else
        admits = partial(may_hold_date, dates)
        passes.append(_Pass(dates.pattern, _h_cldr_date, admits=admits, holds=_DIGITS))

    # Chinese / Japanese numerals and Korean number words: passes of their own, before the
    # digits (百分之75 is one percent).  Han numerals are read in every language, since any
    # text may quote Chinese or Japanese (a cheap pass: it starts only at a Han numeral).
    chars = cjk_numeral_chars(with_trillion=lang == "ja")
    digits = "〇零一二三四五六七八九兩两"
    passes.append(
        _Pass(
            compile_pattern(
                rf"[第{chars}][{chars}]*(?:[點点][{digits}]+[{chars}]*)?"
                rf"(?:(?<=百)分之(?:{_D}+(?:\.{_D}+)?|[{chars}]+(?:[點点][{digits}]+)?))?"
            ),
            _h_han,
            floor=min("第" + chars),
            holds="第" + chars,
        )
    )
    if lang == "ja":
        kana = compile_pattern(_alternation(_KANA_NUMBERS))
        initials = "".join(word[0] for word in _KANA_NUMBERS)
        passes.append(_Pass(kana, _h_kana, floor=min(initials), holds=initials))
    if lang == "ko":
        sino = "일이삼사오육칠팔구십백천만억"
        passes.append(
            _Pass(compile_pattern(rf"[{sino}][{sino}]+"), _h_kos, floor=min(sino), holds=sino)
        )
        native_re = compile_pattern(_word_branches(_KO_NATIVE, "[가-힣]", guard_once=True))
        initials = "".join(word[0] for word in _KO_NATIVE)
        passes.append(_Pass(native_re, _h_kon, floor=min(initials), holds=initials))

    # What a digit run can start: dates and times first, since their digits are not
    # numbers of their own.
    digit_led = [
        rf"(?P<iso>{_YEAR}(?P<s1>[-/.]){_D}{{1,2}}(?P=s1){_D}{{1,2}}(?![0-9]|[-/.][0-9]))",
        rf"(?P<isoym>{_YEAR}[-/]{_D}{{1,2}}(?![0-9]|[-/.][0-9]))",
        rf"(?P<dmy>{_D}{{1,2}}(?P<s2>[-/.]){_D}{{1,2}}(?P=s2){_YEAR}(?![0-9]|[-/.][0-9]))",
    ]
    if lang in _CJK_LANGS:
        digit_led.append(
            rf"(?P<cjkdate>{_YEAR}{_SP}?年{_SP}?{_D}{{1,2}}{_SP}?月"
            rf"(?:{_SP}?{_D}{{1,2}}{_SP}?[日号號])?|{_D}{{1,2}}{_SP}?月{_SP}?{_D}{{1,2}}{_SP}?[日号號])"
        )
    if lang == "ko":
        digit_led.append(
            rf"(?P<kodate>{_YEAR}{_SP}?년{_SP}?{_D}{{1,2}}{_SP}?월(?:{_SP}?{_D}{{1,2}}{_SP}?일)?"
            rf"|{_D}{{1,2}}{_SP}?월{_SP}?{_D}{{1,2}}{_SP}?일)"
        )
    months: dict[str, int] = {}
    month_date_re = None
    names: list[str] = []
    # Month names of letters only (not 10월, tháng 8: the CLDR pass reads those).
    months = {name: month for name, month in dates.months.items() if name.isalpha()}
    if months:
        names = [m.title() for m in months] if lang == "en" else list(months)
        month = "(?:" + _alternation(names) + r")(?![^\W\d_])\.?"
        day = rf"{_D}{{1,2}}(?:st|nd|rd|th|er|º|°)?\.?"
        of = r"(?:de|of)\s+" if lang in ("es", "pt", "en") else ""
        digit_led.append(
            rf"(?P<dmonth>{day}\s+(?:{of})?{month}(?:,?\s+(?:(?:de|del)\s+)?{_YEAR})?)"
        )
        month_date_re = compile_pattern(
            rf"{month}\s+(?:{_D}{{1,2}}(?:st|nd|rd|th)?(?![0-9])(?:,?\s+{_YEAR}(?![0-9]))?"
            rf"|(?:de\s+)?{_YEAR}(?![0-9]))",
            case,
        )
    digit_led.append(
        rf"(?P<time>(?:[01]?[0-9]|2[0-4]):[0-5][0-9](?::[0-5][0-9])?(?![0-9]|:[0-9])"
        rf"(?:{_SP}?[AaPp]\.?[Mm]\.?(?![A-Za-z]))?"
        rf"|(?:1[0-2]|0?[1-9]){_SP}?[AaPp]\.?[Mm]\.?(?![A-Za-z]))"
    )
    digit_led.append(rf"(?P<frac>{_D}{{1,3}}/{_D}{{1,3}}(?![0-9]|/[0-9]))")
    if lang in _CJK_LANGS:
        mags = "万萬億亿千百" + ("兆" if lang == "ja" else "")
        chars = cjk_numeral_chars(with_trillion=lang == "ja")
        digit_led.append(rf"(?P<mix>{num}{_SP}?[{mags}](?:[0-9.]+|[{chars}])*)")
    if lang == "ko":
        digit_led.append(rf"(?P<komix>{num}(?:{_SP}(?=[만억]))?[만억천백](?:[0-9]+[만억천백]?)*)")
    digit_led.append(rf"(?P<num>(?:×{_SP}?)?{num})")
    digit_led.append(rf"(?P<vulgar>[{''.join(_VULGAR)}])")
    digit_re = compile_pattern("|".join(digit_led), case)

    digit_starts = compile_pattern("|".join(re.escape(ch) for ch in _DIGIT_STARTS))
    passes.append(_Pass(digit_starts, _h_digits, holds=_DIGIT_STARTS))
    month_before = None
    if names:
        month_before = compile_pattern(
            rf"(?<![^\W\d_])(?:{_alternation(names)})\.?\s+(?:de\s+)?$", case
        )

    # Number words after the digits: a scale word the digits took (1.8 million) is theirs.
    number_words: frozenset[str] = frozenset()
    words_next = None
    every_word: set[str] = set()  # of the word passes (each not after a [\w-] character)
    # Chinese, Japanese and Korean texts quote English words as they are: read those.
    words_lang = lang if lang in NUMBER_WORDS else ("en" if lang in _ENGLISH_INSIDE else None)
    if words_lang is not None:
        number_words = frozenset(NUMBER_WORDS[words_lang])
        every_word |= number_words
        branches = _word_branches(number_words, r"[\w-]")
        passes.append(_Pass(compile_pattern(rf"(?:{branches})(?!\w)"), _h_words, lowered=True))
        english = words_lang == "en"
        joiner = r"(?:[ \t\u00a0]+(?:and[ \t\u00a0]+)?|-)" if english else r"[ \t\u00a0]+"
        words_next = compile_pattern(
            rf"{joiner}({_alternation(number_words)})(?![\w])", re.IGNORECASE
        )

    # Multiplier words ("twice", "doppelt"), weak (see NumberFact.weak): after the numbers.
    multiplier_lang = (
        lang if lang in MULTIPLIER_WORDS else ("en" if lang in _ENGLISH_INSIDE else "")
    )
    if multiplier_lang:
        every_word |= set(MULTIPLIER_WORDS[multiplier_lang])
        branches = _word_branches(MULTIPLIER_WORDS[multiplier_lang], r"[\w-]")
        passes.append(_Pass(compile_pattern(rf"(?:{branches})(?![\w-])"), _h_multiplier_word, True))

    scales = SCALE_WORDS.get(lang, {})
    scale_re = None
    if scales:
        scale_re = compile_pattern(rf"{_SP}+({_alternation(scales)})(?![\w])", re.IGNORECASE)
    stop = _stop_pattern(lang)
    # The characters the digit map changes to a digit or a percent sign count as digits.
    mapped = "".join(chr(cp) for cp, to in _DIGIT_MAP.items() if chr(to) in _DIGITS + "%")
    held = {ch for scan in passes if not scan.lowered for ch in scan.holds + mapped}
    # The passes of the lower-cased text come last: extract_numbers stops at the first of
    # them when no word of theirs is there.
    first_lowered = next((i for i, scan in enumerate(passes) if scan.lowered), len(passes))
    assert all(scan.lowered for scan in passes[first_lowered:])
    digitish = set(_DIGIT_STARTS + mapped)
    return _Profile(
        lang=lang,
        dates=dates,
        passes=tuple(passes),
        numberish=_one_of(held),
        digitish=_one_of(digitish),
        numeral_passes=tuple(
            scan for scan in passes if scan.lowered or not set(scan.holds) <= digitish
        ),
        word_passes=tuple(scan for scan in passes if scan.lowered),
        words_anywhere=compile_pattern(_word_branches(every_word, r"[\w-]"))
        if every_word
        else None,
        decimal_comma=decimal_comma,
        digit_re=digit_re,
        month_date_re=month_date_re,
        month_before=month_before,
        months=months,
        number_words=number_words,
        words_next=words_next,
        scale_re=scale_re,
        scales={k.lower(): v for k, v in scales.items()},
        stop_re=stop,
        percent_before=lang == "tr",
        indian=grouping_of(lang) == (3, 2),
    )


_PERCENT_RE = compile_pattern(rf"{_SP}?(?:{_PERCENT})")
_MULTIPLIER_RE = compile_pattern(
    rf"{_SP}?(?:{_MULTIPLIER_SIGN})|(?:{_SP}|-)?(?:{_MULTIPLIER_WORD})"
)
_NEXT_WORD = compile_pattern(r"[ \u00a0\u202f]+([^\W\d_]+)")


# --------------------------------------------------------------------------------------------
# Extraction


@cache
def _profile_of(lang: str) -> _Profile:
    """The number patterns of a language tag (its primary language's).  Cached: one entry per
    language tag of the run."""
    return _profile(primary_language(lang) if lang else "en")


def prepare(lang: str) -> None:
    """Build *lang*'s number patterns now rather than on its first text (a process about to
    fork workers builds them once for all of them)."""
    _profile_of(lang)


def extract_numbers(text: str, lang: str) -> list[NumberFact]:
    """The numeric facts of *text* (a paragraph, list item, table cell or heading) in *lang*,
    in the order they occur.

    >>> [(f.text, f.kind, f.readings) for f in extract_numbers("1.8× higher, 75%", "en")]
    [('1.8×', 'multiplier', ('1.8x',)), ('75%', 'percent', ('75%',))]
    """
    if not text:
        return []
    profile = _profile_of(lang)
    plain = text.isascii()  # then "\x7f" is the largest character there can be
    passes = profile.passes
    if profile.numberish.search(text) is None:
        passes, t = profile.word_passes, text  # most texts: no digit, no numeral
    elif profile.digitish.search(text) is None:
        passes, t = profile.numeral_passes, text  # numerals of a script, not digits
    elif plain:
        t = text
    else:
        mapped = _MAP_REACH.search(text) and _NEEDS_MAP.search(text)
        t = text.translate(_DIGIT_MAP) if mapped else text
    facts: list[NumberFact] = []
    lowered = ""
    for scan in passes:
        # Skipped when every character is below the floor (mapping digits lowers characters:
        # what *text* does not reach, *t* does not either).
        reach = scan.reach
        if reach is not None and (scan.floor > "\x7f" if plain else not reach.search(text)):
            continue
        if scan.admits is not None and not scan.admits(t):
            continue
        subject = t
        if scan.lowered:
            if not lowered:
                lowered = t.lower()
                if len(lowered) != len(t):  # İ → i̇ would move the offsets
                    lowered = t.translate(_LOWER)
                if profile.words_anywhere.search(lowered) is None:
                    break  # the word passes, the last ones, find nothing (most texts)
            subject = lowered
        claimed = sorted((f.start, f.end) for f in facts) if facts else None
        search = scan.pattern.search
        handler = scan.handler
        pos = 0
        while match := search(subject, pos):
            start = match.start()
            if claimed:
                taken = _claim_end(claimed, start, match.end())
                if taken >= 0:
                    pos = max(taken, start + 1)
                    continue
                before = len(facts)
                pos = max(handler(profile, text, t, match, facts), start + 1)
                if len(facts) > before:  # a fact reaching into an earlier pass's span
                    facts[before:] = [
                        f for f in facts[before:] if _claim_end(claimed, f.start, f.end) < 0
                    ]
                continue
            pos = max(handler(profile, text, t, match, facts), start + 1)
    if len(facts) > 1:
        facts.sort(key=lambda f: f.start)
        _spread_range_kinds(t, facts)
    return facts


_DAY_BEFORE = compile_pattern(
    r"(?<![0-9])[0-9]{1,2}(?:st|nd|rd|th|er|º|°|\.)?\s+(?:(?:de|of)\s+)?$"
)
_CODE_NUMBER = compile_pattern(r"[0-9](?:[0-9_]|[-.,:/](?=[0-9]))*")
_PLAIN_DECIMAL = compile_pattern(r"[0-9]+(?:\.[0-9]+)?")
_THOUSANDS = compile_pattern(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+")


def extract_code_numbers(code: str) -> list[NumberFact]:
    """The numbers of a piece of code (an inline code span), read as code whatever the
    language of the text around it: each run of digits with the ``. , : / - _`` between
    them, as written, is one number whose first reading is its text (``138,7`` in
    ``@@ -138,7 +138,7 @@`` is "138,7" in every language, never 138.7), plus its value
    when it is a plain or point decimal (``8000``, ``3.10`` → ``3.1``) or grouped by commas
    in threes (``1,000``).  Digits inside identifiers (``x86_64``, ``v2``, ``0x1F``,
    ``1e5``, ``port=8000``: the text's rules of :func:`_glued_left`) are not numbers.

    >>> [f.readings for f in extract_code_numbers("@@ -138,7 +138,7 @@ --port 8000")]
    [('138,7',), ('138,7',), ('8000',)]
    """
    facts: list[NumberFact] = []
    if not code:
        return facts
    t = code.translate(_DIGIT_MAP) if _MAP_REACH.search(code) else code
    for match in _CODE_NUMBER.finditer(t):
        s, e = match.span()
        if s and (t[s - 1].isalnum() or t[s - 1] == "_" or _glued_left(t, s)):
            continue  # x86, v2, SM100, port=8000, localhost:8000 (as in the text)
        if e < len(t) and (t[e].isalnum() or t[e] == "_"):
            continue  # 2FA, 1e5, 0x1F, 64bit
        token = match.group().rstrip("_")
        readings = [token]
        if _PLAIN_DECIMAL.fullmatch(token):
            readings.append(canonical(Decimal(token)))
        elif _THOUSANDS.fullmatch(token):
            readings.append(canonical(Decimal(token.replace(",", ""))))
        unique = tuple(dict.fromkeys(readings))
        facts.append(NumberFact(code[s:e], s, e, "number", unique, False))
    return facts


_ARTICLE_BEFORE = compile_pattern(r"(?<![\w-])[Aa]n? $")


def _claim_end(claimed: list[tuple[int, int]], start: int, end: int) -> int:
    """The end of a span of an earlier pass that [start, end) overlaps, or -1."""
    i = bisect_right(claimed, (start, 1 << 62)) - 1
    if i >= 0 and claimed[i][1] > start:
        return claimed[i][1]
    if i + 1 < len(claimed) and claimed[i + 1][0] < end:
        return claimed[i + 1][1]
    return -1


def _h_digits(profile, text, t, m, facts) -> int:
    """A digit (or ×, ½ …) where a number may start: try the digit-led patterns there."""
    start = m.start()
    if (
        start
        and t[start - 1] in _NOT_BEFORE_DIGITS
        and t[start] != "×"
        and not _version_v(t, start)
    ):
        end = start + 1
        while end < len(t) and "0" <= t[end] <= "9":
            end += 1
        return end  # SM100, V4.1: digits inside an identifier
    if profile.month_before is not None and start >= 2 and t[start - 1] in " \u00a0\t\n":
        month = profile.month_before.search(t, max(0, start - 16), start)
        if month is not None:
            date = profile.month_date_re.match(t, month.start())
            if date is not None and date.end() > start:
                return _h_wmonth(profile, text, t, date, facts)
    match = profile.digit_re.match(t, start)
    if match is None:
        return start + 1
    return _HANDLERS[match.lastgroup or "num"](profile, text, t, match, facts)


def _version_v(t: str, start: int) -> bool:
    """Whether the digits at *start* follow a lone lower-case ``v`` (``v13``, ``v2.0``: a
    version number, as "version 13" is; not ``/v1/``, ``dev2``, the name ``DeepSeek V4``)."""
    if t[start - 1] != "v":
        return False
    return start == 1 or not (t[start - 2].isalnum() or t[start - 2] in "_-./:#@")


def _spread_range_kinds(t: str, facts: list[NumberFact]) -> None:
    """``200–300%`` / ``2–3×``: the first endpoint shares the kind of the second."""
    for i in range(len(facts) - 1):
        first, second = facts[i], facts[i + 1]
        if first.kind != "number" or second.kind not in ("percent", "multiplier"):
            continue
        if first.spelled != second.spelled or first.unit:
            continue
        if not _RANGE_JOIN.fullmatch(t, first.end, second.start):
            continue
        suffix = "%" if second.kind == "percent" else "x"
        readings = tuple(r + suffix for r in first.readings)
        facts[i] = NumberFact(
            first.text, first.start, first.end, second.kind, readings, first.spelled
        )


def _add(
    facts: list[NumberFact],
    text: str,
    start: int,
    end: int,
    kind: str,
    values,
    spelled: bool,
    unit: str = "",
) -> None:
    readings: list[str] = []
    for value in values:
        key = value if isinstance(value, str) else canonical(value)
        if kind == "percent":
            key += "%"
        elif kind == "multiplier":
            key += "x"
        if key not in readings:
            readings.append(key)
    facts.append(NumberFact(text[start:end], start, end, kind, tuple(readings), spelled, unit))


def _glued_left(t: str, start: int) -> bool:
    """Whether the digits at *start* continue an identifier (``Apache-2.0``, ``/v1/x/2``)."""
    i = start - 1
    floor = max(0, start - 80)
    while i >= floor and t[i] in _GLUE:
        i -= 1
    left = t[i + 1 : start]
    if not left:
        return False
    if not any(ch in _LETTERS for ch in left):
        # 127.0.0.1:8000, issue #123
        return left[-1] in "#@" or bool(_ADDRESS.fullmatch(left))
    return not _FREE_PREFIX.match(left)


def _plain_numbers(profile, text, t, start, end, facts) -> int:
    """Fallback: every digit run of t[start:end] as a number of its own."""
    for run in _DIGIT_RUN.finditer(t, start, end):
        _add(facts, text, run.start(), run.end(), "number", [Decimal(run.group())], False)
    return end


# ---- units --------------------------------------------------------------------------------


def _unit_at(profile: _Profile, t: str, pos: int, *, spelled_cjk: bool = False) -> str:
    """The unit or counter starting at *pos* (after one optional space or hyphen), or ""."""
    n = len(t)
    if pos < n and t[pos] in " \u00a0\u202f\u2009-":
        pos += 1
    if pos >= n:
        return ""
    ch = t[pos]
    if ch.isascii():
        if not ch.isalpha():
            return ""
        match = _TAIL.match(t, pos)
        if match is None or (match.end() < n and t[match.end()].isalpha()):
            return ""
        return _ASCII_UNITS.get(match.group().lower(), "")
    for word, unit, kind in _UNIT_INDEX.get(ch, ()):
        if not t.startswith(word, pos):
            continue
        if kind == "ko":
            after = pos + len(word)
            if after < n and _is_hangul(t[after]) and t[after] not in _KO_PARTICLE:
                continue
        elif kind == "digits" and spelled_cjk:
            continue
        return unit
    return ""


def _korean_counter(t: str, pos: int, *, native: bool = False) -> str:
    """A Korean counter word at *pos* that ends there or runs into a particle.

    With *native*, only counters used with native numbers (not 년/월/일/초/원 …)."""
    for word, unit, kind in _UNIT_INDEX.get(t[pos], ()) if pos < len(t) else ():
        if kind != "ko" or not t.startswith(word, pos):
            continue
        if native and word in _KO_SINO_ONLY:
            return ""
        after = pos + len(word)
        if after >= len(t) or not _is_hangul(t[after]) or t[after] in _KO_PARTICLE:
            return unit
    return ""


def _build_unit_index() -> dict[str, list[tuple[str, str, str]]]:
    """Non-ASCII units and counters by their first character, longest first."""
    entries: list[tuple[str, str, str]] = []
    entries += [(word, word, "cjk") for word in _MULTI_COUNTERS]
    entries += [
        (word, unit, "ko" if _is_hangul(word[0]) else "cjk") for word, unit in _WORD_UNITS.items()
    ]
    entries += [(ch, ch, "cjk") for ch in _COUNTERS]
    entries += [(ch, ch, "digits") for ch in _DIGIT_COUNTERS - _COUNTERS]
    entries += [(word, word, "ko") for word in _KO_COUNTERS if word not in _WORD_UNITS]
    index: dict[str, list[tuple[str, str, str]]] = {}
    for entry in sorted(entries, key=lambda e: -len(e[0])):
        index.setdefault(entry[0][0], []).append(entry)
    return index


_UNIT_INDEX = _build_unit_index()


# ---- suffixes: scale words, percent, multiplier -------------------------------------------


def _finish(
    profile: _Profile,
    text: str,
    t: str,
    start: int,
    end: int,
    values: list[Decimal],
    spelled: bool,
    facts: list[NumberFact],
    *,
    kind: str = "number",
    unit: str = "",
    allow_scale: bool = True,
) -> int:
    """Read what follows a number (scale word, %, ×, unit) and add the fact; return its end."""
    if allow_scale and profile.scale_re is not None:
        scale = profile.scale_re.match(t, end)
        if scale:
            factor = profile.scales[scale.group(1).lower()]
            values = [v * factor for v in values]
            end = scale.end()
    if kind == "number":
        percent = _PERCENT_RE.match(t, end)
        if percent:
            kind, end = "percent", percent.end()
        else:
            multiplier = _MULTIPLIER_RE.match(t, end)
            if multiplier and _is_multiplier(t, multiplier, values):
                kind, end = "multiplier", multiplier.end()
            elif multiplier and not unit:
                # "10 times": a count, or the multiplier of "by 10 times" (= 10倍, 10배)
                unit = "times"
                values = [*values, *(canonical(v) + "x" for v in values)]
    if not unit:
        unit = _unit_at(profile, t, end)
    if unit in ("月", "월") and kind == "number":
        return end  # a month name (三月, 10월), not a number
    _add(facts, text, start, end, kind, values, spelled, unit)
    return end


def _is_multiplier(t: str, match: re.Match[str], values: list[Decimal]) -> bool:
    word = match.group().strip(" \u00a0\u202f-").lower()
    if word in ("×", "x", "倍", "배", "fach"):
        return True
    if any(v != v.to_integral_value() for v in values):
        return True
    following = _NEXT_WORD.match(t, match.end())
    if not following:
        return False
    nxt = following.group(1).lower()
    return nxt in _COMPARATIVES or (nxt.endswith("er") and len(nxt) > 4 and word == "times")


# ---- handlers -----------------------------------------------------------------------------


def _valid_date(year: int, month: int, day: int | None = None) -> bool:
    if not 1 <= month <= 12:
        return False
    return day is None or 1 <= day <= 31


def _date_key(year: int | None, month: int, day: int | None) -> str:
    if year is None:
        return f"--{month:02d}-{day:02d}"
    if day is None:
        return f"{year:04d}-{month:02d}"
    return f"{year:04d}-{month:02d}-{day:02d}"


def _date(profile, text, t, s: int, e: int, facts, keys: list[str]) -> int:
    """The date ``text[s:e]`` with its *keys*, or, with none (no valid date), the numbers it
    holds; where to read on."""
    if not keys:
        return _plain_numbers(profile, text, t, s, e, facts)
    _add(facts, text, s, e, "date", keys, False)
    return e


def _h_iso(profile, text, t, m, facts) -> int:
    """A year first: ``2026-10-20`` (group ``iso``), or a month of a year between 1900 and
    2199, ``2026-10`` (``isoym``); else its numbers."""
    s, e = m.span()
    if _glued_left(t, s):
        return e
    y, mo, *days = (int(x) for x in _DIGIT_RUN.findall(m.group()))
    d = days[0] if days else None
    valid = _valid_date(y, mo, d) and (d is not None or 1900 <= y <= 2199)
    return _date(profile, text, t, s, e, facts, [_date_key(y, mo, d)] if valid else [])


def _h_dmy(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    a, b, y = (int(x) for x in _DIGIT_RUN.findall(m.group()))
    separator = m.group("s2")
    candidates = [(b, a), (a, b)]  # (month, day): day first, then month first
    if profile.lang == "en" and separator != ".":
        candidates.reverse()
    if separator == ".":
        candidates = candidates[:1]
    keys = [_date_key(y, mo, d) for mo, d in candidates if _valid_date(y, mo, d)]
    return _date(profile, text, t, s, e, facts, keys)


def _h_cjkdate(profile, text, t, m, facts) -> int:
    s, e = m.span()
    parts = [int(x) for x in _DIGIT_RUN.findall(m.group())]
    if re.search("[年년]", m.group()):
        y, mo, d = parts[0], parts[1], (parts[2] if len(parts) > 2 else None)
    else:
        y, mo, d = None, parts[0], parts[1]
    valid = _valid_date(y or 2000, mo, d)
    return _date(profile, text, t, s, e, facts, [_date_key(y, mo, d)] if valid else [])


def _month_number(profile: _Profile, word: str) -> int | None:
    return month_of(profile.dates, word)


def _h_cldr_date(profile, text, t, m, facts) -> int:
    """A date written with a month name or a language's literals (:mod:`.dates`)."""
    s, e = m.span()
    while e > s and t[e - 1].isspace():
        e -= 1
    if "0" <= t[s] <= "9" and _glued_left(t, s):
        return s + 1
    day = _DAY_BEFORE.search(t, max(0, s - 12), s) if s and not "0" <= t[s] <= "9" else None
    if day is not None:  # 11 August 2020 in a language whose CLDR writes August 11, 2020
        whole = profile.digit_re.match(t, day.start())
        if whole is not None and whole.lastgroup == "dmonth" and whole.end() >= e:
            return _h_dmonth(profile, text, t, whole, facts)
    key = read_date(profile.dates, m)
    if key is None:
        return s + 1
    _add(facts, text, s, e, "date", [key], False)
    return e


def _h_dmonth(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    group = m.group()
    numbers = [int(x) for x in _DIGIT_RUN.findall(group)]
    words = [w for w in LETTER_RUN.findall(group) if w.lower() not in ("de", "del", "of")]
    month = None
    for word in words:
        month = _month_number(profile, word)
        if month:
            break
    day = numbers[0]
    year = numbers[1] if len(numbers) > 1 else None
    if month is None or not _valid_date(year or 2000, month, day):
        return _plain_numbers(profile, text, t, s, e, facts)
    return _date(profile, text, t, s, e, facts, [_date_key(year, month, day)])


def _h_wmonth(profile, text, t, m, facts) -> int:
    s, e = m.span()
    group = m.group()
    numbers = [int(x) for x in _DIGIT_RUN.findall(group)]
    month = _month_number(profile, LETTER_RUN.match(group).group())
    if month is None:
        return e
    if len(numbers) == 2:
        day, year = numbers
    elif numbers[0] >= 1000:
        day, year = None, numbers[0]
    else:
        day, year = numbers[0], None
    valid = _valid_date(year or 2000, month, day)
    return _date(profile, text, t, s, e, facts, [_date_key(year, month, day)] if valid else [])


def _h_time(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    group = m.group()
    numbers = [int(x) for x in _DIGIT_RUN.findall(group)]
    hour = numbers[0]
    minute = numbers[1] if len(numbers) > 1 else 0
    second = numbers[2] if len(numbers) > 2 else None
    meridiem = re.search("[AaPp]", group)
    if meridiem:
        if not 1 <= hour <= 12:
            return _plain_numbers(profile, text, t, s, e, facts)
        hour = hour % 12 + (12 if meridiem.group().lower() == "p" else 0)
    elif len(numbers) == 1:
        return e
    elif profile.dates.periods and 1 <= hour <= 12:
        period, s, e = day_period(profile.dates, t, s, e)  # 오후 3:05, 下午3:05, 3:05 م
        if period:
            hour = hour % 12 + (12 if period == "pm" else 0)
    seconds = f":{second:02d}" if second is not None else ""
    key = f"{hour:02d}:{minute:02d}" + seconds
    zone = zone_at(t, e)
    if zone is None:
        _add(facts, text, s, e, "time", [key], False)
        return e
    # 09:00 UTC = 18:00 JST: the time in UTC under each offset the zone may stand for; a time
    # in UTC also matches the same time written without a zone.
    offsets, e = zone
    keys = [shift_time(hour, minute, offset) + seconds + "Z" for offset in offsets]
    if 0 in offsets:
        keys.append(key)
    _add(facts, text, s, e, "time", keys, False)
    return e


def _h_frac(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    if e < len(t) and t[e] in _LETTERS:
        return _skip_identifier(t, e)
    numerator, denominator = (int(x) for x in m.group().split("/"))
    if denominator == 0:
        return _plain_numbers(profile, text, t, s, e, facts)
    _add(facts, text, s, e, "fraction", _fraction_keys(numerator, denominator), False)
    return e


def _fraction_keys(numerator: int, denominator: int) -> list[str]:
    keys = [f"{numerator}/{denominator}"]
    reduced = denominator
    for p in (2, 5):
        while reduced % p == 0:
            reduced //= p
    if numerator % reduced == 0 or reduced == 1:
        keys.append(canonical(Decimal(numerator) / Decimal(denominator)))
    return keys


def _h_vulgar(profile, text, t, m, facts) -> int:
    s, e = m.span()
    numerator, denominator = _VULGAR[m.group()]
    _add(facts, text, s, e, "fraction", _fraction_keys(numerator, denominator), False)
    return e


def _skip_identifier(t: str, pos: int) -> int:
    """The end of the identifier-like run of characters at *pos*."""
    n = len(t)
    while pos < n and (t[pos] in _GLUE):
        pos += 1
    return pos


def _h_num(profile, text, t, m, facts) -> int:
    s, e = m.span()
    token = m.group()
    prefix_multiplier = token.startswith("×")
    digits_start = s
    if prefix_multiplier:
        digits_start = s + 1
        while t[digits_start] in " \u00a0\u202f\u2009":
            digits_start += 1
        token = t[digits_start:e]
    elif _glued_left(t, s):
        return _skip_identifier(t, e)
    if t.startswith(_BASE_WORDS, e) or (s >= 5 and _BASE_BEFORE.search(t, max(0, s - 6), s)):
        return e  # 16진수, 16進数, base 32: the name of a numeral system, not a number

    values: list[Decimal] | None = None
    kind = "number"
    unit = ""
    span_end = e
    if e < len(t) and (t[e] in _LETTERS or t[e] in "µμ"):
        tail = _TAIL.match(t, e)
        word = tail.group() if tail else ""
        lower = word.lower()
        if tail and tail.end() < len(t) and t[tail.end()] in "_":
            return _skip_identifier(t, e)
        if lower == "x":
            kind, span_end = "multiplier", tail.end()
        elif word in ("k", "K", "M", "B", "T"):
            base = _readings(profile, token)
            if base is None:
                return _skip_identifier(t, e)
            factor = {"k": 1000, "K": 1000, "M": 10**6, "B": 10**9, "T": 10**12}[word]
            values = [v * factor for v in base]
            if word in "kK" and base[0] == base[0].to_integral_value():
                values.append(base[0] * 1024)
            span_end = tail.end()
        elif lower in _ORDINAL_TAILS.get(profile.lang, ()):
            values = _readings(profile, token)  # 1st, 2nd, 1er: the number, as 第一 is
            if values is not None:
                _add(facts, text, s, e, "number", values, False)
            return tail.end()
        elif lower in _ASCII_UNITS:
            unit = _ASCII_UNITS[lower]
        else:
            return _skip_identifier(t, e)
    elif e + 1 < len(t) and t[e] in "._" and t[e + 1] in _LETTERS:
        return _skip_identifier(t, e)

    if values is None:
        values = _readings(profile, token)
    if values is None:
        if token.count(".") >= 2 and "," not in token:
            return e  # a version or an address (3.11.7, 127.0.0.1)
        if "." not in token and "," in token:
            groups = token.split(",")
            if profile.indian and indian_groups(groups):
                values = [Decimal("".join(groups))]  # 1,00,000 in hi, bn …
            elif misgrouped(token, indian=profile.indian):
                fact = NumberFact(text[s:e], s, e, "number", ("≠" + token,), False, malformed=True)
                facts.append(fact)
                return e
    if values is None:
        return _split_list(profile, text, t, digits_start, e, facts)
    if prefix_multiplier:
        kind = "multiplier"
    elif (
        profile.percent_before
        and s >= 1
        and t[s - 1] == "%"
        and not (facts and facts[-1].end >= s)  # 5%5: the % is the first number's
    ):
        _add(facts, text, s - 1, e, "percent", values, False)
        return e
    scalable = kind == "number"
    return _finish(
        profile,
        text,
        t,
        s,
        span_end,
        values,
        False,
        facts,
        kind=kind,
        unit=unit,
        allow_scale=scalable,
    )


def _readings(profile: _Profile, token: str) -> list[Decimal] | None:
    if not profile.decimal_comma and token.count(".") >= 2:
        return None
    readings = digit_readings(token, decimal_comma=profile.decimal_comma)
    return list(readings) if readings is not None else None


def _split_list(profile, text, t, start, end, facts) -> int:
    """``1,5`` / ``1,2,3`` in a decimal-point language: each piece a number of its own."""
    for piece in re.finditer(r"[0-9]+(?:\.[0-9]+)*", t[start:end]):
        values = _readings(profile, piece.group())
        if values is not None:
            a, b = start + piece.start(), start + piece.end()
            _add(facts, text, a, b, "number", values, False)
    return end


def _h_mix(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    group = m.group()
    # Grouping commas / spaces in the leading digits (1,000万): drop them.
    cleaned = re.sub(r"(?<=[0-9])[, \u00a0\u202f\u2009](?=[0-9]{3})", "", group)
    # 120 万, 1.2 億: a space between the digits and their magnitude.
    cleaned = re.sub(r"(?<=[0-9])[ \u00a0\u202f\u2009]+(?=[^0-9])", "", cleaned)
    value = parse_cjk(cleaned, colloquial=False)
    if value is None:
        return _h_num(profile, text, t, _Sub(t, s, s + len(re.match(r"[0-9.,]+", group)[0])), facts)
    return _finish(profile, text, t, s, e, [value], False, facts, allow_scale=False)


def _h_komix(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _glued_left(t, s):
        return e
    group = m.group()
    digits_end = s + len(re.match(r"[0-9.,]+", group)[0])
    spaced = group[digits_end - s] in " \u00a0\u202f\u2009"  # 120 만: only ever 10,000
    if group.endswith("만") and not spaced and not _man_is_magnitude(t, group, e):
        # 3만 지원 = "only 3": the number is the digits alone.
        return _h_num(profile, text, t, _Sub(t, s, digits_end), facts)
    cleaned = re.sub(r"(?<=[0-9]),(?=[0-9]{3})", "", group)
    cleaned = re.sub(r"(?<=[0-9])[ \u00a0\u202f\u2009]+", "", cleaned)
    value = parse_sino_korean(cleaned)
    if value is None:
        return _h_num(profile, text, t, _Sub(t, s, digits_end), facts)
    return _finish(profile, text, t, s, e, [value], False, facts, allow_scale=False)


def _man_is_magnitude(t: str, group: str, end: int) -> bool:
    """만 after digits is ten thousand when a fraction, more digits or a counter make it so;
    before a word that is no counter it is the particle "only" (Python 3만 지원)."""
    if "." in group or re.search("[만억천백][0-9]", group) or re.search("[억천백]만$", group):
        return True
    if end >= len(t) or not (t[end].isspace() or _is_hangul(t[end])):
        return True
    return bool(_unit_at(_profile("ko"), t, end))


class _Sub:
    """A match-like view of t[start:end] (to hand part of a match to another handler)."""

    def __init__(self, t: str, start: int, end: int):
        self._t, self._start, self._end = t, start, end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def end(self) -> int:
        return self._end

    def group(self, *_args) -> str:
        return self._t[self._start : self._end]


def _stopped(profile: _Profile, t: str, start: int, end: int, run_end: int = -1) -> bool:
    """Whether a stop-list word overlaps t[start:end] (the numeral and what follows it).

    A stop word inside a longer numeral run t[start:run_end] does not count: the 萬一 of
    十三萬一千 is part of the number."""
    if profile.stop_re is None:
        return False
    for stop in profile.stop_re.finditer(t, max(0, start - 12), min(len(t), end + 12)):
        if stop.start() < end and stop.end() > start:
            inside = start <= stop.start() and stop.end() <= run_end
            if not (inside and stop.end() - stop.start() < run_end - start):
                return True
    return False


def _h_han(profile, text, t, m, facts) -> int:
    s, e = m.span()
    group = m.group()
    if "分之" in group:
        if not group.startswith("百分之"):
            return e  # 三百分之一 is a fraction this module does not read
        number = group[3:]
        spelled = not number[0].isdigit()
        value = parse_cjk(number) if spelled else Decimal(number)
        if value is not None:
            _add(facts, text, s, e, "percent", [value], spelled)
        return e
    if s and "0" <= t[s - 1] <= "9":
        return e  # 100万, 3千: read with the digits
    ordinal = group.startswith("第")
    run_start = s + 1 if ordinal else s
    run = group[1:] if ordinal else group
    if not run:
        return e
    if s and t[s - 1] in _APPROXIMATE_BEFORE:
        return e
    if e < len(t) and (t[e] in _APPROXIMATE_AFTER or t.startswith(_BASE_AFTER, e)):
        return e
    if _stopped(profile, t, run_start, e + 1, e):
        return e
    positional = "〇" in run or (t.startswith("年", e) and len(run) == 4)
    value = parse_cjk(run, positional=positional, colloquial=profile.lang == "zh")
    if value is None:
        return e
    unit = _unit_at(profile, t, e, spelled_cjk=True) if e < len(t) else ""
    if unit and len(unit) == 1 and t[e : e + 2] in _COUNTER_WORDS:
        unit = ""
    if not (ordinal or unit or len(run) >= 2):
        return e
    if unit == "月" and not ordinal:
        return e  # 三月 is March
    kind = "number"
    end = e
    if t.startswith("倍", e):
        kind, end = "multiplier", e + 1
        unit = _unit_at(profile, t, end)
    else:
        percent = _PERCENT_RE.match(t, e)
        if percent:
            kind, end, unit = "percent", percent.end(), ""
    _add(facts, text, run_start, end, kind, [value], True, unit)
    return end


def _h_kana(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if _stopped(profile, t, s, e):
        return e
    _add(facts, text, s, e, "number", [Decimal(_KANA_NUMBERS[m.group()])], True, "つ")
    return e


def _h_kos(profile, text, t, m, facts) -> int:
    s, e = m.span()
    if s and (_is_hangul(t[s - 1]) or "0" <= t[s - 1] <= "9"):
        return e  # 수백만 (several million), 13만: part of another word or number
    run = m.group()
    if run.endswith("이") and (e >= len(t) or not _is_hangul(t[e])):
        run = run[:-1]  # 백만이 넘는: 이 is the subject particle
        if len(run) < 2:
            return e
    end = s + len(run)
    if not any(ch in "십백천만억" for ch in run):
        return e
    if _stopped(profile, t, s, end):
        return e
    glued = end < len(t) and _is_hangul(t[end]) and t[end] not in _KO_PARTICLE
    if glued and not _korean_counter(t, end):
        return e  # 백오피스: the syllables begin another word
    value = parse_sino_korean(run)
    if value is None:
        return e
    unit = _unit_at(profile, t, end)
    kind = "multiplier" if unit == "배" else "number"
    _add(facts, text, s, end, kind, [value], True, "" if kind == "multiplier" else unit)
    return e


_KO_AFTER_DUL = frozenset("중 이상 이하 모두 뿐 씩 가운데 사이".split())
_KO_PRENOMINAL_TENS = frozenset("열 서른 마흔 쉰 예순 일흔 여든 아흔".split())


def _h_kon(profile, text, t, m, facts) -> int:
    s, e = m.span()
    word = m.group()
    value = parse_native_korean(word)
    if value is None:
        return e
    n = len(t)
    nxt = t[e] if e < n else ""
    attached = _korean_counter(t, e, native=True) if nxt and _is_hangul(nxt) else ""
    spaced = ""
    following = ""
    if nxt in (" ", "\u00a0") and e + 1 < n and _is_hangul(t[e + 1]):
        spaced = _korean_counter(t, e + 1, native=True)
        following_match = LETTER_RUN.match(t, e + 1)
        following = following_match.group() if following_match else ""
    unit = ""
    if native_korean_is_prenominal(word) or word in _KO_PRENOMINAL_TENS:
        # 한/두/세/네/열/스무 … count only before a counter (한 줄, 열 가지); 두 also
        # before any noun, since as a word of its own it is nothing but "two".
        if attached in _KO_ATTACHED_COUNTERS:
            unit = attached
        elif spaced:
            unit = spaced
        elif not (word.endswith("두") and following):
            return e
    else:
        if nxt and _is_hangul(nxt):
            if attached:
                unit = attached
            elif nxt not in _KO_PARTICLE:
                return e  # 하나님, 셋업, 둘러보다
        elif word.endswith("둘") and following and not spaced and following not in _KO_AFTER_DUL:
            return e  # 둘 다 = both; 둘 수 있다, 중점을 둘 것 = the verb 두다 "put"
        if spaced and not unit:
            unit = spaced
    kind = "number"
    if unit == "배":
        kind, unit = "multiplier", ""
    _add(facts, text, s, e, kind, [Decimal(value)], True, unit)
    return e


def _h_words(profile, text, t, m, facts) -> int:
    s, e = m.span()
    # The whole run of number words: "twenty-one", "two million", "one hundred and five".
    nxt = profile.words_next.match(t, e) if profile.words_next else None
    while nxt:
        e = nxt.end()
        nxt = profile.words_next.match(t, e)
    if e + 1 < len(t) and t[e] == "-" and t[e + 1].isalpha():
        return e  # a compound: two-factor, The Twelve-Factor App, three-way
    if s >= 2 and profile.lang == "en":
        article = _ARTICLE_BEFORE.search(t, max(0, s - 3), s)
        if article:
            s = article.start()  # a hundred, a million
    words = [(w.group(), w.start(), w.end()) for w in LETTER_RUN.finditer(t, s, e)]
    segments = parse_number_words([w for w, _, _ in words], profile.lang)
    last_end = e
    for first, stop, value in segments:
        a, b = words[first][1], words[stop - 1][2]
        if stop - first == 1 and words[first][0].lower() in _PLURAL_SCALES:
            continue  # "millions of tests"
        if profile.stop_re is not None and _stopped(profile, t, a, b):
            continue
        last_end = _finish(profile, text, t, a, b, [value], True, facts, allow_scale=False)
    return max(last_end, e)


def _h_multiplier_word(profile, text, t, m, facts) -> int:
    """``twice`` / ``doppelt`` / ``вдвое``: a weak multiplier."""
    s, e = m.span()
    words = MULTIPLIER_WORDS.get(profile.lang) or MULTIPLIER_WORDS["en"]
    value = words.get(m.group())
    if value is None:
        return e
    facts.append(NumberFact(text[s:e], s, e, "multiplier", (f"{value}x",), True, weak=True))
    return e


_HANDLERS: dict[str, Callable[..., int]] = {
    "iso": _h_iso,
    "isoym": _h_iso,
    "dmy": _h_dmy,
    "cjkdate": _h_cjkdate,
    "kodate": _h_cjkdate,
    "dmonth": _h_dmonth,
    "time": _h_time,
    "frac": _h_frac,
    "vulgar": _h_vulgar,
    "mix": _h_mix,
    "komix": _h_komix,
    "num": _h_num,
}
