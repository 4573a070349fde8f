"""Blocks that some versions hold at another place of the article.

Alignment keeps the order of every version: a block that a translation moved — to another
place in its section, or to another section — becomes two rows that only some versions have,
one where the source has the block and one where the translation has it.  The block rules
would report it twice, as missing in each place.  This pass, run once the article is aligned,
pairs such rows and records each pair as a
:class:`~parallelcheck.model.aligned.BlockMove`; the missing-block walk then skips the rows'
empty cells the move accounts for, and the ``moved-block`` rule reports the move once.

The rows compared are a section's top-level rows and the rows nested in its containers (the
blocks inside a list item, a quote, an admonition or a tab; not the list items themselves,
whose count is ``list-shape``'s): a block that one version writes inside a list item or a
box and another at the section's top level (Kubernetes writes an include indented under the
last requirement, an old translation before the list) is one move, not a block missing in
each place.

Two rows *X* and *Y* are one moved block when:

* no version has a block in both (a version holding both is a repetition, not a move), some
  versions (the reference, the source among them: a move is a place that differs from the
  source's) have a block in *X* and lack one in *Y*, and others (the movers) have one in *Y*
  and lack one in *X* (or the whole section of it); at least one side must lack the block
  in a section it has (two sections whose headings did not pair, each lacking in the other's
  versions, are ``missing-section``'s, not a move of each of their blocks);
* every block of the reference in *X* is like every block of the movers in *Y* — for code,
  the source's block (another reference version that translated a console output keeps its
  place; the difference is ``code-mismatch``'s there): the same kind of block, and for
  code the same code as ``code-mismatch`` compares it (comments and strings aside) and
  nearly the same text as written (a ratio of 0.9: ``pip install "uvicorn[standard]"`` is
  not ``pip install "hypercorn[trio]"``); for a table the same shape and, when they have
  them, shared anchors; for a list as many items; for prose and lists shared anchors
  (numbers, names, inline code, link targets: a Dice coefficient of 0.6 or more, each side
  stating at least three different values — a name and the same word as inline code are
  one) and a similar share of their document's length (0.5), or nearly the same letters
  (0.85), as untranslated text has;
* the place differs: they are in different sections, or at different levels (one inside a
  container the other is not in), or among the same siblings with a row between them that
  reference and movers both have (else the two rows stand in the same place and are a pair
  alignment left apart, not a move).

When several pairings compete for a row, the most alike pair is taken first (ties: document
order); a row's empty cell is accounted for by one move at most.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.fuzz import ratio as text_ratio

from parallelcheck.align.progressive import KIND_FAMILY, written_in_non_latin
from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection, BlockMove
from parallelcheck.model.document import Block, BlockKind, Document
from parallelcheck.text.code_skeleton import code_skeleton
from parallelcheck.text.landmarks import anchors_of, dice, strong_only

CODE_RATIO = 0.9
ANCHOR_DICE = 0.6
FEWEST_ANCHORS = 3
SHARE = 0.5
SAME_LETTERS = 0.85
TABLE_ANCHORS = 0.5


@dataclass
class _Row:
    """A row with empty cells: where it is (its section, the row it is nested in, if any, and
    the rows it stands among) and what its versions hold.  ``order`` is its place in the
    section's rows walked depth first (document order)."""

    section_index: int
    order: int
    section: AlignedSection
    row: AlignedBlock
    parent: AlignedBlock | None
    siblings: list[AlignedBlock]
    index: int
    holders: frozenset[str]
    lacking: frozenset[str]
    outside: frozenset[str]


