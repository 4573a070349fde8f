"""The page of one article with findings: its findings, then its versions side by side.

The table's columns are the language versions (source first, then versions the configuration
expects but that have no file) and its rows the aligned sections — a heading row, then one row
per aligned block inside it.  Each cell shows that version's block (tables as tables, code as
``<pre>``, lists as lists) and carries the version's ``lang`` attribute, so that a browser
shapes its text for that language (Traditional Chinese glyphs in a ``zh-Hant`` column,
Japanese ones in ``ja``); a dashed cell marks a version without the element.  Each finding
marks the cells its placement gives (:mod:`parallelcheck.report.html_site.place`), and each marked
cell holds a note with the message and a link to the finding in the list, whose entries link
back to every marked cell.

**Which versions are side by side.**  A checkbox per version shows or hides its column (with CSS
alone, so also without the script).  By default two are ticked: the source and the version that
differs from it in the most findings (errors first, then warnings, then info; the first column on a
tie) — the version a finding finds deviating, or, when the source itself deviates, the version it
was compared with; ``page.html?lang=ja`` ticks the source and ``ja`` instead (the index links each
version's count that way).  The table is at least 16rem wide per shown version: with many ticked it
scrolls sideways, and words are broken only when one is wider than its column.  Its header row stays
at the top of the window while the page scrolls (nothing around the table scrolls on its own, which
would keep it from sticking).

**Filters (the script).**  By severity, by rule, by the versions shown (a finding is listed
when one of its deviating versions is shown), and "only rows with findings"; also from the
page address: ``?severity=error&rule=missing-table&marked=1``.  A line says how many findings
the filters hide.  Following a link to a note in a hidden column shows that column.
"""

from __future__ import annotations

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.finding import SEVERITIES, Finding
from parallelcheck.report.base import Report
from parallelcheck.report.html_site.assets import (
    ARTICLE_SCRIPT,
    ARTICLE_STYLE,
    BASE_STYLE,
    column_style,
)
from parallelcheck.report.html_site.blocks import kind_label, render_block
from parallelcheck.report.html_site.common import document, esc, page_name, severity_counts
from parallelcheck.report.html_site.place import (
    DEVIATING,
    MISSING,
    REFERENCE,
    Element,
    Mark,
    blocks_of,
    elements,
    place_findings,
)

EMPTY = "pc-empty"


def finding_id(number: int) -> str:
    """The element id of the finding at *number* (0-based) in the page's list."""
    return f"f{number + 1}"


def columns_of(article: AlignedArticle) -> list[str]:
    """The table's columns: the versions read (source first), then those expected."""
    return list(dict.fromkeys([*article.langs, *article.expected]))


def default_columns(article: AlignedArticle, findings: list[Finding]) -> list[str]:
    """The versions shown side by side when the page opens (see the module's docstring)."""
    columns = columns_of(article)
    if not columns:
        return []
    first = article.source if article.source in columns else columns[0]
    others = [lang for lang in columns if lang != first]
    if not others:
        return [first]

    def weight(lang: str) -> tuple[int, ...]:
        differing = [f.severity for f in findings if lang in _opposite(f, first)]
        return (*(differing.count(severity) for severity in SEVERITIES), -columns.index(lang))

    return [first, max(others, key=weight)]


def _opposite(finding: Finding, first: str) -> tuple[str, ...]:
    """The versions a finding sets against *first* (the source): its deviating versions, or
    its reference versions when *first* is one of the deviating ones (a source that lacks
    what a translation has is best seen beside that translation)."""
    return finding.reference_langs if first in finding.langs else finding.langs


