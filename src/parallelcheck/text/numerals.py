"""Numerals and number words to exact values.

This module knows numeral *systems*, not text layout: each function gets the characters or
words of one candidate numeral (found by :mod:`parallelcheck.text.numeric`) and returns its value,
or ``None`` when they are not a well-formed numeral.  Values are :class:`~decimal.Decimal`
(never floats), and :func:`canonical` writes them as the minimal decimal string used as a key
(``Decimal("1.80")`` → ``"1.8"``, ``Decimal("1E+6")`` → ``"1000000"``).

Systems:

* **Digits with separators** (:func:`digit_readings`): ``1,000.5``, ``1.000,5``, ``1 000,5``.
  A single separator followed by exactly three digits is ambiguous between a decimal mark and
  a group separator, so both readings are returned, the language's convention first.
* **Chinese and Japanese numerals** (:func:`parse_cjk`): 〇零一二三四五六七八九 with 兩/两,
  十百千, 萬/万 億/亿 兆, the financial forms 壹貳參…拾佰仟, digits mixed in (``1.8萬``,
  ``13万1072``), a decimal point 點/点 (``一點八萬``), the implicit one of ``十三`` / ``千七十二``
  and the colloquial abbreviation ``一萬二`` (12000), ``三千五`` (3500).  Digit-by-digit forms
  (``二〇二六``) only when asked for.
* **Sino-Korean numerals in Hangul** (:func:`parse_sino_korean`): 일이삼사오육칠팔구 with
  십백천만억, digits mixed in (``1.8만``, ``13만1072``).  조 (10¹²) is left out on purpose: it
  makes everyday words (구조 "structure") look like numbers.
* **Native Korean numbers** (:func:`parse_native_korean`): 하나/한, 둘/두, 셋/세, 넷/네,
  다섯 … 아홉, 열, 스물/스무, 서른 … 아흔 and their compounds (열하나, 스물두).
* **Number words** of en, de, fr, es, pt, it, nl (:func:`parse_number_words`): the words for
  zero … nineteen (German/French/… up to twelve), the tens, hundred, thousand, million,
  billion (and the long-scale words: de ``Milliarde``, fr ``milliard``, es ``mil millones``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from parallelcheck.text.cldr import locale_data
from parallelcheck.text.regexes import compile_pattern

__all__ = [
    "KO_PRENOMINAL",
    "MULTIPLIER_WORDS",
    "NUMBER_WORDS",
    "SCALE_WORDS",
    "canonical",
    "cjk_numeral_chars",
    "digit_readings",
    "grouping_of",
    "indian_groups",
    "misgrouped",
    "native_korean_is_prenominal",
    "parse_cjk",
    "parse_native_korean",
    "parse_number_words",
    "parse_sino_korean",
]


def canonical(value: Decimal | int) -> str:
    """The minimal decimal string of *value*: ``1.80`` → ``"1.8"``, ``1E+6`` → ``"1000000"``."""
    if isinstance(value, int):
        return str(value)
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


# --------------------------------------------------------------------------------------------
# Digits with separators

_SPACES = " \u00a0\u202f\u2009"
_SPACE_SPLIT = compile_pattern(f"[{_SPACES}]")


def _valid_groups(groups: Sequence[str]) -> bool:
    """``1,234,567`` style: a first group of 1–3 digits (no leading zero), then threes."""
    first = groups[0]
    if not 1 <= len(first) <= 3 or (first[0] == "0" and len(groups) > 1):
        return False
    return all(len(group) == 3 for group in groups[1:])


def grouping_of(lang: str) -> tuple[int, int]:
    """The primary and secondary digit group sizes of a language's decimal pattern in the
    CLDR (``(3, 3)``; ``(3, 2)`` for the Indian ``#,##,##0`` of hi, bn, mr …)."""
    locale = locale_data(lang)
    if locale is None or locale.grouping is None:
        return (3, 3)
    primary, secondary = locale.grouping
    return (primary, secondary) if primary < 1000 else (3, 3)


def indian_groups(groups: Sequence[str]) -> bool:
    """``1,00,000`` style: a first group of 1–2 digits (no leading zero), twos, a last three."""
    first = groups[0]
    if len(groups) < 3 or not 1 <= len(first) <= 2 or first[0] == "0":
        return False
    return len(groups[-1]) == 3 and all(len(group) == 2 for group in groups[1:-1])


def misgrouped(token: str, *, indian: bool) -> bool:
    """Whether a run of digits and commas (no point) looks like a grouped number that no
    grouping convention writes: ``100,0000`` (a group of four), ``1,00,000`` where the
    language does not group the Indian way.  Not a list: every group after the first has
    two digits or more and the last three or more (``1,5``, ``10,20,30`` are lists)."""
    if "," not in token or not all(part.isdigit() for part in token.split(",")):
        return False
    groups = token.split(",")
    if len(groups[-1]) < 3 or any(len(group) < 2 for group in groups[1:]):
        return False
    if not 1 <= len(groups[0]) <= 4 or len(groups[-1]) > 4:
        return False
    if _valid_groups(groups):
        return False
    return not (indian and indian_groups(groups))


def digit_readings(token: str, *, decimal_comma: bool) -> tuple[Decimal, ...] | None:
    """The possible values of a run of ASCII digits and separators, most likely first.

    *decimal_comma* is the language's convention (de, fr … write ``1.000,5``; en, zh, ja, ko
    write ``1,000.5``).  Returns ``None`` when the token is not one number: a dotted version
    (``3.11.7``), a list (``1,2,3``), or a comma in a decimal-point language that cannot group
    (``1,5`` in English is read as the two numbers 1 and 5 by the caller).

    >>> digit_readings("131,072", decimal_comma=False)
    (Decimal('131072'), Decimal('131.072'))
    >>> digit_readings("1.000,5", decimal_comma=False)
    (Decimal('1000.5'),)
    """
    if any(ch in _SPACES for ch in token):
        parts = _SPACE_SPLIT.split(token)
        last = parts[-1]
        fraction = ""
        for mark in ",.":
            if mark in last:
                last, _, fraction = last.partition(mark)
                break
        if (
            not all(part.isdigit() for part in [*parts[:-1], last])
            or (fraction and not fraction.isdigit())
            or not _valid_groups([*parts[:-1], last])
        ):
            return None
        digits = "".join(parts[:-1]) + last
        return (Decimal(f"{digits}.{fraction}" if fraction else digits),)

    commas = token.count(",")
    dots = token.count(".")
    if not commas and not dots:
        return (Decimal(token),) if token.isdigit() else None
    if commas and dots:
        decimal_mark = "," if token.rfind(",") > token.rfind(".") else "."
        group_mark = "." if decimal_mark == "," else ","
        if token.count(decimal_mark) != 1:
            return None
        whole, _, fraction = token.partition(decimal_mark)
        groups = whole.split(group_mark)
        if not fraction.isdigit() or not all(g.isdigit() for g in groups):
            return None
        if not _valid_groups(groups):
            return None
        return (Decimal("".join(groups) + "." + fraction),)

    mark = "," if commas else "."
    groups = token.split(mark)
    if not all(group.isdigit() for group in groups):
        return None
    if len(groups) > 2:
        # Only a thousands grouping has two or more of the same mark.
        return (Decimal("".join(groups)),) if _valid_groups(groups) else None
    whole, fraction = groups
    as_decimal = Decimal(f"{whole}.{fraction}")
    as_group = Decimal(whole + fraction) if _valid_groups(groups) else None
    own_decimal_mark = "," if decimal_comma else "."
    if mark == own_decimal_mark:
        return (as_decimal, as_group) if as_group is not None else (as_decimal,)
    if as_group is not None:
        return (as_group, as_decimal)
    if mark == ".":
        # A point that cannot group is a decimal point in every language (versions and
        # English-style decimals are everywhere in technical text).
        return (as_decimal,)
    return None


# --------------------------------------------------------------------------------------------
# Chinese, Japanese and Sino-Korean numerals

_CJK_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "壹": 1,
    "二": 2,
    "貳": 2,
    "贰": 2,
    "兩": 2,
    "两": 2,
    "三": 3,
    "參": 3,
    "叁": 3,
    "四": 4,
    "肆": 4,
    "五": 5,
    "伍": 5,
    "六": 6,
    "陸": 6,
    "陆": 6,
    "七": 7,
    "柒": 7,
    "八": 8,
    "捌": 8,
    "九": 9,
    "玖": 9,
}
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_BIG = {"萬": 10**4, "万": 10**4, "億": 10**8, "亿": 10**8, "兆": 10**12}
_CJK_POINT = "點点"

