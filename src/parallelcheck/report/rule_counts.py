"""``check --statistics``: how many findings each rule gave, instead of the findings (as
``ruff check --statistics`` does).

One row per rule that gave a finding, the most frequent first (then by id): the count, the
rule id, the severities its findings have (``error``, or ``2 error, 1 warning`` when the rule
graded them differently) and the rule's summary; the summary line of the text format ends
it.  With ``--format json`` the same is one JSON document, ``schema``
``parallelcheck/statistics/v1``: ``rules`` (each ``rule``, ``count``, ``error``,
``warning``, ``info``, ``summary``) and the ``summary`` of the findings document.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from parallelcheck.model.finding import SEVERITIES
from parallelcheck.report.base import Report
from parallelcheck.report.inert import inert
from parallelcheck.report.terminal import Paint, summary_lines, words_of, wrap

SCHEMA = "parallelcheck/statistics/v1"


@dataclass(frozen=True)
class RuleCount:
    """How many findings one rule gave, by severity."""

    rule: str
    by_severity: dict[str, int]
    summary: str

    @property
    def count(self) -> int:
        return sum(self.by_severity.values())

    def severities(self) -> str:
        """``error``, or ``2 error, 1 warning`` when the findings' severities differ."""
        present = [(s, n) for s, n in self.by_severity.items() if n]
        if len(present) == 1:
            return present[0][0]
        return ", ".join(f"{n} {s}" for s, n in present)


def rule_counts(report: Report) -> list[RuleCount]:
    """The count of every rule that gave a finding, the most frequent first."""
    counts: dict[str, Counter[str]] = {}
    for finding in report.findings:
        counts.setdefault(finding.rule, Counter())[finding.severity] += 1
    catalogue = report.rule_catalogue()
    rows = [
        RuleCount(rule, {s: found[s] for s in SEVERITIES}, catalogue[rule].summary)
        for rule, found in counts.items()
    ]
    return sorted(rows, key=lambda row: (-row.count, row.rule))


def render_statistics(report: Report, *, as_json: bool = False) -> str:
    """The statistics of *report* as text (laid out as the report says) or JSON."""
    rows = rule_counts(report)
    if as_json:
        document = {
            "schema": SCHEMA,
            "rules": [
                {"rule": row.rule, "count": row.count, **row.by_severity, "summary": row.summary}
                for row in rows
            ],
            "summary": report.summary(),
        }
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    paint = Paint(report.color)
    count_width = max((len(str(row.count)) for row in rows), default=1)
    rule_width = max((len(row.rule) for row in rows), default=0)
    severity_width = max((len(row.severities()) for row in rows), default=0)
    lines = []
    for row in rows:
        first = (
            f"{row.count:>{count_width}}  {inert(row.rule):<{rule_width}}  "
            f"{row.severities():<{severity_width}}  "
        )
        indent = " " * len(first)
        lines.extend(
            wrap(words_of(inert(row.summary)), report.width, paint, first=first, indent=indent)
        )
    lines.extend(summary_lines(report.summary(), report.outlines(), paint, report.width))
    return "\n".join(line.rstrip() for line in lines) + "\n"
