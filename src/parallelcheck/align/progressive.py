"""N-way alignment of the language versions of one article.

All versions are aligned at once, sections first and then the blocks inside each aligned
section, so that a thing two of four versions have and two lack is one aligned row with two
empty cells — never a winner picked between pairs.

How it works (progressive alignment, as in multiple sequence alignment):

1. The versions are taken in a fixed order: the source language first, then the others by
   language tag.  The order never depends on how files were listed or found.
2. The first version's sections form the initial *profile* (one column per section).  Each
   next version is aligned to the whole profile by dynamic programming: a section either joins
   a column or becomes a new column, and a column may stay empty in that version.  A section
   joins a column when its mean similarity to the column's members is above a threshold;
   insertions and deletions are free, so nothing is matched that does not resemble.
3. The preamble (text before the first heading) of every version is always one column.
4. Inside every aligned section the blocks are aligned the same way.

Section similarity combines, where each is informative: explicit heading ids (equal ids
align; two sections with different ids align only when everything else says clearly that they
are one section — a version whose id was changed — see :data:`IDS_DIFFER`), the anchors of the
heading and of the body (numbers, Latin-script names, inline code, link targets — see
:mod:`parallelcheck.text.landmarks`), the kinds of blocks in the body,
the body's share of the document's length, and the heading level and relative position.  An
empty body says nothing about content, so an empty "Decision guide" aligns with a translated
one holding a table when its place and level agree.  Between two Latin-script versions, whose
headings rarely share a strong anchor, the stems the two headings share count too
(:mod:`parallelcheck.align.cognates`: "Install the Server Program" and "Das Serverprogramm
installieren"); sharing none counts a little against.  Two headings that both state numbers or
inline code and share none are different sections whatever their places.

Block similarity requires compatible kinds (a table aligns only with a table, code only with
code) and combines anchors, share of length and, for code, the code's text.  Two prose blocks
that state values of one kind (numbers, inline code, link targets) without sharing any lose a
little per such kind.  In a section of examples — descriptions each followed by its code — a
description and its code are one unit: each half is judged with the other, so that when a
version lacks one example the right one stays unpaired.

When a version has as many elements as the profile has columns and each aligns with the column
at its position — clearly, or above the threshold by a margin when it has the same shape (block
kind, heading level) — and every such pair is near-best among its neighbours (no element next
to it resembles its column, and no column next to it resembles it, clearly better), that
diagonal is taken without dynamic programming: the common case of versions in sync costs
linear time.  A version that added one element and lost another holds as many elements, but
the pairs in between are each other's neighbours; those go through the dynamic programming.
Elements left unmatched between two matches are paired in order only where content does not
say otherwise.

Long versions out of step (more than ``FULL_TABLE`` pairs to weigh) are aligned within a band,
as sequence aligners do: anchors that one element of each side alone holds are chained into a
guide path, and each column is scored only against the elements near it (see
:func:`_band_windows`); the merge is that of the full table whenever the full table's matches
lie inside the band (see :class:`_Gains`).
"""

from __future__ import annotations

import itertools
import weakref
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, islice
from typing import Generic, NamedTuple, TypeVar

from rapidfuzz.fuzz import ratio as text_ratio

from parallelcheck.align.cognates import gram_likeness, heading_grams
from parallelcheck.align.splits import absorb_splits
from parallelcheck.align.swallowed_lists import fold_swallowed_lists
from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind, Document, Section
from parallelcheck.text.code_skeleton import code_skeleton
from parallelcheck.text.landmarks import (
    anchor_keys,
    counted,
    dice,
    strong_only,
)
from parallelcheck.text.lexicon import NormalForms
from parallelcheck.text.links import DEFAULT_PREFIXES, localised_prefix_patterns, normalise_target
from parallelcheck.text.script import NON_LATIN_SAMPLE, mostly_non_latin

SECTION_THRESHOLD = 0.42
#: The weight of the shared stems of two Latin-script headings in :func:`section_similarity`,
#: and the likeness of their letter runs that counts as full agreement.
HEADING_STEMS = 1.5
FULL_STEMS = 0.5
#: The weight of two Latin-script headings sharing no stem at all (a score of 0).
NO_STEMS = 0.5
BLOCK_THRESHOLD = 0.36
CLEAR_MATCH = 0.62
SAME_SHAPE_MARGIN = 0.08
#: An in-order pair scoring below ``UNCHALLENGED`` is taken only when no neighbour within
#: ``NEAR_WINDOW`` places scores better by more than ``NEAR_BEST`` (see ``_Profile._in_step``).
UNCHALLENGED = 0.65
NEAR_WINDOW = 1
NEAR_BEST = 0.1
LEFTOVER_PAIRING = 0.15
#: The share of a unit half's score that its other half decides, and the fewest description +
#: code pairs that make a section's examples units (see :func:`_link_units`).
UNIT_WEIGHT = 0.35
UNIT_MIN = 2
UNIT_SHARE = 0.75
#: What each kind of value two prose blocks both state, without sharing one, takes off their
#: score (see :func:`_contradicting`).
CONTRADICTION = 0.08
#: What two headings stating numbers or inline code, none the same, take off their score.
HEADINGS_CONTRADICT = 0.25
#: Taken off the similarity of two sections whose explicit ids differ (judged by all but their
#: ids): they align only at 0.77 or more without the ids (SECTION_THRESHOLD + 0.35), as 95 %
#: of the sections whose ids agree do, and 0.5 % of their neighbours (FastAPI corpus, 13,260
#: aligned pairs and 33,972 neighbouring ones) — or, left between two matches in the same
#: place, at CLEAR_MATCH (0.62) or more (:func:`_leftover_bar`).  An id changed in one
#: version leaves its section aligned, and the ``heading-id`` rule reports the id.
IDS_DIFFER = 0.35
_VALUE_MARKS = ("#", "`", "@")
REPRESENTATIVES = 4
#: Up to this many cells (profile columns × new elements) every pair is scored; beyond, only
#: a band around a guide path through shared anchors (see :func:`_band_windows`).
FULL_TABLE = 250_000
#: About how many cells a band scores, and the fewest elements it reaches either side of
#: the guide path.
BAND_CELLS = 600_000
BAND_MIN = 16

T = TypeVar("T")
F = TypeVar("F")


# ---------------------------------------------------------------------------
# Features computed once per element


