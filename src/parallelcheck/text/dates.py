"""Dates and times as a language writes them, from the Unicode CLDR (through ``babel``).

:func:`date_profile` gives, per primary language subtag, what :mod:`parallelcheck.text.numeric`
needs to read a date written with words or a language's own literals: every month name the
CLDR has for the language (wide and abbreviated, format and stand-alone — the genitive
``sierpnia`` / ``августа`` as well as the nominative ``sierpień`` / ``август``), with and
without a final dot, the weekday names, and one regex made of the language's CLDR date
patterns (``full`` / ``long`` / ``medium`` / ``short`` and the era-free skeletons ``yMMMMd``,
``yMMMd``, ``yMMMM``, ``MMMMd``, ``yMMMMEEEEd`` …) that hold a month name or a literal word
(``d 'de' MMMM 'de' y``, ``y年M月d日``, ``y년 MMMM d일``, ``MMMM 'năm' y``).  Purely numeric
patterns (``dd.MM.y``, ``M/d/y``) are left to the numeric module's own date readers, which
keep every reading of an ambiguous ``01/02/2026``; patterns with a two-digit year, an era, a
narrow name or a week are not read (too ambiguous in running text).

Reading is forgiving where text is: a space of the pattern matches any run of white space (or
none), a comma or a dot of the pattern may be left out, literals after the last field
(``'г'.``, a trailing weekday) are optional, and a month name may be inflected beyond the
CLDR's forms when the language's forms share a stem of three letters or more that no other
month shares (``апреле`` "in April", ``w sierpniu`` "in August": stem plus up to three
letters).  English day ordinals (``August 11th``) and the Romance ``1er`` / ``1º`` are read
after a day (the CLDR data babel ships has no ordinal suffixes).

Two machine formats are read in every language, since commands print them whatever the
page's language: Unix ``date`` output (``Tue Dec  1 18:20:01 UTC 2026``) and RFC 2822
(``Tue, 01 Dec 2026 18:20:01 +0000``); both give one date-time key, converted to UTC when the
zone is known.

Times carry their zone (:func:`zone_at`): ``UTC``, ``GMT``, ``Z``, offsets (``UTC+9``,
``GMT+09:00``, ``+0900``) and abbreviations (``JST``, ``KST``, ``PST``, ``CEST`` …) from the
CLDR metazones' short names and the IANA time zone database (:mod:`zoneinfo`, when the system
has it), each with the UTC offsets it stands for — several for an abbreviation that names
different zones (``CST``, ``IST``), so that any of them matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import NamedTuple

from parallelcheck.text.cldr import LocaleData, locale_data
from parallelcheck.text.lexicon import word_trie
from parallelcheck.text.regexes import compile_pattern

__all__ = [
    "DateProfile",
    "date_profile",
    "day_period",
    "may_hold_date",
    "read_date",
    "zone_at",
    "zone_offsets",
]

#: The skeletons whose patterns are read, besides the four date formats.
_SKELETONS = (
    "yMMMMEEEEd yMMMMEd yMMMEd yMMMMd yMMMd yMMMM yMMM MMMMEd MMMEd MMMMd MMMd yMEd yMd yM Md"
).split()
#: Day ordinals after digits (not in the CLDR data babel ships).
_DAY_ORDINALS = {
    "en": "st|nd|rd|th",
    "fr": "er",
    "es": "º|°|ª",
    "pt": "º|°|ª",
    "it": "º|°",
}
_SIMPLE_SEPARATORS = frozenset("-./")


@dataclass(frozen=True)
class DateProfile:
    """What a language's dates are written with (see the module documentation).  Built once
    per language by :func:`date_profile` and handed on with the numeric profile."""

    lang: str
    #: Every month name, lower-cased, without a final dot, with its month (1–12).
    months: Mapping[str, int]
    #: Stems of inflected month names (``апрел``) with their month.
    stems: Mapping[str, int]
    #: The month names as an alternation (exact forms first, then stems with an ending).
    month_alternation: str
    #: The CLDR date patterns with words or literals, and the two machine formats.
    pattern: re.Pattern[str] | None
    #: Finds, in lower-cased text, the first three letters of a month name (the language's,
    #: or an English one of the machine formats): see :func:`may_hold_date`.
    heads: re.Pattern[str]
    #: Finds, after a digit, the literal that follows a number in a pattern without month
    #: names (``年``, ``월``, ``. `` of ``y. M. d.``, the right-to-left mark of ``d‏/M‏/y``).
    marks: re.Pattern[str] | None
    #: Finds a word that every date :attr:`pattern` reads holds (its month name, else a
    #: literal word or its weekday, each as the pattern reads it), or ``None`` when some
    #: pattern holds no word (``y. M. d.``): a text it finds nothing in holds no date.
    witnesses: re.Pattern[str] | None
    #: The CLDR's words for before and after noon (``오후``, ``下午``, ``م``), lower-cased,
    #: with ``"am"`` / ``"pm"``: read right before or after a time (:func:`day_period`).
    periods: Mapping[str, str]
    #: Per alternative of :attr:`pattern` (group ``p<i>``): group names of year, numeric
    #: month, month name and day (``""`` where the pattern has none).
    fields: Mapping[str, tuple[str, str, str, str]]


def _names(locale: LocaleData, kind: str) -> dict[str, int]:
    """All wide and abbreviated names (format and stand-alone) of ``months`` or ``days``,
    lower-cased, dots stripped; a name two values share is dropped."""
    found: dict[str, int] = {}
    clash: set[str] = set()
    data = getattr(locale, kind)
    for context in ("format", "stand-alone"):
        for width in ("wide", "abbreviated"):
            for value, name in data.get(context, {}).get(width, {}).items():
                key = name.lower().rstrip(".").strip()
                if not key:
                    continue
                number = value + 1 if kind == "days" else value
                if found.get(key, number) != number:
                    clash.add(key)
                found[key] = number
    for key in clash:
        del found[key]
    return found


def _stems(locale: LocaleData, months: dict[str, int]) -> dict[str, int]:
    """Stems shared by all wide forms of a month when the forms differ (an inflecting
    language), three letters or longer, that no other month's names start with."""
    wide: dict[int, set[str]] = {}
    for context in ("format", "stand-alone"):
        for value, name in locale.months.get(context, {}).get("wide", {}).items():
            wide.setdefault(value, set()).add(name.lower())
    stems: dict[str, int] = {}
    for value, forms in wide.items():
        if len(forms) < 2:
            continue
        stem = forms.pop()
        for form in forms:
            while not form.startswith(stem):
                stem = stem[:-1]
        if len(stem) < 3 or not stem.isalpha():
            continue
        if any(name.startswith(stem) and month != value for name, month in months.items()):
            continue
        stems[stem] = value
    return stems


