"""What every output format receives, and the registry of formats.

A format is a function ``render(report) -> str`` registered under its name with
:func:`output_format`.  It sees only the findings and the aligned articles; adding a format is
adding a module to this package.

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
from collections.abc import Callable
from dataclasses import dataclass

from parallelcheck import __version__
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.finding import SEVERITIES, Finding


@dataclass(frozen=True)
class RuleInfo:
    """What a format may show about a rule: its default severity, one-line summary and
    documentation (the rule's docstring)."""

    severity: str
    summary: str
    doc: str = ""


@dataclass
class Report:
    """The result of a run: the aligned articles and every finding, sorted."""

    articles: list[AlignedArticle]
    findings: list[Finding]
    tool_version: str = __version__
    rules: dict[str, RuleInfo] | None = None
    color: bool = False  # the text format may use ANSI colours
    outline: bool = True  # the text format may show each article's alignment outline
    header: str = ""  # one line saying what discovery found, shown first by the text format

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
FORMATS: dict[str, Render] = {}


def output_format(name: str) -> Callable[[Render], Render]:
    """Register a format under ``name`` (the value of ``--format``)."""

    def register(render: Render) -> Render:
        FORMATS[name] = render
        return render

    return register