class _SectionContent(NamedTuple):
    """What a comparison of two sections' content reads (see :attr:`_SectionFeatures.content`):
    the heading's anchors and strong anchors, the anchors of the section's blocks summed, the
    blocks' families (:data:`KIND_FAMILY`) counted, and the sizes of these multisets (by
    field name; ``body_strong``'s too once known, see :attr:`_SectionFeatures.body_strong`)."""

    title_anchors: Counter[str]
    title_strong: Counter[str]
    body_anchors: Counter[str]
    kinds: Counter[str]
    sizes: dict[str, int]


class _SectionFeatures:
    """The features of one section of a version (made by :func:`_document_features`).

    Its :attr:`content` is counted when a comparison first reads it: two sections with the
    same explicit id are alike without it (every section of the FastAPI corpus, whose
    headings all carry ids)."""

    __slots__ = (
        "_blocks",
        "_body_strong",
        "_content",
        "_grams",
        "_keys",
        "_version",
        "anchor",
        "latin",
        "level",
        "position",
        "section",
        "share",
    )
    section: Section
    level: int
    anchor: str | None
    latin: bool
    share: float
    position: float
    #: What the content is counted from: the version, the blocks' anchor keys and features
    #: (dropped once counted).
    _version: _Version
    _keys: list[list[str]] | None
    _blocks: list[_BlockFeatures] | None
    _content: _SectionContent | None
    _body_strong: Counter[str] | None
    _grams: frozenset[str] | None

    def __init__(
        self,
        section: Section,
        version: _Version,
        keys: list[list[str]],
        blocks: list[_BlockFeatures],
        share: float,
        position: float,
    ):
        """*keys* are the anchor keys of the section's blocks (:meth:`_Version.anchor_keys`),
        *blocks* their features."""
        self.section = section
        self.level = section.level
        self.anchor = section.anchor
        self.latin = version.latin
        self.share = share
        self.position = position
        self._version = version
        self._keys = keys
        self._blocks = blocks
        self._content = None
        self._body_strong = None
        self._grams = None

    @property
    def content(self) -> _SectionContent:
        """The heading's anchors, the body's and the blocks' kinds, with their sizes, counted
        when first read (a Latin-script section's strong body anchors with them: a comparison
        of two reads them)."""
        found = self._content
        if found is None:
            found = self._content = self._count()
            if self.latin:
                self._keep_body_strong()
        return found

    def _count(self) -> _SectionContent:
        version, section = self._version, self.section
        links = section.links
        if links:
            patterns = version.patterns
            links = [normalise_target(link.target, patterns) for link in links]
        normal = version.normal_forms[section.title]
        title = counted(anchor_keys(normal, version.non_latin, section.code_spans, links))
        strong = strong_only(title)
        keys, blocks = self._keys or [], self._blocks or []
        self._keys = self._blocks = None
        title_size = sum(title.values())
        return _SectionContent(
            title,
            strong,
            # The blocks' anchors summed, counted in one go (the same keys, in the same order,
            # as adding each block's in turn).
            counted(chain.from_iterable(keys)),
            counted([f.family for f in blocks]),
            {
                "title_anchors": title_size,
                "title_strong": title_size if strong is title else sum(strong.values()),
                "body_anchors": sum(map(len, keys)),
                "kinds": len(blocks),
            },
        )

    def _keep_body_strong(self) -> None:
        content = self.content
        self._body_strong = strong = strong_only(content.body_anchors)
        content.sizes["body_strong"] = strong.total()

    @property
    def body_strong(self) -> Counter[str]:
        """The body's anchors without the weak ones.  A Latin-script section has them once
        its :attr:`content` is counted (a comparison of two Latin-script sections reads them,
        with their size in its sizes); another works them out when first asked (band seeds
        only)."""
        if self._body_strong is None:
            self._keep_body_strong()
        return self._body_strong  # type: ignore[return-value]

    @property
    def form(self) -> int:
        """What a section must share with a column to have its shape: its heading level."""
        return self.level

    @property
    def grams(self) -> frozenset[str]:
        """The heading's letter runs (see :mod:`parallelcheck.align.cognates`), in a
        Latin-script version only; computed when first asked for (only a comparison of two
        Latin-script headings needs them)."""
        if self._grams is None:
            self._grams = (
                heading_grams(self.section.title, self.section.code_spans)
                if self.latin
                else frozenset()
            )
        return self._grams

    def seed_keys(self) -> set[str]:
        """What only this section and its counterpart are likely to share: its explicit id
        and its strong anchors (numbers, inline code, link targets, names with a digit or an
        inner capital), for :func:`_band_windows`."""
        keys = {*self.content.title_strong, *self.body_strong}
        if self.anchor:
            keys.add("{#" + self.anchor)
        return keys


