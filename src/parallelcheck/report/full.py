"""``--format full``: every finding in its full context, grouped by article and section.

For each article with findings it shows an *outline* first (unless quiet) — one line per
aligned section, with the number of blocks each version holds there (``·`` where a version
lacks the section), so the shape of the drift is visible at a glance — then, per section,
each finding with its severity, rule and message, and one line per version involved with
the file and line to open (``✗`` marks the deviating versions).  A summary line ends the
output.  A message longer than the report's width is wrapped (:mod:`.terminal`); outline
rows and paths are not.  This was the ``text`` format before it became one line per
finding (:mod:`.text`).

Everything taken from the articles — the discovery header, ids, version tags, section titles,
messages, paths — goes through :func:`~parallelcheck.report.inert.inert` first, so a control
character, a tab or a bidirectional override in an article shows as ``\\x1b``, ``\\t`` or
``\\u202e`` and cannot move the cursor, clear the screen or reorder the line; only the colour
codes this format writes itself reach the terminal.
"""

from __future__ import annotations

from parallelcheck.report import terminal
from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import inert


@output_format("full")
def render_full(report: Report) -> str:
    paint = terminal.Paint(report.color)
    lines = []
    if report.header and not report.quiet:
        header = terminal.words_of(inert(report.header), "dim")
        lines.extend(terminal.wrap(header, report.width, paint))
    for article, findings in terminal.articles_with_findings(report):
        lines.extend(terminal.article_lines(article, paint, report.width))
        if report.show_outline or not report.quiet:
            lines.extend(terminal.outline_lines(article, paint))
        by_section: dict[str, list] = {}
        for finding in findings:
            by_section.setdefault(finding.section, []).append(finding)
        for section, group in by_section.items():
            lines.append(f"  § {inert(section) if section else '(article)'}")
            for finding in group:
                words = [
                    (f"{finding.severity:<7}", finding.severity),
                    (f"{inert(finding.rule)}:", None),
                    *terminal.words_of(inert(finding.message)),
                ]
                under_rule = " " * 12  # a wrapped message goes on under the rule's start
                lines.extend(
                    terminal.wrap(words, report.width, paint, first="    ", indent=under_rule)
                )
                tags = [inert(loc.lang) for loc in finding.locations]
                tag_width = max(map(len, tags), default=0)
                for loc, tag in zip(finding.locations, tags, strict=True):
                    mark = paint("mark", "✗") if loc.lang in finding.langs else " "
                    lines.append(f"      {mark} {tag:<{tag_width}}  {inert(loc.path)}:{loc.line}")
        lines.append("")
    lines.extend(terminal.summary_lines(report.summary(), report.outlines(), paint, report.width))
    return "\n".join(lines) + "\n"