_KO_DIGITS = {
    "영": 0,
    "일": 1,
    "이": 2,
    "삼": 3,
    "사": 4,
    "오": 5,
    "육": 6,
    "륙": 6,
    "칠": 7,
    "팔": 8,
    "구": 9,
}
_KO_SMALL = {"십": 10, "백": 100, "천": 1000}
_KO_BIG = {"만": 10**4, "억": 10**8}

_DIGIT_RUN = compile_pattern(r"[0-9]+(?:\.[0-9]+)?")


def cjk_numeral_chars(*, with_trillion: bool = True) -> str:
    """All characters :func:`parse_cjk` understands (for building character classes)."""
    big = "".join(c for c in _CJK_BIG if with_trillion or c != "兆")
    return "".join(_CJK_DIGITS) + "".join(_CJK_SMALL) + big


def _tokens(text: str, digits: dict, small: dict, big: dict, zeros: str, point: str):
    """Split a numeral into ('d', value, is_ascii) / ('s', m) / ('b', m) / ('z',) tokens."""
    out: list[tuple] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if "0" <= ch <= "9":
            match = _DIGIT_RUN.match(text, i)
            assert match is not None
            out.append(("d", Decimal(match.group()), True))
            i = match.end()
            continue
        if ch in point:
            # 一點八: join the digit before with the digits after; a digit that already has
            # its fraction (一點〇點〇) takes no second point.
            j = i + 1
            while j < n and text[j] in digits:
                j += 1
            if not out or out[-1][0] != "d" or j == i + 1 or out[-1][2]:
                return None
            if out[-1][1].as_tuple().exponent < 0:
                return None
            fraction = "".join(str(digits[c]) for c in text[i + 1 : j])
            out[-1] = ("d", Decimal(f"{out[-1][1]}.{fraction}"), False)
            i = j
            continue
        if ch in zeros:
            out.append(("z",))
        elif ch in digits:
            out.append(("d", Decimal(digits[ch]), False))
        elif ch in small:
            out.append(("s", small[ch]))
        elif ch in big:
            out.append(("b", big[ch]))
        else:
            return None
        i += 1
    return out