class _BlockFeatures:
    """The features of one block of a version (made by :meth:`_Version.features`, which
    every block of a check goes through: a slotted class whose ``__init__`` takes what
    differs from block to block positionally, and reads the rest from the block and its
    version)."""

    __slots__ = (
        "__weakref__",
        "_code",
        "_strong",
        "_strong_size",
        "_values",
        "_version",
        "anchors",
        "anchors_size",
        "block",
        "family",
        "kind",
        "latin",
        "partner",
        "position",
        "shape",
        "share",
    )
    block: Block
    #: The block's family (:data:`KIND_FAMILY`) and kind (a StrEnum: equal to its value).
    family: str
    kind: str
    latin: bool
    anchors: Counter[str]
    #: How many anchors (counted once, asked for in every comparison).
    anchors_size: int
    share: float
    position: float
    shape: tuple[int, int]
    #: The other half of the unit this block forms with its neighbour — a description and
    #: the code block right after it, in a section of such examples (see :func:`_link_units`).
    #: A weak reference: two halves holding each other would make a reference cycle, and
    #: every article's features would wait for the garbage collector instead of going as
    #: soon as the article is aligned.
    partner: weakref.ref[_BlockFeatures] | None
    #: The version the block is of, which reads a code block's skeleton (see :attr:`code`).
    _version: _Version
    _code: str | None
    #: The strong anchors and how many (see :attr:`strong`).
    _strong: Counter[str] | None
    _strong_size: int
    #: The values by kind (see :attr:`values`).
    _values: dict[str, set[str]] | None

    def __init__(
        self,
        block: Block,
        version: _Version,
        anchors: Counter[str],
        anchors_size: int,
        share: float,
        position: float,
    ):
        kind = block.kind
        self.block = block
        self.family = KIND_FAMILY[kind]
        self.kind = kind
        self.latin = version.latin
        self.anchors = anchors
        self.anchors_size = anchors_size
        self.share = share
        self.position = position
        self.shape = (block.body_rows, block.columns) if kind is _TABLE else _NO_SHAPE
        self.partner = None
        self._version = version
        self._code = None if kind is _CODE else ""
        self._values = None
        if not version.latin:
            self._strong = None
            self._strong_size = 0
        # strong_only's test, inline: keys start with "~" (weak), or a character before it
        elif anchors and max(anchors)[0] == "~":
            self._keep_strong()
        else:
            self._strong = anchors
            self._strong_size = anchors_size

    def _keep_strong(self) -> None:
        anchors = self.anchors
        self._strong = strong = strong_only(anchors)
        self._strong_size = self.anchors_size if strong is anchors else sum(strong.values())

    @property
    def code(self) -> str:
        """A code block's skeleton (:meth:`_Version.code`; ``""`` for any other block),
        worked out when first read: two code blocks of the same text and info string (most
        pairs alignment weighs) are alike without it."""
        found = self._code
        if found is None:
            found = self._code = self._version.code(self.block)
        return found

    @property
    def strong(self) -> Counter[str]:
        """The anchors without the weak ones (:func:`strong_only`).  A Latin-script block has
        them from the start: every comparison of two Latin-script blocks reads them, and
        :func:`_own_similarity` reads them without asking.  Another block works them out when
        first asked (only splits, containers and band seeds do): most never are."""
        if self._strong is None:
            self._keep_strong()
        return self._strong  # type: ignore[return-value]

    @property
    def values(self) -> dict[str, set[str]]:
        """The block's values by kind (:func:`values_by_kind`), worked out when a comparison
        first asks whether they contradict another block's (about one pair in twenty)."""
        found = self._values
        if found is None:
            found = self._values = values_by_kind(self.anchors)
        return found

    @property
    def strong_size(self) -> int:
        """How many strong anchors (see :attr:`strong`)."""
        if self._strong is None:
            self._keep_strong()
        return self._strong_size

    @property
    def form(self) -> str:
        """What a block must share with a column to have its shape: its kind."""
        return self.kind

    def seed_keys(self) -> set[str]:
        """A block's strong anchors, and a code block's code, for :func:`_band_windows`."""
        keys = set(self.strong)
        if self.code:
            keys.add("```" + self.code)
        return keys


#: The family of each kind of block: blocks of different families never align (a table
#: only with a table, code only with code); prose kinds align with each other.
KIND_FAMILY = {
    BlockKind.PARAGRAPH: "prose",
    BlockKind.QUOTE: "prose",
    BlockKind.ADMONITION: "prose",
    BlockKind.HTML: "prose",
    BlockKind.ITEM: "prose",
    BlockKind.LIST: "list",
    BlockKind.TABLE: "table",
    BlockKind.CODE: "code",
}
#: The kinds tested for every block or pair of blocks, read once: on Python 3.11 a member
#: read from its enum class goes through the enum type's ``__getattr__`` hook (0.13 µs, six
#: times the cost of a module name).
_CODE, _TABLE, _PARAGRAPH, _LIST = (
    BlockKind.CODE,
    BlockKind.TABLE,
    BlockKind.PARAGRAPH,
    BlockKind.LIST,
)
#: The anchors of a block that holds none, a code block's among them: one multiset that
#: every such block shares (callers never change anchors).
_NO_ANCHORS: Counter[str] = Counter()
#: The shape of any block but a table.
_NO_SHAPE = (0, 0)


def written_in_non_latin(doc: Document) -> bool:
    """Whether a version is written in a non-Latin script, told from its first 20 headings
    and 20 blocks (:func:`~parallelcheck.text.script.mostly_non_latin`)."""
    titles = " ".join(s.title for s in doc.sections[:20])
    # Only the start of the text is read: blocks are joined until it is long enough.
    blocks: list[str] = []
    length = len(titles) - 1
    for block in islice(doc.iter_blocks(), 20):
        blocks.append(block.text)
        length += len(block.text) + 1
        if length >= NON_LATIN_SAMPLE:
            break
    return mostly_non_latin(titles + " ".join(blocks))


def _block_lengths(blocks: Sequence[Block]) -> list[int]:
    """Each block's length without its spaces."""
    return [len(text) - text.count(" ") for text in [block.text for block in blocks]]


class _Version:
    """What the features of every block of one version share: its script, its localised link
    prefixes, its length, and the article's code skeletons (by code and info string: a code
    block usually stands unchanged in every version of an article, and is read once) and
    inline code's anchors (by code: the versions of an article quote the same code, and its
    :func:`~parallelcheck.text.landmarks.code_key` is formed once), and the normal forms of
    the article's texts (:class:`~parallelcheck.text.lexicon.NormalForms`, shared with the
    article's facts when the engine hands them on)."""

    __slots__ = (
        "code_keys",
        "latin",
        "non_latin",
        "normal_forms",
        "patterns",
        "skeletons",
        "total",
    )

    def __init__(
        self,
        doc: Document,
        prefixes: Sequence[str],
        source: str,
        skeletons: dict[tuple[str, str], str],
        total: int,
        code_keys: dict[str, str],
        normal_forms: NormalForms,
    ):
        self.non_latin = written_in_non_latin(doc)
        self.latin = not self.non_latin
        self.patterns = localised_prefix_patterns(doc.lang, prefixes, source)
        self.skeletons = skeletons
        self.code_keys = code_keys
        self.normal_forms = normal_forms
        self.total = total or 1

    def anchor_keys(self, block: Block) -> list[str]:
        """A block's anchors one by one (:func:`anchor_keys`; none for a code block)."""
        if block.kind is _CODE:
            return []
        if block.children:  # a container: its own and its nested blocks' links and code
            links, spans = block.all_links(), block.all_code_spans()
        else:
            links, spans = block.links, block.code_spans
        if links:
            patterns = self.patterns
            links = [normalise_target(link.target, patterns) for link in links]
        normal = self.normal_forms[block.text]
        return anchor_keys(normal, self.non_latin, spans, links, self.code_keys)

    def code(self, block: Block) -> str:
        """A code block's skeleton (:func:`code_skeleton`; ``""`` for any other block)."""
        if block.kind is not _CODE:
            return ""
        key = (block.text, block.info)
        found = self.skeletons.get(key)
        if found is None:
            found = self.skeletons[key] = code_skeleton(*key)
        return found

    def features(
        self, blocks: Sequence[Block], sizes: Sequence[int]
    ) -> tuple[list[list[str]], list[_BlockFeatures]]:
        """The anchor keys (:meth:`anchor_keys`) and the features of *blocks*, whose lengths
        are *sizes*, compared among themselves (each one's position is among them)."""
        last = max(len(blocks) - 1, 1)
        total = self.total
        keys = list(map(self.anchor_keys, blocks))
        features = []
        append = features.append
        for number, block in enumerate(blocks):
            found = keys[number]
            # Most blocks of a translation hold no anchor: they share one empty multiset.
            append(
                _BlockFeatures(
                    block,
                    self,
                    counted(found) if found else _NO_ANCHORS,
                    len(found),
                    sizes[number] / total,
                    number / last,
                )
            )
        return keys, features


