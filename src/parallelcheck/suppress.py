"""Inline suppression comments (docs/suppression.md).

In any version's Markdown or HTML:

* ``<!-- parallelcheck-disable RULE[,RULE] -->`` … ``<!-- parallelcheck-enable -->`` silences the
  named rules (every rule when none is named) from the comment's line to the matching enable
  comment, or to the end of the file;
* ``<!-- parallelcheck-disable-next-block RULE -->`` silences the named rules for the next block
  or heading after the comment.

A finding is suppressed when one of its locations falls in a silenced range of that location's
version for the finding's rule.  For something a version lacks, its location is the element
after which the thing belongs; a ``disable-next-block`` comment placed right after that
element — where the missing thing would be — silences it too.

Each range remembers the comment that opened it, so that a run can tell which comments
silenced something (:func:`silencing`; the ``suppression-unused`` rule reports the others).
A rule id a comment names that is no rule silences nothing (``suppression-unknown-rule``
reports it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parallelcheck.model.document import Document
from parallelcheck.model.finding import Finding

#: A comment that silenced a finding: its file, its line and the rule ("" for every rule).
Silenced = tuple[str, int, str]


@dataclass(frozen=True)
class _Range:
    first: int
    last: int
    rules: frozenset[str]  # empty: every rule
    gap_first: int | None = None  # for disable-next-block: the element before the comment
    comment: int = 0  # the line of the comment that opened the range

    def covers(self, rule: str, line: int, lacking: bool = False) -> bool:
        if self.rules and rule not in self.rules:
            return False
        if lacking and self.gap_first is not None and self.gap_first <= line <= self.first:
            return True
        return self.first <= line <= self.last


def silenced_ranges(doc: Document) -> list[_Range]:
    """The line ranges of ``doc`` in which some rules are silenced."""
    ranges: list[_Range] = []
    open_disables: list[tuple[int, frozenset[str]]] = []  # (line, rules) of each comment
    starts = sorted(
        [(s.line, s.line) for s in doc.sections if s.level > 0]
        + [(b.line, b.end_line) for b in doc.iter_blocks()]
    )
    for directive in sorted(doc.directives, key=lambda d: d.line):
        rules = frozenset(directive.rules)
        if directive.action == "disable":
            open_disables.append((directive.line, rules))
        elif directive.action == "enable":
            for line, disabled in open_disables:
                ranges.append(_Range(line, directive.line, disabled, comment=line))
            open_disables = []
        elif directive.action == "disable-next-block":
            following = [last for first, last in starts if first > directive.line]
            before = [first for first, _ in starts if first < directive.line]
            if following:
                gap = before[-1] if before else 1
                ranges.append(
                    _Range(directive.line, following[0], rules, gap, comment=directive.line)
                )
    last_line = max(doc.line_count, 1)
    ranges.extend(_Range(line, last_line, rules, comment=line) for line, rules in open_disables)
    return ranges


def silencing(finding: Finding, ranges_by_path: Mapping[str, list[_Range]]) -> list[Silenced]:
    """Every comment that silences *finding* (none: it is not suppressed), as ``(path,
    line, rule)``: the version file and line of the comment, and the finding's rule, or
    ``""`` when the comment names no rule (it silences every rule)."""
    found = []
    for loc in finding.locations:
        for silenced in ranges_by_path.get(loc.path, ()):
            if silenced.covers(finding.rule, loc.line, loc.lang in finding.langs):
                found.append((loc.path, silenced.comment, finding.rule if silenced.rules else ""))
    return found