class _Blocks:
    """Per version, what comparing blocks needs, computed on first use."""

    def __init__(self, article: AlignedArticle):
        self.documents = article.documents
        self._latin: dict[str, bool] = {}
        self._total: dict[str, int] = {}
        self._anchors: dict[int, object] = {}
        self._code: dict[int, str] = {}

    def code(self, block: Block) -> str:
        key = id(block)
        if key not in self._code:
            self._code[key] = code_skeleton(block.text, block.info)
        return self._code[key]

    def latin(self, lang: str) -> bool:
        if lang not in self._latin:
            self._latin[lang] = not written_in_non_latin(self.documents[lang])
        return self._latin[lang]

    def share(self, lang: str, block: Block) -> float:
        if lang not in self._total:
            self._total[lang] = sum(_length(b) for b in _blocks_of(self.documents[lang])) or 1
        return _length(block) / self._total[lang]

    def anchors(self, lang: str, block: Block):
        key = id(block)
        if key not in self._anchors:
            targets = [link.target for link in block.all_links()]
            found = anchors_of(
                block.text,
                non_latin=not self.latin(lang),
                code_spans=block.all_code_spans(),
                targets=targets,
            )
            self._anchors[key] = (found, strong_only(found))
        return self._anchors[key]


def _blocks_of(doc: Document):
    return doc.iter_blocks()


def _length(block: Block) -> int:
    return len(block.text) - block.text.count(" ")


def find_moves(article: AlignedArticle) -> list[BlockMove]:
    """The moved blocks of an aligned article (see the module's docstring), in document
    order of the reference's place."""
    rows: list[_Row] = []
    langs = frozenset(article.langs)
    for s_index, section in enumerate(article.sections):
        for order, (row, parent, siblings, index) in enumerate(_walk(section.rows)):
            holders = frozenset(row.present())
            lacking = frozenset(row.absent())
            # the versions lacking the whole section (or, nested, the container)
            outside = langs - set(row.cells)
            if holders and (lacking or outside) and not _items(row):
                rows.append(
                    _Row(
                        s_index,
                        order,
                        section,
                        row,
                        parent,
                        siblings,
                        index,
                        holders,
                        lacking,
                        outside,
                    )
                )
    if len(rows) < 2:
        return []
    blocks = _Blocks(article)
    source = article.source
    candidates = []
    for x in rows:
        for y in rows:
            if x is y or x.holders & y.holders or _family(x) != _family(y):
                continue
            reference = x.holders & (y.lacking | y.outside)
            movers = y.holders & (x.lacking | x.outside)
            if source not in reference or not movers:
                continue
            if not (reference & y.lacking or movers & x.lacking):
                continue  # no block missing in a section: two sections left unpaired
            if (
                x.section is y.section
                and x.siblings is y.siblings
                and not _apart(x, y, reference, movers)
            ):
                continue
            score = _likeness(blocks, x.row, y.row, source, reference, movers)
            if score is not None:
                candidates.append(
                    (
                        -score,
                        x.section_index,
                        x.order,
                        y.section_index,
                        y.order,
                        x,
                        y,
                        reference,
                        movers,
                    )
                )
    candidates.sort(key=lambda c: c[:5])
    used: set[tuple[int, str]] = set()
    moves = []
    order = {lang: n for n, lang in enumerate(article.langs)}
    for *_, x, y, reference, movers in candidates:
        wanted = {(id(x.row), lang) for lang in movers} | {(id(y.row), lang) for lang in reference}
        if wanted & used:
            continue
        used |= wanted
        moves.append(
            BlockMove(
                langs=tuple(sorted(movers, key=order.__getitem__)),
                reference=tuple(sorted(reference, key=order.__getitem__)),
                at_section=x.section,
                at=x.row,
                to_section=y.section,
                to=y.row,
                at_parent=x.parent,
                to_parent=y.parent,
            )
        )
    place = {id(r.row): (r.section_index, r.order) for r in rows}
    moves.sort(key=lambda m: (place[id(m.at)], place[id(m.to)]))
    return moves


def _walk(rows: list[AlignedBlock], parent: AlignedBlock | None = None):
    """(row, the row it is nested in, its siblings, its index among them) for every row of
    ``rows`` and every row nested in them, depth first in document order."""
    for index, row in enumerate(rows):
        yield row, parent, rows, index
        if row.rows:
            yield from _walk(row.rows, row)


