"""Sentence alignment inside aligned prose blocks: which sentences one version lacks.

Once blocks are aligned, a paragraph of the source and its counterpart in a translation are
split into sentences and the two sequences are aligned by dynamic programming in the manner of
Gale and Church (1993): each step pairs one source sentence with one translated sentence (1-1),
drops one (1-0, 0-1), or pairs two with one (2-1, 1-2, a translator joining or splitting
sentences).  A step costs the prior cost of its kind plus how unlikely its lengths are, and
anchors make it cheaper or dearer:

* **Length**, calibrated per language pair from the article itself: the ratio of the two
  versions' total prose lengths (characters without white space) turns a translated length
  into source units — a Japanese or Chinese sentence says as much as an English one with
  about half the characters — and the spread of that ratio over the article's aligned blocks
  sets how far a pair may stray (:class:`Calibration`).
* **Anchors** (:func:`parallelcheck.text.landmarks.anchors_of`): numbers, name-like Latin
  words (every capitalised Latin word in a non-Latin version), inline code and URLs.  Each
  anchor a step's two sides share lowers its cost; each anchor one side holds and the other
  lacks raises it.

A source sentence left on a 1-0 step is reported as missing (a translated sentence on a 0-1
step as extra) only when everything else agrees (:func:`sentence_gaps`):

* the block as a whole is shorter (longer) than the calibration predicts, by at least
  :data:`GAP_SPREAD` times the article's spread of the log ratio and by at least half that
  sentence's expected length; the sentence has at least :data:`MIN_SENTENCE` characters;
* the side that keeps it has more sentences than the other (as many: rewording);
* no sentence of the other side is alone next to it (one sentence reworded beyond
  recognition is not one lost and one added);
* its anchors are not all found in the other side's prose (two or more: merged into another
  sentence), nor in the other version's block of the next or previous row when that block is
  longer than its counterpart by at least half the sentence (block alignment one place off).

When another alignment, with another sentence left alone, is nearly as likely
(:data:`AMBIGUOUS`), the gap names that sentence too.

A pair of blocks whose lengths agree is never split into sentences at all: the shortcut is
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
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.text.landmarks import anchors_of, strong_only
from parallelcheck.text.lexicon import URL
from parallelcheck.text.script import mostly_non_latin
from parallelcheck.text.sentences import Sentence

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
#: A sentence shorter than this (source characters without white space) is never reported.
MIN_SENTENCE = 30
#: The block must lack (or add) at least this share of the sentence's expected length, and
#: be off the usual ratio by at least GAP_SPREAD times the usual spread (in log ratio).
MIN_SHARE = 0.5
GAP_SPREAD = 2.5
#: Spread bounds (standard deviation of a block's log length ratio), the fewest block pairs
#: of at least CALIBRATION_LENGTH source characters it is learned from, and the spread taken
#: below that.
SPREAD_BOUNDS = (0.06, 0.4)
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
    """A language pair's length model in one article: ``ratio`` is the translation's prose
    length per source character; ``spread`` the standard deviation of the log of a block's
    length against the ratio's prediction."""

    ratio: float
    spread: float


@dataclass(frozen=True)
class Gap:
    """A sentence one version of an aligned prose pair has and the other lacks: the row it is
    in, the sentence, the prose it belongs to (its line is ``prose.line + sentence.line - 1``),
    the first prose of the other version there, and the sentences of the same prose that
    lengths and anchors find as likely to be the one lacking (:data:`AMBIGUOUS`)."""

    section: AlignedSection
    row: AlignedBlock
    sentence: Sentence
    prose: Text
    other: Text
    alternatives: tuple[Sentence, ...] = ()

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
    if ours.kind is BlockKind.PARAGRAPH:
        mine: list[Text] = [ours, *(b for b in row.extra.get(source, ()) if _is_para(b))]
        for lang, theirs in row.cells.items():
            if lang != source and theirs is not None and theirs.kind is BlockKind.PARAGRAPH:
                extra = row.extra.get(lang)
                yield (
                    lang,
                    mine,
                    [theirs, *(b for b in extra if _is_para(b))] if extra else [theirs],
                )
        return
    for lang, theirs in row.cells.items():
        if lang != source and theirs is not None:
            for a, b in _block_pairs(ours, theirs):
                yield lang, a, b


