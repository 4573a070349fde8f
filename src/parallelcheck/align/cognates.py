"""Shared letters of two Latin-script headings: a cross-lingual signal for pairing sections.

Between two Latin-script languages the strong anchors of a heading (numbers, inline code,
names with a digit or an inner capital) are often absent: "Install the Server Program" and
"Das Serverprogramm installieren" share none.  What they do share are stems: cognates and
loan words (``install``/``installieren``, ``program``/``Serverprogramm``, ``concepts``/
``Konzepte``) and words left as they are (``Installation``, ``Docker``).

A heading's *grams* are the four-letter runs of its words of four letters or more, after
folding what commonly differs between the spellings of one stem across Latin-script
languages: case, accents (``ü`` → ``u``, ``ß`` → ``ss``), ``c``/``k``/``q``, ``z``/``s``,
``ph``/``f``, ``y``/``i``, ``th``/``t`` and doubled letters.  Runs inside a word catch the
parts of a compound (``Servermaschine`` holds ``serv`` and ``chin``).  Two headings'
likeness is the Dice coefficient of their gram sets (:func:`gram_likeness`): 0 when they share
no stem, near 1 for the same words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from parallelcheck.text.regexes import compile_pattern

_WORD = compile_pattern(r"[^\W\d_]{4,}")
_FOLDS = (
    ("ß", "ss"),
    ("ph", "f"),
    ("th", "t"),
    ("qu", "k"),
    ("ck", "k"),
    ("c", "k"),
    ("q", "k"),
    ("z", "s"),
    ("y", "i"),
)
_DOUBLE = compile_pattern(r"(.)\1")


def _fold(word: str) -> str:
    word = unicodedata.normalize("NFKD", word.lower())
    word = "".join(ch for ch in word if not unicodedata.combining(ch))
    for old, new in _FOLDS:
        word = word.replace(old, new)
    return _DOUBLE.sub(r"\1", word)


def heading_grams(title: str, code_spans: Iterable[str] = ()) -> frozenset[str]:
    """The four-letter runs of the folded words (four letters or more) of a heading, without
    its inline code and its names with a capital inside (``AstroRenderer``, ``WebSockets``):
    those are compared as they are, as anchors, and two different identifiers share runs
    (``AstroRenderer``, ``AstroPrerenderer``) that prove nothing."""
    for code in code_spans:
        title = title.replace(code, " ")
    grams: set[str] = set()
    for word in _WORD.findall(title):
        if not word[1:].islower():
            continue
        folded = _fold(word)
        grams.update(folded[i : i + 4] for i in range(len(folded) - 3))
    return frozenset(grams)


def gram_likeness(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice coefficient of two gram sets (0.0 when either is empty)."""
    if not a or not b:
        return 0.0
    return 2.0 * len(a & b) / (len(a) + len(b))
