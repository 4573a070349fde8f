"""Sentence alignment inside aligned prose blocks: which sentences one version lacks.

Once blocks are aligned, a paragraph of the source and its counterpart in a translation are
split into sentences and the two sequences are aligned by dynamic programming in the manner of
Gale and Church (1993): each step pairs one source sentence with one translated sentence (1-1),
leaves one alone (1-0, 0-1), or pairs two with one (2-1, 1-2, a translator joining or
splitting sentences).  A step costs the prior cost of its kind plus, for a step pairing
sentences, how unlikely its lengths are and what its anchors say:

* **Length**, calibrated per language pair from the article itself (:func:`calibrate`): a
  translated length is turned into source characters — through the ratio of the total
  lengths, or, for a translation written mostly outside ASCII (Japanese, Chinese, Korean,
  Russian …), by counting its ASCII characters (code, names, numbers kept as they are) once
  and its other characters at their own rate (about 2 for Japanese, 2.5 for Chinese) — and
  the spread of the log ratio over the article's aligned blocks sets how far a pair may stray
  (:class:`Calibration`).
* **Anchors** (:func:`parallelcheck.text.landmarks.anchors_of`): numbers, name-like Latin
  words (every capitalised Latin word in a non-Latin version), inline code and URLs.  Each
  anchor the two sides of a pairing share lowers its cost; each one only one side holds
  raises it.  Between two Latin-script versions, capitalised words only tie (German
  capitalises every noun).  A sentence left alone pays for none of its anchors: they have
  nothing to match.

A source sentence left alone is reported as missing (a translated one as extra) only when
everything else agrees (:func:`sentence_gaps`):

* the block as a whole is shorter (longer) than the calibration predicts, by at least
  :data:`LOW_GAP_SPREAD` times the article's spread of the log ratio and by at least
  :data:`MIN_SHARE` of that sentence's expected length;
* the side that keeps it has more sentences than the other (as many: rewording);
* the alignment is sure of it: the best alignment that leaves no sentence of that side alone
  (a translator joining, splitting or rewording) is at least :data:`EVIDENCE` less likely in
  log terms (20 times), or :data:`FAR_EVIDENCE` (7 times) when the block is off by
  :data:`GAP_SPREAD` spreads and the sentence has :data:`MIN_SENTENCE` characters; no
  sentence under :data:`MIN_SHORT_SENTENCE` characters is reported;
* no sentence of the other side is alone next to it (one sentence reworded beyond
  recognition is not one lost and one added);
* its anchors are not all found in the other side's prose beyond what the sentences paired
  there account for (two or more: merged into another sentence), nor in the other version's
  block of the next or previous row beyond what that block's counterpart holds, when that
  block is longer than its counterpart by at least half the sentence (block alignment one
  place off).

When another alignment, with another sentence left alone, is nearly as likely
(:data:`AMBIGUOUS`), the gap names that sentence too.  The translation's side of a gap is its
prose holding the sentence paired just before (the right half of a paragraph split around a
code block).

A source sentence can also be only partly translated: a translator split a long sentence in
two and one half went missing, so no sentence is missing as a whole.  That is reported when
the block is short by :data:`GAP_SPREAD` spreads and at least :data:`MIN_SENTENCE`
characters and a source sentence names code, numbers or URLs, or two names with a digit or
an inner capital, that the translated block lacks altogether, not even as plain text
(:func:`_partial_gaps`).

A pair of blocks whose lengths agree is never split into sentences at all, nor one whose side
keeping a sentence is one text without a full stop before its last word: both shortcuts are
exact, since such a pair could not give a finding.  What it cannot see, by design: a sentence
dropped while another grew by as much, and a sentence replaced by a different one of the same
length.  The pairs that pass the length test are found in one pass over the article, shared
by the two rules that ask (missing and extra sentences) through a one-article memo.

Which blocks are compared is :func:`prose_pairs`: paragraphs (with the further paragraphs of a
split row), list items of lists with as many items, and the paragraphs inside quotes and
admonitions of the same shape; code, HTML and tables are not prose.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.text.landmarks import anchors_of, strong_only
from parallelcheck.text.lexicon import URL
from parallelcheck.text.script import mostly_non_latin
from parallelcheck.text.sentences import Sentence, has_sentence, may_hold_several

__all__ = [
    "Bead",
    "Calibration",
    "Gap",
    "Prose",
    "align_sentences",
    "calibrate",
    "gap_candidates",
    "prose_pairs",
    "sentence_gaps",
]

#: Prior costs (-log probability) of each kind of step, after Gale and Church's estimates for
#: 1-1 (0.89), 2-1 and 1-2 (0.089 together); 3-1 and 1-3 (a long sentence cut in three) are
#: rarer.  A sentence alone (1-0, 0-1) is likelier than in Gale and Church's corpus, as only
#: pairs whose lengths already show something missing or added are aligned; it costs its
#: prior alone, whatever its length (the block's deficit is what its length had to explain).
STEP_COST = {
    (1, 1): -math.log(0.89),
    (1, 0): -math.log(0.05),
    (0, 1): -math.log(0.05),
    (2, 1): -math.log(0.089 / 2),
    (1, 2): -math.log(0.089 / 2),
    (3, 1): -math.log(0.01),
    (1, 3): -math.log(0.01),
}
#: Cost per anchor a step's sides share (subtracted) and per anchor only one side holds.
SHARED_ANCHOR = 1.5
LONE_ANCHOR = 1.0
#: Another alignment costing at most this much more than the best (a likelihood ratio of
#: e, about 2.7) makes its lone sentence as likely a candidate: the finding names both.
AMBIGUOUS = 1.0
#: The block must lack (or add) at least MIN_SHARE of the sentence's expected length and be
#: off the usual ratio (in log ratio) by at least LOW_GAP_SPREAD times the usual spread; and
#: the best alignment that leaves no sentence of that side alone must cost at least EVIDENCE
#: more than the best one (be about 20 times less likely) — FAR_EVIDENCE (7 times) when the
#: block is off by at least GAP_SPREAD times the spread and the sentence has MIN_SENTENCE
#: characters (source characters without white space).  A sentence shorter than
#: MIN_SHORT_SENTENCE is never reported.
MIN_SHARE = 0.5
LOW_GAP_SPREAD = 1.5
GAP_SPREAD = 2.5
EVIDENCE = 3.0
FAR_EVIDENCE = 2.0
MIN_SENTENCE = 30
MIN_SHORT_SENTENCE = 20
#: Spread bounds (standard deviation of a block's log length ratio), the fewest block pairs
#: of at least CALIBRATION_LENGTH source characters it is learned from, and the spread taken
#: below that.
SPREAD_BOUNDS = (0.06, 0.4)
#: A translation at least this share of whose characters are not ASCII is measured with two
#: weights (see :func:`calibrate`).
MIXED_SHARE = 0.5
CALIBRATION_LENGTH = 40
MIN_CALIBRATION = 5
DEFAULT_SPREAD = 0.2
#: A sentence's length varies more than a block's: its spread is the block's times this (and
#: at least MIN_SENTENCE_SPREAD), its lengths smoothed by SMOOTHING characters.
SENTENCE_SPREAD = 1.5
MIN_SENTENCE_SPREAD = 0.15
SMOOTHING = 10.0


@dataclass(frozen=True)
class Prose:
    """A list item's own text (without the blocks nested in it), with its inline code and
    first line: prose to split into sentences, as a paragraph is."""

    text: str
    code_spans: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Bead:
    """One step of a sentence alignment: the indices of the source and translated sentences
    it pairs (one side empty for a sentence only one version has)."""

    source: tuple[int, ...]
    target: tuple[int, ...]


@dataclass(frozen=True)
class Calibration:
    """A language pair's length model in one article: how many source characters a translated
    text is worth, ``ascii_weight`` for each of its ASCII characters and ``other_weight`` for
    each other one (spaces aside), and ``spread``, the standard deviation of the log of a
    block's length against that prediction."""

    ascii_weight: float
    other_weight: float
    spread: float

    def worth(self, length: int, ascii_length: int) -> float:
        """The source characters a translated text of *length* characters (spaces aside),
        *ascii_length* of them ASCII, is worth."""
        return ascii_length * self.ascii_weight + (length - ascii_length) * self.other_weight