def _assemble(tokens: list[tuple], *, colloquial: bool) -> Decimal | None:
    """Value of magnitude-structured tokens (see :func:`parse_cjk`), or None if ill-formed."""
    total = Decimal(0)
    section = Decimal(0)
    pending: Decimal | None = None
    pending_ascii = False
    last_small: int | None = None
    last_big: int | None = None
    last_magnitude: int | None = None
    gap = False
    for token in tokens:
        kind = token[0]
        if kind == "d":
            if pending is not None:
                return None
            pending, pending_ascii = token[1], token[2]
        elif kind == "z":
            if pending is not None and pending != 0:
                return None
            gap = True
        elif kind == "s":
            magnitude = token[1]
            if last_small is not None and magnitude >= last_small:
                return None
            if pending is not None and (pending == 0 or (pending >= 10 and not pending_ascii)):
                return None
            section += (pending if pending is not None else 1) * magnitude
            last_small = last_magnitude = magnitude
            pending = None
            gap = False
        else:  # big magnitude
            magnitude = token[1]
            if pending is not None:
                if pending == 0:
                    return None  # 0万, 零億
                section += pending
                pending = None
            if last_big is not None and magnitude >= last_big:
                if section == 0 and total > 0 and magnitude > last_big:
                    total *= magnitude  # 一萬億 = 10¹²
                    last_big = last_magnitude = magnitude
                    continue
                return None
            if section == 0:
                if total > 0:
                    return None
                section = Decimal(1)
            total += section * magnitude
            section = Decimal(0)
            last_big = last_magnitude = magnitude
            last_small = None
            gap = False
    if pending is not None:
        if (
            colloquial
            and not pending_ascii
            and not gap
            and last_magnitude is not None
            and last_magnitude >= 100
            and pending < 10
        ):
            # 一萬二 = 12000, 三千五 = 3500, 兩百五 = 250.
            pending = pending * last_magnitude / 10
        section += pending
    return total + section


