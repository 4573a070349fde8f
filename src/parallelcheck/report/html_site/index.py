"""The index of the site: every article × every language version, with counts.

One row per article, in the run's order; its columns are the article's id and title (its
first heading in the source, with the source's ``lang``), its findings by severity, and one
column per language version found in any article (in the order they first appear: the
source first).  A version's cell holds how many findings it deviates in, coloured by the worst
severity among them and linked to the article's page showing the source and that version side
by side (``pages/…html?lang=ja``); ``stale`` marks a version that ``stale-translation`` finds
behind its source; ``no file`` a version the configuration expects but the article lacks,
``unreadable`` one whose file could not be read, ``—`` a language the article does not have.
An article without findings is listed (its row muted), but has no page.

The script adds a search box (every word typed must occur in the article's id, title or a
version's path) and severity checkboxes: the counts then add up only the ticked severities,
and an article is listed when it has findings of a ticked severity — or none at all, while
"articles without findings" is ticked.  The page address may set them: ``index.html?q=docker``,
``?severity=error``, ``?clean=0``.  Without the script, every article is listed with its
counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.model.outline import Outline
from parallelcheck.report.base import Report
from parallelcheck.report.html_site.assets import BASE_STYLE, INDEX_SCRIPT, INDEX_STYLE
from parallelcheck.report.html_site.common import document, esc, page_name, severity_counts

#: The rule whose findings mark a version as stale (its id; formats do not import rules).
STALE_RULE = "stale-translation"
#: The data attribute holding the count of each severity (the script adds them up).
COUNT_ATTRIBUTES = {"error": "data-e", "warning": "data-w", "info": "data-i"}


def title_of(outline: Outline) -> str:
    """An article's title: its first heading in the source, else its id."""
    for row in outline.sections:
        heading = row.cells.get(outline.source)
        if heading is not None and heading.title:
            return heading.title
    return outline.id


def languages_of(outlines: Sequence[Outline]) -> list[str]:
    """Every language version of any article, in the order they first appear."""
    found: dict[str, None] = {}
    for outline in outlines:
        for lang in (*outline.langs, *outline.expected, *(u.lang for u in outline.unreadable)):
            found.setdefault(lang, None)
    return list(found)


def _counts(findings: Sequence[Finding]) -> Counter[str]:
    return Counter(f.severity for f in findings)


def _count_attrs(counts: Counter[str]) -> str:
    """The counts by severity as data attributes, each left out when 0 (the script reads a
    missing one as 0): most cells of a large site count nothing."""
    return "".join(f' {COUNT_ATTRIBUTES[s]}="{counts[s]}"' for s in SEVERITIES if counts.get(s))


def _worst(counts: Counter[str]) -> str | None:
    return next((s for s in SEVERITIES if counts.get(s)), None)


class _Row:
    """One article's row."""

    def __init__(self, outline: Outline, findings: list[Finding], report: Report) -> None:
        self.outline = outline
        self.findings = findings
        self.page = report.site.to_page(page_name(outline.id)) if findings else None

    def _version(self, lang: str) -> str:
        outline = self.outline
        mine = [f for f in self.findings if lang in f.langs]
        counts = _counts(mine)
        total = len(mine)
        classes = ["pc-v"]
        worst = _worst(counts)
        if worst:
            classes.append(f"pc-worst-{worst}")
        if lang in {u.lang for u in outline.unreadable}:
            classes.append("pc-nofile")
            state = "unreadable "
        elif lang in outline.langs:
            state = ""
        elif lang in outline.expected:
            classes.append("pc-nofile")
            state = "no file "
        else:
            classes.append("pc-absent")
            return f'<td class="{" ".join(classes)}">—</td>'
        shown = str(total) if total else "·"
        if self.page is not None:
            query = "" if lang == outline.source else f"?lang={lang}"
            shown = f'<a href="{esc(self.page + query)}">{shown}</a>'
        else:
            shown = f'<span class="pc-num">{shown}</span>'
        stale = ""
        if any(f.rule == STALE_RULE for f in mine):
            stale = ' <span class="pc-stale" title="the source changed since">stale</span>'
        return f'<td class="{" ".join(classes)}"{_count_attrs(counts)}>{state}{shown}{stale}</td>'

    def render(self, languages: Sequence[str]) -> str:
        outline = self.outline
        title = title_of(outline)
        counts = _counts(self.findings)
        name = esc(outline.id)
        if self.page is not None:
            name = f'<a href="{esc(self.page)}">{name}</a>'
        haystack = " ".join([outline.id, title, *outline.paths.values()]).lower()
        numbers = "".join(
            f'<td class="pc-n" {COUNT_ATTRIBUTES[s]}="{counts.get(s, 0)}">{counts.get(s, 0)}</td>'
            for s in SEVERITIES
        )  # always written: the script shows each severity's count here, 0 included
        classes = "pc-entry" if self.findings else "pc-entry pc-clean-row"
        return (
            f'<tr class="{classes}" data-findings="{len(self.findings)}" '
            f'data-search="{esc(haystack)}"{_count_attrs(counts)}>'
            f'<th scope="row">{name}<div class="pc-article-title" lang="{esc(outline.source)}">'
            f"{esc(title)}</div></th>{numbers}"
            + "".join(self._version(lang) for lang in languages)
            + "</tr>"
        )


def _filters() -> str:
    severities = "".join(
        f'<label><input type="checkbox" name="severity" value="{s}" checked> {s}</label>'
        for s in SEVERITIES
    )
    return (
        '<form id="pc-filters" class="pc-filters" hidden role="search">'
        '<fieldset><legend>Search</legend><input type="search" name="q" class="pc-search" '
        'placeholder="article, title or path" aria-label="search articles"></fieldset>'
        f"<fieldset><legend>Severity</legend>{severities}</fieldset>"
        '<fieldset><legend>Articles</legend><label><input type="checkbox" name="clean" checked>'
        " articles without findings</label></fieldset></form>"
    )


def render_index(report: Report) -> str:
    """The index page of the whole run (see the module's docstring)."""
    outlines = report.outlines()
    by_article: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    languages = languages_of(outlines)
    rows = [_Row(outline, by_article.get(outline.id, []), report) for outline in outlines]
    flagged = sum(1 for row in rows if row.findings)
    stale = {(f.article, lang) for f in report.findings if f.rule == STALE_RULE for lang in f.langs}
    summary = report.summary()
    head = "".join(f'<th scope="col">{s}</th>' for s in SEVERITIES) + "".join(
        f'<th scope="col">{esc(lang)}</th>' for lang in languages
    )
    body = (
        "<header><h1>parallelcheck report</h1>"
        f'<p class="pc-summary">{summary["findings"]} finding(s) in {summary["articles"]} '
        f"article(s): {flagged} with findings (a page each), {summary['articles'] - flagged} "
        f"without · {severity_counts({s: summary[s] for s in SEVERITIES})}"
        f"· {len(stale)} stale version(s) · parallelcheck {esc(report.tool_version)}</p>"
        f'{_filters()}<p class="pc-status" id="pc-status"></p></header>'
        f'<main><table class="pc-index"><thead><tr><th scope="col">article</th>{head}</tr>'
        f"</thead><tbody>{''.join(row.render(languages) for row in rows)}</tbody></table></main>"
    )
    return document(
        title="parallelcheck report",
        style=BASE_STYLE + INDEX_STYLE,
        script=INDEX_SCRIPT,
        body=body,
        body_class="pc-page pc-index-page",
    )
