"""Things some versions have and others lack: versions, sections, paragraphs, tables."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind, Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import describe_block, excerpt, join_langs, place_of_missing_block
from parallelcheck.rules.base import RuleContext, rule

PROSE_KINDS = {
    BlockKind.PARAGRAPH,
    BlockKind.QUOTE,
    BlockKind.ADMONITION,
    BlockKind.HTML,
    BlockKind.LIST,
    BlockKind.ITEM,
}


@rule("missing-version", severity="error", tags=("input",))
def missing_version(ctx: RuleContext) -> Iterator[Finding]:
    """A configured language has no file for an article.

    A language listed in the configuration (``languages:``) has no file for this article.

    Reported once per article, naming the languages without a file; the locations point at
    line 1 of the versions that exist.  Without a ``languages:`` list nothing is expected and
    this rule never fires.
    """
    article = ctx.article
    missing = [lang for lang in article.expected if lang not in article.langs]
    if not missing or not article.langs:
        return
    lines = {lang: 1 for lang in article.langs}
    yield ctx.finding(
        None,
        missing,
        article.langs,
        lines,
        f"no {join_langs(missing)} version of this article (expected by the configuration); "
        f"it exists in {join_langs(article.langs)}",
        {"missing": missing},
    )


@rule("missing-section", severity="error", tags=("structure",))
def missing_section(ctx: RuleContext) -> Iterator[Finding]:
    """A section has no counterpart in some versions.

    A section — a heading and the blocks under it — exists in some versions and has no
    counterpart in others.

    Sections are matched across versions by the N-way aligner (explicit heading ids, shared
    untranslatable anchors such as names and numbers, block kinds, length, level and position),
    never by heading text, so translated headings align.  When some versions have a section and
    others lack it, one finding names both sides: ``langs`` lack it, ``reference_langs`` have
    it.  The location in a version that lacks it is the heading of the nearest earlier section
    it does have — the place to add it.  Subsections missing from the same versions as their
    parent are folded into the parent's finding.  Blocks of a missing section are not reported
    again by the block rules.

    Fails: ``## FAQ`` followed by ``### Is it fast?`` in ko, only ``## FAQ`` in en.
    """
    article = ctx.article
    sections = article.sections
    earlier = _EarlierSections(sections)
    index = 1  # the preamble is never missing
    while index < len(sections):
        row = sections[index]
        absent, present = row.absent(), row.present()
        if not absent:
            index += 1
            continue
        level = min(row.cells[lang].level for lang in present)
        nested = index + 1
        while nested < len(sections):
            below = sections[nested]
            below_present = below.present()
            if below.absent() != absent or below_present != present:
                break
            if min(below.cells[lang].level for lang in below_present) <= level:
                break
            nested += 1
        earlier.advance(index)
        yield _missing_section_finding(ctx, row, absent, present, nested - index - 1, earlier)
        index = nested


class _EarlierSections:
    """The nearest earlier section of each version, found by walking the aligned sections
    forward once (the rule asks in document order), so that 40,000 sections one version lacks
    cost one pass, not a scan back from each."""

    def __init__(self, sections: list[AlignedSection]):
        self.sections = sections
        self.passed = 0  # sections[:passed] are taken into account
        self.any: dict[str, Section] = {}  # the preamble counts: it is where line 1 is
        self.heading: dict[str, Section] = {}

    def advance(self, index: int) -> None:
        """Take every section before ``index`` into account."""
        while self.passed < index:
            for lang, section in self.sections[self.passed].cells.items():
                if section is not None:
                    self.any[lang] = section
                    if self.passed:
                        self.heading[lang] = section
            self.passed += 1

    def line(self, lang: str) -> int:
        """Where a section missing in ``lang`` should be: the heading of the nearest earlier
        aligned section that version has (the preamble's first line at the latest)."""
        section = self.any.get(lang)
        return section.line if section is not None else 1

    def title(self, lang: str) -> str:
        """The title of the nearest earlier heading ``lang`` has, or ``""``."""
        section = self.heading.get(lang)
        return section.title if section is not None else ""


def _missing_section_finding(ctx: RuleContext, row, absent, present, folded, earlier) -> Finding:
    lines = {lang: row.cells[lang].line for lang in present}
    lines.update({lang: earlier.line(lang) for lang in absent})
    first = row.cells[present[0]]
    after = earlier.title(absent[0])
    extra = f" and its {folded} subsection{'s' if folded != 1 else ''}" if folded else ""
    where = f"; it belongs after “{excerpt(after)}”" if after else ""
    return ctx.finding(
        row,
        absent,
        present,
        lines,
        f"section “{excerpt(first.title)}” (level {first.level}){extra} present in "
        f"{join_langs(present)} has no counterpart in {join_langs(absent)}{where}",
        {"level": first.level, "subsections": folded},
    )


def missing_blocks(article: AlignedArticle, kinds: set[BlockKind]):
    """Yield (section, row index, row, present, absent, first present block, places) for every
    aligned block row whose present blocks are of ``kinds`` and that some versions of the
    section lack; ``places`` is, per version lacking it, the line where it should be (see
    :func:`missing_block_finding`), found while walking the rows forward once."""
    for section in article.sections:
        last: dict[str, int] = {}  # per version, the line of its latest block so far
        for index, row in enumerate(section.rows):
            absent = row.absent()
            if absent:
                present = row.present()
                block = row.cells[present[0]]
                if block.kind in kinds:
                    places = {lang: _block_place(section, last, lang) for lang in absent}
                    yield section, index, row, present, absent, block, places
            for lang, cell in row.cells.items():
                if cell is not None:
                    last[lang] = cell.line


def _block_place(section: AlignedSection, last: dict[str, int], lang: str) -> int:
    """Where a block missing in ``lang`` should be: the nearest earlier aligned block that
    version has, else its section heading."""
    if lang in last:
        return last[lang]
    heading = section.cells[lang]
    return heading.line if heading is not None else 1


def missing_block_finding(
    ctx: RuleContext,
    section: AlignedSection,
    index: int,
    row: AlignedBlock,
    present: list[str],
    absent: list[str],
    block: Block,
    places: dict[str, int] | None = None,
) -> Finding:
    """The finding for a block some versions of an aligned section lack; ``places`` are the
    lines of the versions lacking it as :func:`missing_blocks` gives them (looked for from
    the row backwards when not given)."""
    lines = {lang: row.cells[lang].line for lang in present}
    if places is None:
        places = {lang: place_of_missing_block(section, index, lang) for lang in absent}
    lines.update(places)
    return ctx.finding(
        section,
        absent,
        present,
        lines,
        f"{describe_block(block)} present in {join_langs(present)} has no counterpart in "
        f"{join_langs(absent)}",
        {"kind": block.kind.value},
    )


@rule("missing-paragraph", severity="error", tags=("structure",))
def missing_paragraph(ctx: RuleContext) -> Iterator[Finding]:
    """A paragraph, list, quote, admonition or HTML block has no counterpart.

    A paragraph, list, quote, admonition or HTML block has no counterpart in the aligned
    section of some versions.

    Blocks are aligned inside each aligned section by shared anchors (numbers, names, inline
    code, link targets), kind and share of the document's length; a block that aligns with
    nothing in a version is reported, naming the versions that have it and those that lack
    it.  The location in a version that lacks it is the nearest earlier aligned block it has,
    or the section heading.  Sections missing as a whole are reported by ``missing-section``
    instead.
    """
    article = ctx.article
    for args in missing_blocks(article, PROSE_KINDS):
        yield missing_block_finding(ctx, *args)


@rule("missing-table", severity="error", tags=("structure",))
def missing_table(ctx: RuleContext) -> Iterator[Finding]:
    """A table has no counterpart.

    A table has no counterpart in the aligned section of some versions.

    The message gives the table's shape (body rows × columns) as the versions that have it
    hold it.  Located like ``missing-paragraph``.
    """
    article = ctx.article
    for args in missing_blocks(article, {BlockKind.TABLE}):
        yield missing_block_finding(ctx, *args)