def _parse_magnitudes(
    text: str,
    digits: dict,
    small: dict,
    big: dict,
    zeros: str,
    point: str,
    *,
    colloquial: bool,
    positional: bool,
) -> Decimal | None:
    if not text:
        return None
    tokens = _tokens(text, digits, small, big, zeros, point)
    if not tokens:
        return None
    if all(t[0] in "dz" for t in tokens) and len(tokens) > 1:
        # Digit-by-digit (二〇二六): never mixed with ASCII digits.
        if not positional or any(t[0] == "d" and t[2] for t in tokens):
            return None
        if any(t[0] == "d" and (t[1] >= 10 or t[1] != t[1].to_integral_value()) for t in tokens):
            return None
        return Decimal("".join("0" if t[0] == "z" else str(t[1]) for t in tokens))
    if len(tokens) == 1 and tokens[0][0] == "z":
        return Decimal(0)
    return _assemble(tokens, colloquial=colloquial)


def parse_cjk(text: str, *, positional: bool = False, colloquial: bool = True) -> Decimal | None:
    """Value of a Chinese or Japanese numeral (digits may be mixed in), or ``None``.

    >>> [str(parse_cjk(s)) for s in ("十三萬一千零七十二", "十三万千七十二", "1.8萬", "百萬")]
    ['131072', '131072', '18000.0', '1000000']

    *positional* allows digit-by-digit numerals (``二〇二六`` → 2026; otherwise ``一二`` is not
    a numeral).  *colloquial* reads a last digit after 百/千/萬 as the next position down
    (``一萬二`` → 12000), as Chinese does.
    """
    zeros = "〇零"
    return _parse_magnitudes(
        text,
        _CJK_DIGITS,
        _CJK_SMALL,
        _CJK_BIG,
        zeros,
        _CJK_POINT,
        colloquial=colloquial,
        positional=positional,
    )


def parse_sino_korean(text: str) -> Decimal | None:
    """Value of a Sino-Korean numeral in Hangul, digits may be mixed in, or ``None``.

    >>> [str(parse_sino_korean(s)) for s in ("백만", "십삼만천칠십이", "13만1072", "1.8만")]
    ['1000000', '131072', '131072', '18000.0']
    """
    return _parse_magnitudes(
        text, _KO_DIGITS, _KO_SMALL, _KO_BIG, "영", "", colloquial=False, positional=False
    )


# --------------------------------------------------------------------------------------------
# Native Korean numbers

_KO_NATIVE_TENS = {
    "열": 10,
    "스물": 20,
    "스무": 20,
    "서른": 30,
    "마흔": 40,
    "쉰": 50,
    "예순": 60,
    "일흔": 70,
    "여든": 80,
    "아흔": 90,
}
_KO_NATIVE_UNITS = {
    "하나": 1,
    "한": 1,
    "둘": 2,
    "두": 2,
    "셋": 3,
    "세": 3,
    "넷": 4,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
}
#: The forms used only before a counter or noun (한 개, 두 가지, 스무 살).
KO_PRENOMINAL = frozenset({"한", "두", "세", "네", "스무"})


def parse_native_korean(word: str) -> int | None:
    """Value of a native Korean number word (``열하나`` → 11, ``두`` → 2), or ``None``."""
    for tens, value in _KO_NATIVE_TENS.items():
        if word.startswith(tens):
            rest = word[len(tens) :]
            if not rest:
                return value
            if tens == "스무":
                return None
            unit = _KO_NATIVE_UNITS.get(rest)
            return value + unit if unit is not None else None
    return _KO_NATIVE_UNITS.get(word)


def native_korean_is_prenominal(word: str) -> bool:
    """Whether *word* ends in a form used only before a counter (``열두``, ``한``, ``스무``)."""
    return any(word.endswith(form) for form in KO_PRENOMINAL) and not word.endswith("하나")


# --------------------------------------------------------------------------------------------
# Number words of European languages


def _lexicon(units: str, tens: str, hundred: str, thousand: str) -> dict[str, tuple[str, int]]:
    """Build ``word → (kind, value)`` from space-separated word lists (``a/b`` = variants)."""
    entries: dict[str, tuple[str, int]] = {}
    for value, words in enumerate(units.split()):
        for word in words.split("/"):
            if word != "-":
                kind = "zero" if value == 0 else ("unit" if value < 10 else "teen")
                entries[word] = (kind, value)
    for index, words in enumerate(tens.split()):
        for word in words.split("/"):
            entries[word] = ("ten", (index + 2) * 10)
    for word in hundred.split("/"):
        entries[word] = ("hundred", 100)
    for word in thousand.split("/"):
        entries[word] = ("scale", 1000)
    return entries


