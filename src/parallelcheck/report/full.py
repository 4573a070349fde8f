"""``--format text`` (the default): findings grouped by article and section.

For each article with findings it shows an *outline* first — one line per aligned section,
with the number of blocks each version holds there (``·`` where a version lacks the section),
so the shape of the drift is visible at a glance — then each finding with its severity, rule
and message, and one line per version involved with the file and line to open (``✗`` marks the
deviating versions).  A summary line ends the output.  Colours are used only when the report
asks for them (the command line does when writing to a terminal).

Everything taken from the articles — the discovery header, ids, version tags, section titles,
messages, paths — goes through :func:`~parallelcheck.report.inert.inert` first, so a control
character, a tab or a bidirectional override in an article shows as ``\\x1b``, ``\\t`` or
``\\u202e`` and cannot move the cursor, clear the screen or reorder the line; only the colour
codes this format writes itself reach the terminal.
"""

from __future__ import annotations

from parallelcheck.model.outline import Outline
from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import inert

_COLOURS = {"error": "31", "warning": "33", "info": "36", "dim": "2", "bold": "1", "mark": "31"}


class _Paint:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        if not self.enabled:
            return text
        return f"\033[{_COLOURS[style]}m{text}\033[0m"


def _outline(article: Outline, paint: _Paint) -> list[str]:
    langs = [inert(lang) for lang in article.langs]
    width = max((len(lang) for lang in langs), default=1)  # none: no file was read
    header = " ".join(f"{lang:>{width}}" for lang in langs)
    lines = [paint("dim", f"    {header}  outline")]
    for index, row in enumerate(article.sections):
        if index == 0 and not any(s.blocks for s in row.cells.values() if s is not None):
            continue  # nothing before the first heading in any version
        counts = []
        for lang in article.langs:
            section = row.cells.get(lang)
            counts.append("·" if section is None else str(section.blocks))
        uneven = len(set(counts)) > 1
        cells = " ".join(f"{c:>{width}}" for c in counts)
        level = min((s.level for s in row.cells.values() if s is not None), default=0)
        title = article.section_title(row) or "(before the first heading)"
        if len(title) > 60:
            title = title[:59] + "…"
        title = inert(title)  # after shortening, so no escape is cut in two
        text = f"    {cells}  {'#' * level + ' ' if level else ''}{title}"
        lines.append(paint("mark", text) if uneven else text)
    return lines


@output_format("text")
def render_text(report: Report) -> str:
    paint = _Paint(report.color)
    lines: list[str] = (
        [paint("dim", inert(report.header))] if report.header and report.outline else []
    )
    by_article: dict[str, list] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    outlines = report.outlines()
    for article in outlines:
        findings = by_article.get(article.id, [])
        if not findings:
            continue
        versions = ", ".join(inert(lang) for lang in article.langs)
        lines.append(
            paint("bold", inert(article.id)) + f"  [{versions}; source {inert(article.source)}]"
        )
        if report.outline:
            lines.extend(_outline(article, paint))
        by_section: dict[str, list] = {}
        for finding in findings:
            by_section.setdefault(finding.section, []).append(finding)
        for section, group in by_section.items():
            lines.append(f"  § {inert(section) if section else '(article)'}")
            for finding in group:
                severity = paint(finding.severity, f"{finding.severity:<7}")
                lines.append(f"    {severity} {inert(finding.rule)}: {inert(finding.message)}")
                tags = [inert(loc.lang) for loc in finding.locations]
                width = max(map(len, tags), default=0)
                for loc, tag in zip(finding.locations, tags, strict=True):
                    mark = paint("mark", "✗") if loc.lang in finding.langs else " "
                    lines.append(f"      {mark} {tag:<{width}}  {inert(loc.path)}:{loc.line}")
        lines.append("")
    summary = report.summary()
    versions = sum(len(a.langs) for a in outlines)
    errors = f"{summary['error']} error(s)"
    lines.append(
        f"{paint('error', errors) if summary['error'] else errors}"
        f", {summary['warning']} warning(s), {summary['info']} info "
        f"in {summary['articles']} article(s), {versions} version(s)"
    )
    return "\n".join(lines) + "\n"
