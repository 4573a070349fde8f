"""Which script a piece of text is written in, and which language it most likely is.

Two questions, answered cheaply first:

1. **Script profile** (:func:`script_profile`) — how many letters of *running text* a text has
   in each script (Han, Kana, Hangul, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai,
   Latin …), after setting aside what a translator keeps as it is: inline code, URLs, numbers
   and name-like tokens (``CamelCase``, ``ALLCAPS``, words with digits, underscores, dots or
   slashes such as ``V4.1``, ``main.py``, ``/v1/models``).  In a version written in a
   non-Latin script, capitalised Latin words that do not start a sentence (``Huawei``,
   ``Ascend``) are names too.  Those set-aside characters are counted as *untranslatable*.
   The profile is regular expressions and ``str.count`` over whole strings: the FastAPI
   corpus (1,612 files) costs a fraction of a second.

2. **Language** (:func:`block_language`) — decided by script wherever the script says it:
   Hangul is Korean; Kana is Japanese; Han without Kana is Chinese, except a short Han-only
   text in a Japanese version (a heading-like ``概要``), which is Japanese; Cyrillic, Greek,
   Arabic … name their language directly when only one language of the article uses that
   script.  Only when several of the article's languages share the text's script (Latin:
   en / de / fr …; Cyrillic: ru / uk) is a statistical identifier asked: ``py3langid``,
   restricted with ``set_languages`` to those languages.  The identifier's model (shipped in
   the wheel) is loaded once per process, lazily, the first time such a decision is needed —
   a run over CJK-only versions never loads it.

The letters of scripts are weighted when they are compared, since one Han character carries
about as much as a short Latin word: Han 3, Kana and Hangul 2, every alphabet 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from parallelcheck.text.langid import identify
from parallelcheck.text.langtag import primary_language
from parallelcheck.text.lexicon import (
    CAPITALISED_NAME,
    EMAIL,
    NAME_LIKE,
    URL,
    might_hold_url,
)
from parallelcheck.text.regexes import compile_pattern

LATIN = "Latin"
HAN = "Han"
KANA = "Kana"
HANGUL = "Hangul"
CYRILLIC = "Cyrillic"
GREEK = "Greek"
ARABIC = "Arabic"
HEBREW = "Hebrew"
DEVANAGARI = "Devanagari"
THAI = "Thai"

#: How much one letter of a script weighs against one Latin letter.
WEIGHT = {HAN: 3.0, KANA: 2.0, HANGUL: 2.0}

#: The script(s) each language is written in (primary subtag → scripts).  Languages not listed
#: are taken to be written in Latin script.
LANGUAGE_SCRIPTS: dict[str, tuple[str, ...]] = {
    "zh": (HAN,),
    "yue": (HAN,),
    "wuu": (HAN,),
    "lzh": (HAN,),
    "ja": (HAN, KANA),
    "ko": (HANGUL, HAN),
    "ru": (CYRILLIC,),
    "uk": (CYRILLIC,),
    "be": (CYRILLIC,),
    "bg": (CYRILLIC,),
    "sr": (CYRILLIC,),
    "mk": (CYRILLIC,),
    "kk": (CYRILLIC,),
    "ky": (CYRILLIC,),
    "mn": (CYRILLIC,),
    "tg": (CYRILLIC,),
    "el": (GREEK,),
    "ar": (ARABIC,),
    "fa": (ARABIC,),
    "ur": (ARABIC,),
    "ps": (ARABIC,),
    "ckb": (ARABIC,),
    "he": (HEBREW,),
    "yi": (HEBREW,),
    "hi": (DEVANAGARI,),
    "mr": (DEVANAGARI,),
    "ne": (DEVANAGARI,),
    "sa": (DEVANAGARI,),
    "th": (THAI,),
}

#: The language a script stands for when none of the article's languages is written in it.
SCRIPT_DEFAULT = {
    LATIN: "en",
    HAN: "zh",
    KANA: "ja",
    HANGUL: "ko",
    CYRILLIC: "ru",
    GREEK: "el",
    ARABIC: "ar",
    HEBREW: "he",
    DEVANAGARI: "hi",
    THAI: "th",
}

LANGUAGE_NAMES = {
    "ar": "Arabic",
    "bg": "Bulgarian",
    "cs": "Czech",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "es": "Spanish",
    "fa": "Persian",
    "fi": "Finnish",
    "fr": "French",
    "he": "Hebrew",
    "hi": "Hindi",
    "hu": "Hungarian",
    "id": "Indonesian",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "nl": "Dutch",
    "no": "Norwegian",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sv": "Swedish",
    "th": "Thai",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "vi": "Vietnamese",
    "zh": "Chinese",
}

# Letters are counted on the UTF-8 encoding: a lead byte (0xC2–0xF4) never occurs inside
# another character, so ``bytes.count`` of a lead byte — or of a lead byte and its first
# continuation byte — counts the characters of one block of code points exactly, at memory
# speed.  The blocks counted, rounded to lead-byte boundaries (rarely used neighbours such as
# CJK extension A, Yi or polytonic Greek are left out or counted with their neighbour):
#   Han         U+4000–9FFF (lead bytes E4–E9)
#   Kana        U+3040–30FF (E3 81–83) less the middle dot ・ (E3 83 BB)
#   Hangul      U+A000–AFFF, U+B000–DFFF (EA–ED: Hangul syllables are AC00–D7A3)
#   Cyrillic    U+0400–052F (D0–D4)
#   Greek       U+0380–03FF (CE, CF)
#   Arabic      U+0600–06FF (D8–DB)
#   Hebrew      U+05C0–05FF (D7)
#   Devanagari  U+0900–097F (E0 A4, E0 A5)
#   Thai        U+0E00–0E7F (E0 B8, E0 B9)
#   Latin       ASCII letters, U+00C0–027F less × ÷ (C3–C9), U+1E00–1EFF (E1 B8–BB)
# Digits, punctuation and symbols inside these blocks (Arabic-Indic digits, the danda) are few
# and counted with the letters.
_SCRIPT_BYTES: tuple[tuple[str, bytes, tuple[bytes, ...], tuple[bytes, ...]], ...] = (
    # (script, lead bytes counted alone, longer sequences counted, sequences subtracted)
    (HAN, b"\xe4\xe5\xe6\xe7\xe8\xe9", (), ()),
    (KANA, b"", (b"\xe3\x81", b"\xe3\x82", b"\xe3\x83"), (b"\xe3\x83\xbb",)),
    (HANGUL, b"\xea\xeb\xec\xed", (), ()),
    (CYRILLIC, b"\xd0\xd1\xd2\xd3\xd4", (), ()),
    (
        LATIN,
        b"\xc3\xc4\xc5\xc6\xc7\xc8\xc9",
        (b"\xe1\xb8", b"\xe1\xb9", b"\xe1\xba", b"\xe1\xbb"),
        (b"\xc3\x97", b"\xc3\xb7"),
    ),
    (GREEK, b"\xce\xcf", (), ()),
    (ARABIC, b"\xd8\xd9\xda\xdb", (), ()),
    (HEBREW, b"\xd7", (), ()),
    (DEVANAGARI, b"", (b"\xe0\xa4", b"\xe0\xa5"), ()),
    (THAI, b"", (b"\xe0\xb8", b"\xe0\xb9"), ()),
)
# Every byte that starts something counted above; the others are deleted in one pass, so what
# is left is short and tells which scripts occur.
_COUNTED_LEADS = frozenset(
    b for _, leads, seqs, _ in _SCRIPT_BYTES for b in leads + b"".join(s[:1] for s in seqs)
)
_NOT_COUNTED_LEAD = bytes(b for b in range(256) if b not in _COUNTED_LEADS)
# The counted lead bytes a script's lead stands for alone become that script's code (1, 2 …),
# the others (those of the longer sequences) stay as they are: one translation leaves the text's
# counted lead bytes as a few codes, each counted once, or a sequence's lead to look further.
_CODE_OF_LEAD = bytearray(range(256))
#: A code → the script whose lead bytes it stands for.
_SCRIPT_OF_CODE: dict[int, str] = {}
#: The lead byte of longer sequences → (script, its sequences of that lead) for each script.
_SEQUENCES_OF_LEAD: dict[int, list[tuple[str, tuple[bytes, ...]]]] = {}
#: A script → the sequences subtracted from its count.
_SUBTRACTED: dict[str, tuple[bytes, ...]] = {}
for _code, (_script, _alone, _sequences, _minus) in enumerate(_SCRIPT_BYTES, start=1):
    for _lead in _alone:
        _CODE_OF_LEAD[_lead] = _code
        _SCRIPT_OF_CODE[_code] = _script
    for _lead in sorted({seq[0] for seq in _sequences}):
        _of_lead = tuple(seq for seq in _sequences if seq[0] == _lead)
        _SEQUENCES_OF_LEAD.setdefault(_lead, []).append((_script, _of_lead))
    if _minus:
        _SUBTRACTED[_script] = _minus
assert not _SCRIPT_OF_CODE.keys() & _SEQUENCES_OF_LEAD.keys()  # codes are below every lead
_LEAD_CODES = bytes(_CODE_OF_LEAD)

_ASCII_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_NOT_ASCII_LETTER = bytes(b for b in range(256) if b not in _ASCII_LETTERS)

# Characters of some scripts, for character classes of regular expressions.
#: CJK ideographs: the unified block, extension A and the compatibility ideographs.
HAN_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Hangul syllables (가–힣).
HANGUL_SYLLABLES = "\uac00-\ud7a3"
#: Hangul syllables, jamo and compatibility jamo.
HANGUL_CHARS = HANGUL_SYLLABLES + "\u1100-\u11ff\u3130-\u318f"
#: Latin letters (ASCII, Latin-1, Latin Extended-A/B) and ASCII digits.
LATIN_ALNUM = "A-Za-z0-9\u00c0-\u024f"
#: A CJK ideograph.
HAN_CHAR = compile_pattern(f"[{HAN_CHARS}]")
_LATIN_ALNUM_CHAR = compile_pattern(f"[{LATIN_ALNUM}]")
_HANGUL_CHAR = compile_pattern(f"[{HANGUL_CHARS}]")


def is_hangul_syllable(char: str) -> bool:
    """Whether *char* (one character) is a Hangul syllable."""
    return "\uac00" <= char <= "\ud7a3"


def char_script(char: str) -> str | None:
    """:data:`LATIN` for a Latin letter or ASCII digit, :data:`HANGUL` for a Hangul letter,
    ``None`` for any other character (one character; the empty string is ``None`` too)."""
    if _LATIN_ALNUM_CHAR.match(char):
        return LATIN
    if _HANGUL_CHAR.match(char):
        return HANGUL
    return None


# Runs of anything but a letter of a non-Latin script: digits, `_`, what is no letter, and
# Latin letters (ASCII, Latin-1 and Latin Extended-A/B).
_NOT_NON_LATIN_LETTERS = compile_pattern(r"[\W\d_A-Za-z\u00C0-\u024F]+")


#: How much of a text's start :func:`mostly_non_latin` reads.
NON_LATIN_SAMPLE = 2000


def mostly_non_latin(text: str) -> bool:
    """Whether letters of a non-Latin script (any letter outside Latin, Latin-1 and Latin
    Extended-A/B) outnumber ASCII letters in the first 2,000 characters of *text* — how
    alignment tells a version written in a non-Latin script.  Unlike :func:`count_letters` it
    counts the letters of every script, listed in this module or not."""
    sample = text[:NON_LATIN_SAMPLE]
    if sample.isascii():
        return False
    latin = len(sample.encode("ascii", "ignore").translate(None, _NOT_ASCII_LETTER))
    if 2 * latin >= len(sample):
        return False  # the other characters, non-Latin letters among them, are no more
    # Every character is either in such a run or a non-Latin letter; the runs are few and long.
    # They are read a stretch at a time (a character is in a run or not whatever the stretch),
    # until what is read or what is left decides.
    size, non_latin = len(sample), 0
    for start in range(0, size, _NON_LATIN_STRETCH):
        stretch = sample[start : start + _NON_LATIN_STRETCH]
        non_latin += len(stretch) - sum(map(len, _NOT_NON_LATIN_LETTERS.findall(stretch)))
        if non_latin > latin:
            return True
        if non_latin + size - start - _NON_LATIN_STRETCH <= latin:
            return False
    return False


#: How much of its sample :func:`mostly_non_latin` reads before it asks whether the letters
#: so far decide.
_NON_LATIN_STRETCH = 250


@dataclass(frozen=True)
class ScriptProfile:
    """Letters of running text per script, and the characters set aside as untranslatable.

    ``total_letters``, ``total_weighted`` (letters weighted by :data:`WEIGHT`) and
    ``dominant`` (the script with the largest weighted count, ``None`` without letters) are
    worked out once, when the profile is made: rules ask for them many times.
    """

    letters: dict[str, int]
    untranslatable: int
    total_letters: int = field(init=False)
    total_weighted: float = field(init=False)
    dominant: str | None = field(init=False)

    def __post_init__(self) -> None:
        letters = self.letters
        weighted = {script: count * WEIGHT.get(script, 1.0) for script, count in letters.items()}
        dominant = max(sorted(weighted), key=weighted.__getitem__) if weighted else None
        object.__setattr__(self, "total_letters", sum(letters.values()))
        object.__setattr__(self, "total_weighted", sum(weighted.values()))
        object.__setattr__(self, "dominant", dominant)

    def weighted(self, script: str) -> float:
        return self.letters.get(script, 0) * WEIGHT.get(script, 1.0)

    def share(self, scripts: Iterable[str]) -> float:
        """Weighted share of *scripts* among all running-text letters (0 when there are none)."""
        total = self.total_weighted
        if not total:
            return 0.0
        return sum(self.weighted(s) for s in set(scripts)) / total

    @property
    def untranslatable_share(self) -> float:
        """Untranslatable characters against those plus running-text letters."""
        whole = self.untranslatable + self.total_letters
        return self.untranslatable / whole if whole else 1.0


@cache
def language_scripts(lang: str) -> tuple[str, ...]:
    """The scripts a language tag's language is written in (Latin when unknown).

    Cached: a function of the tag alone, asked for every block; one entry per language tag
    of the run."""
    primary = primary_language(lang)
    if primary == "sr" and "latn" in lang.lower():
        return (LATIN,)
    return LANGUAGE_SCRIPTS.get(primary, (LATIN,))


#: Languages that capitalise every noun: a capitalised word there is no sign of a name.
NOUN_CAPITALISING = frozenset({"de", "lb", "gsw", "nds"})


def capitalises_nouns(lang: str) -> bool:
    return primary_language(lang) in NOUN_CAPITALISING


@cache
def is_latin_language(lang: str) -> bool:
    """Whether a language tag's language is written in the Latin script alone.

    Cached: a function of the tag alone; one entry per language tag of the run."""
    return language_scripts(lang) == (LATIN,)


def language_name(lang: str) -> str:
    """An English name for a language tag's language (the tag itself when unknown)."""
    return LANGUAGE_NAMES.get(primary_language(lang), lang)


