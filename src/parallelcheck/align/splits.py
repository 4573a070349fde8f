"""Paragraphs split in two or merged, and fragments that continue a sentence across code.

Block alignment pairs one block with one block.  Two things a translator does routinely break
that: writing one paragraph of the source as two (or two as one), and, in languages that put
the verb last (Korean, Japanese), finishing a sentence that introduces a code block *after*
the code (``다음 명령으로`` / code / ``를 실행합니다.``).  Both leave a row that only some
versions have, which the block rules would report as a missing paragraph.  This module folds
such rows back into the row they belong to, after a section's blocks are aligned: the folded
blocks go to the row's ``extra`` (see :class:`~parallelcheck.model.aligned.AlignedBlock`), so
the value rules compare the two parts together with the one block, and the
``split-paragraph`` rule reports each split or merge (a continuation fragment is not a
difference and is reported by nothing).

**Splits and merges.**  A group of two or three consecutive aligned rows in which some
versions (P) hold two prose blocks and the others (A) one, all blocks of one kind, is one
paragraph split in two when, over the pairs of a P version and an A version:

1. the lengths say so: the two parts of P together match the length of A's block well (0.75
   or more) and clearly better (by 0.15 or more on average) than the part A's block was
   aligned with (or either part) alone, and so do at least half of the pairs on their own,
   and of the pairs of every version that has several (a pair also when near, 0.5, and
   better by 0.25: one version writes much longer). Lengths are shares of the document,
   scaled by how much longer one version writes than the other in the section's other prose
   rows, drawn towards 1 by the group's own length (an old translation lacking half of a
   page has inflated shares; French writes longer than English). For a pair whose joined
   length is still near A's (0.6 or more), the anchors may decide instead (A's block carries
   three or more, the two parts together carry nine in ten of them, more than either part
   alone), or, between two Latin-script versions, the letters (the parts joined are more
   like A's block, by a ratio of 0.1, than the part alone);
2. no part brings strong anchors (numbers, inline code, link targets, names with a digit or
   an inner capital) that A's block lacks, nor A's block anchors the two parts lack: more
   than a third of its own, beyond one of several, is content of its own (a translation may
   add the odd name);
3. no part alone already carries nine in ten of A's strong anchors (when A's block has three
   or more): the other part is then additional content — a summary added before a paragraph
   repeats its names — not the rest of the paragraph.

A split's parts sit side by side in their version; a group is only formed of rows that hold
nothing else.

**Continuation fragments.**  A paragraph that directly follows a code block in its version,
begins as the rest of a sentence does — a Korean particle (``를``, ``을``, ``으로`` …; ``이``
and ``가``, also words of their own, only in a fragment of 20 characters or fewer), a
Japanese particle (``を``, ``が``, ``に`` followed by a kanji or katakana …) or a small letter
of any script (``will run.``, ``не будет выполнена.``; one that ends in a colon introduces
the code that follows, as ``or in Python 3.9 and above:`` does) — and continues a prose
block (before the code) that does not end a sentence (no ``.``, ``。``, ``!``, ``?``),
belongs to that prose block.  A row whose blocks are all such fragments (only some versions
have one: the others put the verb before the code) is folded into the rows of the blocks
they continue; a row where some version's block is not one is left as it is.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from rapidfuzz.fuzz import ratio as text_ratio

from parallelcheck.model.document import Block, BlockKind
from parallelcheck.text.regexes import compile_pattern

#: How well the two parts together must match the one block's length share, and by how much
#: better than one part alone (on average over the pairs of versions).
JOINED_SHARE = 0.75
SHARE_GAIN = 0.15
#: A pair of versions whose joined length is only this near still points to a split when
#: the parts joined match ``CLEAR_GAIN`` better than one part alone.
CLEAR_SHARE = 0.5
CLEAR_GAIN = 0.25
#: With anchors deciding: the share of the one block's anchors the two parts must carry, the
#: fewest anchors that can decide, and the length match still required.
ANCHOR_RECALL = 0.9
ANCHORS_DECIDE = 3
ANCHOR_SHARE = 0.6
#: Between Latin-script versions, how much more alike in letters the joined parts must be
#: than one part alone to decide (with the length match of ``ANCHOR_SHARE``).
LETTERS_GAIN = 0.1
#: The share of a part's strong anchors that may be missing from the one block.
FOREIGN = 1 / 3
#: The fewest other prose rows of a section that calibrate two versions' lengths, and the
#: range the ratio is kept in.
CALIBRATION = 2
RATIO_RANGE = (0.5, 2.0)
#: The longest group of rows a split is looked for in.
GROUP = 3

_FINAL = frozenset(".。!?！？…")
_KOREAN_PARTICLES = frozenset(
    "을 를 은 는 이라는 라는 으로 로 와 과 의 에 에서 에게 도 만 까지 부터 처럼 보다 "
    "으로써 로써".split()
)
#: Subject particles that are also words starting a sentence (이 "this"), taken as the rest of
#: a sentence only in a fragment this short.
_KOREAN_SHORT_ONLY = frozenset({"이", "가"})
SHORT_REST = 20
_HANGUL_RUN = compile_pattern(r"[\uac00-\ud7a3]+")
#: Japanese particles that never start a sentence, and those that start one only before kana
#: (``では``, ``でも``, ``もし``, ``とても``, ``はい``).
_JA_ALWAYS = frozenset("をがへ")
_JA_BEFORE_KANJI = frozenset("にでとはのもや")


class Features(Protocol):
    """What this module reads of alignment's block features."""

    block: Block
    family: str
    latin: bool
    anchors: Counter[str]
    strong: Counter[str]
    share: float