def _cased_names(locale: LocaleData, kind: str) -> set[str]:
    return {
        name.rstrip(".")
        for context in ("format", "stand-alone")
        for width in ("wide", "abbreviated")
        for name in getattr(locale, kind).get(context, {}).get(width, {}).values()
    }


def _day_month_year(locale: LocaleData) -> str | None:
    """``d MMMM`` and ``MMMM 'năm' y`` make ``d MMMM 'năm' y`` (a full date the CLDR writes
    only with a comma, ``d MMMM, y``, while running text joins the two)."""
    skeletons = locale.skeletons
    if "MMMMd" not in skeletons or "yMMMM" not in skeletons:
        return None
    day_month = skeletons["MMMMd"]
    month_year = skeletons["yMMMM"]
    for name in ("MMMM", "LLLL"):
        if day_month.endswith(name) and month_year.startswith(name) and "d" not in month_year:
            return day_month + month_year[len(name) :]
    return None


def _is_cjk(ch: str) -> bool:
    """Han, Kana or Hangul (scripts whose words run into particles: 10월에, 20日に)."""
    code = ord(ch)
    return 0x1100 <= code <= 0x11FF or 0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


class _Words(NamedTuple):
    """Words as a regex, the characters the regex's matches can start with, and a regex that
    matches where the first does (the same texts from the same places, maybe tried in another
    order): what a witness searches for (:func:`may_hold_date` asks only whether there is a
    match, and a trie of words finds one in a fraction of the time of their alternation)."""

    regex: str
    initials: str
    found: str

    def ending(self, end: str) -> _Words:
        """These words followed by *end*."""
        return _Words(f"(?:{self.regex}){end}", self.initials, f"(?:{self.found}){end}")