@dataclass(frozen=True)
class Gap:
    """A sentence one version of an aligned prose pair has and the other lacks: the row it is
    in, the sentence, the prose it belongs to (its line is ``prose.line + sentence.line - 1``),
    the prose of the other version where it would be, and the sentences of the same prose
    that lengths and anchors find as likely to be the one lacking (:data:`AMBIGUOUS`).  A
    sentence only partly translated has ``lacks``: what it names that the translation does
    not (as shown to a reader)."""

    section: AlignedSection
    row: AlignedBlock
    sentence: Sentence
    prose: Text
    other: Text
    alternatives: tuple[Sentence, ...] = ()
    lacks: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        return self.prose.line + self.sentence.line - 1


class Text(Protocol):
    """Prose to split into sentences: a paragraph (a :class:`Block`) or a :class:`Prose`."""

    text: str
    line: int

    @property
    def code_spans(self) -> Sequence[str]: ...


Segment = Callable[[str, Sequence[str]], Sequence[Sentence]]


# -- which prose is compared -------------------------------------------------------------


def prose_pairs(row: AlignedBlock, source: str) -> Iterator[tuple[str, list[Text], list[Text]]]:
    """The prose of *row* to compare sentence by sentence: for each translation, its language,
    the source's prose runs and its own.  A paragraph is compared with a paragraph (each with
    the further paragraphs of a split row); two lists of as many items item by item; two
    quotes or admonitions holding blocks of the same kinds block by block (nested lists and
    quotes alike).  Nothing for a version lacking the row, or where either is not prose."""
    ours = row.cells.get(source)
    if ours is None or ours.kind not in _COMPARED:
        return
    if ours.kind is _PARAGRAPH:
        mine: list[Text] = [ours, *(b for b in row.extra.get(source, ()) if _is_para(b))]
        for lang, theirs in row.cells.items():
            if lang != source and theirs is not None and theirs.kind is _PARAGRAPH:
                extra = row.extra.get(lang)
                yield (
                    lang,
                    mine,
                    [theirs, *(b for b in extra if _is_para(b))] if extra else [theirs],
                )
        return
    own: dict[int, list[Text]] = {}  # the source's prose of each of its blocks, made once
    for lang, theirs in row.cells.items():
        if lang != source and theirs is not None:
            found: list[tuple[list[Text], list[Text]]] = []
            _block_pairs(ours, theirs, own, found)
            for a, b in found:
                yield lang, a, b