def _document_features(
    doc: Document,
    prefixes: Sequence[str],
    source: str,
    skeletons: dict[tuple[str, str], str],
    code_keys: dict[str, str] | None = None,
    normal_forms: NormalForms | None = None,
) -> tuple[list[_SectionFeatures], dict[int, list[_BlockFeatures]], _Version]:
    """The features of every section of a version, and of every block of each section (by
    the section's ``id``), and what they share (its :class:`_Version`, for the features of
    its containers' children, see :func:`child_block_features`).  *skeletons*, *code_keys*
    and *normal_forms* are the article's, shared by its versions (see :class:`_Version`)."""
    lengths = [_block_lengths(section.blocks) for section in doc.sections]
    if code_keys is None:
        code_keys = {}
    if normal_forms is None:
        normal_forms = NormalForms()
    version = _Version(
        doc, prefixes, source, skeletons, sum(map(sum, lengths)), code_keys, normal_forms
    )
    total = version.total
    count = max(len(doc.sections) - 1, 1)
    sections = []
    blocks: dict[int, list[_BlockFeatures]] = {}
    for index, (section, sizes) in enumerate(zip(doc.sections, lengths, strict=True)):
        keys, block_features = version.features(section.blocks, sizes)
        sections.append(
            _SectionFeatures(
                section,
                version,
                keys,
                block_features,
                sum(sizes) / total,
                (index - 1) / count if index else 0.0,
            )
        )
        _link_units(block_features)
        blocks[id(section)] = block_features
    return sections, blocks, version


def child_block_features(blocks: Sequence[Block], version: _Version) -> list[_BlockFeatures]:
    """The features of some blocks of a version compared only among themselves (the children
    of a container, see :mod:`parallelcheck.align.containers`): each block's position is
    among them; its share of the document's length, script and link prefixes as for the
    whole document — *version*'s, from :func:`_document_features`: the script, the prefixes'
    patterns and the length are not worked out again for every container whose children
    are aligned."""
    return version.features(blocks, _block_lengths(blocks))[1]


# ---------------------------------------------------------------------------
# Similarities


def _share_similarity(a: float, b: float) -> float:
    if a <= 0 or b <= 0:
        return 0.0
    return min(a, b) / max(a, b)


def section_similarity(a: _SectionFeatures, b: _SectionFeatures) -> float:
    """How much two sections look like translations of each other, 0..1 (documented above).

    ``known`` is the weighted mean of the evidence there is, a prior of 0.5 (weight 1) first;
    its terms are added in a fixed order (prior, heading, body, kinds, length), so a pair
    always gives the same float.
    """
    if a.anchor and b.anchor and a.anchor == b.anchor:
        return 1.0
    both_latin = a.latin and b.latin
    one, two = a.content, b.content
    title = "title_strong" if both_latin else "title_anchors"
    a_title = one.title_strong if both_latin else one.title_anchors
    b_title = two.title_strong if both_latin else two.title_anchors
    known, weights = 0.5, 1.0  # a prior: nothing known yet
    if a_title and b_title:
        known += dice(a_title, b_title, 0.0, (one.sizes[title], two.sizes[title])) * 2.0
        weights += 2.0
    elif a_title or b_title:
        weights += 0.5  # a name in one heading only: weak evidence against (score 0)
    if both_latin and a.grams and b.grams:
        # Shared stems of the two headings; none at all is weak evidence against (a heading
        # is often translated with words of another root: "Manual Setup", "Instalacja Ręczna").
        stems = gram_likeness(a.grams, b.grams)
        if stems:
            known += min(1.0, stems / FULL_STEMS) * HEADING_STEMS
            weights += HEADING_STEMS
        else:
            weights += NO_STEMS
    if one.kinds and two.kinds:
        body = "body_strong" if both_latin else "body_anchors"
        a_body = a.body_strong if both_latin else one.body_anchors
        b_body = b.body_strong if both_latin else two.body_anchors
        if a_body or b_body:
            known += dice(a_body, b_body, 1.0, (one.sizes[body], two.sizes[body])) * 3.0
            weights += 3.0
        known += dice(one.kinds, two.kinds, 0.0, (one.sizes["kinds"], two.sizes["kinds"])) * 1.0
        known += _share_similarity(a.share, b.share) * 1.0
        weights += 2.0
    known /= weights
    place = 1.0 - min(1.0, abs(a.position - b.position) * 2)
    level = 1.0 if a.level == b.level else 0.0
    score = 0.7 * known + 0.15 * place + 0.15 * level
    if _headings_contradict(a, b):
        score -= HEADINGS_CONTRADICT  # both headings state numbers or code, none the same
    if a.anchor and b.anchor:
        score -= IDS_DIFFER  # different ids: only a clear match otherwise
    return score


def block_similarity(a: _BlockFeatures, b: _BlockFeatures) -> float:
    """How much two blocks look like translations of each other, 0..1 (documented above).

    Two halves of units (a description and its code, see :func:`_link_units`) are judged
    with their other halves: ``UNIT_WEIGHT`` of the score is how much those resemble.
    """
    own = _own_similarity(a, b)
    if a.partner is None or b.partner is None or own == 0.0:
        return own
    partner, other = a.partner(), b.partner()
    if partner is None or other is None:  # both halves live as long as their version's features
        return own
    return (1.0 - UNIT_WEIGHT) * own + UNIT_WEIGHT * _own_similarity(partner, other)