def strip_untranslatable(
    text: str, code_spans: Sequence[str] = (), *, capitalised_are_names: bool = False
) -> tuple[str, int]:
    """*text* with code spans, URLs, numbers and name-like tokens blanked out.

    Returns the running text and the number of characters set aside.  With
    *capitalised_are_names*, capitalised Latin words that do not start a sentence count as
    names too (right for text in a version written in a non-Latin script): see
    :func:`strip_capitalised`, applied to the result without it.  Rules read this through
    their article's facts (:meth:`parallelcheck.facts.ArticleFacts.running_text`), which
    compute it once per block.
    """
    running = strip_names(text, code_spans)
    return strip_capitalised(*running) if capitalised_are_names else running


def running_length(
    text: str, code_spans: Sequence[str] = (), *, capitalised_are_names: bool = False
) -> int:
    """The characters other than white space of :func:`strip_untranslatable`'s running text:
    a block's translatable length.  Not kept anywhere — the rule that asks
    (``length-ratio``) asks once per block and is the only one to ask for most blocks, so
    this skips the lookup and the storing that :meth:`ArticleFacts.running_text
    <parallelcheck.facts.ArticleFacts.running_text>` does for the texts several rules read."""
    running = strip_names(text, code_spans)[0]
    if capitalised_are_names:  # strip_capitalised's text, without counting what it blanks
        running = CAPITALISED_NAME.sub(" ", running)
    return non_space_length(running)