#: Kinds tested for every pair, read once (a member read from its enum class costs a call of
#: the enum type's ``__getattr__`` hook on Python 3.11).
_PARAGRAPH, _ITEM, _LIST = BlockKind.PARAGRAPH, BlockKind.ITEM, BlockKind.LIST
#: The kinds of block whose prose is compared (containers through their children).
_COMPARED = frozenset(
    {BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION}
)


def _is_para(block: Block) -> bool:
    # A list among a row's further blocks is one read into a paragraph elsewhere
    # (parallelcheck.align.swallowed_lists): its items are part of the paragraph's text.
    return block.kind is _PARAGRAPH or block.kind is _LIST


def _block_pairs(
    ours: Block,
    theirs: Block,
    own: dict[int, list[Text]],
    found: list[tuple[list[Text], list[Text]]],
) -> None:
    """Add to *found* the prose pairs of two blocks of the same kind, descending into
    containers of the same shape (nested blocks paired by position).  *own* keeps the prose
    of each of *ours*'s blocks, by ``id``, for the next translation paired with them: every
    translation of a row is given the same list for the same source block.  (A list is
    filled, not a generator chained at every level: a row of an admonition or a list gives
    a pair for every child of every translation.)"""
    kind = ours.kind
    if kind is not theirs.kind:
        return
    if kind is _PARAGRAPH:
        mine = own.get(id(ours))
        if mine is None:
            mine = own[id(ours)] = [ours]
        found.append((mine, [theirs]))
        return
    if kind is _ITEM:
        mine = own.get(id(ours))
        if mine is None:
            mine = own[id(ours)] = [_item_own(ours)]
        other = _item_own(theirs)
        if mine[0].text.strip() and other.text.strip():
            found.append((mine, [other]))
    elif kind not in _COMPARED:
        return
    children, others = ours.children, theirs.children
    if not children or len(children) != len(others):  # (most list items hold no block)
        return
    for a, b in zip(children, others, strict=True):
        if a.kind is not b.kind:
            return
    for a, b in zip(children, others, strict=True):
        _block_pairs(a, b, own, found)


def _item_own(item: Block) -> Text:
    """A list item's own text: its text without the text of the blocks nested in it."""
    if not item.children:
        return item
    text = item.text
    tail = "\n".join(child.text for child in item.children if child.text)
    if tail and text.endswith(tail):
        text = text[: len(text) - len(tail)]
    return Prose(text, tuple(item.code_spans), item.line)


# -- length model ------------------------------------------------------------------------


def prose_length(text: str) -> int:
    """Characters of *text* without spaces (line breaks and tabs are few; they count)."""
    return len(text) - text.count(" ")


def prose_lengths(text: str) -> tuple[int, int]:
    """:func:`prose_length` of *text* and how many of those characters are ASCII (its
    spaces counted once for both)."""
    spaces = text.count(" ")
    length = len(text) - spaces
    if text.isascii():  # known without a pass over the text
        return length, length
    return length, len(text.encode("ascii", "ignore")) - spaces


def _length(texts: Sequence[Text]) -> int:
    """The prose length of some texts together (most often one: no generator for it)."""
    if len(texts) == 1:
        return prose_length(texts[0].text)
    return sum(prose_length(t.text) for t in texts)


def _lengths(texts: Sequence[Text]) -> tuple[int, int]:
    """:func:`prose_lengths` of some texts together."""
    if len(texts) == 1:
        return prose_lengths(texts[0].text)
    both = [prose_lengths(t.text) for t in texts]
    return sum(length for length, _ in both), sum(ascii for _, ascii in both)


def calibrate(lengths: Sequence[tuple[int, int, int]]) -> Calibration | None:
    """The length model from the (source, translation, translation's ASCII) lengths of a
    language pair's aligned prose in one article; ``None`` when there is no prose in both.

    A translation written mostly in another script than ASCII (at least :data:`MIXED_SHARE`
    of its characters: Japanese, Chinese, Korean, Russian, Hindi …) keeps the names, code,
    numbers and URLs it shares with the source as they are: each of its ASCII characters is
    worth one source character, and the rest of the source is spread over its other
    characters (``other_weight``: about 2 for Japanese, 2.5 for Chinese).  A block dense with
    code is then not taken for a long one, and the spread of Chinese, Japanese and Korean
    blocks is about two thirds of what one ratio for every character gives (measured on the
    FastAPI pages).  Any other translation is worth the ratio of the total lengths for each
    character.  The spread is the standard deviation of the log of a block's predicted
    length against its own, estimated robustly (1.4826 × the median absolute deviation, so
    that the few blocks that really differ do not widen it) over the blocks of at least
    :data:`CALIBRATION_LENGTH` source characters."""
    # the three columns, each summed in one call (the same integers in the same order)
    source, target, ascii_total = map(sum, zip(*lengths, strict=True)) if lengths else (0, 0, 0)
    if not source or not target:
        return None
    other = target - ascii_total
    if other >= MIXED_SHARE * target and source - ascii_total >= MIXED_SHARE * source:
        model = Calibration(1.0, (source - ascii_total) / other, DEFAULT_SPREAD)
    else:
        model = Calibration(source / target, source / target, DEFAULT_SPREAD)
    ascii_weight, other_weight = model.ascii_weight, model.other_weight
    logs = [  # what each translation is worth, as Calibration.worth computes it
        math.log((a * ascii_weight + (t - a) * other_weight) / s)
        for s, t, a in lengths
        if s >= CALIBRATION_LENGTH and t
    ]
    if len(logs) >= MIN_CALIBRATION:
        middle = statistics.median(logs)
        spread = 1.4826 * statistics.median(abs(x - middle) for x in logs)
        spread = min(max(spread, SPREAD_BOUNDS[0]), SPREAD_BOUNDS[1])
    else:
        return model
    return Calibration(model.ascii_weight, model.other_weight, spread)