def _block_similarity_of(
    sequences: dict[str, list[_BlockFeatures]],
) -> Callable[[_BlockFeatures, _BlockFeatures], float]:
    """:func:`block_similarity` for blocks of *sequences*, or, when none of them is half of a
    unit (most sections), :func:`_own_similarity`, which it then is, one call fewer a pair."""
    if any(f.partner is not None for blocks in sequences.values() for f in blocks):
        return block_similarity
    return _own_similarity


def _own_similarity(a: _BlockFeatures, b: _BlockFeatures) -> float:
    # Called for every pair the alignment weighs (about four per block): the family test
    # and the length share are written out rather than built from a set and a call.
    family = a.family
    if family != b.family:
        if (family == "prose" and b.family == "list") or (family == "list" and b.family == "prose"):
            factor = 0.5
        else:
            return 0.0
    else:
        factor = 1.0 if a.kind == b.kind else 0.8
    mine_share, their_share = a.share, b.share
    if mine_share <= 0 or their_share <= 0:
        length = 0.0
    else:  # min / max, as _share_similarity computes it
        length = mine_share / their_share if mine_share < their_share else their_share / mine_share
    if family == "code":
        one, other = a.block, b.block
        if (one.text == other.text and one.info == other.info) or a.code == b.code:
            return 1.0  # the same code, or the same skeleton
        return factor * (0.8 * text_ratio(a.code, b.code) / 100 + 0.2 * length)
    if a.latin and b.latin:  # both blocks hold their strong anchors from the start
        mine, theirs = a._strong, b._strong
        sizes = (a._strong_size, b._strong_size)
    else:
        mine, theirs = a.anchors, b.anchors
        sizes = (a.anchors_size, b.anchors_size)
    if mine and theirs:
        anchors = dice(mine, theirs, 1.0, sizes)  # type: ignore[arg-type]
    else:  # nothing shared: dice's (2·0 + 1) / (|a| + |b| + 2), a third of the pairs
        anchors = 1.0 / (sizes[0] + sizes[1] + 2.0)
    if family == "table":
        rows = min(a.shape[0], b.shape[0]) / max(a.shape[0], b.shape[0], 1)
        cols = min(a.shape[1], b.shape[1]) / max(a.shape[1], b.shape[1], 1)
        return factor * (0.4 * anchors + 0.3 * rows * cols + 0.3 * max(length, 0.5))
    apart = abs(a.position - b.position) * 2
    place = 1.0 - apart if apart < 1.0 else 0.0  # 1 − min(1, apart)
    score = factor * (0.5 * anchors + 0.35 * length + 0.15 * place)
    if anchors < 0.5 and mine and theirs:  # little shared: do the values contradict?
        score = max(0.0, score - CONTRADICTION * _contradicting(a.values, b.values))
    return score


def _contradicting(a: dict[str, set[str]], b: dict[str, set[str]]) -> int:
    """How many kinds of value (numbers, inline code, link targets) both blocks state without
    sharing any value of that kind: ``30 seconds`` against ``35 seconds``, ``--port`` against
    ``--workers``.  *a* and *b* are the blocks' values by kind (:func:`values_by_kind`)."""
    count = 0
    for mark, mine in a.items():
        theirs = b.get(mark)
        if theirs and mine.isdisjoint(theirs):
            count += 1
    return count


def values_by_kind(anchors: Counter[str]) -> dict[str, set[str]]:
    """The values among *anchors* by kind, each kind's mark (``#``, a backquote, ``@``) to
    the anchors that bear it: what :func:`_contradicting` compares (a block's strong anchors
    hold the same values as all of them)."""
    found: dict[str, set[str]] = {}
    for key in anchors:
        if key[0] in _VALUE_MARKS:
            found.setdefault(key[0], set()).add(key)
    return found


def _link_units(features: list[_BlockFeatures]) -> None:
    """Make each description and the code block right after it one unit, in a section that
    holds at least ``UNIT_MIN`` such pairs and little else: at least ``UNIT_SHARE`` of its
    blocks are such pairs (a command reference: "List all pods:" and ``kubectl get pods``,
    repeated).  A description is a paragraph or a list (a numbered step whose code follows it
    at the top level).  In a section of prose that shows code now and then, a paragraph before
    code is prose in its own right — and one that a translation split in two must not pair its
    last part on the strength of the code.  Each half's ``partner`` is set to the other."""
    pairs = [
        (first, second)
        for first, second in itertools.pairwise(features)
        if second.family == "code" and (first.kind is _PARAGRAPH or first.kind is _LIST)
    ]
    if len(pairs) < UNIT_MIN or 2 * len(pairs) < UNIT_SHARE * len(features):
        return
    for first, second in pairs:
        first.partner, second.partner = weakref.ref(second), weakref.ref(first)


# ---------------------------------------------------------------------------
# Progressive alignment