#: The kinds of block whose prose is compared (containers through their children).
_COMPARED = frozenset(
    {BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION}
)


def _is_para(block: Block) -> bool:
    # A list among a row's further blocks is one read into a paragraph elsewhere
    # (parallelcheck.align.swallowed_lists): its items are part of the paragraph's text.
    return block.kind is BlockKind.PARAGRAPH or block.kind is BlockKind.LIST


def _block_pairs(ours: Block, theirs: Block) -> Iterator[tuple[list[Text], list[Text]]]:
    """Prose pairs of two blocks of the same kind, descending into containers of the same
    shape (nested blocks paired by position)."""
    kind = ours.kind
    if kind is not theirs.kind:
        return
    if kind is BlockKind.PARAGRAPH:
        yield [ours], [theirs]
        return
    if kind is BlockKind.ITEM:
        mine, other = _item_own(ours), _item_own(theirs)
        if mine.text.strip() and other.text.strip():
            yield [mine], [other]
    elif kind not in _COMPARED:
        return
    children, others = ours.children, theirs.children
    if len(children) != len(others) or any(
        a.kind is not b.kind for a, b in zip(children, others, strict=True)
    ):
        return
    for a, b in zip(children, others, strict=True):
        yield from _block_pairs(a, b)


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


def _length(texts: Sequence[Text]) -> int:
    """The prose length of some texts together (most often one: no generator for it)."""
    if len(texts) == 1:
        return prose_length(texts[0].text)
    return sum(prose_length(t.text) for t in texts)


def calibrate(lengths: Sequence[tuple[int, int]]) -> Calibration | None:
    """The length model from the (source, translation) lengths of a language pair's aligned
    prose in one article; ``None`` when there is no prose in both.

    The ratio is that of the total lengths; the spread, the standard deviation of the log of
    a block's ratio against it, estimated robustly (1.4826 × the median absolute deviation,
    so that the few blocks that really differ do not widen it) over the blocks of at least
    :data:`CALIBRATION_LENGTH` source characters."""
    source = sum(s for s, _ in lengths)
    target = sum(t for _, t in lengths)
    if not source or not target:
        return None
    ratio = target / source
    logs = [math.log(t / (ratio * s)) for s, t in lengths if s >= CALIBRATION_LENGTH and t]
    if len(logs) >= MIN_CALIBRATION:
        middle = statistics.median(logs)
        spread = 1.4826 * statistics.median(abs(x - middle) for x in logs)
        spread = min(max(spread, SPREAD_BOUNDS[0]), SPREAD_BOUNDS[1])
    else:
        spread = DEFAULT_SPREAD
    return Calibration(ratio, spread)


# -- sentence alignment ------------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    length: float  # in source units
    anchors: Counter[str]


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


def align_sentences(
    source: Sequence[_Unit],
    target: Sequence[_Unit],
    spread: float,
    keep: tuple[bool, int] | None = None,
) -> tuple[list[Bead], float]:
    """The cheapest alignment of two sequences of sentences (lengths in source units), as
    beads in order, and its cost (see the module's docstring).  *keep* = (on the source side,
    index) names a sentence that may not be left alone (the cheapest alignment that pairs it
    with something: how much likelier the best one is)."""
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
                if keep is not None and not (di and dj) and _leaves(keep, i, j, di):
                    continue
                step = prior + _anchor_cost(_merge(source[i:ni]), _merge(target[j:nj]))
                if di and dj:
                    ls = sum(u.length for u in source[i:ni])
                    lt = sum(u.length for u in target[j:nj])
                    step += _length_cost(ls, lt, spread)
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


def _leaves(keep: tuple[bool, int], i: int, j: int, di: int) -> bool:
    """Whether a step alone from (i, j) leaves the kept sentence alone."""
    on_source, index = keep
    return (index == i) if (on_source and di) else (not on_source and not di and index == j)