def _words(words: Iterable[str], stems: Iterable[str] = ()) -> _Words:
    """An alternation of *words*, longest first, then of *stems* with an ending of up to three
    letters (``апрел`` of ``апреле``); found by a trie of the words, then the stems."""
    words, stems = set(words), sorted(stems, key=len, reverse=True)
    endings = [rf"{re.escape(stem)}[^\W\d_]{{0,3}}" for stem in stems]
    regex = "|".join([_alternation(words)] * bool(words) + endings)
    found = "|".join([word_trie(words)] * bool(words) + endings)
    return _Words(regex, "".join(sorted({word[0] for word in [*words, *stems]})), found)


_TOKEN = compile_pattern(r"'(?:[^']|'')*'|([A-Za-z])\1*|\s+|.", re.S)


def _compile(
    pattern: str,
    index: int,
    names: _Words,
    wide: _Words,
    weekdays: _Words,
    ordinal: str,
    glued: bool,
) -> tuple[str, _Words | None] | None:
    """A CLDR date pattern as a regex with groups ``y<i>``, ``m<i>``, ``n<i>``, ``d<i>``, and
    its *witness*: a word every match holds, as the regex reads it (its month name, else a
    literal word, else its weekday; ``None`` when it holds none); or ``None`` for a pattern
    this module does not read (see the module documentation).

    With *glued* (Chinese, Japanese, Korean), a name or literal may run into the next word
    (``10월에``, ``20日に``); elsewhere a name or a letter literal ends a word."""
    end = "" if glued else r"(?![^\W\d_])"
    if "y" not in pattern.replace("'", " "):
        names = wide  # a day and a month alone: only full names (not "ara 5", "lis 3")
    parts: list[tuple[str, str]] = []  # (kind, regex): kind "field", "weekday" or "literal"
    words: dict[int, tuple[int, _Words]] = {}  # part index: (preference, the word)
    have: set[str] = set()
    wordy = False  # a month name, a letter literal or a separator other than - . /
    for token in _TOKEN.finditer(pattern):
        text = token.group()
        if text.startswith("'"):
            literal = text[1:-1].replace("''", "'") if len(text) > 1 else "'"
            if literal == "":
                literal = "'"
            regex = _literal(literal) + (end if literal[-1].isalpha() else "")
            if any(ch.isalpha() for ch in literal):
                wordy = True
                words[len(parts)] = (1, _Words(regex, literal.split()[0][0], regex))
            parts.append(("literal", regex))
            continue
        if text.isspace():
            # After a separator of digits (y. M. d.) the space is required: 1.8 is no date.
            after_mark = token.start() and pattern[token.start() - 1] in _SIMPLE_SEPARATORS
            parts.append(("literal", r"\s+" if after_mark else r"\s*"))
            continue
        letter = token.group(1)
        if letter is None:
            if text not in _SIMPLE_SEPARATORS:
                wordy = True
            if text.isalpha():  # 年, 月
                words[len(parts)] = (1, _Words(_literal(text), text[0], _literal(text)))
            parts.append(("literal", _literal(text)))
            continue
        n = len(text)
        if letter == "y":
            if n == 2:
                return None
            parts.append(("field", rf"(?P<y{index}>[12][0-9]{{3}})(?![0-9])"))
            have.add("y")
        elif letter in "ML":
            if n <= 2:
                parts.append(("field", rf"(?P<m{index}>1[0-2]|0?[1-9])(?![0-9])"))
            elif n <= 4:
                words[len(parts)] = (0, names.ending(end))
                parts.append(("field", rf"(?P<n{index}>{names.regex}){end}\.?"))
                wordy = True
            else:
                return None
            have.add("M")
        elif letter == "d":
            suffix = f"(?:{ordinal})?" if ordinal else ""
            parts.append(("field", rf"(?P<d{index}>3[01]|[12][0-9]|0?[1-9])(?![0-9]){suffix}"))
            have.add("d")
        elif (letter in "Ec" and n in (3, 4)) or (letter == "E" and n < 3):
            words[len(parts)] = (2, weekdays.ending(end))
            parts.append(("weekday", rf"(?:{weekdays.regex}){end}\.?"))
        else:
            return None  # era, quarter, week, time, narrow names
    if "y" in have and re.search(r"[-./]\s", pattern):
        wordy = True  # y. M. d. (ko, hu): a dot and a space are no plain number's
    if "M" not in have or not (have & {"y", "d"}) or not wordy:
        return None
    last = max(i for i, (kind, _) in enumerate(parts) if kind == "field")
    first = min(i for i, (kind, _) in enumerate(parts) if kind != "literal")
    body = "".join(regex for _, regex in parts[first : last + 1])
    lead = "".join(regex for _, regex in parts[:first])
    tail = "".join(regex for _, regex in parts[last + 1 :])
    start = parts[first][1]
    guard = "(?<![0-9])" if start.startswith(("(?P<y", "(?P<m", "(?P<d")) else r"(?<![^\W\d_])"
    if lead.strip(r"\s*"):
        body = f"(?:{lead})?{guard}{body}" if not parts[0][1].startswith(r"\s") else body
    else:
        body = guard + body
    if tail.strip(r"\s*"):
        body += "".join(f"(?:{regex})?" for _, regex in parts[last + 1 :])
    # The words of the parts every match holds (those from the first field to the last).
    held = sorted((word for at, word in words.items() if first <= at <= last), key=lambda w: w[0])
    return body, held[0][1] if held else None


