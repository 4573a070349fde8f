"""The ``missing-section`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedSection
from parallelcheck.model.document import Section
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt, join_words, missing_sides
from parallelcheck.rules.base import RuleContext, rule


@rule("missing-section", severity="error", tags=("structure",))
def missing_section(ctx: RuleContext) -> Iterator[Finding]:
    """A section has no counterpart in some versions.

    A section — a heading and the blocks under it — exists in some versions and has no
    counterpart in others.

    Sections are matched across versions by the N-way aligner (explicit heading ids, shared
    untranslatable anchors such as names and numbers, block kinds, length, level and
    position), never by heading text, so translated headings align.  When some versions have
    a section and others lack it, one finding names both sides: ``langs`` lack it,
    ``reference_langs`` have it — unless the source lacks it, then the versions that have it
    differ from the source (a section removed from the source after translation, or added by
    a translator) and are ``langs``.  The location in a version that lacks it is the heading
    of the nearest earlier section it does have — the place to add it.  Subsections missing
    from the same versions as their parent are folded into the parent's finding, and a run of
    five sections of one level or more missing from the same versions is one finding naming
    them (evidence ``sections``).  Blocks of a missing section are not reported again by the
    block rules.

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
        siblings: list[int] = []  # where each section of the run after the first starts
        while nested < len(sections):
            below = sections[nested]
            below_present = below.present()
            if below.absent() != absent or below_present != present:
                break
            below_level = min(below.cells[lang].level for lang in below_present)
            if below_level < level:
                break
            if below_level == level:
                siblings.append(nested)
            nested += 1
        if siblings and len(siblings) + 1 < RUN:  # a few sections: each its own finding
            nested, siblings = siblings[0], []
        earlier.advance(index)
        folded = nested - index - 1 - len(siblings)
        run = [sections[at] for at in siblings]
        yield _missing_section_finding(ctx, row, absent, present, folded, run, earlier)
        index = nested


#: How many sections of one level in a row, missing from the same versions, make one
#: finding (a part of the page: an API reference's 33 ``SSRManifest.*`` entries); fewer are
#: reported one by one, each at its own heading.
RUN = 5


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


#: How many titles a finding for several sections names (the others are counted).
_TITLES_NAMED = 3


def _missing_section_finding(
    ctx: RuleContext, row, absent, present, folded, siblings, earlier
) -> Finding:
    """The finding for a section some versions lack, with its ``folded`` subsections and the
    ``siblings`` after it (sections of its level, with theirs) that the same versions lack."""
    lines = {lang: row.cells[lang].line for lang in present}
    lines.update({lang: earlier.line(lang) for lang in absent})
    first = row.cells[present[0]]
    after = earlier.title(absent[0])
    titles = [f"“{excerpt(s.cells[present[0]].title)}”" for s in (row, *siblings)]
    named = titles[:_TITLES_NAMED] if len(titles) > _TITLES_NAMED + 1 else titles
    more = len(titles) - len(named)
    listed = join_words([*named, f"{more} more"] if more else named)
    whose = "their" if siblings else "its"
    extra = f" and {whose} {folded} subsection{'s' if folded != 1 else ''}" if folded else ""
    what = f"{'sections' if siblings else 'section'} {listed} (level {first.level}){extra}"
    several = bool(folded or siblings)
    langs, reference, text = missing_sides(
        ctx.article.source, present, absent, what, several=several
    )
    if after and ctx.article.source in absent:  # where the source would have it
        text += (
            f"; in {absent[0]} {'they' if several else 'it'} would stand after “{excerpt(after)}”"
        )
    elif after:  # where the versions lacking it add it
        text += f"; {'they belong' if several else 'it belongs'} after “{excerpt(after)}”"
    evidence = {"level": first.level, "subsections": folded}
    if siblings:
        evidence["sections"] = 1 + len(siblings)
    return ctx.finding(row, langs, reference, lines, text, evidence)
