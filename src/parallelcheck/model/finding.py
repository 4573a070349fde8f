"""The Finding: what a rule reports, what every formatter shows (docs/findings.md).

A rule gives each finding its default severity or one it grades by what differs
(docs/severities.md); the engine stamps a severity configured for the rule over it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from parallelcheck.model.fix import Fix

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Location:
    """A place to look in one version: its language, file and 1-based line."""

    lang: str
    path: str
    line: int

    def as_dict(self) -> dict[str, Any]:
        return {"lang": self.lang, "path": self.path, "line": self.line}


@dataclass(frozen=True)
class Finding:
    """One difference between language versions.

    ``langs`` are the deviating versions (never empty), ``reference_langs`` the versions they
    were compared with, ``locations`` one place per version involved, ``section`` the aligned
    section's heading as the source version writes it.

    ``section_row`` and ``block_row`` are the finding's place in the alignment it was found in:
    the index of its aligned row of sections in the article, and of its aligned row of blocks
    in that section (``None`` where not applicable: a finding about the whole article, one
    about a heading, or one whose rule did not say).  :meth:`RuleContext.finding
    <parallelcheck.rules.base.RuleContext.finding>` sets them; the html format places the
    finding by them.  They are not part of a finding's identity (not compared, not in
    :meth:`as_dict`: no output format writes them), but the result cache keeps them.

    ``fix``, when the rule knows how to repair what it found, is that repair
    (:class:`~parallelcheck.model.fix.Fix`): not part of the finding's identity either (a
    baseline matches a finding with or without it), written by :meth:`as_dict` when present.
    """

    rule: str
    article: str
    section: str
    langs: tuple[str, ...]
    reference_langs: tuple[str, ...]
    locations: tuple[Location, ...]
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)
    severity: str = "error"
    section_row: int | None = field(default=None, compare=False, repr=False)
    block_row: int | None = field(default=None, compare=False, repr=False)
    fix: Fix | None = field(default=None, compare=False, repr=False)

    def with_severity(self, severity: str) -> Finding:
        return replace(self, severity=severity)

    def role(self, lang: str) -> str:
        """What version ``lang`` is to this finding: ``deviating version``, ``reference
        version`` (one the deviating versions were compared with) or ``version``."""
        if lang in self.langs:
            return "deviating version"
        return "reference version" if lang in self.reference_langs else "version"

    def shown_and_related(self) -> tuple[tuple[Location, ...], tuple[Location, ...]]:
        """Where a tool shows the finding, and the locations related to it: the deviating
        versions' locations (the files to fix) and the others' (the versions they were
        compared with), each in the finding's order.  A finding located in no deviating
        version (``missing-version``: the version has no file) is shown at its first
        location."""
        shown = tuple(loc for loc in self.locations if loc.lang in self.langs)
        others = tuple(loc for loc in self.locations if loc.lang not in self.langs)
        if not shown:
            return others[:1], others[1:]
        return shown, others

    def sort_key(self) -> tuple:
        first = self.locations[0] if self.locations else Location("", "", 0)
        return (
            self.article,
            self.rule,
            first.path,
            first.line,
            self.langs,
            self.reference_langs,
            self.message,
        )

    def as_dict(self) -> dict[str, Any]:
        found = {
            "rule": self.rule,
            "severity": self.severity,
            "article": self.article,
            "section": self.section,
            "langs": list(self.langs),
            "reference_langs": list(self.reference_langs),
            "locations": [loc.as_dict() for loc in self.locations],
            "message": self.message,
            "evidence": self.evidence,
        }
        if self.fix is not None:
            found["fix"] = self.fix.as_dict()
        return found