def _merge(units: Sequence[_Unit]) -> Counter[str]:
    if len(units) == 1:
        return units[0].anchors
    merged: Counter[str] = Counter()
    for unit in units:
        merged.update(unit.anchors)
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
    sentences: Sequence[tuple[Text, Sentence]], scale: float, non_latin: bool, strong: bool
) -> list[_Unit]:
    """Each sentence's length (in source units: divided by *scale*) and anchors: numbers,
    names, the inline code and the URLs it holds."""
    units = []
    for piece, sentence in sentences:
        text = sentence.text
        code = [span for span in piece.code_spans if span and span in text]
        anchors = anchors_of(text, non_latin=non_latin, code_spans=code, targets=_urls(text))
        units.append(_Unit(prose_length(text) / scale, strong_only(anchors) if strong else anchors))
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
    for section in article.sections:
        for index, row in enumerate(section.rows):
            for lang, mine, theirs in prose_pairs(row, source):
                if mine is not last_mine:  # a paragraph row gives every version the same list
                    last_mine, length_s = mine, _length(mine)
                length_t = _length(theirs)
                pairs = by_lang.get(lang)
                if pairs is None:
                    pairs = by_lang[lang] = []
                pairs.append((section, index, mine, theirs, length_s, length_t))
    found = {}
    for lang, pairs in by_lang.items():
        calibration = calibrate([(s, t) for *_, s, t in pairs])
        if calibration is None:
            continue
        short, long = [], []
        ratio, least = calibration.ratio, MIN_SENTENCE * MIN_SHARE
        bound = GAP_SPREAD * calibration.spread
        for pair in pairs:
            # the exact shortcut: a pair whose lengths agree cannot give a finding (the test
            # of _gap, in one pass for both directions)
            length_s, length_t = pair[4], pair[5]
            if not length_s or not length_t:
                continue
            expected = length_t / ratio
            if abs(length_s - expected) >= least and abs(math.log(expected / length_s)) >= bound:
                (short if length_s > expected else long).append(pair)
        if short or long:
            found[lang] = _Candidates(calibration, short, long, pairs)
    return found


def _gap(length_s: int, length_t: int, calibration: Calibration, missing: bool) -> float | None:
    """How many source characters the translation lacks (``missing``) or adds, when that is
    enough for a sentence to be reported, else ``None``."""
    if not length_s or not length_t:
        return None
    expected = length_t / calibration.ratio  # the translation, in source units
    gap = length_s - expected if missing else expected - length_s
    if gap < MIN_SENTENCE * MIN_SHARE:
        return None
    if abs(math.log(expected / length_s)) < GAP_SPREAD * calibration.spread:
        return None
    return gap


def _gaps(
    candidates: _Candidates, lang: str, source: str, segment: Segment, missing: bool
) -> Iterator[Gap]:
    """The gaps of one translation (see :func:`sentence_gaps`)."""
    pairs = candidates.short if missing else candidates.long
    if not pairs:
        return
    calibration = candidates.calibration
    ratio, spread = calibration.ratio, calibration.spread
    non_latin: tuple[bool, ...] = ()
    strong = False
    for section, index, mine, theirs, length_s, length_t in pairs:
        # a paragraph split in two that block alignment kept apart: the half alone in the
        # next or previous row belongs to the pair
        if missing:
            theirs = _with_lone_neighbours(section.rows, index, lang, source, theirs)
            length_t = sum(prose_length(t.text) for t in theirs)
        else:
            mine = _with_lone_neighbours(section.rows, index, source, lang, mine)
            length_s = sum(prose_length(t.text) for t in mine)
        gap = _gap(length_s, length_t, calibration, missing)
        if gap is None:
            continue
        ours = [(piece, s) for piece in mine for s in segment(piece.text, piece.code_spans)]
        other = [(piece, s) for piece in theirs for s in segment(piece.text, piece.code_spans)]
        if len(ours if missing else other) <= len(other if missing else ours):
            continue  # as many sentences on the shorter side: rewording, not a lost sentence
        if not ours or not other:
            continue
        if not non_latin:
            every = candidates.pairs
            non_latin = tuple(mostly_non_latin(_sample(p[side] for p in every)) for side in (2, 3))
            strong = not any(non_latin)
        units_s = _units(ours, 1.0, non_latin[0], strong)
        units_t = _units(other, ratio, non_latin[1], strong)
        beads, best = align_sentences(units_s, units_t, spread)
        if missing:
            listed, units, place = ours, units_s, theirs[0]
        else:
            listed, units, place = other, units_t, mine[0]
        row = section.rows[index]
        elsewhere: _Elsewhere | None = None
        for at in _lone(beads, missing):
            piece, sentence = listed[at]
            unit = units[at]
            if unit.length < MIN_SENTENCE or gap < MIN_SHARE * unit.length:
                continue
            if unit.anchors:
                if elsewhere is None:
                    if missing:
                        langs, scales, kind = (source, lang), (1.0, ratio), (non_latin[1], strong)
                    else:
                        langs, scales, kind = (lang, source), (ratio, 1.0), (non_latin[0], strong)
                    texts = theirs if missing else mine
                    elsewhere = _Elsewhere(section.rows, index, texts, langs, scales, kind)
                if elsewhere.holds(unit):
                    continue
            # another sentence as likely to be the one lost: name both
            others = _alternatives(units_s, units_t, spread, missing, at, best)
            yield Gap(section, row, sentence, piece, place, tuple(listed[k][1] for k in others))


