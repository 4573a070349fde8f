"""Aligning the blocks inside containers, and content that one version does not wrap.

Section alignment (:mod:`.progressive`) pairs a section's top-level blocks; a list, a quote, an
admonition (``/// tip``, ``!!! note``, ``:::note``) or an MDX component (``<Aside>``,
``<Tabs>`` / ``<TabItem>``, ``<Steps>``) is one block there.  This pass, run once every
section's blocks are aligned, aligns what is inside them, with the same machinery: every
aligned row whose cells are containers gets its children aligned by the same progressive
alignment and block similarity, and the aligned children are stored on the row
(:attr:`~parallelcheck.model.aligned.AlignedBlock.rows`), recursively — a list's items, the
blocks inside an item, a tab's blocks inside its tabs.  A nested row's cells are the versions
whose cell in the row above is a container of the same sort (lists with lists, items with
items, quotes and admonitions with each other); a version holding something else there (a
paragraph where the others have a list) takes no part in the nested rows.

How children are aligned:

* When every version's container holds children of the same kinds in the same order (the
  common case of versions in sync), they are paired in order without scoring anything.
* Otherwise their features are computed (each child's share of the document's length, its
  position among the siblings), they are aligned as a section's blocks are, and split
  paragraphs are folded as in a section, then paragraphs merged into a neighbour by length
  ratios calibrated on the documents (:func:`_fold_merges`).  A list item's own text (its
  first paragraph) takes part as a first child, so that a paragraph one version writes as a
  second paragraph of the item and another as part of the item's text is a split, not a
  missing paragraph; that first child gives no row.

Wrappers present in one version only: a row where some versions (W) have a quote or an
admonition and the others (U) have, in that row or in the rows next to it that W lack,
blocks that match the container's children — the content written without the box — is
aligned as if U wrapped it too: the W versions keep the container in the row, the U versions'
blocks go to the row's ``unwrapped`` and into its nested rows beside the children they
match.  It is accepted when, for a U version, two thirds of the container's children (two at
least, or its only child) match its blocks with a mean similarity of :data:`WRAPPER_MATCH` or
more, one pair at least telling more than lengths do (two code blocks, or a shared anchor);
the U blocks before the first match and after the last stay rows of their own (a row's block
and those it was split into go together).  The ``wrapper-mismatch`` rule reports each such
row once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rapidfuzz.fuzz import ratio as text_ratio

from parallelcheck.align.progressive import (
    BLOCK_THRESHOLD,
    _absorb_splits,
    _align,
    _BlockFeatures,
    _Version,
    block_similarity,
    child_block_features,
)
from parallelcheck.model.aligned import AlignedBlock, AlignedSection, own_text
from parallelcheck.model.document import Block, BlockKind, Document

#: Blocks whose children are aligned.
CONTAINERS = frozenset({BlockKind.LIST, BlockKind.ITEM, BlockKind.QUOTE, BlockKind.ADMONITION})
#: Containers a version may leave out while keeping their content (a box around blocks).
WRAPPERS = frozenset({BlockKind.QUOTE, BlockKind.ADMONITION})
#: The mean similarity of a wrapper's children to the blocks of a version without it.
WRAPPER_MATCH = 0.5
#: The farthest the blocks of a version without the wrapper are looked for, in rows beyond
#: the container's number of children, on either side of its row.
WRAPPER_REACH = 2
#: A paragraph merged into its neighbour (see :func:`_fold_merges`): the largest log-ratio
#: of the lengths against the documents', and how much closer the merge must bring it.
MERGE_RATIO = math.log(1.5)
MERGE_MARGIN = 0.2

_SORT = {
    BlockKind.LIST: "list",
    BlockKind.ITEM: "item",
    BlockKind.QUOTE: "box",
    BlockKind.ADMONITION: "box",
}


@dataclass
class _Versions:
    """What the features of a version's blocks need: its document, and what the features of
    its blocks share (made when the article's sections were aligned)."""

    documents: dict[str, Document]
    shared: Mapping[str, _Version]

    codes: dict[int, str] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)

    def ratio(self, lang: str, other: str, within: dict[str, int]) -> float | None:
        """How long version ``lang``'s prose is against version ``other``'s, leaving out the
        ``within`` characters of each (the container in question); ``None`` when what is
        left of ``other`` is less than twice that, or nothing (too little to tell)."""
        ours = self._total(lang) - within[lang]
        theirs = self._total(other) - within[other]
        if theirs <= 0 or theirs < 2 * within[other] or ours <= 0:
            return None
        return ours / theirs

    def _total(self, lang: str) -> int:
        found = self.lengths.get(lang)
        if found is None:
            found = self.lengths[lang] = sum(
                _prose_length(b) for b in self.documents[lang].iter_blocks()
            )
        return found

    def features(self, lang: str, blocks: Sequence[Block]) -> list[_BlockFeatures]:
        return child_block_features(blocks, self.shared[lang])

    def similarity(self, a: _BlockFeatures, b: _BlockFeatures) -> float:
        """:func:`block_similarity`, and for two containers that both hold code (tabs of
        commands, steps), mostly the likeness of that code (0.65): the prose around commands
        says little between two Latin-script versions, the commands say which is which."""
        base = block_similarity(a, b)
        if a.block.kind not in CONTAINERS or b.block.kind not in CONTAINERS or not base:
            return base
        ours, theirs = self._code(a.block), self._code(b.block)
        if not ours or not theirs:
            return base
        return 0.35 * base + 0.65 * text_ratio(ours, theirs) / 100

    def _code(self, block: Block) -> str:
        """The code of the code blocks inside a container, in order."""
        found = self.codes.get(id(block))
        if found is None:
            found = self.codes[id(block)] = "\n".join(
                child.text if child.kind is BlockKind.CODE else self._code(child)
                for child in block.children
                if child.kind is BlockKind.CODE or child.kind in CONTAINERS
            ).strip("\n")
        return found