def non_space_length(text: str) -> int:
    """The characters of *text* other than white space.  The ASCII space is the one white-space
    character :meth:`str.isprintable` lets through (every other one is of Unicode's categories
    "Other" or "Separator"), so a printable text's are counted without splitting it: 65,000 of
    the 67,000 texts ``length-ratio`` measures in the FastAPI corpus."""
    if text.isprintable():
        return len(text) - text.count(" ")
    return len("".join(text.split()))


def strip_capitalised(text: str, removed: int = 0) -> tuple[str, int]:
    """*text* (already through :func:`strip_names`, with *removed* characters set aside) with
    the capitalised Latin words that do not start a sentence blanked out too
    (:data:`~parallelcheck.text.lexicon.CAPITALISED_NAME`)."""
    return _blank(CAPITALISED_NAME, text, removed)


def strip_names(text: str, code_spans: Sequence[str] = ()) -> tuple[str, int]:
    """*text* with code spans, URLs, e-mail addresses and name-like tokens blanked out, and
    the number of characters set aside."""
    text, removed = blank_code_spans(text, code_spans) if code_spans else (text, 0)
    if might_hold_url(text):
        text, removed = _blank(URL, text, removed)
    if "@" in text:
        text, removed = _blank(EMAIL, text, removed)
    return _blank(NAME_LIKE, text, removed)