#: word → (kind, value) per language; kinds: zero, unit (1–9), teen (10–19), ten, hundred,
#: scale.  Words that are mostly articles or other words are left out on purpose: de ein/eine
#: and null (the null value),
#: fr un/une and neuf ("new"), es un/una, pt um/uma, it un/uno/una and sei ("you are"),
#: nl een (only één counts).
#: Words that state a multiplier (``twice``, ``doppelt``, ``вдвое``) — not in the CLDR data
#: babel ships.  Several of them also mean something else ("double quotes", "doppelt
#: gemoppelt"), so a rule must treat them as weak: they match the digit form, never stand
#: for a difference on their own.  ``deux fois``/``dos veces`` … are number words + "times".
MULTIPLIER_WORDS: dict[str, dict[str, int]] = {
    "en": {
        "twice": 2,
        "double": 2,
        "doubles": 2,
        "doubled": 2,
        "doubling": 2,
        "triple": 3,
        "triples": 3,
        "tripled": 3,
        "thrice": 3,
        "quadruple": 4,
        "quadrupled": 4,
    },
    "de": {"doppelt": 2, "doppelte": 2, "doppelten": 2, "doppelter": 2, "doppeltes": 2},
    "fr": {"double": 2, "doublé": 2, "doubler": 2, "triple": 3, "triplé": 3},
    "es": {"doble": 2, "duplica": 2, "duplicar": 2, "triple": 3, "triplica": 3},
    "pt": {"dobro": 2, "duplica": 2, "duplicar": 2, "triplo": 3, "triplica": 3},
    "it": {"doppio": 2, "doppia": 2, "raddoppia": 2, "triplo": 3, "triplica": 3},
    "nl": {"dubbel": 2, "dubbele": 2, "verdubbelt": 2, "driedubbel": 3},
    "ru": {"вдвое": 2, "удвоить": 2, "удваивает": 2, "втрое": 3, "вчетверо": 4},
    "uk": {"удвічі": 2, "вдвічі": 2, "подвоїти": 2, "утричі": 3, "втричі": 3},
    "pl": {"dwukrotnie": 2, "dwukrotny": 2, "podwójnie": 2, "trzykrotnie": 3},
    "tr": {"iki katı": 2, "iki kat": 2, "üç katı": 3},
}

NUMBER_WORDS: dict[str, dict[str, tuple[str, int]]] = {
    "en": _lexicon(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen",
        "twenty thirty forty fifty sixty seventy eighty ninety",
        "hundred",
        "thousand",
    ),
    "de": _lexicon(
        "- eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
        "zwanzig dreißig/dreissig vierzig fünfzig sechzig siebzig achtzig neunzig",
        "hundert",
        "tausend",
    ),
    "fr": _lexicon(
        "zéro - deux trois quatre cinq six sept huit - dix onze douze",
        "vingt trente quarante cinquante soixante",
        "cent/cents",
        "mille",
    ),
    "es": _lexicon(
        "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce",
        "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa",
        "cien/ciento",
        "mil",
    ),
    "pt": _lexicon(
        "zero - dois/duas três quatro cinco seis sete oito nove dez onze doze",
        "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa",
        "cem/cento",
        "mil",
    ),
    "it": _lexicon(
        "zero - due tre quattro cinque - sette otto nove dieci undici dodici",
        "venti trenta quaranta cinquanta sessanta settanta ottanta novanta",
        "cento",
        "mille/mila",
    ),
    "nl": _lexicon(
        "nul één twee drie vier vijf zes zeven acht negen tien elf twaalf",
        "twintig dertig veertig vijftig zestig zeventig tachtig negentig",
        "honderd",
        "duizend",
    ),
}
_EN_TEENS = "thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()