Column = dict[str, Features]
Row = tuple[Column, dict[str, list[Features]]]


def absorb_splits(columns: Sequence[Column]) -> list[Row]:
    """Fold continuation fragments, then split paragraphs, into the rows they belong to
    (see the module's docstring).  Returns (column, extra blocks per version) pairs in order."""
    rows: list[Row] = [(dict(column), {}) for column in columns]
    langs = set().union(*columns) if columns else set()
    rows = _fold_continuations(rows, langs)
    if _every_row_holds(rows, len(langs)):
        return rows
    return _fold_splits(rows)


def _every_row_holds(rows: Sequence[Row], versions: int) -> bool:
    """Whether each of *rows* holds a block of every one of the section's *versions* (how
    many versions its columns hold in all): then no version holds a block that another
    lacks, every group of rows has the same versions in each row, and no group is a split
    (:func:`_merged` says so of each), so :func:`_fold_splits` would keep every row as it is.
    Told from the rows' sizes alone: a row as large as the versions of all rows together holds
    each of them (most sections, whose versions are in step)."""
    return all(len(column) == versions for column, _ in rows)


# ---------------------------------------------------------------------------
# Continuation fragments


def _fold_continuations(rows: list[Row], langs: set[str]) -> list[Row]:
    """Fold every row whose blocks are all continuation fragments into the rows of the prose
    blocks they continue (a row folded only in part would leave the others unpaired)."""
    for index, (column, extra) in enumerate(rows):
        if index < 2 or extra:
            continue
        hosts: dict[str, Row] = {}
        for lang in column:  # the first version whose block continues nothing settles it
            if (host := _host(rows, index, lang)) is None:
                break
            hosts[lang] = host
        else:
            for lang, host in hosts.items():
                host[1].setdefault(lang, []).append(column[lang])
            column.clear()
    return [row for row in rows if row[0]]


def _host(rows: list[Row], index: int, lang: str) -> Row | None:
    """The row of the prose block that version ``lang``'s block of row ``index`` continues
    across a code block, or ``None`` when it is no continuation fragment."""
    fragment = rows[index][0][lang].block
    if fragment.kind is not BlockKind.PARAGRAPH or not continues(fragment.text):
        return None
    text = fragment.text.strip()
    if text[:1].islower() and text.endswith((":", "：")):
        return None  # "or in Python 3.9 and above:" introduces the next code
    before = rows[index - 1][0].get(lang)
    if before is None or before.block.kind is not BlockKind.CODE:
        return None
    host = next((row for row in reversed(rows[: index - 1]) if lang in row[0]), None)
    if host is None or host[0][lang].family != "prose":
        return None
    if _ends_sentence(host[0][lang].block.text):
        return None
    return host