def blank_code_spans(text: str, code_spans: Sequence[str]) -> tuple[str, int]:
    """*text* with each inline code span (its first occurrence) blanked out, and the number
    of characters set aside (spaces inside the spans not counted)."""
    removed = 0
    for span in code_spans:
        if span and span in text:
            text = text.replace(span, " ", 1)
            removed += len(span.replace(" ", ""))
    return text, removed


def _blank(pattern: re.Pattern[str], text: str, removed: int) -> tuple[str, int]:
    kept, matches = pattern.subn(" ", text)
    return kept, removed + len(text) - len(kept) + matches


def reaching(floor: str) -> re.Pattern[str]:
    """Finds a character from *floor* up: whether a text reaches it (number reading's floors,
    a script past Latin), without ``max(text)`` (which makes a string of every character).
    ``re`` compiles a character class in time proportional to the characters of the Basic
    Multilingual Plane it names (3 ms for all from U+0370 up), so the class is written as the
    complement of the characters below *floor* when those are fewer: the same characters
    either way."""
    if "\x00" < floor < "\u8000":
        return compile_pattern(f"[^\x00-{re.escape(chr(ord(floor) - 1))}]")
    return compile_pattern(f"[{re.escape(floor)}-\U0010ffff]")


def count_letters(text: str) -> dict[str, int]:
    """Letters per script in *text* (scripts with none are left out; letters of scripts not
    listed in this module are not counted).  Rules read this through their article's facts
    (:meth:`parallelcheck.facts.ArticleFacts.letters`); callers never change what they are
    given."""
    letters: dict[str, int] = {}
    if text.isascii():
        count = len(text.encode("ascii").translate(None, _NOT_ASCII_LETTER))
        return {LATIN: count} if count else letters
    data = text.encode("utf-8")
    ascii_letters = len(data.translate(None, _NOT_ASCII_LETTER))
    if ascii_letters:
        letters[LATIN] = ascii_letters
    codes = data.translate(_LEAD_CODES, _NOT_COUNTED_LEAD)  # counted lead bytes, as codes
    if not codes:
        return letters
    counts: dict[str, int] = {}
    for code in set(codes):
        script = _SCRIPT_OF_CODE.get(code)
        if script is not None:
            counts[script] = counts.get(script, 0) + codes.count(code)
            continue
        for script, sequences in _SEQUENCES_OF_LEAD[code]:
            count = sum(map(data.count, sequences))
            if count:
                counts[script] = counts.get(script, 0) + count
    for script, count in counts.items():
        minus = _SUBTRACTED.get(script)
        if minus:
            count -= sum(map(data.count, minus))
        if count > 0:
            letters[script] = letters.get(script, 0) + count
    return letters