#: Scale words (also used after digits: ``1.8 million``, ``1,8 Millionen``) per language.
SCALE_WORDS: dict[str, dict[str, int]] = {
    "en": {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12},
    "de": {
        "tausend": 10**3,
        "million": 10**6,
        "millionen": 10**6,
        "mio": 10**6,
        "milliarde": 10**9,
        "milliarden": 10**9,
        "mrd": 10**9,
        "billion": 10**12,
        "billionen": 10**12,
    },
    "fr": {
        "mille": 10**3,
        "million": 10**6,
        "millions": 10**6,
        "milliard": 10**9,
        "milliards": 10**9,
    },
    "es": {"mil": 10**3, "millón": 10**6, "millones": 10**6, "billón": 10**12, "billones": 10**12},
    "pt": {
        "mil": 10**3,
        "milhão": 10**6,
        "milhões": 10**6,
        "bilhão": 10**9,
        "bilhões": 10**9,
        "bilião": 10**12,
        "biliões": 10**12,
    },
    "it": {
        "mille": 10**3,
        "mila": 10**3,
        "milione": 10**6,
        "milioni": 10**6,
        "miliardo": 10**9,
        "miliardi": 10**9,
    },
    "nl": {"duizend": 10**3, "miljoen": 10**6, "miljard": 10**9, "biljoen": 10**12},
}
for _lang, _scales in SCALE_WORDS.items():
    for _word, _value in _scales.items():
        NUMBER_WORDS[_lang][_word] = ("scale", _value)
del _lang, _scales, _word, _value

_ARTICLES = frozenset({"a", "an"})
_AND = frozenset({"and", "und", "et", "y", "e", "en"})


def parse_number_words(words: Sequence[str], lang: str) -> list[tuple[int, int, Decimal]]:
    """Segment a run of words into numbers: ``[(first index, end index, value), …]``.

    Words are matched case-insensitively; an article before a scale word counts as one
    (``a hundred``, ``a million``), ``and`` may join (``one hundred and five``).  A word that
    cannot continue the number so far starts a new one (``two three`` → 2 and 3); words that
    are no number words are skipped.

    >>> [(a, b, str(v)) for a, b, v in parse_number_words(["two", "million"], "en")]
    [(0, 2, '2000000')]
    """
    lexicon = NUMBER_WORDS.get(lang, NUMBER_WORDS["en"])
    lowered = [w.lower() for w in words]
    found: list[tuple[int, int, Decimal]] = []
    i = 0
    while i < len(lowered):
        result = _one_number(lowered, i, lexicon, lang)
        if result is None:
            i += 1
            continue
        end, value = result
        found.append((i, end, value))
        i = end
    return found


def _kind(lexicon: dict[str, tuple[str, int]], word: str) -> str:
    entry = lexicon.get(word)
    return entry[0] if entry else ""


def _one_number(
    words: list[str], start: int, lexicon: dict[str, tuple[str, int]], lang: str
) -> tuple[int, Decimal] | None:
    """The longest well-formed number starting at *start*: (end index, value), or None."""
    n = len(words)
    i = start
    total = Decimal(0)
    group = Decimal(0)
    last = ""
    big: int | None = None
    if words[i] in _ARTICLES:
        if i + 1 >= n or _kind(lexicon, words[i + 1]) not in ("hundred", "scale"):
            return None
        group, last, i = Decimal(1), "unit", i + 1
    elif words[i] not in lexicon:
        return None
    end = start
    while i < n:
        word = words[i]
        if word in _AND and word not in lexicon:
            joinable = last in ("hundred", "scale") and i + 1 < n
            if joinable and _kind(lexicon, words[i + 1]) in ("unit", "teen", "ten"):
                i += 1
                continue
            break
        entry = lexicon.get(word)
        if entry is None:
            break
        kind, value = entry
        if kind == "zero":
            if last:
                break
            return i + 1, Decimal(0)
        if kind == "unit":
            if last not in ("", "ten", "hundred", "scale"):
                break
            group += value
        elif kind in ("teen", "ten"):
            if last not in ("", "hundred", "scale"):
                break
            group += value
        elif kind == "hundred":
            allowed = ("", "unit", "teen", "ten") if lang == "en" else ("", "unit")
            if last not in allowed or group >= 100:
                break
            group = (group or 1) * 100
        else:  # scale
            if last == "scale" and big is not None and value > big:
                total = (total + group) * value  # es "mil millones" = 10⁹
                group = Decimal(0)
            elif big is not None and value >= big:
                break
            else:
                total += (group or 1) * value
                group = Decimal(0)
            big = value
        last = kind
        i += 1
        end = i
    if end == start:
        return None
    return end, total + group