def align_containers(
    sections: list[AlignedSection],
    documents: dict[str, Document],
    shared: Mapping[str, _Version],
) -> None:
    """Align the blocks inside the containers of every aligned section (see the module's
    docstring); the sections' rows are updated in place.  *shared* holds what the features of
    each version's blocks share (see :func:`~.progressive.child_block_features`)."""
    versions = _Versions(documents, shared)
    for section in sections:
        if section.rows:
            section.rows = _align_rows(section.rows, versions)


def _align_rows(rows: list[AlignedBlock], versions: _Versions) -> list[AlignedBlock]:
    """One level of rows: wrappers only some versions have first, then every container row's
    children, recursively."""
    rows = _unwrap(rows, versions)
    for row in rows:
        if not row.rows and not row.unwrapped:
            row.rows = _nested(row, versions)
    return rows


def _children(cell: Block, extra: Sequence[Block]) -> list[Block]:
    """What a container cell holds: its children, then those of the blocks it was split into
    (those blocks themselves when they are no container)."""
    found = list(cell.children)
    for part in extra:
        found.extend(part.children if part.kind in CONTAINERS else [part])
    return found


def _nested(row: AlignedBlock, versions: _Versions) -> list[AlignedBlock]:
    """The aligned children of a row's containers (empty unless two versions take part)."""
    found = [(lang, cell) for lang, cell in row.cells.items() if cell and cell.kind in CONTAINERS]
    if len(found) < 2:
        return []
    sort = _SORT[found[0][1].kind]
    sequences = {
        lang: _children(cell, row.extra.get(lang, ()))
        for lang, cell in found
        if _SORT[cell.kind] == sort
    }
    if len(sequences) < 2 or not any(sequences.values()):
        return []
    owners = {lang: row.cells[lang] for lang in sequences}
    return _align_children(sequences, owners, versions)  # type: ignore[arg-type]


