"""The lexical primitives every text module reads: normal form, URLs, e-mail addresses, paths,
Latin-script letter classes, name-like words and sentence starts — each defined once, here.

Two primitives have a second, deliberately different form, named for what it is for and tested
(``tests/test_script.py``) to show why the general one would not do:

* :data:`URL` is a URL in running text as a reader sees it: it runs to white space, a quotation
  mark, a closing bracket or CJK punctuation, whatever the characters in between.
  :data:`URL_ASCII` is a URL *token* compared between versions: ASCII characters only, so a
  Korean particle written right after it (``https://example.org/x에``) is not part of it.
* :data:`SENTENCE_START` tells whether a capitalised word begins a sentence in any script
  (``。`` or ``「`` before it count, and no space is needed after a full stop).
  :data:`SENTENCE_START_SPACED` is the stricter form alignment's anchors use: after ``.``, ``!``
  … a space must follow, so ``e.g.Foo`` or ``v1.Foo`` keep ``Foo`` as a name.

Nothing here caches: these are patterns and one-pass functions over a string.  The one
memo, :class:`NormalForms`, is an object its owner makes and hands on (one per article).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from parallelcheck.text.regexes import compile_pattern

# ---------------------------------------------------------------------------
# Normal form


#: A run of letters (of any script; no digit, no underscore): a word of a name, a path or
#: an identifier (``Form_validation``: two; ``CAMINHO_IMAGEM``: two).
LETTER_RUN = compile_pattern(r"[^\W\d_]+")


def normalise(text: str) -> str:
    """NFKC (full-width letters and digits become ASCII) — the form anchors, tokens,
    glossary matching and identical-text comparisons are taken from.  ASCII text is returned as
    it is (it is its own NFKC), and so is a text that already is in NFKC (most texts that are
    not ASCII: ``unicodedata.is_normalized`` tells it in one pass, and stops at the first
    character that is not), without looking for each character of
    :data:`_WIDE_PUNCTUATION` first — none of them is in NFKC.

    The punctuation of :data:`_WIDE_PUNCTUATION` is replaced by its compatibility
    decomposition first, by ``str.replace``: NFKC decomposes every character on its own
    before composing, so a character written as its decomposition gives the same NFKC.  A
    Chinese or Japanese text then usually passes NFKC's quick check unchanged, instead of
    being decomposed and composed again character by character."""
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text
    for wide, narrow in _WIDE_PUNCTUATION:
        if wide in text:  # no scan at all for a text of narrower characters than *wide*
            text = text.replace(wide, narrow)
    return unicodedata.normalize("NFKC", text)


class NormalForms(dict[str, str]):
    """The normal form (:func:`normalise`) of each text asked for (``forms[text]``), worked
    out the first time and kept.  The engine makes one per article and hands it to the
    article's alignment (its anchors) and its facts (tokens, the compared form of
    ``untranslated``): each of them reads every block's text in normal form, and several
    versions often hold the same text, so each text is normalised once."""

    __slots__ = ()

    def __missing__(self, text: str) -> str:
        found = self[text] = normalise(text)
        return found


#: The characters that most often keep a text from passing NFKC's quick check (Chinese and
#: Japanese full-width punctuation, the no-break space of French), each with its
#: compatibility decomposition (see :func:`normalise`).
_WIDE_PUNCTUATION = tuple(
    (wide, unicodedata.normalize("NFKD", wide)) for wide in "，（）：？；！\xa0"
)


#: A word of a text: a run of two letters or more (of any script).
_WORD = compile_pattern(r"[^\W\d_]{2,}")
#: The first character of the scripts of East Asia (CJK symbols and punctuation, kana …).
_EAST_ASIA = "\u3000"
#: A character from there up.
_FROM_EAST_ASIA = compile_pattern(f"[^\x00-{chr(ord(_EAST_ASIA) - 1)}]")


def _listed_letters(below: str) -> str:
    """The characters below *below* that ``[^\\W\\d_]`` matches, as the ranges of a character
    class: found by that very class, so the two agree on every character listed."""
    letters = re.findall(r"[^\W\d_]", "".join(map(chr, range(ord(below)))))
    ranges: list[list[str]] = []
    for letter in letters:
        if ranges and ord(ranges[-1][1]) + 1 == ord(letter):
            ranges[-1][1] = letter
        else:
            ranges.append([letter, letter])
    return "".join(re.escape(a) if a == b else f"{re.escape(a)}-{re.escape(b)}" for a, b in ranges)


#: :data:`_WORD` in a text without a character from :data:`_EAST_ASIA` up (the Latin-script
#: versions' texts): the regex engine tests a listed class by a table look-up, the class of
#: :data:`_WORD` by up to five look-ups of Unicode properties per character.
_WORD_BELOW_EAST_ASIA = compile_pattern(f"[{_listed_letters(_EAST_ASIA)}]{{2,}}")


def lower_words(text: str) -> list[str]:
    """The words of *text*, lower-cased, in order: the runs of two letters or more of its
    lower-cased form (a line break ends every word, so the words of texts joined by line
    breaks are those of each text in turn)."""
    lowered = text.lower()
    if lowered.isascii() or not _FROM_EAST_ASIA.search(lowered):
        return _WORD_BELOW_EAST_ASIA.findall(lowered)
    return _WORD.findall(lowered)


# ---------------------------------------------------------------------------
# URLs, e-mail addresses, paths

#: A URL in running text (``http(s)://`` or ``www.``), up to white space, a quotation mark, a
#: closing bracket or CJK punctuation.
URL = compile_pattern(r"(?:\bhttps?://|\bwww\.)[^\s<>\"'）)】」』，。、]+", re.IGNORECASE)
#: A URL token: ``http(s)://`` and the ASCII characters a URL may hold (see the module's
#: docstring for why it differs from :data:`URL`).
URL_ASCII = compile_pattern(r"\bhttps?://[A-Za-z0-9\-._~:/?#\[\]@!$&*+,;=%]+", re.IGNORECASE)
#: A URL as the sentence splitter protects it: the ASCII characters a URL may hold, ending on
#: a word character or one of ``/#=&%~+-`` — never on the full stop, comma or closing
#: bracket after it, which belong to the sentence (unlike :data:`URL`, which blanks a comma
#: after a URL with it: harmless for a script profile, wrong for a sentence's end).
URL_IN_SENTENCE = compile_pattern(r"(?:\bhttps?://|\bwww\.)[\x21-\x7e]*[\w/#=&%~+-]", re.IGNORECASE)
EMAIL = compile_pattern(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")
#: An API or file path of at least two segments: ``/v1/chat/completions``, ``docs/config.md``.
PATH = compile_pattern(
    r"(?<![A-Za-z0-9_/.:-])(?:/[A-Za-z0-9_.{}-]+){2,}/?"
    r"|(?<![A-Za-z0-9_/.-])[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+\.[a-z]{1,5}(?![A-Za-z0-9])"
)


def find_spans(text: str, spans: Sequence[str]) -> Iterator[tuple[int, int]]:
    """(start, end) in *text* of each of *spans* (inline code a reader took out of it), in
    their order: each looked for after the one before it, else anywhere (a reader may give
    them out of order); a span not found, or empty, is skipped."""
    position = 0
    for span in spans:
        if not span:
            continue
        found = text.find(span, position)
        if found < 0:
            found = text.find(span)
            if found < 0:
                continue
        position = found + len(span)
        yield found, position


def might_hold_url(text: str) -> bool:
    """Whether :data:`URL` can match in *text* (a cheap test before the pattern): a match
    holds ``://`` or ``www.`` in any case (the pattern ignores case), so it holds ``://``,
    ``w.`` or ``W.``."""
    return "://" in text or "w." in text or "W." in text


# ---------------------------------------------------------------------------
# Latin-script letters and name-like words

#: Characters of a Latin-script token: letters (ASCII, Latin-1, Latin Extended-A/B), digits and
#: ``_ @ # $``.
LATIN_TOKEN_CHARS = r"A-Za-z0-9_@#$\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
#: Small Latin letters (Latin Extended letters counted as small).
LATIN_LOWER = r"a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u024f"
#: Capital Latin letters.
LATIN_UPPER = r"A-Z\u00c0-\u00d6\u00d8-\u00de"

_L = LATIN_TOKEN_CHARS
_PLAIN_END = rf"(?![{_L}]|[./:+][{_L}])"
# Latin-script tokens are runs of letters, digits and `_ @ # $`, joined by `. _ / : +`
# (hyphens and apostrophes split tokens).  A token is name-like when it has a digit or one of
# `_ @ # $`, a joiner, a capital after a small letter (`vLLM`, `DeepSeek`) or two capitals in a
# row (`API`, `LMDeploy`).  One regular expression finds exactly those, so ordinary words cost
# no Python-level work.
#
# Both patterns below start by taking the token's first character and only then look behind it
# (at it and the character before): a pattern that starts with a character set lets the regex
# engine skip to the places where that set matches, while one that starts with a look-behind is
# tried at every position of the text.  The look-behind then need not test the first character
# again: any character (:data:`_ANY`) stands for it.
#: Any one character, a line break too (in a look-behind, for a character already matched).
_ANY = "(?s:.)"
#: A name-like Latin-script token: ``CamelCase``, ``ALLCAPS``, words with digits, ``_``,
#: dots or slashes (``V4.1``, ``main.py``, ``/v1/models``).
NAME_LIKE = compile_pattern(
    rf"[{_L}](?<![{_L}]{_ANY})"  # a token's first character, not inside a token
    # … not the start of a word of small letters, nor of a capitalised word
    rf"(?!(?<=[{LATIN_LOWER}])[{LATIN_LOWER}]*+{_PLAIN_END}"
    rf"|(?<=[{LATIN_UPPER}])[{LATIN_LOWER}]++{_PLAIN_END})"
    # (the group's repeat greedy, not possessive: Python 3.11.2, Debian 12's, matches a
    # possessive repeat of a group wrongly — "#." in "a,#.//", where the token is "#")
    rf"[{_L}]*+(?:[./:+][{_L}]++)*[+#]*+"
)


# ---------------------------------------------------------------------------
# Sentence starts

_STOPS = ".!?:;。！？：；"  # sentence punctuation of any script
_OPENERS = "\\n\\t(（「『“\"'‘"  # a line break, an opening bracket or quotation mark
_BULLETS = "•*\\-–—"
#: What may stand right before a word that starts a sentence (searched in the few characters
#: before it): the start of the text, sentence punctuation of any script, a line break, an
#: opening bracket or quotation mark, a bullet.
SENTENCE_START = compile_pattern(rf"(?:^|[{_STOPS}]\s*|[{_OPENERS}]\s*|[{_BULLETS}]\s+)$")
#: A capitalised Latin-script word that does not start a sentence: a name (``Huawei``).  The
#: three characters before it do not end as :data:`SENTENCE_START` says, written as
#: look-behinds of fixed width (taken after the word's first letter, so that the regex
#: engine can skip to the capital letters).
CAPITALISED_NAME = compile_pattern(
    rf"[{LATIN_UPPER}](?<![{_L}][{LATIN_UPPER}])"
    rf"(?<=[\s\S][{LATIN_UPPER}])"  # not the text's first character
    rf"(?<![{_STOPS}{_OPENERS}][{LATIN_UPPER}])"
    rf"(?<![{_STOPS}{_OPENERS}{_BULLETS}]\s[{LATIN_UPPER}])"
    rf"(?<![{_STOPS}{_OPENERS}{_BULLETS}]\s\s[{LATIN_UPPER}])"
    rf"[{LATIN_LOWER}]+(?![{_L}])"
)
#: The stricter form alignment's anchors use (see the module's docstring).
SENTENCE_START_SPACED = compile_pattern(r"(?:^|[.!?:;]\s+|[\n\t•*\-]\s*)$")


def starts_sentence(text: str, start: int, pattern: re.Pattern[str] = SENTENCE_START) -> bool:
    """Whether the word at *start* of *text* begins a sentence: the three characters before it
    end as *pattern* says a sentence's start is preceded."""
    return start == 0 or pattern.search(text, max(0, start - 3), start) is not None


# ---------------------------------------------------------------------------
# Alternations of literal words


def word_trie(words) -> str:
    """A regex alternation of literal *words* (empty ones left out) written as a trie —
    ``s(?:ix(?:teen|ty)?|even)`` — so that the regex engine tries one branch per character
    instead of every word in turn; it matches the longest word that fits."""
    children: dict[str, list[str]] = {}
    for word in words:
        if word:
            children.setdefault(word[0], []).append(word[1:])
    parts = []
    for first in sorted(children):
        rests = children[first]
        longer = [rest for rest in rests if rest]
        if not longer:
            parts.append(re.escape(first))
            continue
        optional = "?" if len(longer) < len(rests) else ""
        parts.append(f"{re.escape(first)}(?:{word_trie(longer)}){optional}")
    return "|".join(parts)