def _items(row: AlignedBlock) -> bool:
    """Whether a row holds list items (an item some versions lack is ``list-shape``'s)."""
    return any(b is not None and b.kind is BlockKind.ITEM for b in row.cells.values())


def _family(row: _Row) -> str:
    """The kind family of a row's first block (a move pairs blocks of one family)."""
    first = next(b for b in row.row.cells.values() if b is not None)
    return KIND_FAMILY[first.kind]


def _apart(x: _Row, y: _Row, reference: frozenset[str], movers: frozenset[str]) -> bool:
    """Whether a row between ``x`` and ``y`` (siblings) holds blocks of both the reference
    and the movers: the two rows then stand in different places."""
    low, high = sorted((x.index, y.index))
    for row in x.siblings[low + 1 : high]:
        present = set(row.present())
        if present & reference and present & movers:
            return True
    return False


def _likeness(blocks: _Blocks, at: AlignedBlock, to: AlignedBlock, source, reference, movers):
    """The mean likeness of every reference block in ``at`` (of the source's alone, for code)
    with every mover's block in ``to``, or ``None`` when a pair is not alike enough (see the
    module's docstring)."""
    ours = at.cells[source]
    compared = [source] if ours is not None and ours.kind is BlockKind.CODE else sorted(reference)
    total = 0.0
    pairs = 0
    for r in compared:
        for m in sorted(movers):
            score = _pair(blocks, r, at.cells[r], m, to.cells[m])
            if score is None:
                return None
            total += score
            pairs += 1
    return total / pairs if pairs else None


def _pair(blocks: _Blocks, r: str, a: Block | None, m: str, b: Block | None) -> float | None:
    if a is None or b is None:
        return None
    family = KIND_FAMILY[a.kind]
    if family != KIND_FAMILY[b.kind]:
        return None
    if family == "list" and len(a.children) != len(b.children):
        return None  # items added or lost as well: not the same list
    if family == "code":
        if blocks.code(a) != blocks.code(b) or not blocks.code(a).strip():
            return None
        # The skeleton blanks strings ("uvicorn[standard]" and "hypercorn[trio]" are one):
        # the code as written must be nearly the same too.
        ratio = text_ratio(" ".join(a.text.split()), " ".join(b.text.split())) / 100
        return ratio if ratio >= CODE_RATIO else None
    latin = blocks.latin(r) and blocks.latin(m)
    a_all, a_strong = blocks.anchors(r, a)
    b_all, b_strong = blocks.anchors(m, b)
    a_keys, b_keys = (a_strong, b_strong) if latin else (a_all, b_all)
    if family == "table":
        if (a.body_rows, a.columns) != (b.body_rows, b.columns):
            return None
        if not a_keys and not b_keys:
            ratio = text_ratio(a.text, b.text) / 100
            return ratio if ratio >= SAME_LETTERS else None
        shared = dice(a_keys, b_keys)
        return 0.5 + 0.5 * shared if shared >= TABLE_ANCHORS else None
    letters = text_ratio(a.text, b.text) / 100 if latin else 0.0
    if letters >= SAME_LETTERS:
        return letters
    if _values(a_keys) < FEWEST_ANCHORS or _values(b_keys) < FEWEST_ANCHORS:
        return None
    shared = dice(a_keys, b_keys)
    a_share, b_share = blocks.share(r, a), blocks.share(m, b)
    length = min(a_share, b_share) / max(a_share, b_share) if a_share and b_share else 0.0
    if shared < ANCHOR_DICE or length < SHARE:
        return None
    return 0.6 * shared + 0.4 * length


def _values(anchors) -> int:
    """How many different values the anchors state: a name and the same word written as
    inline code (``HTTPException``, `` `HTTPException` ``) are one value."""
    return len({key.lstrip("~#`@").lower() for key in anchors})