def continues(text: str) -> bool:
    """Whether a paragraph begins as the rest of a sentence does: a Korean or Japanese
    particle, or a small Latin letter (see the module's docstring)."""
    text = text.lstrip()
    if not text:
        return False
    first = text[0]
    run = _HANGUL_RUN.match(text)
    if run:
        word = run.group()
        if word in _KOREAN_SHORT_ONLY:  # also "this" / "go": a particle only in a short rest
            return len(text) <= SHORT_REST
        return word in _KOREAN_PARTICLES or word[0] in "을를"
    if first in _JA_ALWAYS:
        return True
    if first in _JA_BEFORE_KANJI and len(text) > 1:
        name = unicodedata.name(text[1], "")
        return name.startswith(("CJK UNIFIED", "KATAKANA")) or text[1].isascii()
    return first.isalpha() and first.islower()


def _ends_sentence(text: str) -> bool:
    text = text.rstrip()
    return bool(text) and text[-1] in _FINAL


# ---------------------------------------------------------------------------
# Splits and merges


def _fold_splits(rows: list[Row]) -> list[Row]:
    kept: list[Row] = []
    index = 0
    while index < len(rows):
        for size in range(2, GROUP + 1):
            if index + size <= len(rows) and (merged := _merged(rows, index, size)) is not None:
                kept.append(merged)
                index += size
                break
        else:
            kept.append(rows[index])
            index += 1
    return kept


def _merged(rows: Sequence[Row], index: int, size: int) -> Row | None:
    """The one row the group of ``size`` rows from ``index`` makes when it is a split
    paragraph, else ``None``; the section's other rows calibrate lengths (gathered only for a
    group that may be a split: gathering them for every group is quadratic in a long list)."""
    group = rows[index : index + size]
    if any(extra for _, extra in group):
        return None
    first = group[0][0].keys()
    if all(column.keys() == first for column, _ in group[1:]):
        return None  # every version holds a block in every row: none holds one block alone
    held: dict[str, list[tuple[int, Features]]] = {}
    kinds = set()
    for number, (column, _) in enumerate(group):
        for lang, features in column.items():
            if features.family != "prose":
                return None
            kinds.add(features.block.kind)
            held.setdefault(lang, []).append((number, features))
    if len(kinds) != 1:
        return None  # a box in one version, its paragraphs in another: not a split
    split = [lang for lang, parts in held.items() if len(parts) == 2]
    whole = [lang for lang, parts in held.items() if len(parts) == 1]
    if not split or not whole or len(split) + len(whole) != len(held):
        return None
    others = [*rows[:index], *rows[index + size :]]
    if not _is_split(held, split, whole, others):
        return None
    cells: Column = {}
    extra: dict[str, list[Features]] = {}
    rows_of_whole = {held[lang][0][0] for lang in whole}
    for lang in group_order(group):
        parts = held[lang]
        if lang in whole:
            cells[lang] = parts[0][1]
            continue
        # The part aligned with the one block stays in the row, else the first part.
        first, second = parts
        main, other = (second, first) if second[0] in rows_of_whole else (first, second)
        cells[lang] = main[1]
        extra[lang] = [other[1]]
    return cells, extra


def group_order(group: Sequence[Row]) -> list[str]:
    """The versions of a group of rows in the order alignment gave them (first seen)."""
    return list(dict.fromkeys(lang for column, _ in group for lang in column))