def _align_children(
    sequences: dict[str, list[Block]],
    owners: dict[str, Block | None],
    versions: _Versions,
) -> list[AlignedBlock]:
    """Align the blocks of ``sequences`` (per version, in the article's order), the children
    of each version's container in ``owners`` (``None`` for a version holding them
    unwrapped); a list item's own text takes part as a first child and gives no row."""
    order = list(sequences)
    kinds = [block.kind for block in sequences[order[0]]]
    if all([block.kind for block in sequences[lang]] == kinds for lang in order[1:]):
        # the same kinds in the same order: paired as they stand
        rows = [
            AlignedBlock({lang: sequences[lang][index] for lang in order})
            for index in range(len(sequences[order[0]]))
        ]
        return _align_rows(rows, versions)
    pseudo: set[int] = set()
    features: dict[str, list[_BlockFeatures]] = {}
    for lang in order:
        blocks = sequences[lang]
        owner = owners.get(lang)
        if owner is not None and owner.kind is BlockKind.ITEM:
            own = own_text(owner)
            if own:
                first = Block(BlockKind.PARAGRAPH, own, owner.line, owner.line)
                first.links, first.code_spans = owner.links, owner.code_spans
                pseudo.add(id(first))
                blocks = [first, *blocks]
        features[lang] = versions.features(lang, blocks)
    present = [lang for lang in order if features[lang]]
    if len(present) < 2:
        columns = [{lang: f} for lang in present for f in features[lang]]
    else:
        columns = _align(present, features, versions.similarity, BLOCK_THRESHOLD, nonnegative=True)
    rows = []
    within = {lang: sum(_prose_length(b) for b in sequences[lang]) for lang in order}
    for column, extra in _fold_merges(_absorb_splits(columns), present, versions, within):
        cells: dict[str, Block | None] = {}
        for lang in order:
            member = column.get(lang)
            cells[lang] = None if member is None or id(member.block) in pseudo else member.block
        if all(cell is None for cell in cells.values()):
            continue  # the item's own text, and what was folded into it
        rows.append(
            AlignedBlock(
                cells,
                {
                    lang: [f.block for f in parts if id(f.block) not in pseudo]
                    for lang, parts in extra.items()
                    if cells.get(lang) is not None
                },
            )
        )
    return _align_rows(rows, versions)


def _fold_merges(
    rows: list, langs: Sequence[str], versions: _Versions, within: dict[str, int]
) -> list:
    """Rows of ``(column, extra)`` with the paragraphs some versions merged into a neighbour
    folded into it, as :mod:`.splits` folds them in a section, by lengths calibrated on the
    versions' whole documents.

    Inside a container a block's share of its siblings is a poor measure between scripts (a
    list of code identifiers weighs as much in Chinese as in English, the prose next to it
    does not), so the splits of a section are missed there.  A prose row some versions (A)
    lack is one paragraph of the others (P) that A merged into the neighbouring prose row
    when, for every pair of an A and a P version, A's neighbour is as long, against P's
    neighbour and the extra paragraph together, as A's document is against P's (within a
    factor of 1.5) and carries every strong anchor of the two (numbers, inline code, names
    with a capital inside) as often as they do together, and on average over the pairs that
    ratio is clearly closer (by :data:`MERGE_MARGIN` in log-ratio) than against P's neighbour
    alone."""
    complete = set(langs)
    kept: list = []
    for index, (column, extra) in enumerate(rows):
        absent = complete - set(column)
        if not absent or not column or any(f.family != "prose" for f in column.values()):
            kept.append((column, extra))
            continue
        for neighbour in (
            kept[-1] if kept else None,
            rows[index + 1] if index + 1 < len(rows) else None,
        ):
            if neighbour is not None and _merged_into(
                column, neighbour[0], absent, versions, within
            ):
                for lang, part in column.items():
                    neighbour[1].setdefault(lang, []).append(part)
                break
        else:
            kept.append((column, extra))
    return kept


def _merged_into(column, neighbour, absent, versions: _Versions, within) -> bool:
    if set(neighbour) != set(column) | absent:
        return False
    if any(f.family != "prose" for f in neighbour.values()):
        return False
    gained = []
    for a in absent:
        host = neighbour[a]
        ours = _length(host.block)
        if not ours:
            return False  # an empty block (an item holding only a list marker) holds nothing
        for p, part in column.items():
            ratio = versions.ratio(a, p, within)
            if ratio is None:
                return False
            theirs = _length(neighbour[p].block)
            alone = abs(math.log(ours / max(theirs, 1) / ratio))
            together = abs(math.log(ours / max(theirs + _length(part.block), 1) / ratio))
            if together > MERGE_RATIO:
                return False
            wanted = neighbour[p].strong + part.strong
            if any(host.strong.get(key, 0) < count for key, count in wanted.items()):
                return False
            gained.append(alone - together)
    return sum(gained) / len(gained) >= MERGE_MARGIN


