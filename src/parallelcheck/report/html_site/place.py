"""Where each finding of an article goes in its side-by-side table.

Every finding is placed at its aligned element: the row it records (its
:attr:`~parallelcheck.model.finding.Finding.section_row` and ``block_row``), and within the section,
when the finding names no block row, the heading or block row that best explains its locations (see
:func:`place_finding`).  There the cells of the deviating versions are marked ``pc-missing`` (the
version lacks the element) or ``pc-deviating`` (it has it, but it differs), the reference versions'
cells ``pc-ref`` — or ``pc-missing`` when they lack the element (a block only translations have,
which the source lacks).  Findings about the whole article (a missing version), and the rare finding
no row contains, mark the header cells of their deviating versions instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from parallelcheck.model.aligned import AlignedArticle, AlignedSection
from parallelcheck.model.document import Block
from parallelcheck.model.finding import Finding, Location

MISSING = "pc-missing"
DEVIATING = "pc-deviating"
REFERENCE = "pc-ref"


@dataclass(frozen=True)
class Element:
    """A row of the side-by-side table: a section's heading (``row`` is None) or a block row."""

    section: int
    row: int | None


@dataclass
class Mark:
    """One finding's mark on one cell."""

    finding: int
    kind: str  # MISSING, DEVIATING or REFERENCE


@dataclass
class Placement:
    """Where the findings of one article go: marks per (element, lang), per header lang."""

    cells: dict[tuple[Element, str], list[Mark]] = field(default_factory=dict)
    header: dict[str, list[Mark]] = field(default_factory=dict)
    placed: set[int] = field(default_factory=set)

    def add(self, element: Element, lang: str, mark: Mark) -> None:
        marks = self.cells.setdefault((element, lang), [])
        if all(m.finding != mark.finding for m in marks):
            marks.append(mark)


def blocks_of(section: AlignedSection, row: int, lang: str) -> list[Block]:
    return section.rows[row].blocks(lang)  # a version's blocks, also those it holds unwrapped


def lines_of(article: AlignedArticle, element: Element, lang: str) -> list[tuple[int, int]]:
    """The line ranges a version's cell covers in an element; empty when the cell is empty."""
    section = article.sections[element.section]
    if element.row is None:
        heading = section.cells.get(lang)
        return [] if heading is None else [(heading.line, heading.line)]
    return [(b.line, max(b.end_line, b.line)) for b in blocks_of(section, element.row, lang)]


def elements(article: AlignedArticle) -> Iterator[Element]:
    """Every row of the side-by-side table in order (the preamble has no heading row)."""
    for index, section in enumerate(article.sections):
        if index > 0:
            yield Element(index, None)
        for row in range(len(section.rows)):
            yield Element(index, row)


def _contains(ranges: list[tuple[int, int]], line: int) -> bool:
    return any(start <= line <= end for start, end in ranges)


def place_finding(article: AlignedArticle, finding: Finding) -> Element | None:
    """The element a finding is about.

    A finding that records its block row (:attr:`Finding.block_row
    <parallelcheck.model.finding.Finding.block_row>`) is placed there.  Otherwise the
    candidates are the elements of the section row it records (its heading and block rows),
    or every element of the article for a finding that records none (one about the whole
    article, or one made elsewhere than by a rule); each scores one point per location whose
    line lies in that version's cell, and one per version of the finding whose cell is empty
    there (the thing it lacks: the deviating versions', or the source's when only
    translations have it); the highest score wins, then the most contained locations, then the
    first element.  An element must contain at least one location; when no element of its
    section does, the whole article is searched.  A finding whose deviating versions have no
    file (a missing version) is about the whole article and placed nowhere.
    """
    if not finding.locations or not any(lang in article.langs for lang in finding.langs):
        return None
    section = finding.section_row
    if section is not None and 0 <= section < len(article.sections):
        rows = len(article.sections[section].rows)
        if finding.block_row is not None and 0 <= finding.block_row < rows:
            return Element(section, finding.block_row)
        candidates = [Element(section, row) for row in range(rows)]
        if section > 0:
            candidates.insert(0, Element(section, None))
        chosen = _best(article, finding, candidates)
        if chosen is not None:
            return chosen
    return _best(article, finding, elements(article))


def _best(
    article: AlignedArticle, finding: Finding, candidates: Iterable[Element]
) -> Element | None:
    """The candidate element that best explains the finding's locations (see
    :func:`place_finding`), or ``None`` when none contains one."""
    best: tuple[int, int] = (0, 0)
    chosen = None
    for element in candidates:
        contained = 0
        absent = 0
        for loc in finding.locations:
            ranges = lines_of(article, element, loc.lang)
            if _contains(ranges, loc.line):
                contained += 1
        for lang in (*finding.langs, *finding.reference_langs):
            if lang in article.langs and not lines_of(article, element, lang):
                absent += 1
        score = (contained + absent, contained)
        if contained and score > best:
            best, chosen = score, element
    return chosen


def _element_at(article: AlignedArticle, loc: Location) -> Element | None:
    for element in elements(article):
        if _contains(lines_of(article, element, loc.lang), loc.line):
            return element
    return None


def place_findings(article: AlignedArticle, findings: list[Finding]) -> Placement:
    """Mark the cells of every finding of one article (see the module documentation)."""
    placement = Placement()
    for number, finding in enumerate(findings):
        element = place_finding(article, finding)
        if element is None:
            for lang in finding.langs:
                kind = DEVIATING if lang in article.langs else MISSING
                placement.header.setdefault(lang, []).append(Mark(number, kind))
            continue
        placement.placed.add(number)
        for lang in finding.langs:
            if lang in article.langs:
                empty = not lines_of(article, element, lang)
                placement.add(element, lang, Mark(number, MISSING if empty else DEVIATING))
        for lang in finding.reference_langs:  # the source lacks what only translations have
            if lang in article.langs:
                empty = not lines_of(article, element, lang)
                placement.add(element, lang, Mark(number, MISSING if empty else REFERENCE))
        for loc in finding.locations:
            ranges = lines_of(article, element, loc.lang)
            if not ranges or _contains(ranges, loc.line):
                continue
            # The version has the element, but the location points elsewhere: mark that too.
            other = _element_at(article, loc)
            if other is not None:
                kind = DEVIATING if loc.lang in finding.langs else REFERENCE
                placement.add(other, loc.lang, Mark(number, kind))
    return placement