#: The heaviest weight of a letter of any script.
_HEAVIEST = max(WEIGHT.values())


@cache
def _own_counting(
    scripts: tuple[str, ...],
) -> tuple[bytes, tuple[bytes, ...], tuple[bytes, ...], float]:
    """How :func:`count_letters` counts the letters of *scripts* but ASCII letters: the bytes
    that are no lead byte counted alone for them (a deletion table: what is left are their
    characters so marked), their longer sequences counted, those subtracted; and the
    lightest weight of *scripts*.  Cached: one entry per version's scripts."""
    rows = [row for row in _SCRIPT_BYTES if row[0] in scripts]
    alone = {lead for _, leads, _, _ in rows for lead in leads}
    return (
        bytes(b for b in range(256) if b not in alone),
        tuple(seq for _, _, sequences, _ in rows for seq in sequences),
        tuple(seq for _, _, _, minus in rows for seq in minus),
        min(WEIGHT.get(script, 1.0) for script in scripts),
    )


def surely_shares(
    text: str, scripts: tuple[str, ...], share: float, among: str | None = None
) -> bool:
    """Whether the letters of *scripts* in *text* are certainly *share* or more of the
    weighted letters of *among* (by default *text* itself; else a text that holds every
    character of *text* but white space, and maybe more), as :func:`count_letters` counts
    them weighted by :data:`WEIGHT`, told without counting the other scripts: a sufficient
    test, false where it cannot tell.

    The letters of *scripts* in *text* are counted as :func:`count_letters` counts them (not
    their ASCII letters), each at the lightest of those scripts' weights; every other
    character of *among* is taken for a letter of another script at the heaviest weight.
    The letters counted weigh at most what they weigh, the others at least what all other
    letters weigh (:func:`count_letters` counts one letter per character at most), so the
    share told is at most the true one."""
    if text.isascii():
        return False
    deleted, sequences, subtracted, lightest = _own_counting(scripts)
    data = text.encode("utf-8")
    own = len(data.translate(None, deleted))
    if sequences:
        own += sum(map(data.count, sequences)) - sum(map(data.count, subtracted))
    if not own:
        return False
    weighted = own * lightest
    others = len(text if among is None else among) - own
    return weighted >= share * (weighted + _HEAVIEST * others)