class ArticlePage:
    """The page of one article (see the module's docstring)."""

    def __init__(self, article: AlignedArticle, findings: list[Finding], report: Report) -> None:
        self.article = article
        self.findings = findings
        self.report = report
        self.columns = columns_of(article)
        self.shown = default_columns(article, findings)
        self.placement = place_findings(article, findings)
        # note ids per finding: (lang, note id), in table order
        self.note_ids: dict[int, list[tuple[str, str]]] = {}

    # -- table ------------------------------------------------------------------

    def _column_attrs(self, lang: str) -> str:
        return f'lang="{esc(lang)}" data-col="{esc(lang)}"'

    def _note(self, mark: Mark, lang: str, where: str) -> str:
        finding = self.findings[mark.finding]
        column = self.columns.index(lang)
        note_id = f"{finding_id(mark.finding)}-c{column}{where}"
        self.note_ids.setdefault(mark.finding, []).append((lang, note_id))
        target = finding_id(mark.finding)
        number = mark.finding + 1
        common = (
            f'id="{esc(note_id)}" lang="en" data-finding="{esc(target)}" '
            f'data-rule="{esc(finding.rule)}"'
        )
        if mark.kind == REFERENCE:
            return (
                f'<div class="pc-note pc-note-ref" {common}>'
                f'<a href="#{esc(target)}">#{number}</a> reference for '
                f"<code>{esc(finding.rule)}</code></div>"
            )
        return (
            f'<div class="pc-note pc-note-dev pc-sev-{esc(finding.severity)}" {common}>'
            f'<a href="#{esc(target)}">#{number}</a> '
            f'<span class="pc-sev">{esc(finding.severity)}</span> '
            f"<code>{esc(finding.rule)}</code>: {esc(finding.message)}</div>"
        )

    def _content(self, element: Element, lang: str) -> tuple[str, str | None]:
        """A cell's HTML and the class it adds (``pc-empty``, ``pc-heading`` or none)."""
        section = self.article.sections[element.section]
        if lang not in self.article.langs:
            return '<span class="pc-absent">no file</span>', EMPTY
        if element.row is None:
            heading = section.cells.get(lang)
            if heading is None:
                return '<span class="pc-absent">— no such section —</span>', EMPTY
            level = max(1, min(heading.level, 6))
            return (
                f'<div class="pc-meta"><span class="pc-kind">H{level}</span> '
                f'<span class="pc-line">line {heading.line}</span></div>'
                f'<div class="pc-h pc-h{level}">{esc(heading.title)}</div>'
            ), "pc-heading"
        blocks = blocks_of(section, element.row, lang)
        if not blocks:
            return '<span class="pc-absent">—</span>', EMPTY
        first, last = blocks[0].line, max(b.end_line for b in blocks)
        lines = f"line {first}" if first == last else f"lines {first}–{last}"
        return (
            f'<div class="pc-meta"><span class="pc-kind">{esc(kind_label(blocks))}'
            f'</span> <span class="pc-line">{lines}</span></div>'
            + "".join(render_block(b) for b in blocks)
        ), None

    def _cell(self, element: Element, lang: str) -> str:
        marks = self.placement.cells.get((element, lang), [])
        where = f"s{element.section}" + ("" if element.row is None else f"r{element.row}")
        content, kind = self._content(element, lang)
        classes = ["pc-cell", f"pc-c{self.columns.index(lang)}", *([kind] if kind else [])]
        kinds = {m.kind for m in marks}
        classes += [kind for kind in (MISSING, DEVIATING, REFERENCE) if kind in kinds]
        notes = ""
        if marks:
            classes.append("pc-marked")
            notes = "".join(self._note(m, lang, where) for m in marks)
        return f'<td class="{" ".join(classes)}" {self._column_attrs(lang)}>{content}{notes}</td>'

    def _header(self) -> str:
        cells = []
        for column, lang in enumerate(self.columns):
            classes = ["pc-lang", f"pc-c{column}"]
            marks = self.placement.header.get(lang, [])
            if lang not in self.article.langs:
                classes.append(EMPTY)
            kinds = {m.kind for m in marks}
            classes += [kind for kind in (MISSING, DEVIATING) if kind in kinds]
            if marks:
                classes.append("pc-marked")
            role = " (source)" if lang == self.article.source else ""
            path = self.article.paths.get(lang)
            where = f'<div class="pc-path">{esc(path) if path else "no file"}</div>'
            notes = "".join(self._note(m, lang, "h") for m in marks)
            cells.append(
                f'<th scope="col" class="{" ".join(classes)}" {self._column_attrs(lang)}>'
                f'<span class="pc-tag">{esc(lang)}</span>{esc(role)}{where}{notes}</th>'
            )
        return "<thead><tr>" + "".join(cells) + "</tr></thead>"

    def table(self) -> str:
        rows = []
        for element in elements(self.article):
            cells = "".join(self._cell(element, lang) for lang in self.columns)
            classes = ["pc-row", "pc-headrow" if element.row is None else "pc-blockrow"]
            if any((element, lang) in self.placement.cells for lang in self.columns):
                classes.append("pc-has-finding")
            rows.append(f'<tr class="{" ".join(classes)}">{cells}</tr>')
        header = self._header()  # after the rows: notes are numbered in table order
        return (
            f'<table class="pc-aligned" id="pc-aligned">{header}<tbody>{"".join(rows)}</tbody>'
            "</table>"
        )

    # -- findings list ----------------------------------------------------------

    def _places(self, number: int, finding: Finding) -> list[str]:
        notes: dict[str, str] = {}
        for lang, note in self.note_ids.get(number, []):
            notes.setdefault(lang, note)
        places = []
        for loc in finding.locations:
            role = "deviating" if loc.lang in finding.langs else "reference"
            mark = "✗" if role == "deviating" else "✓"
            text = f"{esc(loc.lang)}:{loc.line}"
            title = f"{loc.path}:{loc.line} ({role})"
            if loc.lang in notes:
                text = f'<a href="#{esc(notes[loc.lang])}">{text}</a>'
            places.append(
                f'<span class="pc-loc pc-loc-{role}" title="{esc(title)}">{mark} {text}</span>'
            )
        located = {loc.lang for loc in finding.locations}
        for lang in finding.langs:
            if lang not in located:
                text = esc(lang)
                if lang in notes:
                    text = f'<a href="#{esc(notes[lang])}">{text}</a>'
                places.append(f'<span class="pc-loc pc-loc-deviating">✗ {text} (no file)</span>')
        return places

    def findings_list(self) -> str:
        items = []
        for number, finding in enumerate(self.findings):
            unplaced = ""
            if number not in self.placement.placed:
                whole = not any(lang in self.article.langs for lang in finding.langs)
                why = "about the whole article" if whole else "not placed in the table"
                unplaced = f' <span class="pc-unplaced">({why})</span>'
            section = (
                f' <span class="pc-section">§ {esc(finding.section)}</span>'
                if finding.section
                else ""
            )
            items.append(
                f'<li class="pc-finding pc-sev-{esc(finding.severity)}" '
                f'id="{finding_id(number)}" data-rule="{esc(finding.rule)}" '
                f'data-severity="{esc(finding.severity)}" '
                f'data-langs="{esc(" ".join(finding.langs))}">'
                f'<span class="pc-sev">{esc(finding.severity)}</span> '
                f"<code>{esc(finding.rule)}</code>{section}{unplaced} "
                f'<span class="pc-locs">{" ".join(self._places(number, finding))}</span>'
                f'<div class="pc-message">{esc(finding.message)}</div></li>'
            )
        return f'<ol class="pc-findings">{"".join(items)}</ol>'

    # -- filters ----------------------------------------------------------------

    def _filters(self) -> str:
        deviating = {lang: sum(lang in f.langs for f in self.findings) for lang in self.columns}
        column_boxes = "".join(
            f'<label><input type="checkbox" name="lang" id="pc-col-{column}" '
            f'value="{esc(lang)}"{" checked" if lang in self.shown else ""}'
            f"{' data-source' if lang == self.article.source else ''}> {esc(lang)}"
            f" ({deviating[lang]})</label>"
            for column, lang in enumerate(self.columns)
        )
        present = {f.severity for f in self.findings}
        severity_boxes = "".join(
            f'<label><input type="checkbox" name="severity" value="{severity}" checked> '
            f"{severity}</label>"
            for severity in SEVERITIES
            if severity in present
        )
        catalogue = self.report.rule_catalogue()
        rule_boxes = "".join(
            f'<label title="{esc(catalogue[rule].summary if rule in catalogue else "")}">'
            f'<input type="checkbox" name="rule" value="{esc(rule)}" checked> {esc(rule)}</label>'
            for rule in sorted({f.rule for f in self.findings})
        )
        return (
            '<form id="pc-filters" class="pc-filters">'
            "<fieldset><legend>Side by side (findings per version)</legend>"
            f"{column_boxes}</fieldset>"
            f'<fieldset class="pc-js" hidden><legend>Severity</legend>{severity_boxes}</fieldset>'
            f'<fieldset class="pc-js" hidden><legend>Rules</legend>{rule_boxes}</fieldset>'
            '<fieldset class="pc-js" hidden><legend>Rows</legend><label>'
            '<input type="checkbox" name="marked"> only rows with findings</label></fieldset>'
            "</form>"
        )

    def title(self) -> str:
        """The article's title: its first heading in the source, else its id."""
        for section in self.article.sections:
            heading = section.cells.get(self.article.source)
            if heading is not None and heading.title:
                return heading.title
        return self.article.id

    def render(self) -> str:
        article = self.article
        table = self.table()  # first: it numbers the notes the list links to
        listing = self.findings_list()
        counts = {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}
        versions = ", ".join(esc(lang) for lang in article.langs)
        body = (
            '<header class="pc-top"><nav class="pc-nav">'
            f'<a href="{esc(self.report.site.to_index())}">← all articles</a></nav>'
            f'<h1 lang="{esc(article.source)}">{esc(self.title())}</h1>'
            f'<p class="pc-versions">Article <code>{esc(article.id)}</code> · source '
            f"{esc(article.source)}; versions {versions} · {severity_counts(counts)}</p>"
            f"{self._filters()}</header><main>"
            f'<h2>Findings</h2><p class="pc-status" id="pc-status" hidden></p>{listing}'
            f"<h2>Side by side</h2>{table}</main>"
            f'<footer class="pc-summary">parallelcheck {esc(self.report.tool_version)}</footer>'
        )
        return document(
            title=f"{esc(article.id)} · parallelcheck report",
            style=self.style(),
            script=ARTICLE_SCRIPT,
            body=body,
            body_class="pc-page pc-article-page",
        )

    def style(self) -> str:
        return BASE_STYLE + ARTICLE_STYLE + column_style(len(self.columns))


def render_article(
    article: AlignedArticle, findings: list[Finding], report: Report
) -> tuple[str, str]:
    """The page of *article* with *findings* (at least one): its file name and its text.
    *report* is the run's report (its rules, tool version and site links are what the page
    reads; its articles may still be incomplete)."""
    return page_name(article.id), ArticlePage(article, findings, report).render()