class _Elsewhere:
    """Where the anchors of a sentence alone may be found in the version lacking it: in that
    version's prose of the pair (two or more anchors, all there: the sentence was merged into
    another and reworded), or in its block of the row just before or after, when that block
    is longer than its counterpart by at least half the sentence (block alignment one place
    off: the sentence went to the neighbour)."""

    def __init__(
        self,
        rows: Sequence[AlignedBlock],
        index: int,
        texts: Sequence[Text],
        langs: tuple[str, str],
        scales: tuple[float, float],
        anchors: tuple[bool, bool],
    ) -> None:
        # langs: the sentence's version and the one lacking it; scales: their lengths per
        # source character; anchors: (non_latin, strong) of the version lacking it
        ours, lacking = langs
        self.anchor_kind = anchors
        self.own = self._anchors(texts)
        self.neighbours: list[tuple[float, set[str]]] = []
        for near in (index - 1, index + 1):
            if not 0 <= near < len(rows):
                continue
            block, counterpart = rows[near].cells.get(lacking), rows[near].cells.get(ours)
            if block is None or block.kind not in _COMPARED:
                continue
            surplus = prose_length(block.text) / scales[1]
            if counterpart is not None:
                surplus -= prose_length(counterpart.text) / scales[0]
            self.neighbours.append((surplus, self._anchors([block])))

    def _anchors(self, texts: Sequence[Text]) -> set[str]:
        non_latin, strong = self.anchor_kind
        found: set[str] = set()
        for text in texts:
            spans = text.code_spans
            anchors = anchors_of(
                text.text, non_latin=non_latin, code_spans=spans, targets=_urls(text.text)
            )
            found.update(strong_only(anchors) if strong else anchors)
        return found

    def holds(self, unit: _Unit) -> bool:
        """Whether the sentence of *unit* is likely in the other version after all."""
        keys = set(unit.anchors)
        if len(keys) >= 2 and keys <= self.own:
            return True
        return any(
            surplus >= MIN_SHARE * unit.length and keys <= near for surplus, near in self.neighbours
        )


def _urls(text: str) -> list[str]:
    return URL.findall(text) if "://" in text or "www." in text else []


def _alternatives(
    units_s: Sequence[_Unit],
    units_t: Sequence[_Unit],
    spread: float,
    missing: bool,
    at: int,
    best: float,
) -> list[int]:
    """The sentences (of the side of sentence *at*) left alone instead when *at* must be
    paired, if that alignment costs at most :data:`AMBIGUOUS` more than the best one."""
    beads, cost = align_sentences(units_s, units_t, spread, keep=(missing, at))
    if cost - best > AMBIGUOUS:
        return []
    return [k for k in _lone(beads, missing) if k != at]


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