def script_profile(
    text: str, code_spans: Sequence[str] = (), *, capitalised_are_names: bool = False
) -> ScriptProfile:
    """The :class:`ScriptProfile` of *text* (see the module documentation)."""
    running, removed = strip_untranslatable(
        text, code_spans, capitalised_are_names=capitalised_are_names
    )
    return ScriptProfile(count_letters(running), removed)


# ---------------------------------------------------------------------------
# Language


#: Han characters a Japanese text may show without any kana (a heading, a label such as
#: 概要 or 例); a longer Han-only text in a Japanese version is Chinese.
JA_HAN_ONLY_LIMIT = 12
#: Kana that make a Han text Japanese (share of Han + Kana letters).
KANA_SHARE = 0.05
#: A statistical identifier: its guess for a text among languages (primary subtags), with
#: its probability.
Identifier = Callable[[str, Sequence[str]], tuple[str, float]]

#: Below this probability py3langid's name for a text in another script than the version's
#: gives way to English.
NAMING_CONFIDENCE = 0.9


def block_language(
    text: str,
    expected_lang: str,
    *,
    languages: Iterable[str] = (),
    code_spans: Sequence[str] = (),
    profile: ScriptProfile | None = None,
    statistical: bool = True,
    name_foreign: bool = True,
    running: str | None = None,
    identifier: Identifier = identify,
) -> tuple[str, float]:
    """The most likely language of *text*, as ``(primary subtag, confidence 0..1)``.

    *expected_lang* is the language of the version the text is in; *languages* are the
    languages of every version being checked (the candidates a statistical identifier is
    restricted to, with ``en`` always among them).  ``("und", 0.0)`` when the text has no
    running-text letters.  Script decides first; the identifier is asked only to tell apart
    languages that share the text's script.  With *statistical* false it is not asked about
    text in the version's own script: the answer is then the expected language with
    confidence 0 (the caller saw no sign of another language).  With *name_foreign* false,
    text in another script than the version's is not put to the statistical identifier: the
    answer names a likely language of that script (English for Latin) — enough to know the
    text is foreign, and much cheaper; ask again with it true to name the language.
    *running* is ``strip_untranslatable(text, code_spans)``'s text when the caller has it
    (what the statistical identifier reads); *identifier* is the statistical identifier
    (:func:`parallelcheck.text.langid.identify`, or one that remembers its answers:
    :meth:`parallelcheck.facts.ArticleFacts.identify`).
    """
    expected = primary_language(expected_lang)
    if profile is None:
        profile = script_profile(
            text, code_spans, capitalised_are_names=not is_latin_language(expected_lang)
        )
    if not profile.total_weighted:
        return "und", 0.0
    han, kana, hangul = (profile.letters.get(s, 0) for s in (HAN, KANA, HANGUL))
    cjk = han + kana
    dominant = profile.dominant
    own_scripts = language_scripts(expected_lang)
    own_share = profile.share(own_scripts)
    candidates = _candidates(tuple(languages), expected)

    # CJK and Hangul by script alone.
    if dominant in (HAN, KANA) or (own_share >= 0.25 and expected in ("zh", "ja")):
        share = profile.share((HAN, KANA))
        if kana and kana >= KANA_SHARE * cjk:
            return "ja", share
        if expected == "ja" and han <= JA_HAN_ONLY_LIMIT:
            return "ja", share
        if expected in ("zh", "yue", "wuu", "lzh"):
            return expected, share
        if expected == "ko" and hangul:
            return "ko", profile.share((HANGUL, HAN))
        return "zh", share
    if dominant == HANGUL or (expected == "ko" and own_share >= 0.25):
        return "ko", profile.share((HANGUL, HAN))
    if dominant is None:
        return "und", 0.0
    share = profile.share((dominant,))
    rivals = sorted(c for c in candidates if language_scripts(c) == (dominant,))
    if dominant in own_scripts:
        if dominant != LATIN or len(rivals) < 2:
            # Our own alphabet: siblings sharing it (ru / uk) are told apart only by the
            # identical-text check, not by a statistical guess.
            return expected, share
        if not statistical:
            return expected, 0.0
        return _identify(text, code_spans, rivals, running, identifier)
    # Another script than ours: the script is the evidence; which language of that script
    # it is only names it.
    if len(rivals) > 1 and not name_foreign:
        return ("en" if "en" in rivals else rivals[0]), share
    if len(rivals) > 1:
        named, sure = _identify(text, code_spans, rivals, running, identifier)
        if sure < NAMING_CONFIDENCE and "en" in rivals:
            named = "en"  # technical text in a Latin script is most often English
        return named, share
    if rivals:
        return rivals[0], share
    return SCRIPT_DEFAULT.get(dominant, "und"), share


@cache
def _candidates(languages: tuple[str, ...], expected: str) -> frozenset[str]:
    """The primary languages a statistical guess may name.  Cached: a function of the
    article's language tags alone (one entry per set of versions checked together and
    version language)."""
    return frozenset({primary_language(lang) for lang in languages} | {expected, "en"})


def _identify(
    text: str,
    code_spans: Sequence[str],
    langs: Sequence[str],
    running: str | None,
    identifier: Identifier,
) -> tuple[str, float]:
    if running is None:
        running, _ = strip_untranslatable(text, code_spans)
    return identifier(" ".join(running.split()), langs)