def _literal(text: str) -> str:
    if text in (",", "،"):
        return "[,،]?"
    if text in (".", "\u200f", "\u200e"):
        return re.escape(text) + "?"
    if text.isspace():
        return r"\s*"
    return r"\s*".join(re.escape(piece) for piece in text.split())


_WEEKDAYS_EN = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"


def _machine_formats(month_names: str) -> tuple[str, str]:
    """Unix ``date`` output and RFC 2822 (English names, by their definitions)."""

    def clock(k: str) -> str:
        return rf"(?P<T{k}>(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?)"

    def zone(k: str) -> str:
        return rf"(?P<Z{k}>UTC[+-][0-9]{{1,2}}|[A-Z]{{1,5}}|[+-][0-9]{{4}})"

    unix = (
        rf"(?<![\w])(?:{_WEEKDAYS_EN})\s+(?P<Nu>{month_names})\s+(?P<Du>[0-9]{{1,2}})\s+"
        rf"{clock('u')}(?:\s+{zone('u')})?\s+(?P<Yu>[12][0-9]{{3}})(?![0-9])"
    )
    rfc = (
        rf"(?<![\w])(?:(?:{_WEEKDAYS_EN}),\s*)?(?P<Dr>[0-9]{{1,2}})\s+(?P<Nr>{month_names})"
        rf"\s+(?P<Yr>[12][0-9]{{3}})\s+{clock('r')}\s+{zone('r')}(?![\w])"
    )
    return unix, rfc