def _is_split(
    held: dict[str, list[tuple[int, Features]]],
    split: list[str],
    whole: list[str],
    others: Sequence[Row],
) -> bool:
    gain = joined_total = 0.0
    votes: Counter[str] = Counter()  # per version, the pairs of it that point to a split
    for s in split:
        (row_one, one), (row_two, two) = held[s]
        for w in whole:
            (row_whole, target) = held[w][0]
            ratio = _length_ratio(others, s, w, one.share + two.share + target.share)
            joined = _share(ratio * (one.share + two.share), target.share)
            if row_whole == row_one:
                alone = _share(ratio * one.share, target.share)
            elif row_whole == row_two:
                alone = _share(ratio * two.share, target.share)
            else:
                alone = max(
                    _share(ratio * one.share, target.share),
                    _share(ratio * two.share, target.share),
                )
            latin = one.latin and target.latin
            key = "strong" if latin else "anchors"
            parts = (getattr(one, key), getattr(two, key))
            wanted = getattr(target, key)
            if any(_foreign(part.strong, target.strong) for part in (one, two)):
                return False  # a part brings anchors the one block lacks
            if _foreign(target.strong, one.strong + two.strong):
                return False  # the one block brings anchors neither part has
            size = wanted.total()
            carried = [_carried(part, wanted) for part in parts]
            together = _carried(parts[0] + parts[1], wanted)
            strong = target.strong.total()
            if strong >= ANCHORS_DECIDE and any(
                _carried(part.strong, target.strong) / strong >= ANCHOR_RECALL
                for part in (one, two)
            ):
                return False  # one part is the paragraph, the other is added content
            decided = joined >= ANCHOR_SHARE and (
                (
                    size >= ANCHORS_DECIDE
                    and together / size >= ANCHOR_RECALL
                    and together > max(carried)
                )
                or (latin and _letters_gain(one, two, target, row_whole, (row_one, row_two)))
            )
            gain += 1.0 if decided else joined - alone
            joined_total += 1.0 if decided else joined
            if (
                decided
                or (joined >= JOINED_SHARE and joined - alone >= SHARE_GAIN)
                or (joined >= CLEAR_SHARE and joined - alone >= CLEAR_GAIN)
            ):
                votes[s] += 1
                votes["\0" + w] += 1
    pairs = len(split) * len(whole)
    return (
        gain / pairs >= SHARE_GAIN
        and joined_total / pairs >= JOINED_SHARE
        and sum(votes[s] for s in split) * 2 >= pairs
        and (len(whole) < 2 or all(votes[s] * 2 >= len(whole) for s in split))
        and (len(split) < 2 or all(votes["\0" + w] * 2 >= len(split) for w in whole))
    )


def _length_ratio(others: Sequence[Row], split: str, whole: str, weight: float) -> float:
    """How much longer version ``whole`` writes than version ``split`` in this section: the
    ratio of their shares over the other prose rows both have (``CALIBRATION`` or more; else
    1, their shares of their documents taken as they are), drawn towards 1 by ``weight`` of
    share on each side (the group's own: a few short rows say little), kept within
    ``RATIO_RANGE``."""
    ours = theirs = weight
    count = 0
    for column, extra in others:
        a, b = column.get(split), column.get(whole)
        if a is None or b is None or a.family != "prose" or extra:
            continue
        ours += a.share
        theirs += b.share
        count += 1
    if count < CALIBRATION or ours <= 0 or theirs <= 0:
        return 1.0
    low, high = RATIO_RANGE
    return min(high, max(low, theirs / ours))


def _foreign(part: Counter[str], target: Counter[str]) -> bool:
    """Whether a part brings strong anchors the one block lacks: more than a third of its own,
    beyond one of several (a translation adds the odd name — ``ノートPC`` — but a paragraph of
    its own brings its own numbers and names)."""
    total = part.total()
    if not total:
        return False
    lacking = sum(
        n - target.get(anchor, 0) for anchor, n in part.items() if n > target.get(anchor, 0)
    )
    return lacking > total * FOREIGN and (lacking > 1 or lacking == total)


def _carried(part: Counter[str], wanted: Counter[str]) -> int:
    return sum(min(n, part[key]) for key, n in wanted.items() if key in part)


def _letters_gain(one, two, target, row_whole: int, rows: tuple[int, int]) -> bool:
    """Between Latin-script versions: whether the two parts joined are clearly more like the
    one block in their letters (by ``LETTERS_GAIN``) than the part aligned with it (or the
    likelier part) alone."""
    text = target.block.text
    joined = text_ratio(one.block.text + " " + two.block.text, text)
    if row_whole == rows[0]:
        alone = text_ratio(one.block.text, text)
    elif row_whole == rows[1]:
        alone = text_ratio(two.block.text, text)
    else:
        alone = max(text_ratio(one.block.text, text), text_ratio(two.block.text, text))
    return joined - alone >= LETTERS_GAIN * 100


def _share(a: float, b: float) -> float:
    if a <= 0 or b <= 0:
        return 0.0
    return min(a, b) / max(a, b)
