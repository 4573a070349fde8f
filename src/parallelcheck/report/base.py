"""What every output format receives, and the registry of formats.

A format is a function ``render(report) -> str`` registered under its name with
:func:`output_format`.  It sees only the findings and the articles; adding a format is adding a
module to this package.

A format declares what it reads of each article (``needs``): only its outline
(:data:`OUTLINE`, the default: :class:`~parallelcheck.model.outline.Outline` — headings, block
counts, versions, paths; :meth:`Report.outlines` gives them), the whole aligned article with
the documents' text (:data:`ALIGNED`), or the aligned article of each article with findings
and the outline of the others (:data:`FLAGGED`: html).  The run follows that declaration: it
keeps no more than that, in worker processes and in memory; the result cache stores outlines,
so it answers for an outline format, and for a flagged format for the articles without
findings (an article with findings is checked again for its text); an aligned format leaves
the cache alone.

**Sites.**  A format may be a *site*: several files, written to a folder, not one text.  Its
``page`` makes the page of one article with findings, called as each article's result arrives
(so the run never holds more than one article's text at a time), and its ``render`` makes the
index of every article once all are checked.  :attr:`Report.site` tells both where the other
files are (:class:`SiteLinks`).

Rule metadata reaches a format through the report (formats never import the rules):
``Report.rules`` maps a rule id to its :class:`RuleInfo` (default severity, summary,
documentation).  It is optional; :meth:`Report.rule_catalogue` adds the rules the findings
name, so a format always has an entry for every rule it shows.

Text taken from articles (ids, section titles, messages, paths) may hold control characters
and bidirectional overrides; every format passes it through :mod:`parallelcheck.report.inert`
before writing it, which documents the rule and how each format applies it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from parallelcheck import __version__
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.model.outline import Outline, outline_of

#: What a format reads of each article: its outline, the whole aligned article, or the
#: aligned article of each article with findings (and the outline of the others).
OUTLINE, ALIGNED, FLAGGED = "outline", "aligned", "flagged"


@dataclass(frozen=True)
class SiteLinks:
    """Where the files of a site are, relative to one another: the index's file name and the
    folder beside it that holds the article pages (``index.html`` and ``pages`` inside an
    output folder; ``review.html`` and ``review_files`` for an index named ``review.html``)."""

    index: str = "index.html"
    pages: str = "pages"

    def to_page(self, name: str) -> str:
        """The address of the page *name*, from the index."""
        return f"{self.pages}/{name}"

    def to_index(self) -> str:
        """The address of the index, from a page."""
        return f"../{self.index}"


@dataclass(frozen=True)
class RuleInfo:
    """What a format may show about a rule: its default severity, one-line summary and
    documentation (:attr:`doc`: the rule's docstring as plain text, without markup)."""

    severity: str
    summary: str
    #: The documentation, or a function that makes it when a format first reads :attr:`doc`:
    #: rendering every rule's docstring as plain text takes 12 ms (30 ms in a fresh process,
    #: compiling what it uses), and of all the formats only SARIF shows it.
    source: str | Callable[[], str] = field(default="", repr=False)

    @cached_property
    def doc(self) -> str:
        """The documentation as plain text (``""`` when there is none)."""
        return self.source if isinstance(self.source, str) else self.source()


@dataclass
class Report:
    """The result of a run: the articles (aligned, or their outlines when that is all the
    format needs) and every finding, sorted."""

    articles: Sequence[AlignedArticle | Outline]
    findings: list[Finding]
    tool_version: str = __version__
    rules: dict[str, RuleInfo] | None = None
    header: str = ""  # one line saying what discovery found, shown first by the text formats
    #: How the formats for a terminal (text, full) lay the report out: ANSI colours, the
    #: width to wrap lines to (``None``: no wrapping), findings and the summary only
    #: (*quiet*), and each article's alignment outline (*show_outline*: the text format
    #: shows it when asked, the full format unless quiet).
    color: bool = False
    width: int | None = None
    quiet: bool = False
    show_outline: bool = False
    site: SiteLinks = SiteLinks()  # a site format: where its index and pages are

    def outlines(self) -> list[Outline]:
        """Every article's outline, in order."""
        return [outline_of(article) for article in self.articles]

    def aligned(self) -> list[AlignedArticle]:
        """Every aligned article, in order: what a format that declared :data:`ALIGNED`
        reads.  A :class:`TypeError` when the report holds an outline."""
        for article in self.articles:
            if not isinstance(article, AlignedArticle):
                raise TypeError(f"the report holds only the outline of article {article.id!r}")
        return list(self.articles)  # type: ignore[arg-type]

    def summary(self) -> dict[str, int]:
        counts = Counter(f.severity for f in self.findings)
        result = {"articles": len(self.articles), "findings": len(self.findings)}
        result.update({severity: counts.get(severity, 0) for severity in SEVERITIES})
        return result

    def rule_catalogue(self) -> dict[str, RuleInfo]:
        """Every rule known to this report, by id in sorted order: the rules given in
        ``rules`` and every rule a finding names (known from its findings only, such a rule
        gets the severity of its first finding and no summary)."""
        catalogue: dict[str, RuleInfo] = dict(self.rules or {})
        for finding in self.findings:
            if finding.rule not in catalogue:
                catalogue[finding.rule] = RuleInfo(finding.severity, "")
        return {rule_id: catalogue[rule_id] for rule_id in sorted(catalogue)}


Render = Callable[[Report], str]
#: A site's page of one article with findings: its file name and text (see the module's
#: docstring); the report is the run's, its articles those checked so far.
RenderPage = Callable[[AlignedArticle, list[Finding], Report], tuple[str, str]]
_NEEDS = (OUTLINE, ALIGNED, FLAGGED)


@dataclass(frozen=True)
class Format:
    """A registered format: called with a report, it gives the text to write (a site's
    index).  ``needs`` is :data:`OUTLINE`, :data:`ALIGNED` or :data:`FLAGGED`; ``page`` is
    set for a site (see the module's docstring)."""

    name: str
    render: Render
    needs: str = OUTLINE
    page: RenderPage | None = None

    def __call__(self, report: Report) -> str:
        return self.render(report)


FORMATS: dict[str, Format] = {}


def output_format(
    name: str, *, needs: str = OUTLINE, page: RenderPage | None = None
) -> Callable[[Render], Render]:
    """Register a format under ``name`` (the value of ``--format``) that reads *needs* of
    each article: :data:`OUTLINE` (the default), :data:`ALIGNED` or :data:`FLAGGED`.  With
    *page*, the format is a site and the function registered makes its index."""
    if needs not in _NEEDS:
        raise ValueError(f"format {name!r}: needs is one of {_NEEDS}, not {needs!r}")

    def register(render: Render) -> Render:
        FORMATS[name] = Format(name, render, needs, page)
        return render

    return register