@cache
def date_profile(lang: str) -> DateProfile:
    """The date names and patterns of a primary language subtag (see the module
    documentation).  Cached: a function of the language alone; built once per language of
    the run (a few milliseconds), as :mod:`parallelcheck.text.numeric`'s profiles are."""
    locale = locale_data(lang)
    en_months = {k: v for k, v in _en_months().items() if len(k) == 3}
    en_names = _words(name.title() for name in en_months)
    machine = _machine_formats(en_names.regex)
    months: dict[str, int] = {}
    stems: dict[str, int] = {}
    alternatives: list[str] = []
    fields: dict[str, tuple[str, str, str, str]] = {}
    # A word every match of an alternative holds, or None once some alternative has none.
    witnesses: set[_Words] | None = {en_names.ending(r"\s")}
    if locale is not None:
        months = _names(locale, "months")
        stems = _stems(locale, months)
        weekdays = _names(locale, "days")
        # English names keep their case (the text is read case-sensitively: "may", "march").
        names = _words(_cased_names(locale, "months") if lang == "en" else months, stems)
        glued = any(_is_cjk(ch) for name in months for ch in name)
        month_alternation = names.regex
        wide = _words(
            name if lang == "en" else name.lower()
            for context in ("format", "stand-alone")
            for name in locale.months.get(context, {}).get("wide", {}).values()
        )
        week_alt = _words(_cased_names(locale, "days") if lang == "en" else weekdays)
        ordinal = _DAY_ORDINALS.get(lang, "")
        seen: set[str] = set()
        sources = [locale.date_formats[k] for k in ("full", "long", "medium", "short")]
        sources += [locale.skeletons[k] for k in _SKELETONS if k in locale.skeletons]
        composite = _day_month_year(locale)
        if composite:
            sources.append(composite)
        compiled: list[tuple[int, str, int]] = []
        read: list[str] = []
        bodies: set[str] = set()
        for source in sources:
            if source in seen:
                continue
            seen.add(source)
            i = len(seen)
            found = _compile(source, i, names, wide, week_alt, ordinal, glued)
            if found is None:
                continue
            read.append(source)
            regex, witness = found
            # Two sources may read alike (``EEEE d MMMM y`` and ``yMMMMEEEEd``): the later
            # could never match where the earlier does not (where they tie, the alternatives
            # keep the order of the sources, below).
            body = regex.replace(f"{i}>", ">")
            if body in bodies:
                continue
            bodies.add(body)
            witnesses = witnesses | {witness} if witnesses is not None and witness else None
            count = sum(source.count(ch) > 0 for ch in "yMLd") * 2 + ("E" in source)
            compiled.append((count, regex, i))
        # More date fields first (a weekday counts less), then longer patterns: the
        # alternation takes the first that fits.
        for _, regex, i in sorted(compiled, key=lambda c: (-c[0], -len(c[1]), c[2])):
            alternatives.append(f"(?P<p{i}>{regex})")
            fields[f"p{i}"] = (f"y{i}", f"m{i}", f"n{i}", f"d{i}")
    else:
        month_alternation = ""
        read = []
    alternatives += [f"(?P<unix>{machine[0]})", f"(?P<rfc>{machine[1]})"]
    fields["unix"] = fields["rfc"] = ("", "", "", "")
    flags = 0 if lang == "en" else re.IGNORECASE
    pattern = compile_pattern("|".join(alternatives), flags)
    heads = compile_pattern(word_trie({name[:3] for name in [*months, *stems, *en_months]}))
    marked = {mark for source in read for mark in _marks(source)}
    literals = sorted(marked, key=lambda mark: (-len(mark), mark))  # the same in every process
    marks = (
        compile_pattern("[0-9](?:" + "|".join(map(re.escape, literals)) + ")") if literals else None
    )
    witness = None
    if witnesses is not None:  # tried only where a witness's first character stands
        initials = "".join(sorted({ch for word in witnesses for ch in word.initials}))
        alternation = "|".join(sorted(word.found for word in witnesses))
        witness = compile_pattern(f"(?=[{re.escape(initials)}])(?:{alternation})", flags)
    periods = _periods(locale) if locale is not None else {}
    return DateProfile(
        lang, months, stems, month_alternation, pattern, heads, marks, witness, periods, fields
    )


def _periods(locale: LocaleData) -> dict[str, str]:
    """Words for a part of the day with ``"am"`` or ``"pm"``: the CLDR's am/pm, and its
    flexible day periods (``凌晨`` "small hours", ``晚上`` "evening") by the hours the
    CLDR's rules give them — a period spanning noon is left out."""
    hours: dict[str, set[str]] = {}
    for hour, period in enumerate(locale.hour_periods):
        hours.setdefault(period, set()).add("am" if hour < 12 else "pm")
    halves = {period: found.pop() for period, found in hours.items() if len(found) == 1}
    halves.update({"am": "am", "pm": "pm", "midnight": "am", "noon": "pm"})
    found: dict[str, str] = {}
    for context in ("format", "stand-alone"):
        for width in ("abbreviated", "wide"):
            for period, word in locale.day_periods.get(context, {}).get(width, {}).items():
                half = halves.get(period)
                if half and word and found.setdefault(word.lower(), half) != half:
                    found[word.lower()] = ""  # two halves: read neither
    return {word: half for word, half in found.items() if half}


