"""``--format text`` (the default): findings grouped by article and section.

Each finding shows its severity, rule and message, then one line per version involved with
the file and line to open, the deviating versions marked.  A summary line ends the output.
"""

from __future__ import annotations

from parallelcheck.report.base import Report, output_format


@output_format("text")
def render_text(report: Report) -> str:
    lines: list[str] = []
    by_article: dict[str, list] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    for article in report.articles:
        findings = by_article.get(article.id, [])
        if not findings:
            continue
        versions = ", ".join(article.langs)
        lines.append(f"{article.id}  [{versions}; source {article.source}]")
        by_section: dict[str, list] = {}
        for finding in findings:
            by_section.setdefault(finding.section, []).append(finding)
        for section, group in by_section.items():
            lines.append(f"  § {section or '(article)'}")
            for finding in group:
                lines.append(f"    {finding.severity:<7} {finding.rule}: {finding.message}")
                width = max(len(loc.lang) for loc in finding.locations) if finding.locations else 0
                for loc in finding.locations:
                    mark = "✗" if loc.lang in finding.langs else " "
                    lines.append(f"      {mark} {loc.lang:<{width}}  {loc.path}:{loc.line}")
        lines.append("")
    summary = report.summary()
    versions = sum(len(a.langs) for a in report.articles)
    lines.append(
        f"{summary['error']} error(s), {summary['warning']} warning(s), {summary['info']} info "
        f"in {summary['articles']} article(s), {versions} version(s)"
    )
    return "\n".join(lines) + "\n"
