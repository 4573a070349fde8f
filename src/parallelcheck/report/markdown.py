"""``--format markdown``: a summary to post on a pull request (GitHub-flavoured Markdown).

A heading with the totals, then a table of articles × rules with the number of findings in each
cell, a ``Total`` column and a ``Total`` row (one row per article with findings, one column per
rule that has findings), and a line saying how many articles have none — a site of hundreds of
articles in sync gives a short summary, not hundreds of rows of zeros.  When nothing is found
there is no table, only that line.  Then the details: per article, per
section, each finding's severity, rule and message, and one line per version involved with its
``path:line``, the deviating versions marked ✗.

Everything that comes from an article — section headings, messages (which quote article text),
ids and paths — is escaped so that it shows as written: the characters that start inline
Markdown (``\\ ` * _ [ ] < > # ~ $ & |``) get a backslash and line breaks become spaces.  Every
such text follows fixed text on its line, so no block syntax (lists, headings, quotes) can
start there.  Control characters (a tab too), DEL, C1 controls and bidirectional overrides and
isolates are shown escaped (``\\x1b``, ``\\t``, ``\\u202e``; see
:mod:`parallelcheck.report.inert`), whether the summary is rendered or read raw.
"""

from __future__ import annotations

from collections import Counter

from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import inert

_SPECIAL = set("\\`*_[]<>#~$&|")
_ICONS = {"error": "❌", "warning": "⚠️", "info": "ℹ️"}


def escape(text: str) -> str:
    """Text as a literal inline run of Markdown (also safe inside a table cell)."""
    text = inert(" ".join(text.replace("\r", "\n").split("\n")))
    return "".join("\\" + char if char in _SPECIAL else char for char in text)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def count_table(report: Report) -> list[str]:
    """The articles × rules table of the articles with findings, with a Total column and a
    Total row; nothing when there is no finding."""
    rules = sorted({f.rule for f in report.findings})
    counts = Counter((f.article, f.rule) for f in report.findings)
    with_findings = [a for a in report.outlines() if any(counts[(a.id, r)] for r in rules)]
    if not with_findings:
        return []
    header = ["Article", *(escape(rule) for rule in rules), "Total"]
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(["---", *(["---:"] * (len(rules) + 1))]) + " |",
    ]
    for article in with_findings:
        row = [counts[(article.id, rule)] for rule in rules]
        cells = [escape(article.id), *(str(n) for n in row), str(sum(row))]
        lines.append("| " + " | ".join(cells) + " |")
    totals = [sum(counts[(a.id, rule)] for a in with_findings) for rule in rules]
    lines.append(
        "| " + " | ".join(["**Total**", *(str(n) for n in totals), f"**{sum(totals)}**"]) + " |"
    )
    return lines


def _articles_in_sync(report: Report) -> str:
    """The line saying how many articles have no finding (empty when every one has)."""
    flagged = {f.article for f in report.findings}
    clean = sum(1 for article in report.outlines() if article.id not in flagged)
    if not report.findings:
        return f"All language versions agree: {_plural(clean, 'article')} checked. ✅"
    if not clean:
        return ""
    return f"{_plural(clean, 'other article')} without findings (not listed)."


def _finding_lines(finding: Finding) -> list[str]:
    icon = _ICONS.get(finding.severity, "•")
    lines = [f"- {icon} **{escape(finding.severity)}** `{finding.rule}`: {escape(finding.message)}"]
    for loc in finding.locations:
        mark = "✗" if loc.lang in finding.langs else "✓"
        role = "deviating" if loc.lang in finding.langs else "reference"
        lines.append(f"  - {mark} {escape(loc.lang)} ({role}): {escape(loc.path)}:{loc.line}")
    return lines


def details(report: Report) -> list[str]:
    """Findings per article and section."""
    lines: list[str] = []
    by_article: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    for article in report.outlines():
        findings = by_article.get(article.id, [])
        if not findings:
            continue
        versions = ", ".join(
            escape(lang) + (" (source)" if lang == article.source else "") for lang in article.langs
        )
        lines += ["", f"### Article {escape(article.id)}", "", f"Versions: {versions}"]
        by_section: dict[str, list[Finding]] = {}
        for finding in findings:
            by_section.setdefault(finding.section, []).append(finding)
        for section, group in by_section.items():
            title = f"§ {escape(section)}" if section else "§ (article)"
            lines += ["", f"#### {title}", ""]
            for finding in group:
                lines += _finding_lines(finding)
    return lines


@output_format("markdown")
def render_markdown(report: Report) -> str:
    """The pull-request summary."""
    summary = report.summary()
    counts = ", ".join(
        _plural(summary[s], s) if s != "info" else f"{summary[s]} info" for s in SEVERITIES
    )
    lines = [
        "## parallelcheck: "
        f"{_plural(summary['findings'], 'finding')} in {_plural(summary['articles'], 'article')}",
        "",
        f"{counts} · parallelcheck {escape(report.tool_version)}",
    ]
    table, in_sync = count_table(report), _articles_in_sync(report)
    lines += ["", *table] if table else []
    lines += ["", in_sync] if in_sync else []
    if report.findings:
        lines += ["", "<details open><summary>Findings</summary>"]
        lines += details(report)
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"