# -- sentence alignment ------------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    """A sentence as alignment sees it: its length in source units, its anchors, and between
    two Latin-script versions its capitalised words (``names``: a name both sentences hold
    ties them, one that only one holds proves nothing — German capitalises every noun)."""

    length: float
    anchors: Counter[str]
    names: Counter[str] = field(default_factory=Counter)


def _length_cost(source: float, target: float, spread: float) -> float:
    """-log of the probability that a sentence's lengths *source* and *target* (source units)
    differ by at least as much as they do: the two tails of a normal law of the log ratio."""
    sigma = max(spread * SENTENCE_SPREAD, MIN_SENTENCE_SPREAD)
    delta = abs(math.log((target + SMOOTHING) / (source + SMOOTHING))) / sigma
    tail = math.erfc(delta / math.sqrt(2))  # 2 (1 - Φ(δ))
    return -math.log(tail) if tail > 1e-300 else 690.0


def _anchor_cost(a: Counter[str], b: Counter[str]) -> float:
    if not a and not b:
        return 0.0
    shared = sum((a & b).values())
    lone = a.total() + b.total() - 2 * shared
    return LONE_ANCHOR * lone - SHARED_ANCHOR * shared


def _names_cost(a: Counter[str], b: Counter[str]) -> float:
    return -SHARED_ANCHOR * sum((a & b).values()) if a and b else 0.0


def align_sentences(
    source: Sequence[_Unit],
    target: Sequence[_Unit],
    spread: float,
    keep: tuple[bool, int | None] | None = None,
) -> tuple[list[Bead], float]:
    """The cheapest alignment of two sequences of sentences (lengths in source units), as
    beads in order, and its cost (see the module's docstring).  *keep* = (on the source side,
    index) names a sentence that may not be left alone (the cheapest alignment that pairs it
    with something: how much likelier the best one is), or with an index of ``None`` every
    sentence of that side (the cheapest alignment that leaves none of them alone).  No
    alignment at all is ``([], inf)``."""
    n, m = len(source), len(target)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int]]] = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            for (di, dj), prior in STEP_COST.items():
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                if not (di and dj):
                    if keep is not None and _leaves(keep, i, j, di):
                        continue
                    step = prior
                else:
                    ours, theirs = source[i:ni], target[j:nj]
                    ls = sum(u.length for u in ours)
                    lt = sum(u.length for u in theirs)
                    step = prior + _length_cost(ls, lt, spread)
                    step += _anchor_cost(_merge(ours, "anchors"), _merge(theirs, "anchors"))
                    step += _names_cost(_merge(ours, "names"), _merge(theirs, "names"))
                if here + step < cost[ni][nj]:
                    cost[ni][nj] = here + step
                    back[ni][nj] = (di, dj)
    beads: list[Bead] = []
    i, j = n, m
    while i or j:
        di, dj = back[i][j]
        if not (di or dj):
            return [], inf  # no alignment keeps that sentence paired
        beads.append(Bead(tuple(range(i - di, i)), tuple(range(j - dj, j))))
        i, j = i - di, j - dj
    beads.reverse()
    return beads, cost[n][m]


def _leaves(keep: tuple[bool, int | None], i: int, j: int, di: int) -> bool:
    """Whether a step alone from (i, j) leaves the kept sentence (any sentence of that side,
    for an index of ``None``) alone."""
    on_source, index = keep
    if on_source != bool(di):
        return False
    return index is None or index == (i if on_source else j)


def _merge(units: Sequence[_Unit], kind: str) -> Counter[str]:
    """The anchors (*kind* ``"anchors"``) or names (``"names"``) of some sentences together."""
    if len(units) == 1:
        return getattr(units[0], kind)
    merged: Counter[str] = Counter()
    for unit in units:
        merged.update(getattr(unit, kind))
    return merged


def _sample(runs: Iterator[list[Text]]) -> str:
    """The first 2,000 characters or so of a version's compared prose."""
    texts: list[str] = []
    size = 0
    for pieces in runs:
        for piece in pieces:
            texts.append(piece.text)
            size += len(piece.text)
        if size >= 2000:
            break
    return " ".join(texts)


def _units(
    sentences: Sequence[tuple[Text, Sentence]],
    calibration: Calibration | None,
    non_latin: bool,
    strong: bool,
) -> list[_Unit]:
    """Each sentence's length (in source units: through *calibration* for a translation's)
    and anchors: numbers, names, the inline code and the URLs it holds."""
    units = []
    for piece, sentence in sentences:
        text = sentence.text
        code = [span for span in piece.code_spans if span and span in text]
        anchors = anchors_of(text, non_latin=non_latin, code_spans=code, targets=_urls(text))
        if strong:
            strong_anchors = strong_only(anchors)
            names = anchors - strong_anchors if strong_anchors is not anchors else Counter()
            units.append(_Unit(_worth(text, calibration), strong_anchors, names))
        else:
            units.append(_Unit(_worth(text, calibration), anchors))
    return units