class _Profile(Generic[F]):
    """Columns of already aligned elements: one dict lang → feature per column."""

    def __init__(self, lang: str, items: Sequence[F]):
        self.columns: list[dict[str, F]] = [{lang: item} for item in items]

    def score(
        self,
        column: dict[str, F],
        item: F,
        similarity: Callable[[F, F], float],
        settle: bool = False,
    ) -> float:
        """Mean similarity to the column's first members (the source and the next versions in
        order): a few members judge as well as all thirteen, at a fraction of the cost.

        With *settle*, for a *similarity* that never scores below zero (a block's, 0..1), the
        sum stops once the members so far make the mean ``UNCHALLENGED`` or more, and that
        lower bound of the mean is returned: the other members can only add to the sum
        (floats add monotonically), and every test :meth:`_in_step` makes of the score —
        against its bar, then ``UNCHALLENGED``, both no higher — comes out as the whole
        mean's would.  A block of a version in step often settles its column with three of
        its four members: 6 % of the block comparisons of a FastAPI check are spared (92,467
        → 86,536 over every third article)."""
        size = len(column)
        if size > REPRESENTATIVES:
            size = REPRESENTATIVES
        total = 0.0  # summed in the members' order, as sum() would
        left = size
        for member in column.values():
            total += similarity(member, item)
            left -= 1
            if not left or (settle and total / size >= UNCHALLENGED):
                break
        return total / size

    def add(
        self,
        lang: str,
        items: Sequence[F],
        similarity: Callable[[F, F], float],
        threshold: float,
        nonnegative: bool = False,
    ) -> None:
        """Align *items*, version *lang*'s elements, to the columns (*nonnegative*: whether
        *similarity* never scores below zero, see :meth:`score`)."""
        columns = self.columns
        if self._in_step(items, similarity, threshold, nonnegative):
            for col, item in zip(columns, items, strict=True):
                col[lang] = item
            return
        windows = None
        if len(columns) * len(items) > FULL_TABLE:
            windows = _band_windows(columns, items)
        merged = _dp_merge(columns, lang, items, self.score, similarity, threshold, windows)
        self.columns = self._pair_leftovers(merged, lang, similarity)

    def _in_step(
        self,
        items: Sequence[F],
        similarity: Callable[[F, F], float],
        threshold: float,
        nonnegative: bool = False,
    ) -> bool:
        """Whether the in-order pairing of ``items`` with the columns can be taken as it is.

        It can when there are as many items as columns, every item aligns with the column at
        its position (clearly, or above the threshold by a margin when it has the column's
        shape), and every such pair is near-best in its row and column: no item within
        ``NEAR_WINDOW`` places of it resembles its column, and no column there resembles it,
        better by more than ``NEAR_BEST`` — else one version added an element and lost
        another and the in-order pairs in between are each other's neighbours.  Pairs that
        score ``UNCHALLENGED`` or more are not questioned (the common case of versions in
        sync stays linear).
        """
        columns = self.columns
        if len(columns) != len(items):
            return False
        scores = []
        score = self.score
        for col, item in zip(columns, items, strict=True):
            value = score(col, item, similarity, nonnegative)
            # An item with the shape of the column's first member (the same block kind, or
            # the same heading level) needs less.
            same_shape = next(iter(col.values())).form == item.form
            if value < (threshold + SAME_SHAPE_MARGIN if same_shape else CLEAR_MATCH):
                return False
            scores.append(value)
        count = len(items)
        for i, value in enumerate(scores):
            if value >= UNCHALLENGED:
                continue
            # Judged against the columns' first members alone: a few calls per pair.
            first = next(iter(columns[i].values()))
            bar = similarity(first, items[i]) + NEAR_BEST
            for j in range(max(0, i - NEAR_WINDOW), min(count, i + NEAR_WINDOW + 1)):
                if j != i and (
                    similarity(first, items[j]) > bar
                    or similarity(next(iter(columns[j].values())), items[i]) > bar
                ):
                    return False
        return True

    def _pair_leftovers(self, columns, lang, similarity):
        """Pair what the dynamic programming left unmatched between the same two matches.

        Between two aligned neighbours, if the profile has k columns the new version lacks and
        the new version has k elements of its own, they are the same things in the same order
        whose anchors happen not to overlap (two Latin-script languages without shared names,
        say): pair them in order, as long as each pair is compatible at all and its content
        does not say otherwise (see :func:`_contradicted`).
        """
        result: list[dict] = []
        index = 0
        while index < len(columns):
            if len(columns[index]) > 1 and lang in columns[index]:
                result.append(columns[index])
                index += 1
                continue
            end = index
            while end < len(columns) and not (len(columns[end]) > 1 and lang in columns[end]):
                end += 1
            run = columns[index:end]
            old = [c for c in run if lang not in c]
            new = [c for c in run if lang in c]
            if (
                old
                and len(old) == len(new)
                and all(
                    self.score(o, n[lang], similarity) >= _leftover_bar(o, n[lang])
                    and not _contradicted(o, n[lang])
                    for o, n in zip(old, new, strict=True)
                )
            ):
                for o, n in zip(old, new, strict=True):
                    result.append({**o, lang: n[lang]})
            else:
                result.extend(run)
            index = end
        return result


def _contradicted(column: dict, item) -> bool:
    """Whether content says that a column (its first member) and an element are different
    sections, so that their places alone must not pair them: their headings state numbers or
    inline code of their own and share none (``Use `uvicorn``` and ```hypercorn`` nutzen``).
    Blocks are not judged so: two blocks in the same place whose numbers or link targets
    differ are what ``number-mismatch`` and ``link-mismatch`` report."""
    first = next(iter(column.values()))
    return isinstance(first, _SectionFeatures) and _headings_contradict(first, item)


def _leftover_bar(column: dict, item) -> float:
    """The score a column (its first member) and an element left between two matches need to
    be paired by their places: :data:`LEFTOVER_PAIRING`, but for two sections with different
    explicit ids a clear match but for the ids (:data:`CLEAR_MATCH` before
    :data:`IDS_DIFFER` is taken off): a translated id in a section otherwise in step."""
    first = next(iter(column.values()))
    sections = isinstance(first, _SectionFeatures)
    if sections and first.anchor and item.anchor and first.anchor != item.anchor:
        return CLEAR_MATCH - IDS_DIFFER
    return LEFTOVER_PAIRING


def _headings_contradict(a: _SectionFeatures, b: _SectionFeatures) -> bool:
    """Whether two headings state numbers, or inline code, and none of one kind alike: the
    same number, or code of which one holds the other's letters and digits (``on()`` and
    ``toolbar.on()``, ``addRenderer`` and ``addRenderer()`` are alike)."""
    ours, others = a.content.title_strong, b.content.title_strong
    if not ours or not others:
        return False
    for mark in ("#", "`"):
        mine = [_bare(key) for key in ours if key[0] == mark]
        theirs = [_bare(key) for key in others if key[0] == mark]
        if mine and theirs and not any(x in y or y in x for x in mine for y in theirs):
            return True
    return False


def _bare(key: str) -> str:
    return "".join(ch for ch in key[1:].lower() if ch.isalnum()) or key