def _length(block: Block) -> int:
    return len(block.text) - block.text.count(" ")


def _prose_length(block: Block) -> int:
    """The length of a block's prose, the code nested in it left out (none for code)."""
    if block.kind is BlockKind.CODE:
        return 0
    text = block.prose_text()
    return len(text) - text.count(" ")


# ---------------------------------------------------------------------------
# Wrappers present in some versions only


def _unwrap(rows: list[AlignedBlock], versions: _Versions) -> list[AlignedBlock]:
    """``rows`` with every wrapper some versions lack, while holding its content, made one
    row (see the module's docstring)."""
    if not any(_wrapper_row(row) for row in rows):
        return rows
    index = 0
    while index < len(rows):
        found = _wrapper_pairing(rows, index, versions) if _wrapper_row(rows[index]) else None
        if found is None:
            index += 1
            continue
        start, end, replacement, at = found
        rows[start:end] = replacement
        index = start + at + 1
    return rows


def _wrapper_row(row: AlignedBlock) -> bool:
    """Whether some versions have a wrapper in this row and others none."""
    kinds = {cell.kind if cell is not None else None for cell in row.cells.values()}
    return len(kinds) > 1 and not kinds.isdisjoint(WRAPPERS) and not kinds <= WRAPPERS


def _wrapper_pairing(rows: list[AlignedBlock], index: int, versions: _Versions):
    """The rows replacing ``rows[start:end]`` when the wrapper of ``rows[index]`` holds
    content other versions write unwrapped there, and the index of the wrapper's row among
    them; ``None`` when it does not."""
    row = rows[index]
    langs = list(row.cells)
    wrapped = [lang for lang, c in row.cells.items() if c is not None and c.kind in WRAPPERS]
    others = [lang for lang in langs if lang not in wrapped]
    children = {lang: _children(row.cells[lang], row.extra.get(lang, ())) for lang in wrapped}  # type: ignore[arg-type]
    size = max(len(blocks) for blocks in children.values())
    if not size:
        return None
    reach = size + WRAPPER_REACH

    def open_to(other: AlignedBlock) -> bool:
        return not other.unwrapped and all(other.cells.get(lang) is None for lang in wrapped)

    start = index
    while start > 0 and index - start < reach and open_to(rows[start - 1]):
        start -= 1
    end = index + 1
    while end < len(rows) and end - index <= reach and open_to(rows[end]):
        end += 1
    # Per version without the wrapper, its blocks in those rows: (row, block) in order.
    candidates: dict[str, list[tuple[int, Block]]] = {}
    for lang in others:
        found = [(r, b) for r in range(start, end) for b in rows[r].blocks(lang)]
        if found:
            candidates[lang] = found
    if not candidates:
        return None
    spans = {}
    for lang, found in candidates.items():
        span = _matched_span(wrapped, children, lang, [b for _, b in found], versions)
        if span is not None:  # whole rows: a block and those it was split into go together
            a, b = span
            while a > 0 and found[a - 1][0] == found[a][0]:
                a -= 1
            while b < len(found) and found[b][0] == found[b - 1][0]:
                b += 1
            spans[lang] = (a, b)
    if not spans:
        return None
    consumed = {
        (lang, id(block)) for lang, (a, b) in spans.items() for _, block in candidates[lang][a:b]
    }
    unwrapped = {lang: [blk for _, blk in candidates[lang][a:b]] for lang, (a, b) in spans.items()}
    new_row = AlignedBlock(
        {lang: (row.cells[lang] if lang in wrapped else None) for lang in langs},
        {lang: parts for lang, parts in row.extra.items() if lang in wrapped},
        unwrapped=unwrapped,
    )
    sequences: dict[str, list[Block]] = {lang: children[lang] for lang in wrapped}
    sequences.update(unwrapped)
    sequences = {lang: sequences[lang] for lang in langs if lang in sequences}
    owners: dict[str, Block | None] = {lang: row.cells[lang] for lang in wrapped}
    new_row.rows = _align_children(sequences, owners, versions)
    replacement: list[AlignedBlock] = []
    at = 0
    for r in range(start, end):
        residual = _residual(rows[r], consumed, wrapped if r == index else ())
        if r == index:
            before = residual is not None and all(
                candidates[lang][spans[lang][0]][0] > index for lang in spans
            )
            if residual is not None and before:
                replacement.append(residual)
            at = len(replacement)
            replacement.append(new_row)
            if residual is not None and not before:
                replacement.append(residual)
        elif residual is not None:
            replacement.append(residual)
    return start, end, replacement, at