# -- the gaps of an article --------------------------------------------------------------


@dataclass
class _Candidates:
    """One translation's length model, the prose pairs whose lengths leave room for a missing
    (``short``) or an extra (``long``) sentence, and every pair (the script of each side is
    read from a sample of them when first needed)."""

    calibration: Calibration
    short: list[tuple]
    long: list[tuple]
    pairs: list[tuple]  # every pair, for the samples of each side's script


def sentence_gaps(
    article: AlignedArticle,
    segment: Segment,
    *,
    missing: bool,
    candidates: dict[str, _Candidates] | None = None,
) -> Iterator[tuple[str, Gap]]:
    """The sentences of the source that a translation lacks (``missing=True``), or the
    sentences of a translation that the source lacks (``missing=False``), over every aligned
    prose pair of the article: (translation, gap) by translation, then in document order.
    *candidates* are the article's :func:`gap_candidates`, when the caller keeps them for
    both directions (the two rules share them through the article's facts)."""
    if candidates is None:
        candidates = gap_candidates(article)
    for lang in article.langs:
        found = candidates.get(lang)
        if found is not None:
            yield from ((lang, gap) for gap in _gaps(found, lang, article.source, segment, missing))


def gap_candidates(article: AlignedArticle) -> dict[str, _Candidates]:
    """Per translation, its length model and the prose pairs whose lengths leave room for a
    missing or an extra sentence (the first pass of :func:`sentence_gaps`)."""
    return _candidates(article)


def _candidates(article: AlignedArticle) -> dict[str, _Candidates]:
    source = article.source
    by_lang: dict[str, list[tuple]] = {}
    last_mine: list[Text] | None = None
    length_s = 0
    lengths: dict[int, int] = {}  # by the source's list, which every translation of a row shares
    for section in article.sections:
        for index, row in enumerate(section.rows):
            for lang, mine, theirs in prose_pairs(row, source):
                if mine is not last_mine:
                    last_mine = mine
                    length_s = lengths.get(id(mine), -1)
                    if length_s < 0:
                        length_s = lengths[id(mine)] = _length(mine)
                pairs = by_lang.get(lang)
                if pairs is None:
                    pairs = by_lang[lang] = []
                pairs.append((section, index, mine, theirs, (length_s, *_lengths(theirs))))
    found = {}
    for lang, pairs in by_lang.items():
        calibration = calibrate([pair[4] for pair in pairs])
        if calibration is None:
            continue
        short, long = [], []
        spread = calibration.spread
        ascii_weight, other_weight = calibration.ascii_weight, calibration.other_weight
        for pair in pairs:
            # the exact shortcut: a pair whose lengths agree cannot give a finding (the test
            # of _gap, for both directions)
            length_s, length_t, ascii_t = pair[4]
            if length_t:
                # what the translation is worth, as Calibration.worth computes it
                expected = ascii_t * ascii_weight + (length_t - ascii_t) * other_weight
                room = _room(length_s, expected, spread)
                if room is not None:
                    (short if room else long).append(pair)
        if short or long:
            found[lang] = _Candidates(calibration, short, long, pairs)
    return found


@dataclass(frozen=True)
class _Deficit:
    """How many source characters a translation lacks (or adds) in a prose pair, and whether
    the block is off the usual ratio by GAP_SPREAD times the spread (else LOW_GAP_SPREAD)."""

    size: float
    far: bool


def _off(expected: float, length_s: float) -> float:
    """How far apart two positive lengths are: the absolute natural log of their ratio
    (infinite when the ratio underflows to zero, as a vanishing *expected* may)."""
    ratio = expected / length_s
    return abs(math.log(ratio)) if ratio else math.inf


def _room(length_s: float, expected: float, spread: float) -> bool | None:
    """Which way :func:`_gap` finds enough for a sentence to be reported, in one test:
    ``True`` for a missing sentence, ``False`` for an extra one, ``None`` for neither (the
    two directions' gaps are each other's negation, so at most one reaches the floor)."""
    if not length_s or not expected:
        return None
    gap = length_s - expected
    floor = MIN_SHORT_SENTENCE * MIN_SHARE
    if gap < floor and -gap < floor:
        return None
    if _off(expected, length_s) < LOW_GAP_SPREAD * spread:
        return None
    return gap >= floor


def _gap(length_s: float, expected: float, spread: float, missing: bool) -> _Deficit | None:
    """What the translation (worth *expected* source characters) lacks (``missing``) or adds,
    when that is enough for a sentence to be reported, else ``None``."""
    if not length_s or not expected:
        return None
    gap = length_s - expected if missing else expected - length_s
    if gap < MIN_SHORT_SENTENCE * MIN_SHARE:
        return None
    off = _off(expected, length_s)
    if off < LOW_GAP_SPREAD * spread:
        return None
    return _Deficit(gap, off >= GAP_SPREAD * spread)


