"""What every output format receives, and the registry of formats.

A format is a function ``render(report) -> str`` registered under its name with
:func:`output_format`.  It sees only the findings and the aligned articles; adding a format is
adding a module to this package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from parallelcheck import __version__
from parallelcheck.align import AlignedArticle
from parallelcheck.finding import SEVERITIES, Finding


@dataclass
class Report:
    """The result of a run: the aligned articles and every finding, sorted."""

    articles: list[AlignedArticle]
    findings: list[Finding]
    tool_version: str = __version__
    rule_docs: dict[str, str] | None = None

    def summary(self) -> dict[str, int]:
        counts = Counter(f.severity for f in self.findings)
        result = {"articles": len(self.articles), "findings": len(self.findings)}
        result.update({severity: counts.get(severity, 0) for severity in SEVERITIES})
        return result


Render = Callable[[Report], str]
FORMATS: dict[str, Render] = {}


def output_format(name: str) -> Callable[[Render], Render]:
    """Register a format under ``name`` (the value of ``--format``)."""

    def register(render: Render) -> Render:
        FORMATS[name] = render
        return render

    return register
