"""Untranslatable anchors: the tokens a faithful translation carries over unchanged.

Alignment needs something that two versions in different scripts share.  Translators leave
some things alone, and those are the anchors of a block or heading:

* numbers (``131,072`` and ``131072`` are the same anchor; full-width digits are read as ASCII),
* name-like Latin-script words (hyphens and slashes split words, so the ``OpenAPI`` of
  ``OpenAPI-Schemas`` meets the ``OpenAPI`` of ``OpenAPI schema``): words with a digit
  (``V4.1``, ``SM100``), with a capital letter after the first character (``DeepInfer``,
  ``LMDeploy``, ``API``), or capitalised words that do not start a sentence (``Huawei``
  mid-sentence; but not ``The`` at a sentence start).  In a version written in a non-Latin
  script every capitalised Latin word counts, since such a text has no sentence-initial
  capitals of its own,
* inline code, and link and image targets.

Capitalised words are *weak* anchors (marked with a leading ``~``): they tie an English
``Huawei`` to the ``Huawei`` of a Japanese text, but German capitalises every noun, so between
two Latin-script versions only the strong anchors are compared (see :func:`strong_only`).

Ordinary words are never anchors: ``kernel`` in a Japanese text and ``kernel`` in the English
one prove nothing, and words of two Latin-script languages rarely coincide by meaning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from parallelcheck.text.lexicon import SENTENCE_START_SPACED, normalise, starts_sentence
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.tokens import token_form

try:  # the counting loop Counter.update runs (in C), without Counter.__init__'s steps
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # an interpreter whose collections lacks it: the same, in Python

    def _count_elements(mapping: dict, keys: Iterable) -> None:
        get = mapping.get
        for key in keys:
            mapping[key] = get(key, 0) + 1


_NUMBER = compile_pattern(r"\d(?<![\w.]\d)\d*(?:[.,]\d+)*")  # not after a word or a dot
# Possessive runs: what follows each run can never start inside it, so giving characters
# back finds no other word (and saves the engine keeping a way back at every character).
# The group itself stays greedy: Python 3.11.2 (Debian 12's) matches a possessive repeat of
# a group wrongly ("Z." in "Z..", where the word is "Z").
_WORD = compile_pattern(r"[A-Za-z][A-Za-z0-9]*+(?:[_.+][A-Za-z0-9]++)*")
_DIGIT = compile_pattern(r"[0-9]")
#: :data:`_WORD` and :data:`_NUMBER` in one scan (see :func:`anchor_keys`): a letter starts a
#: word, a digit a number (both patterns, written out after their first character).
_WORD_OR_NUMBER = compile_pattern(
    r"[A-Za-z\d](?:(?<=[A-Za-z])[A-Za-z0-9]*(?:[_.+][A-Za-z0-9]+)*|(?<![\w.]\d)\d*(?:[.,]\d+)*)"
)


def anchors_of(
    text: str,
    *,
    non_latin: bool,
    code_spans: Iterable[str] = (),
    targets: Iterable[str] = (),
) -> Counter[str]:
    """The anchors of a piece of running text, its inline code and its link targets, as a
    multiset.

    *non_latin* says whether the version is written in a non-Latin script, in which case every
    capitalised Latin word is name-like.  Inline code is kept in the form the token rule
    compares it in (:func:`~parallelcheck.text.tokens.token_form`: a translated placeholder,
    ``<dossier>`` for ``<dir>``, is the same anchor), link targets verbatim apart from outer
    spaces.
    """
    return counted(anchor_keys(normalise(text), non_latin, code_spans, targets))


def anchor_keys(
    text: str,
    non_latin: bool,
    spans: Iterable[str],
    targets: Iterable[str],
    code_keys: dict[str, str] | None = None,
) -> list[str]:
    """The anchors of :func:`anchors_of` one by one (of *text*, already in normal form —
    :func:`~parallelcheck.text.lexicon.normalise`'s, as an article's
    :class:`~parallelcheck.text.lexicon.NormalForms` keep it — in a version written in a
    non-Latin script or not, its inline code *spans* and link *targets*), in the order they
    are found (numbers, words, inline code, link targets): for a caller that counts several
    texts' anchors at once, or none at all when there is none.

    *code_keys*, when given, holds the key of each piece of inline code already seen (see
    :func:`code_key`) and is filled with the others: a caller reading many texts that quote
    the same code (every version of an article) forms each key once."""
    # Words and numbers are read in one scan (one pass over the text instead of two): a word
    # starts at a letter and a number at a digit, so neither pattern ever matches where the
    # other's match started, and a number holds no letter, so every word is the one the word
    # pattern finds alone.  Only a word can hold a number of its own: one right after a ``+``
    # inside it (``C+1``, as ``_NUMBER`` reads it), where the number scan runs on its own.
    numbers: list[str] = []
    words: list[str] = []
    # Words of small letters alone are never anchors.  Any other word's text occurs nowhere
    # between the end of the previous such word and its own start (the words in between are
    # small letters alone, and what lies between words holds no letter), so searching for it
    # from there finds where it stands.
    # The strengths are those of :func:`_name_strength`, worked out inline (this runs for
    # every word of every block): a word of letters that is neither lower case nor
    # capitalised has a capital after its first letter; a capitalised one is weak unless it
    # starts a sentence (:func:`starts_sentence`, its test written out).
    end = 0
    find, append, digit = text.find, words.append, _DIGIT.search
    opens = SENTENCE_START_SPACED.search
    for word in _WORD_OR_NUMBER.findall(text):
        if word.isalpha():
            if word.islower():
                continue
            start = find(word, end)
            end = start + len(word)
            if not word.istitle():
                append(word.lower())
            elif non_latin or (start and opens(text, start - 3 if start > 3 else 0, start) is None):
                append("~" + word.lower())
            continue
        if word[0].isdigit():  # a number (a word starts with an ASCII letter)
            numbers.append(word)
            continue
        end = find(word, end) + len(word)
        if digit(word) or not word[1:].islower():
            append(word.lower())
    if "+" in text:
        numbers = _NUMBER.findall(text)
    # Most texts state no number, hold no inline code and no link: their lists are not built.
    if numbers:
        keys = ["#" + value.replace(",", "") for value in numbers]
        keys += words
    else:
        keys = words
    if spans:
        if code_keys is None:
            keys += [code_key(code) for code in spans]
        else:
            keys += [code_keys.get(code) or _remember(code_keys, code) for code in spans]
    if targets:
        keys += ["@" + target.strip() for target in targets]
    return keys


def code_key(code: str) -> str:
    """The anchor of a piece of inline code: its :func:`~parallelcheck.text.tokens.token_form`
    (a translated placeholder is the same anchor), marked with a backquote."""
    return "`" + token_form(code)


def _remember(code_keys: dict[str, str], code: str) -> str:
    """The :func:`code_key` of *code*, kept in *code_keys*."""
    found = code_keys[code] = code_key(code)
    return found


#: Whether two multisets hold the same keys with the same counts (``dict``'s comparison).
_same_counts = dict.__eq__


def counted(keys: Iterable[str]) -> Counter[str]:
    """``Counter(keys)``, made as ``Counter.update`` counts (with ``collections``' own
    counting loop) without ``Counter.__init__``'s Python-level steps and its type check of
    *keys*: alignment counts the anchors of some 70,000 blocks a check, most of them few."""
    found: Counter[str] = Counter.__new__(Counter)
    _count_elements(found, keys)
    return found


def _name_strength(word: str, text: str, start: int, non_latin: bool) -> int:
    """2 for a strong anchor (digit, inner capital), 1 for a weak one, 0 for none."""
    if word.isalpha():
        if word.islower():
            return 0
        rest = word[1:]
        if rest and not rest.islower():
            return 2
    else:
        return 2 if _DIGIT.search(word) or not word[1:].islower() else 0
    if not word[0].isupper():
        return 0
    if non_latin:
        return 1
    return 0 if starts_sentence(text, start, SENTENCE_START_SPACED) else 1


def strong_only(anchors: Counter[str]) -> Counter[str]:
    """The anchors without the weak (capitalised-word) ones (*anchors* itself when it has
    none: callers never change what they are given)."""
    # Keys start with "#", "`", "@" or an ASCII letter or digit, all before "~": the largest
    # key starts with "~" exactly when there is a weak one (found without a Python loop).
    if not anchors or max(anchors)[0] != "~":
        return anchors
    strong: Counter[str] = Counter.__new__(Counter)  # as :func:`counted` makes one
    dict.update(strong, {key: n for key, n in anchors.items() if key[0] != "~"})
    return strong


def dice(
    a: Counter[str],
    b: Counter[str],
    smoothing: float = 0.0,
    sizes: tuple[int, int] | None = None,
) -> float:
    """Multiset Dice coefficient: 1.0 for the same anchors, 0.0 for none shared.

    With *smoothing* k the score is ``(2·shared + k) / (|a| + |b| + 2k)``: few anchors then
    prove little either way (no anchors at all gives 0.5, one anchor on one side only 0.33),
    many shared anchors still approach 1.  *sizes* are ``|a|`` and ``|b|`` when the caller
    knows them.

    Two equal multisets (three comparisons in four while aligning: translations carry the
    same names, numbers and code over) share all of theirs, ``|a|``: told by ``dict``'s own
    comparison, in C (``Counter``'s ``==`` is written in Python), without counting the shared
    anchors key by key.  The sum is then the same integer, and the score the same float.
    """
    if sizes is None:
        sizes = (a.total(), b.total())
    total = sizes[0] + sizes[1] + 2 * smoothing
    if total == 0:
        return 0.0
    if _same_counts(a, b) is True:  # (NotImplemented for anything but two dicts)
        return (2.0 * sizes[0] + smoothing) / total
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    shared = 0
    for key, count in small.items():
        other = large.get(key)
        if other:
            shared += count if count < other else other
    return (2.0 * shared + smoothing) / total