def _gaps(
    candidates: _Candidates, lang: str, source: str, segment: Segment, missing: bool
) -> Iterator[Gap]:
    """The gaps of one translation (see :func:`sentence_gaps`)."""
    pairs = candidates.short if missing else candidates.long
    if not pairs:
        return
    calibration = candidates.calibration
    kinds: tuple[bool, bool, bool] | None = None
    for section, index, mine, theirs, (length_s, length_t, ascii_t) in pairs:
        # a paragraph split in two that block alignment kept apart: the half alone in the
        # next or previous row belongs to the pair
        if missing:
            joined = _with_lone_neighbours(section.rows, index, lang, source, theirs)
            if joined is not theirs:
                theirs, (length_t, ascii_t) = joined, _lengths(joined)
        else:
            joined = _with_lone_neighbours(section.rows, index, source, lang, mine)
            if joined is not mine:
                mine, length_s = joined, _length(joined)
        deficit = _gap(length_s, calibration.worth(length_t, ascii_t), calibration.spread, missing)
        if deficit is None:
            continue
        partly = missing and deficit.far and deficit.size >= MIN_SENTENCE
        if not partly and not _may_hold_more(*((mine, theirs) if missing else (theirs, mine))):
            continue
        ours = [(piece, s) for piece in mine for s in segment(piece.text, piece.code_spans)]
        other = [(piece, s) for piece in theirs for s in segment(piece.text, piece.code_spans)]
        more = len(ours) > len(other) if missing else len(other) > len(ours)
        partly = partly and bool(other)
        if not (more or partly):
            continue  # as many sentences on the shorter side: rewording, not a lost sentence
        if kinds is None:
            kinds = _anchor_kinds(candidates.pairs)
        pair = _Comparison(
            section, index, (source, lang), (mine, theirs), (ours, other), calibration, kinds
        )
        reported = False
        if more:
            for gap in _lone_gaps(pair, deficit, missing):
                reported = True
                yield gap
        if partly and not reported:
            yield from _partial_gaps(pair)


def _may_hold_more(keeping: Sequence[Text], lacking: Sequence[Text]) -> bool:
    """Whether *keeping* may hold more sentences than *lacking* (a quick test, before either
    is split: one text with no full stop before its last word holds one sentence at most)."""
    if len(keeping) > 1 or may_hold_several(keeping[0].text):
        return True
    return not any(has_sentence(text.text) for text in lacking)


def _anchor_kinds(pairs: Sequence[tuple]) -> tuple[bool, bool, bool]:
    """Whether the source and the translation are written in a non-Latin script (from a
    sample of their prose) and whether only strong anchors are compared (both Latin)."""
    source, target = (mostly_non_latin(_sample(p[side] for p in pairs)) for side in (2, 3))
    return source, target, not (source or target)


class _Comparison:
    """One prose pair whose lengths leave room for a gap: its row, the two languages, their
    prose and sentences (source first), the length model, the anchor kinds (non-Latin source,
    non-Latin translation, strong anchors only), and what is worked out from them when first
    asked for: each sentence's length and anchors, and the best alignment."""

    def __init__(
        self,
        section: AlignedSection,
        index: int,
        langs: tuple[str, str],
        texts: tuple[list[Text], list[Text]],
        sentences: tuple[list[tuple[Text, Sentence]], list[tuple[Text, Sentence]]],
        calibration: Calibration,
        kinds: tuple[bool, bool, bool],
    ) -> None:
        self.section, self.index, self.langs = section, index, langs
        self.texts, self.sentences = texts, sentences
        self.calibration, self.kinds = calibration, kinds

    @property
    def row(self) -> AlignedBlock:
        return self.section.rows[self.index]

    @cached_property
    def units(self) -> tuple[list[_Unit], list[_Unit]]:
        non_latin_s, non_latin_t, strong = self.kinds
        return (
            _units(self.sentences[0], None, non_latin_s, strong),
            _units(self.sentences[1], self.calibration, non_latin_t, strong),
        )

    @cached_property
    def alignment(self) -> tuple[list[Bead], float]:
        return self.align(None)

    def align(self, keep: tuple[bool, int | None] | None) -> tuple[list[Bead], float]:
        return align_sentences(*self.units, self.calibration.spread, keep=keep)

    def nearby_texts(self) -> Iterator[str]:
        """The translation's text in the rows just before and after (a paragraph the
        translator turned into an introduction and a list continues there)."""
        rows, lang = self.section.rows, self.langs[1]
        for near in (self.index - 1, self.index + 1):
            block = rows[near].cells.get(lang) if 0 <= near < len(rows) else None
            if block is not None:
                yield block.text

    def elsewhere(self, missing: bool, paired: Counter[str]) -> _Elsewhere:
        """Where a sentence of one side (the source's when *missing*) may be found in the
        other version after all (*paired*: the anchors of that side's paired sentences)."""
        non_latin_s, non_latin_t, strong = self.kinds
        source, target = self.langs
        if missing:
            langs, models, flags = (source, target), (None, self.calibration), (False, True)
        else:
            langs, models, flags = (target, source), (self.calibration, None), (True, False)
        non_latin = (non_latin_s, non_latin_t)
        return _Elsewhere(
            self.section.rows,
            self.index,
            self.texts[1 if missing else 0],
            langs,
            models,
            (non_latin[flags[0]], non_latin[flags[1]], strong),
            paired,
        )


