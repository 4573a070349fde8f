"""What every output format receives, and the registry of formats.

A format is a function ``render(report) -> str`` registered under its name with
:func:`output_format`.  It sees only the findings and the articles; adding a format is adding a
module to this package.

A format declares what it reads of each article (``needs``): only its outline
(:data:`OUTLINE`, the default: :class:`~parallelcheck.model.outline.Outline` — headings, block
counts, versions, paths; :meth:`Report.outlines` gives them), or the whole aligned article
with the documents' text (:data:`ALIGNED`: html).  The run follows that declaration: for an
outline format it keeps only outlines, in worker processes and in memory, and may answer from
the result cache, which stores outlines; for an aligned format it keeps every aligned article
and leaves the cache alone.

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
from dataclasses import dataclass

from parallelcheck import __version__
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.model.outline import Outline, outline_of

#: What a format reads of each article: its outline, or the whole aligned article.
OUTLINE, ALIGNED = "outline", "aligned"


@dataclass(frozen=True)
class RuleInfo:
    """What a format may show about a rule: its default severity, one-line summary and
    documentation (the rule's docstring as plain text, without markup)."""

    severity: str
    summary: str
    doc: str = ""


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

    def outlines(self) -> list[Outline]:
        """Every article's outline, in order."""
        return [outline_of(article) for article in self.articles]

    def aligned(self) -> list[AlignedArticle]:
        """Every aligned article, in order: what a format that declared :data:`ALIGNED`
        reads.  A :class:`TypeError` when the report holds only outlines."""
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


@dataclass(frozen=True)
class Format:
    """A registered format: called with a report, it gives the text to write.  ``needs`` is
    :data:`OUTLINE` or :data:`ALIGNED` (see the module's docstring)."""

    name: str
    render: Render
    needs: str = OUTLINE

    def __call__(self, report: Report) -> str:
        return self.render(report)


FORMATS: dict[str, Format] = {}


def output_format(name: str, *, needs: str = OUTLINE) -> Callable[[Render], Render]:
    """Register a format under ``name`` (the value of ``--format``) that reads *needs* of
    each article: :data:`OUTLINE` (the default) or :data:`ALIGNED`."""
    if needs not in (OUTLINE, ALIGNED):
        raise ValueError(f"format {name!r}: needs is {OUTLINE!r} or {ALIGNED!r}, not {needs!r}")

    def register(render: Render) -> Render:
        FORMATS[name] = Format(name, render, needs)
        return render

    return register