def day_period(profile: DateProfile, text: str, start: int, end: int) -> tuple[str, int, int]:
    """``("am" | "pm", start, end)`` when a word of :attr:`DateProfile.periods` stands right
    before the time at ``text[start:end]`` (``오후 3:05``, ``下午3:05``) or right after it
    (``3:05 م``), with the time's span widened to it; else ``("", start, end)``."""
    lowered_before = text[max(0, start - 8) : start].lower()
    for word, period in profile.periods.items():
        for gap in ("", " ", "\u00a0", "\u202f"):
            if lowered_before.endswith(word + gap):
                first = start - len(word) - len(gap)
                if first == 0 or not text[first - 1].isalpha():
                    return period, first, end
        for gap in (" ", "\u00a0", "\u202f", ""):
            after = end + len(gap)
            if text[end:after] == gap and text[after : after + len(word)].lower() == word:
                stop = after + len(word)
                if stop >= len(text) or not text[stop].isalpha():
                    return period, start, stop
    return "", start, end


def _marks(pattern: str) -> list[str]:
    """The literals right after a numeric field of a pattern without month names."""
    if re.search("MMM|LLL", pattern):
        return []
    found = []
    tokens = [token.group() for token in _TOKEN.finditer(pattern)]
    for i, before in enumerate(tokens[:-1]):
        if before[0] in "yMLd":
            after = tokens[i + 1]
            literal = after[1:-1] if after.startswith("'") else after
            if literal in _SIMPLE_SEPARATORS and i + 2 < len(tokens) and tokens[i + 2].isspace():
                literal += " "  # y. M. d.: a dot and a space
            if literal and literal not in _SIMPLE_SEPARATORS:
                found.append(literal)
    return found


_DIGIT = compile_pattern("[0-9]")


def may_hold_date(profile: DateProfile, text: str) -> bool:
    """Whether :attr:`DateProfile.pattern` may find something in *text* (ASCII digits): it
    holds a digit, the beginning of a month name, and a word every date of the language holds
    (:attr:`DateProfile.witnesses`).  Much quicker than the search, and false for nearly every
    text."""
    if not _DIGIT.search(text):
        return False
    if not (profile.heads.search(text.lower()) or (profile.marks and profile.marks.search(text))):
        return False
    return profile.witnesses is None or profile.witnesses.search(text) is not None


def month_of(profile: DateProfile, name: str) -> int | None:
    """The month a name (or an inflected form of it) stands for."""
    key = name.lower().rstrip(".")
    found = profile.months.get(key)
    if found is None:
        for stem, month in profile.stems.items():
            if key.startswith(stem) and len(key) - len(stem) <= 3:
                return month
    return found


def read_date(profile: DateProfile, match: re.Match[str]) -> str | None:
    """The key of a date :attr:`DateProfile.pattern` matched (``2026-10-20``, ``2026-10``,
    ``--10-20``; a machine format's ``2026-12-01T18:20:01Z``), or ``None`` when the fields
    are no date."""
    which = match.lastgroup
    if which in ("unix", "rfc"):
        return _read_machine(match, "u" if which == "unix" else "r")
    y, m, n, d = profile.fields[which]
    year = match.group(y) if y in match.re.groupindex else None
    number = match.group(m) if m in match.re.groupindex else None
    name = match.group(n) if n in match.re.groupindex else None
    day = match.group(d) if d in match.re.groupindex else None
    month = int(number) if number else month_of(profile, name) if name else None
    if month is None or (year is None and day is None):
        return None
    return date_key(int(year) if year else None, month, int(day) if day else None)


def date_key(year: int | None, month: int, day: int | None) -> str | None:
    """``2026-10-20``, ``2026-10`` (no day), ``--10-20`` (no year); ``None`` for no date."""
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return None
    if year is None:
        return f"--{month:02d}-{day:02d}"
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        datetime(year, month, day)
    except ValueError:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def _read_machine(match: re.Match[str], k: str) -> str | None:
    month = _en_months().get(match.group(f"N{k}").lower())
    key = date_key(int(match.group(f"Y{k}")), month or 0, int(match.group(f"D{k}")))
    if key is None:
        return None
    clock = match.group(f"T{k}")
    if len(clock) == 5:
        clock += ":00"
    zone = match.group(f"Z{k}")
    offsets = _zone_text_offsets(zone) if zone else None
    if not offsets:
        return f"{key}T{clock}"
    moment = datetime.fromisoformat(f"{key}T{clock}") - timedelta(minutes=offsets[0])
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@cache
def _en_months() -> dict[str, int]:
    english = locale_data("en")
    return _names(english, "months") if english is not None else {}