def _lone_gaps(pair: _Comparison, deficit: _Deficit, missing: bool) -> Iterator[Gap]:
    """The sentences of one side (the source's when *missing*) that the alignment leaves
    alone and everything else lets through (see the module's docstring)."""
    units_s, units_t = pair.units
    units = units_s if missing else units_t
    keeping, lacking = pair.sentences if missing else pair.sentences[::-1]
    beads, best = pair.alignment
    lone = [
        at
        for at in _lone(beads, missing)
        if units[at].length >= MIN_SHORT_SENTENCE and deficit.size >= MIN_SHARE * units[at].length
    ]
    if not lone:
        return
    # how much likelier the best alignment is than the best that leaves no sentence of that
    # side alone (rewording, a sentence split or joined)
    evidence = pair.align((missing, None))[1] - best
    elsewhere: _Elsewhere | None = None
    for at in lone:
        piece, sentence = keeping[at]
        unit = units[at]
        far = deficit.far and unit.length >= MIN_SENTENCE
        if evidence < (FAR_EVIDENCE if far else EVIDENCE):
            continue
        if unit.anchors:
            if elsewhere is None:
                elsewhere = pair.elsewhere(missing, _paired_anchors(beads, units, missing))
            if elsewhere.holds(set(unit.anchors), unit.length):
                continue
        # another sentence as likely to be the one lost (the likeliest alignment that pairs
        # this one with something leaves it alone): name both
        kept, cost = pair.align((missing, at))
        others = [k for k in _lone(kept, missing) if k != at and cost - best <= AMBIGUOUS]
        place = _counterpart_place(beads, at, missing, lacking, pair.texts[int(missing)])
        yield Gap(
            pair.section, pair.row, sentence, piece, place, tuple(keeping[k][1] for k in others)
        )


def _partial_gaps(pair: _Comparison) -> Iterator[Gap]:
    """A source sentence only partly translated: the translated prose is shorter than the
    source's by a sentence or more (:data:`GAP_SPREAD` times the spread, at least
    :data:`MIN_SENTENCE` source characters), no sentence is missing as a whole, and a
    sentence of the source names strong anchors — inline code, a number or a URL, or at least
    two names with a digit or an inner capital (one name alone is often left implied) — that
    the translation lacks altogether: not in its prose, not even as plain text (code written
    without backticks or quoted otherwise is there), not in its blocks just before and after
    (a sentence turned into an introduction and a list), and not a number written as an
    English ordinal (“3rd-party”, a word in a translation).  The neighbouring blocks must not
    hold them either (block alignment one place off).  The sentence naming most of them is
    the one reported, with what it names that is missing."""
    units_s, units_t = pair.units
    present: set[str] = set()
    for unit in units_t:
        present.update(unit.anchors)
    written = " ".join([*(t.text for t in pair.texts[1]), *pair.nearby_texts()]).casefold()
    lost = [
        sorted(
            key
            for key in unit.anchors
            if key[0] != "~"
            and key not in present
            and not _written(key, written)
            and not _ordinal(key, sentence.text)
        )
        for unit, (_, sentence) in zip(units_s, pair.sentences[0], strict=True)
    ]
    at = max(range(len(lost)), key=lambda k: (len(lost[k]), units_s[k].length))
    keys = lost[at]
    if len(keys) < 2 and not any(key[0] in "`#@" for key in keys):
        return
    if pair.elsewhere(True, Counter()).holds(set(keys), units_s[at].length):
        return
    piece, sentence = pair.sentences[0][at]
    beads, _ = pair.alignment
    bead = next(b for b in beads if at in b.source)
    other = pair.sentences[1]
    place = (
        other[bead.target[0]][0]
        if bead.target
        else _counterpart_place(beads, at, True, other, pair.texts[1])
    )
    yield Gap(pair.section, pair.row, sentence, piece, place, lacks=_shown(keys, sentence.text))


def _ordinal(key: str, text: str) -> bool:
    """Whether a number anchor stands in *text* only as an English ordinal (``3rd-party``,
    ``1st``), which a translation writes as a word."""
    if key[0] != "#":
        return False
    number = re.escape(key[1:])
    # made of the input: compiled by re, never kept (see parallelcheck.text.regexes)
    ordinal = re.compile(rf"(?<![\d.,]){number}(?:st|nd|rd|th)\b")
    bare = re.compile(rf"(?<![\d.,]){number}(?![\d.,]*[A-Za-z])")
    return bool(ordinal.search(text)) and not bare.search(text)


def _written(key: str, text: str) -> bool:
    """Whether *text* (in lower case) holds an anchor's text as a translation may write it:
    without its kind mark and the quotes or brackets around inline code, as a word of its own
    among ASCII letters and digits (Chinese and Japanese put none around it)."""
    bare = (key[1:] if key[0] in "`#@" else key).strip("\"'“”‘’()[]{}").casefold()
    if not bare:
        return True
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(bare)}(?![A-Za-z0-9_])", text) is not None


def _shown(keys: Sequence[str], text: str) -> tuple[str, ...]:
    """Anchor keys as a reader recognises them: inline code in backticks, a number or URL as
    it is, a name as *text* spells it (and not again when it is inline code as well)."""
    code = {key[1:].lower() for key in keys if key[0] == "`"}
    shown = []
    for key in keys:
        if key[0] not in "`#@~" and key in code:
            continue
        if key[0] == "`":
            shown.append(key + "`")
        elif key[0] in "#@":
            shown.append(key[1:])
        else:
            found = re.search(re.escape(key), text, re.IGNORECASE)
            shown.append(found.group() if found else key)
    return tuple(shown)


def _paired_anchors(beads: Sequence[Bead], units: Sequence[_Unit], missing: bool) -> Counter[str]:
    """The anchors of the sentences of one side (the source's when *missing*) that the
    alignment pairs with something."""
    paired: Counter[str] = Counter()
    for bead in beads:
        mine, theirs = (bead.source, bead.target) if missing else (bead.target, bead.source)
        if theirs:
            for at in mine:
                paired.update(units[at].anchors)
    return paired