def _residual(row: AlignedBlock, consumed: set, wrapped: Sequence[str]) -> AlignedBlock | None:
    """What is left of ``row`` once the blocks of ``consumed`` and the cells of the versions
    ``wrapped`` are taken out: the row itself when nothing is, ``None`` when nothing is left."""
    taken = [
        lang
        for lang, cell in row.cells.items()
        if cell is not None and (lang in wrapped or (lang, id(cell)) in consumed)
    ]
    if not taken:
        return row
    cells = {lang: (None if lang in taken else cell) for lang, cell in row.cells.items()}
    if all(cell is None for cell in cells.values()):
        return None
    return AlignedBlock(
        cells, {lang: parts for lang, parts in row.extra.items() if cells.get(lang) is not None}
    )


def _matched_span(
    wrapped: Sequence[str],
    children: dict[str, list[Block]],
    lang: str,
    blocks: list[Block],
    versions: _Versions,
) -> tuple[int, int] | None:
    """The stretch ``[a, b)`` of ``blocks`` (version ``lang``'s, unwrapped) that the wrappers'
    children match, when they match it well enough (see the module's docstring).

    Each stretch about as long as the wrapper's children (one block fewer to one more) is
    tried, its blocks' features taken among themselves as the children's are, and the one
    matching best (the largest sum of similarities over the pairs, then the earliest, then
    the shortest) is kept."""
    features = {w: versions.features(w, children[w]) for w in wrapped}
    order = [*wrapped, lang]
    size = min(len(children[w]) for w in wrapped)
    best: tuple[float, int, int] | None = None
    found: tuple[list[int], list[float], bool] = ([], [], False)
    for length in range(max(1, size - 1), size + 2):
        for start in range(len(blocks) - length + 1):
            window = blocks[start : start + length]
            features[lang] = versions.features(lang, window)
            columns = _align(
                order, features, versions.similarity, BLOCK_THRESHOLD, nonnegative=True
            )
            index = {id(f.block): start + i for i, f in enumerate(features[lang])}
            matched: list[int] = []
            scores: list[float] = []
            evidence = False
            for column in columns:
                if lang not in column or len(column) < 2:
                    continue
                mine = column[lang]
                matched.append(index[id(mine.block)])
                for w in wrapped:
                    if w in column:
                        scores.append(versions.similarity(column[w], mine))
                        evidence = evidence or _telling(column[w], mine)
            total = sum(scores)
            if matched and (best is None or total > best[0] + 1e-9):
                best = (total, start, length)
                found = (matched, scores, evidence)
    matched, scores, evidence = found
    fewest = max(min(size, 2), -(-2 * size // 3))
    if not evidence or len(matched) < fewest or sum(scores) / len(scores) < WRAPPER_MATCH:
        return None
    return min(matched), max(matched) + 1


def _telling(a: _BlockFeatures, b: _BlockFeatures) -> bool:
    """Whether a pair says more than its lengths and places do: two code blocks, or blocks
    sharing an anchor (a number, a name, inline code, a link target)."""
    if a.family == "code" or b.family == "code":
        return a.family == b.family
    if a.latin and b.latin:
        return not a.strong.keys().isdisjoint(b.strong)
    return not a.anchors.keys().isdisjoint(b.anchors)