def _dp_merge(columns, lang, items, score, similarity, threshold, windows=None):
    """Merge ``items`` into the profile ``columns`` by dynamic programming.

    ``gain[i][j]`` is the best total of ``score − threshold`` over non-crossing matches of the
    first ``i`` columns with the first ``j`` items; gaps are free.  ``windows`` (one
    ``(lo, hi)`` per column, 1-based and never decreasing, see :func:`_band_windows`) limits
    the items a column is scored against; outside its window a cell is a gap.  ``None``
    scores every pair.  The merge is the same as that of the full table whenever every match
    of the full table's path lies inside the windows (see :class:`_Gains`).
    """
    m, n = len(columns), len(items)
    gains = _Gains(m, n, windows)
    for i in range(1, m + 1):
        column = columns[i - 1]
        lo, hi = gains.lo[i], gains.hi[i]
        # gain(i - 1, j) for j = lo - 1 … hi, and gain(i, lo - 1): the cells left of the
        # window are gaps, where gain(i, j) = gain(i - 1, j).
        prev_gain = gains.row_above(i)
        row_gain = [prev_gain[0]]
        row_move = bytearray(hi - lo + 1)
        for k in range(1, hi - lo + 2):
            best, how = prev_gain[k], 2
            if row_gain[k - 1] > best:
                best, how = row_gain[k - 1], 3
            value = score(column, items[lo + k - 2], similarity) - threshold
            if value > 0 and prev_gain[k - 1] + value >= best:
                best, how = prev_gain[k - 1] + value, 1
            row_gain.append(best)
            row_move[k - 1] = how
        gains.store(i, row_gain[1:], row_move)
    merged: list[dict] = []
    i, j = m, n
    while i > 0 or j > 0:
        how = gains.move(i, j)
        if how == 1:
            column = dict(columns[i - 1])
            column[lang] = items[j - 1]
            merged.append(column)
            i, j = i - 1, j - 1
        elif how == 2:
            merged.append(columns[i - 1])
            i -= 1
        else:
            merged.append({lang: items[j - 1]})
            j -= 1
    merged.reverse()
    return merged


class _Gains:
    """The table of :func:`_dp_merge`, stored only inside each row's window.

    Row ``i`` (a profile column) holds ``gain(i, j)`` and the move taken for the items
    ``lo[i] ≤ j ≤ hi[i]``.  Every other cell is a gap — no score is taken there — so its gain
    follows from the stored ones: right of the window it is the row's last gain (the windows
    never move left, so nothing beyond can be matched in this or an earlier row); left of it,
    it is the gain of the same item in the last earlier row whose window starts at or before
    it.  A gap cell's move is the one the full table takes where no match is possible: a new
    column when the cell to the left gains strictly more than the cell above, else a column
    gap.

    Why the merge equals the full table's when the windows hold every match of the full
    path: along that path the gains are the sums of its matches, reachable inside the
    windows, so they are equal in both tables; everywhere else a windowed gain is at most the
    full one.  At each cell of the path the full table's choice (match if it gains at least as
    much as the best neighbour, else a new column if the left neighbour gains strictly more
    than the one above, else a column gap) compares a path neighbour, which is equal in both
    tables, with one that is no larger in the windowed table, so the same choice wins.
    """

    def __init__(self, m: int, n: int, windows: Sequence[tuple[int, int]] | None):
        self.n = n
        if windows is None:
            self.lo = [1] * (m + 1)
            self.hi = [n] * (m + 1)
        else:
            self.lo = [1, *(lo for lo, _ in windows)]
            self.hi = [n, *(hi for _, hi in windows)]
        self.gain: list[list[float]] = [[0.0] * n]  # row 0: nothing matched yet
        self.moves: list[bytearray] = [bytearray()]

    def store(self, i: int, gain: list[float], moves: bytearray) -> None:
        self.gain.append(gain)
        self.moves.append(moves)

    def at(self, i: int, j: int) -> float:
        """``gain(i, j)`` for any cell of rows already stored."""
        if i == 0 or j == 0:
            return 0.0
        lo, hi = self.lo[i], self.hi[i]
        if j >= lo:
            return self.gain[i][min(j, hi) - lo]
        # Left of the window: the last earlier row whose window starts at or before j.
        row = bisect_right(self.lo, j, 1, i) - 1
        if row < 1:
            return 0.0
        return self.gain[row][min(j, self.hi[row]) - self.lo[row]]

    def row_above(self, i: int) -> list[float]:
        """``gain(i - 1, j)`` for ``j`` from ``lo[i] − 1`` to ``hi[i]``."""
        lo, hi = self.lo[i], self.hi[i]
        if i == 1:
            return [0.0] * (hi - lo + 2)
        above, above_lo, above_hi = self.gain[i - 1], self.lo[i - 1], self.hi[i - 1]
        found: list[float] = []
        j = lo - 1
        if j == 0:
            found.append(0.0)
            j = 1
        while j < above_lo and j <= hi:  # left of the row above's window (one cell at most)
            found.append(self.at(i - 1, j))
            j += 1
        end = min(hi, above_hi)
        if j <= end:
            found.extend(above[j - above_lo : end - above_lo + 1])
            j = end + 1
        if j <= hi:  # right of the row above's window: its last gain
            found.extend([above[-1]] * (hi - j + 1))
        return found

    def move(self, i: int, j: int) -> int:
        """The move taken at a cell: 1 match, 2 column gap, 3 new column."""
        if i == 0:
            return 3
        if j == 0:
            return 2
        lo, hi = self.lo[i], self.hi[i]
        if lo <= j <= hi:
            return self.moves[i][j - lo]
        return 3 if self.at(i, j - 1) > self.at(i - 1, j) else 2