def _counterpart_place(
    beads: Sequence[Bead],
    at: int,
    missing: bool,
    lacking: Sequence[tuple[Text, Sentence]],
    texts: Sequence[Text],
) -> Text:
    """Where the version lacking sentence *at* would hold it: its prose holding the sentence
    paired just before (or, at the start, just after) — with a paragraph split in two, the
    half the sentence belonged to."""
    order = [b for b in beads if (b.source if missing else b.target)]
    place = next(i for i, b in enumerate(order) if at in (b.source if missing else b.target))
    before = [b.target if missing else b.source for b in order[:place]]
    after = [b.target if missing else b.source for b in order[place + 1 :]]
    for side in [*reversed(before), *after]:
        if side:
            return lacking[side[0]][0]
    return texts[0]


class _Elsewhere:
    """Where the anchors of a sentence alone may be found in the version lacking it: in that
    version's prose of the pair beyond what the sentences paired with its own account for
    (two or more anchors, all there: the sentence was merged into another and reworded), or
    in its block of the row just before or after beyond what that block's counterpart holds,
    when that block is longer than its counterpart by at least half the sentence (block
    alignment one place off: the sentence went to the neighbour)."""

    def __init__(
        self,
        rows: Sequence[AlignedBlock],
        index: int,
        texts: Sequence[Text],
        langs: tuple[str, str],
        models: tuple[Calibration | None, Calibration | None],
        kinds: tuple[bool, bool, bool],
        paired: Counter[str],
    ) -> None:
        # langs: the sentence's version and the one lacking it; models: how their lengths
        # turn into source characters (None: the source's own); kinds: whether each is
        # written in a non-Latin script, and whether only strong anchors count; paired: the
        # anchors of the sentences of the sentence's version that are paired with something
        ours, lacking = langs
        self.kinds = kinds
        self.own = set(self._anchors(texts, kinds[1]) - paired)
        self.neighbours: list[tuple[float, set[str]]] = []
        for near in (index - 1, index + 1):
            if not 0 <= near < len(rows):
                continue
            block, counterpart = rows[near].cells.get(lacking), rows[near].cells.get(ours)
            if block is None or block.kind not in _COMPARED:
                continue
            surplus = _worth(block.text, models[1])
            anchors = self._anchors([block], kinds[1])
            if counterpart is not None:
                surplus -= _worth(counterpart.text, models[0])
                anchors -= self._anchors([counterpart], kinds[0])
            self.neighbours.append((surplus, set(anchors)))

    def _anchors(self, texts: Sequence[Text], non_latin: bool) -> Counter[str]:
        strong = self.kinds[2]
        found: Counter[str] = Counter()
        for text in texts:
            spans = text.code_spans
            anchors = anchors_of(
                text.text, non_latin=non_latin, code_spans=spans, targets=_urls(text.text)
            )
            found.update(strong_only(anchors) if strong else anchors)
        return found

    def holds(self, keys: set[str], length: float) -> bool:
        """Whether a sentence of *length* source characters naming the anchors *keys* is
        likely in the other version after all."""
        if len(keys) >= 2 and keys <= self.own:
            return True
        return any(
            surplus >= MIN_SHARE * length and keys <= near for surplus, near in self.neighbours
        )


def _worth(text: str, calibration: Calibration | None) -> float:
    """Source characters *text* is worth (the source's own length without *calibration*)."""
    if calibration is None:
        return prose_length(text)
    return calibration.worth(*prose_lengths(text))


def _urls(text: str) -> list[str]:
    return URL.findall(text) if "://" in text or "www." in text else []


def _lone(beads: Sequence[Bead], missing: bool) -> Iterator[int]:
    """The sentences of one side (the source's when *missing*) that the alignment leaves
    alone, except where the other side has a sentence alone just before or after (the two are
    one sentence reworded beyond recognition, not one lost and one added)."""
    for at, bead in enumerate(beads):
        mine, theirs = (bead.source, bead.target) if missing else (bead.target, bead.source)
        if theirs:
            continue
        neighbours = beads[max(at - 1, 0) : at + 2]
        if any(not (b.source if missing else b.target) for b in neighbours if b is not bead):
            continue
        yield mine[0]


def _with_lone_neighbours(
    rows: Sequence[AlignedBlock], index: int, lang: str, other: str, texts: list[Text]
) -> list[Text]:
    """*texts* (prose of *lang* in row *index*) with the paragraph *lang* alone has in the row
    just before or after (one *other* lacks), when *texts* is a paragraph's."""
    if not texts or not isinstance(texts[0], Block) or texts[0].kind is not BlockKind.PARAGRAPH:
        return texts
    before = _lone_paragraph(rows, index - 1, lang, other)
    after = _lone_paragraph(rows, index + 1, lang, other)
    if before is None and after is None:
        return texts
    return [*([before] if before else []), *texts, *([after] if after else [])]


def _lone_paragraph(
    rows: Sequence[AlignedBlock], index: int, lang: str, other: str
) -> Block | None:
    if not 0 <= index < len(rows):
        return None
    row = rows[index]
    block = row.cells.get(lang)
    if block is None or block.kind is not BlockKind.PARAGRAPH or row.cells.get(other) is not None:
        return None
    return block
