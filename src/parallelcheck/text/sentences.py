"""Sentences of a block's readable text, each with the line of the block it starts on.

A sentence ends at a full stop of the text's script, after any closing quotes and brackets:

* ``。``, ``！``, ``？`` and the other full-width or half-width ideographic stops (``．``,
  ``｡``) end a sentence at once — Chinese and Japanese put no space after them;
* ``।`` and ``॥`` (Devanagari) end one when a space or the end of the text follows;
* ``.``, ``!``, ``?`` (and ``…``) end one only when white space follows and the next word can
  start a sentence: a capital letter, a digit, a letter of a script without case (Korean,
  Japanese, Devanagari after a Latin full stop), an opening quote or bracket, or the start of an
  inline code span.  So ``e.g. the``, ``3.10``, ``v1.2.3``, ``main.py``, ``example.com`` and a
  full stop followed by a lower-case word never split.

What never ends a sentence: a stop inside an inline code span or a URL (``https://x.org/a.b``),
a stop after a known abbreviation (``e.g.``, ``i.e.``, ``Dr.``, ``vs.``, ``z. B.``, ``Nr.`` —
:data:`ABBREVIATIONS`) or after a single letter (an initial, ``J. Doe``; ``z. B.``), and a line
break on its own (soft breaks inside a paragraph are kept as ``\\n`` by the readers; a line that
ends without a stop continues on the next).  A piece without any letter or digit of its own (a
list number ``1.``, a stray ``**``, an emoji after a Chinese full stop) is joined to the sentence
after it, or at the end of the text to the one before it; a text with no letter or digit at all
(an emoji alone, what is left of a paragraph whose one sentence was dropped) has no sentence.

Nothing here caches: :func:`split_sentences` is one pass over the text (no stop in the text,
no pass at all).  The choice of these rules over spaCy's rule-based ``sentencizer`` and pysbd,
measured on real documentation, is recorded in ``tests/test_sentences.py``'s module docstring.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from parallelcheck.text.lexicon import URL_IN_SENTENCE, find_spans
from parallelcheck.text.regexes import compile_pattern

__all__ = ["ABBREVIATIONS", "Sentence", "has_sentence", "may_hold_several", "split_sentences"]


@dataclass(frozen=True)
class Sentence:
    """One sentence of a text: its text (outer white space removed), its offset in the text,
    and ``line``, the 1-based line of the text it starts on (``1`` for the text's first line:
    a block's sentence is at ``block.line + line - 1`` in the file)."""

    text: str
    start: int
    line: int


#: Words whose full stop does not end a sentence (compared in lower case, without the stop).
ABBREVIATIONS = frozenset(
    {
        # English
        "e.g", "i.e", "cf", "vs", "approx", "dr", "mr", "mrs", "ms", "prof", "st", "nos",
        "fig", "figs", "eq", "ch", "sec", "vol", "al", "jr", "sr", "inc", "ltd", "corp",
        "resp", "incl", "ca", "viz", "esp", "aka", "a.k.a",
        # German, French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish
        "z.b", "d.h", "u.a", "bzw", "ggf", "usw", "vgl", "bspw", "evtl", "inkl", "nr", "sog",
        "u.u", "p.ex", "env", "mme", "mlle", "pp", "p.ej", "ej", "sra", "dra", "ud", "uds",
        "pág", "pag", "obs", "ecc", "cioè", "sig", "bijv", "d.w.z", "m.a.w", "np", "tj",
        "itd", "itp", "örn", "vb", "bkz",
        # Russian, Ukrainian
        "т.е", "т.к", "т.д", "т.п", "напр", "см", "др", "гг", "тыс", "млн", "рис", "і.т.д",
        "див",
    }
)  # fmt: skip

#: The characters that may end a sentence, any script: the candidates a pass visits.
_STOPS = compile_pattern(r"[.!?…。！？．｡।॥]+")
#: Ideographic stops: a sentence ends right after them (no space needed).
_IDEOGRAPHIC = frozenset("。！？．｡")
_DANDA = frozenset("।॥")
#: What may stand between a stop and the end of its sentence: closing quotes, brackets and
#: emphasis left over from Markdown.
_CLOSERS = frozenset("\"'”’»›)]}）」』】〕〉》*_`")
#: What may open a sentence before its first word.
_OPENERS = frozenset("\"'“‘«‹([{（「『【〔〈《*_¿¡#>-–—•")
_WORD_BEFORE = compile_pattern(r"([\w.]*\w)\.*$")
_HAS_WORD = compile_pattern(r"\w")


def split_sentences(text: str, code_spans: Sequence[str] = ()) -> list[Sentence]:
    """The sentences of *text*, in order; *code_spans* are the inline code spans the text
    holds (found in turn from the start, as the readers keep them), inside which nothing
    splits.  A text without any letter or digit has no sentence."""
    if not has_sentence(text):
        return []
    if not _STOPS.search(text):
        stripped = text.strip()
        start = text.find(stripped[0])
        return [Sentence(stripped, start, 1 + text.count("\n", 0, start))]
    protected = _protected(text, code_spans)
    cuts = [0]
    for match in _STOPS.finditer(text):
        end = _sentence_end(text, match, protected)
        if end is not None and end > cuts[-1]:
            cuts.append(end)
    cuts.append(len(text))
    return _pieces(text, cuts)


def has_sentence(text: str) -> bool:
    """Whether *text* holds a sentence at all: a letter or a digit."""
    return _HAS_WORD.search(text) is not None


def may_hold_several(text: str) -> bool:
    """Whether *text* may hold more than one sentence: a full stop stands somewhere before its
    last word (a quick test, without splitting: ``False`` means one sentence at most)."""
    found = _STOPS.search(text)
    if found is None:
        return False
    return _HAS_WORD.search(text, found.end()) is not None


def _protected(text: str, code_spans: Sequence[str]) -> list[tuple[int, int, bool]]:
    """(start, end, is code) of the inline code spans and URLs of *text*, sorted."""
    spans = [(start, end, True) for start, end in find_spans(text, code_spans)]
    if "://" in text or "www." in text or "WWW." in text:
        spans.extend((m.start(), m.end(), False) for m in URL_IN_SENTENCE.finditer(text))
    spans.sort()
    return spans


def _inside(offset: int, protected: list[tuple[int, int, bool]]) -> bool:
    return any(start <= offset < end for start, end, _ in protected)


def _sentence_end(text: str, match: re.Match[str], protected) -> int | None:
    """Where the sentence whose stop is *match* ends (after its closers), or ``None`` when
    the stop ends no sentence."""
    stop_start, end = match.span()
    stops = match.group()
    if protected and _inside(stop_start, protected):
        return None
    size = len(text)
    end = _after_closers(text, end, size)
    if end >= size:
        return size
    last = stops[-1]
    if last in _IDEOGRAPHIC:
        return end
    following = text[end]
    if not following.isspace():
        return None
    if last in _DANDA:
        return end
    # A Latin-script stop: the next word must be able to start a sentence.
    nxt = end
    while nxt < size and text[nxt].isspace():
        nxt += 1
    if nxt >= size:
        return size
    if not _may_start(text, nxt, protected):
        return None
    if last == "." and len(stops) == 1 and _abbreviation(text, stop_start):
        return None
    return end


def _after_closers(text: str, end: int, size: int) -> int:
    """The end of the closers after a stop (a French `` »`` after its space included)."""
    while end < size:
        char = text[end]
        if char in _CLOSERS:
            end += 1
        elif char in " \u00a0\u202f" and end + 1 < size and text[end + 1] in "»›":
            end += 2
        else:
            break
    return end


def _may_start(text: str, at: int, protected) -> bool:
    """Whether the word at *at* can begin a sentence."""
    size = len(text)
    while at < size and (
        text[at] in _OPENERS or (at and text[at - 1] in "«‹" and text[at].isspace())
    ):
        at += 1
    if at >= size:
        return True
    char = text[at]
    if char.isupper() or char.isdigit():
        return True
    if char.isalpha() and not char.islower() and char.lower() == char.upper():
        return True  # a script without case (Hangul, kana, ideographs, Devanagari …)
    return any(start == at and code for start, _, code in protected)


def _abbreviation(text: str, stop: int) -> bool:
    """Whether the full stop at *stop* follows an abbreviation or a single capital letter."""
    found = _WORD_BEFORE.search(text, max(0, stop - 12), stop)
    if found is None:
        return False
    word = found.group(1)
    start = found.start(1)
    if start > 0 and not (text[start - 1].isspace() or text[start - 1] in "(（\"'“‘«"):
        return False  # the end of a path, URL or expression ("a.b?c=d.")
    if len(word) == 1:
        return True  # an initial ("J. Doe") or one letter of "z. B.", "d. h."
    lowered = word.lower()
    if lowered in ABBREVIATIONS:
        return True
    # "z. B." / "d. h.": the last part after a space-separated abbreviation
    return "." in lowered and lowered.rsplit(".", 1)[-1] in ABBREVIATIONS


def _pieces(text: str, cuts: list[int]) -> list[Sentence]:
    sentences: list[Sentence] = []
    pending = -1  # start of a piece with no word of its own, joined to the next
    for begin, finish in pairwise(cuts):
        piece = text[begin:finish]
        stripped = piece.strip()
        if not stripped:
            continue
        start = begin + (len(piece) - len(piece.lstrip()))
        if pending >= 0:
            start, pending = pending, -1
        if not _HAS_WORD.search(stripped) or _is_list_number(stripped):
            pending = start
            continue
        body = text[start:finish].strip()
        sentences.append(Sentence(body, start, 1 + text.count("\n", 0, start)))
    if pending >= 0:
        if sentences:
            last = sentences.pop()
            body = text[last.start :].strip()
            sentences.append(Sentence(body, last.start, last.line))
        else:  # a list number alone ("1."): a text with a digit is one sentence
            body = text[pending:].strip()
            sentences.append(Sentence(body, pending, 1 + text.count("\n", 0, pending)))
    return sentences


def _is_list_number(piece: str) -> bool:
    """``1.``, ``2)``, ``iv.``: a list number left in running text, not a sentence."""
    core = piece.rstrip(".)")
    return len(core) <= 3 and (core.isdigit() or core in {"i", "ii", "iii", "iv", "v", "vi"})