def _band_windows(columns: Sequence[dict], items: Sequence) -> list[tuple[int, int]]:
    """The items each profile column is scored against when the full table is too large.

    As sequence aligners do, anchors first: a seed key (see ``seed_keys``) that exactly one
    column (any of its first members) and exactly one item hold pairs them; the longest chain
    of such pairs in order in both sequences is the guide, joined by straight lines from the
    first cell to the last.  Each column then reaches the items its stretch of the guide
    crosses, widened on both sides by a half-width that keeps the band near ``BAND_CELLS``
    cells (never below ``BAND_MIN``).  Versions without shared anchors are guided by the
    diagonal.  Returns one 1-based ``(lo, hi)`` per column, neither ever decreasing.
    """
    m, n = len(columns), len(items)
    column_keys = [
        set().union(*(f.seed_keys() for f in islice(c.values(), REPRESENTATIVES))) for c in columns
    ]
    item_keys = [item.seed_keys() for item in items]
    holders: dict[str, list[int]] = {}
    for index, keys in enumerate(column_keys):
        for key in keys:
            holders.setdefault(key, []).append(index)
    item_holders: dict[str, list[int]] = {}
    for index, keys in enumerate(item_keys):
        for key in keys:
            item_holders.setdefault(key, []).append(index)
    pairs = {
        (found[0] + 1, item_holders[key][0] + 1)
        for key, found in holders.items()
        if len(found) == 1 and len(item_holders.get(key, ())) == 1
    }
    points = [(0, 0), *_longest_chain(pairs)]
    if points[-1] != (m, n):
        points.append((m, n))
    width = max(BAND_MIN, (BAND_CELLS - m - n) // (2 * max(m, 1)))
    starts, ends = [n] * (m + 1), [0] * (m + 1)
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        if x2 == x1:  # the last seed is in the last column: the guide runs up to the end
            ends[x1] = max(ends[x1], y2)
            continue
        for i in range(x1 + 1, x2 + 1):
            low = y1 + (i - 1 - x1) * (y2 - y1) // (x2 - x1)
            high = y1 - (-(i - x1) * (y2 - y1) // (x2 - x1))
            starts[i] = min(starts[i], low)
            ends[i] = max(ends[i], high)
    windows = []
    lo = hi = 1
    for i in range(1, m + 1):
        lo = max(lo, min(n, max(1, starts[i] - width)))
        hi = max(hi, lo, min(n, ends[i] + width))
        windows.append((lo, hi))
    return windows


def _longest_chain(pairs: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of pairs increasing in both coordinates (patience sorting)."""
    ordered = sorted(pairs, key=lambda pair: (pair[0], -pair[1]))
    tails: list[int] = []  # the smallest last item of a chain of each length
    tail_index: list[int] = []
    previous = [-1] * len(ordered)
    for index, (_, j) in enumerate(ordered):
        length = bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[length] = j
            tail_index[length] = index
        previous[index] = tail_index[length - 1] if length else -1
    chain = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        chain.append(ordered[index])
        index = previous[index]
    return chain[::-1]


def _align(
    order: Sequence[str],
    sequences: dict[str, Sequence[F]],
    similarity: Callable[[F, F], float],
    threshold: float,
    nonnegative: bool = False,
) -> list[dict[str, F]]:
    """The columns of the versions' elements aligned progressively, in *order*
    (*nonnegative*: whether *similarity* never scores below zero, see :meth:`_Profile.add`)."""
    first, *rest = order
    profile: _Profile[F] = _Profile(first, sequences[first])
    for lang in rest:
        profile.add(lang, sequences[lang], similarity, threshold, nonnegative)
    return profile.columns


def _absorb_splits(columns: list[dict[str, _BlockFeatures]]):
    """Fold split paragraphs and continuation fragments into their rows (:mod:`.splits`)."""
    return absorb_splits(columns)  # type: ignore[arg-type]


def _fold_rows(columns: list[dict[str, _BlockFeatures]]):
    """The aligned block rows of a section with lists swallowed by a paragraph folded first
    (:mod:`.swallowed_lists`), then split paragraphs folded in the stretches between them."""
    rows = fold_swallowed_lists([(column, {}) for column in columns])
    result: list = []
    stretch: list[dict[str, _BlockFeatures]] = []
    for column, extra in rows:
        if not extra:
            stretch.append(column)
            continue
        if stretch:
            result.extend(_absorb_splits(stretch))
            stretch = []
        result.append((column, extra))
    if stretch:
        result.extend(_absorb_splits(stretch))
    return result


def version_order(langs: Sequence[str], source: str) -> tuple[str, ...]:
    """The fixed order versions are aligned in: source first, then by tag."""
    others = sorted((lang for lang in langs if lang != source), key=str.lower)
    return (source, *others) if source in langs else tuple(others)


def align_article(
    article_id: str,
    documents: dict[str, Document],
    source: str,
    *,
    expected: Sequence[str] = (),
    link_prefixes: Sequence[str] = DEFAULT_PREFIXES,
    normal_forms: NormalForms | None = None,
) -> AlignedArticle:
    """Align every version of one article: sections, then blocks inside each section.
    *normal_forms* keep the normal form of the article's texts, which alignment's anchors
    read (the engine hands the same to the article's facts; a new one when not given)."""
    order = version_order(list(documents), source)
    skeletons: dict[tuple[str, str], str] = {}  # the article's code, read once
    code_keys: dict[str, str] = {}  # and its inline code's anchors, formed once
    if normal_forms is None:
        normal_forms = NormalForms()
    features = {
        lang: _document_features(
            documents[lang], link_prefixes, source, skeletons, code_keys, normal_forms
        )
        for lang in order
    }
    sections = {lang: features[lang][0] for lang in order}
    preamble = {lang: sections[lang][0] for lang in order}
    columns = [preamble]
    if order:
        columns += _align(
            order,
            {lang: sections[lang][1:] for lang in order},
            section_similarity,
            SECTION_THRESHOLD,
        )
    aligned_sections = []
    for column in columns:
        cells = {lang: (column[lang].section if lang in column else None) for lang in order}
        present = [lang for lang in order if lang in column]
        block_seqs = {lang: features[lang][1][id(column[lang].section)] for lang in present}
        rows = []
        if present:
            similarity = _block_similarity_of(block_seqs)
            aligned = _align(present, block_seqs, similarity, BLOCK_THRESHOLD, nonnegative=True)
            for row, extra in _fold_rows(aligned):
                rows.append(
                    AlignedBlock(
                        {lang: (row[lang].block if lang in row else None) for lang in present},
                        {lang: [f.block for f in parts] for lang, parts in extra.items()},
                    )
                )
        aligned_sections.append(AlignedSection(cells=cells, rows=rows))
    from parallelcheck.align.containers import align_containers  # here: it imports this module

    versions = {lang: features[lang][2] for lang in order}
    align_containers(aligned_sections, documents, versions)
    expected_all = tuple(dict.fromkeys([*order, *expected]))
    return AlignedArticle(
        id=article_id,
        source=order[0] if order else source,
        langs=order,
        expected=expected_all,
        paths={lang: documents[lang].path for lang in order},
        documents=dict(documents),
        sections=aligned_sections,
        link_prefixes=tuple(link_prefixes),
    )