# --------------------------------------------------------------------------------------------
# Time zones

_OFFSET = compile_pattern(
    r"(?:UTC|GMT)\s?(?P<sign>[+\-−])(?P<h>[0-9]{1,2})(?::?(?P<m>[0-9]{2}))?(?![0-9])"
    r"|(?P<sign2>[+\-])(?P<h2>[0-9]{2}):?(?P<m2>[0-9]{2})(?![0-9])"
)
_ZONE_WORD = compile_pattern(r"[A-Z][A-Z]{1,4}(?![A-Za-z])|Z(?![A-Za-z0-9])")


@cache
def zone_offsets() -> Mapping[str, tuple[int, ...]]:
    """Zone abbreviations with the UTC offsets (minutes) they stand for: ``UTC``/``GMT``/``Z``,
    the CLDR metazones' short names in English, and the abbreviations of the IANA time zone
    database (when :mod:`zoneinfo` has it) — standard and daylight, in January and July."""
    from babel.core import get_global

    table: dict[str, set[int]] = {"UTC": {0}, "GMT": {0}, "Z": {0}}
    try:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    except ImportError:  # pragma: no cover - Python without zoneinfo
        return {k: tuple(sorted(v)) for k, v in table.items()}
    by_metazone: dict[str, list[str]] = {}
    for zone, metazone in get_global("meta_zones").items():
        by_metazone.setdefault(metazone, []).append(zone)
    from babel import Locale

    english = Locale.parse("en")
    samples = (datetime(2026, 1, 15, 12), datetime(2026, 7, 15, 12))
    for metazone, zones in sorted(by_metazone.items()):
        for zone in sorted(zones):
            try:
                info = ZoneInfo(zone)
            except (ZoneInfoNotFoundError, ValueError, OSError):
                continue
            short = english.meta_zones.get(metazone, {}).get("short", {})
            for when in samples:
                local = when.replace(tzinfo=info)
                offset = local.utcoffset()
                if offset is None:
                    continue
                minutes = int(offset.total_seconds() // 60)
                name = local.tzname() or ""
                daylight = bool(local.dst())
                for abbreviation in (name, short.get("daylight" if daylight else "standard")):
                    if abbreviation and abbreviation.isalpha() and abbreviation.isupper():
                        table.setdefault(abbreviation, set()).add(minutes)
    return {k: tuple(sorted(v)) for k, v in sorted(table.items())}


def _zone_text_offsets(text: str) -> tuple[int, ...] | None:
    offset = _OFFSET.fullmatch(text)
    if offset:
        return (_offset_minutes(offset),)
    return zone_offsets().get(text)


def _offset_minutes(match: re.Match[str]) -> int:
    sign = match.group("sign") or match.group("sign2")
    hours = int(match.group("h") or match.group("h2"))
    minutes = int(match.group("m") or match.group("m2") or 0)
    total = hours * 60 + minutes
    return -total if sign in "-−" else total


def zone_at(text: str, pos: int) -> tuple[tuple[int, ...], int] | None:
    """The time zone written at *pos* of *text* after a time (after an optional space and an
    opening parenthesis): its UTC offsets in minutes and where it ends, or ``None``.

    >>> zone_at("09:00 JST", 5)
    ((540,), 9)
    """
    i = pos
    n = len(text)
    if i < n and text[i] in " \u00a0\u202f":
        i += 1
    paren = i < n and text[i] in "(（"
    if paren:
        i += 1
    offset = _OFFSET.match(text, i)
    if offset:
        found: tuple[tuple[int, ...], int] = ((_offset_minutes(offset),), offset.end())
    else:
        word = _ZONE_WORD.match(text, i)
        if word is None:
            return None
        offsets = zone_offsets().get(word.group())
        if not offsets:
            return None
        found = (offsets, word.end())
    end = found[1]
    if paren:
        if end < n and text[end] in ")）":
            end += 1
        else:
            return None
    return found[0], end


def shift_time(hour: int, minute: int, offset: int) -> str:
    """``HH:MM`` in UTC of a local time at *offset* minutes east of UTC."""
    total = (hour * 60 + minute - offset) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"
