"""``--format html``: one self-contained page to read the versions of each article side by side.

Per article, a findings list and a table whose columns are the language versions (source first,
then versions the configuration expects but that have no file) and whose rows are the aligned
sections — a heading row, then one row per aligned block inside it.  Each cell shows that
version's block (tables as tables, code as ``<pre>``, lists as lists); a dashed cell marks a
version without the element.

Every finding is placed at its aligned element: the row it records (its
:attr:`~parallelcheck.model.finding.Finding.section_row` and ``block_row``), and within the
section, when the finding names no block row, the heading or block row that best explains its
locations (see :func:`place_finding`).  There the cells of the deviating versions are
marked ``pc-missing`` (the version lacks the element) or ``pc-deviating`` (it has it, but it
differs), the reference versions' cells ``pc-ref``, and each marked cell holds a note with the
message and a link to the finding in the list, whose entries link back to every marked cell.
Findings about the whole article (a missing version), and the rare finding no row contains,
mark the header cells of their deviating versions instead.

The page loads nothing: the CSS and a small script are inline, and a Content-Security-Policy
allows exactly those two (by SHA-256 hash) and nothing else (``default-src 'none'``).  The
script only adds filters — without it the page is complete and readable: by rule (hides the
findings of the unticked rules and their notes), by version (hides the version's column and
the findings in which no ticked version deviates) and "only rows with findings".  The filters
start from the page address when it has a query: ``report.html?rule=missing-table&lang=ja``
ticks only the named rules and versions, ``marked=1`` only rows with findings.

All text from articles, paths and messages is escaped with ``html.escape(…, quote=True)``;
article markup never becomes markup of the page, and article links are shown as text, never
as links.  Before that, control characters, DEL, C1 controls and bidirectional overrides and
isolates are shown as visible escapes (``\\x1b``, ``\\u202e``; see
:mod:`parallelcheck.report.inert`), so a side-by-side view cannot be reordered; line feed and
tab are kept, being the layout of the code blocks and paragraphs the page shows as written.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from parallelcheck.model.aligned import AlignedArticle, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import SEVERITIES, Finding, Location
from parallelcheck.report.base import ALIGNED, Report, output_format
from parallelcheck.report.inert import inert

MISSING = "pc-missing"
DEVIATING = "pc-deviating"
REFERENCE = "pc-ref"
EMPTY = "pc-empty"
_LAYOUT = "\n\t"  # kept by esc(): shown as written by white-space: pre / pre-wrap


def esc(value: object) -> str:
    """Text (or a number) as HTML text or attribute value, unsafe characters made visible."""
    return html.escape(inert(str(value), keep=_LAYOUT), quote=True)


# ---------------------------------------------------------------------------
# Placing findings in the aligned table


@dataclass(frozen=True)
class Element:
    """A row of the side-by-side table: a section's heading (``row`` is None) or a block row."""

    section: int
    row: int | None


@dataclass
class Mark:
    """One finding's mark on one cell."""

    finding: int
    kind: str  # MISSING, DEVIATING or REFERENCE


@dataclass
class Placement:
    """Where the findings of one article go: marks per (element, lang), per header lang."""

    cells: dict[tuple[Element, str], list[Mark]] = field(default_factory=dict)
    header: dict[str, list[Mark]] = field(default_factory=dict)
    placed: set[int] = field(default_factory=set)

    def add(self, element: Element, lang: str, mark: Mark) -> None:
        marks = self.cells.setdefault((element, lang), [])
        if all(m.finding != mark.finding for m in marks):
            marks.append(mark)


def _blocks_of(section: AlignedSection, row: int, lang: str) -> list[Block]:
    return section.rows[row].blocks(lang)  # a version's blocks, also those it holds unwrapped


def _lines_of(article: AlignedArticle, element: Element, lang: str) -> list[tuple[int, int]]:
    """The line ranges a version's cell covers in an element; empty when the cell is empty."""
    section = article.sections[element.section]
    if element.row is None:
        heading = section.cells.get(lang)
        return [] if heading is None else [(heading.line, heading.line)]
    return [(b.line, max(b.end_line, b.line)) for b in _blocks_of(section, element.row, lang)]


def elements(article: AlignedArticle) -> Iterator[Element]:
    """Every row of the side-by-side table in order (the preamble has no heading row)."""
    for index, section in enumerate(article.sections):
        if index > 0:
            yield Element(index, None)
        for row in range(len(section.rows)):
            yield Element(index, row)


def _contains(ranges: list[tuple[int, int]], line: int) -> bool:
    return any(start <= line <= end for start, end in ranges)


def place_finding(article: AlignedArticle, finding: Finding) -> Element | None:
    """The element a finding is about.

    A finding that records its block row (:attr:`Finding.block_row
    <parallelcheck.model.finding.Finding.block_row>`) is placed there.  Otherwise the
    candidates are the elements of the section row it records (its heading and block rows),
    or every element of the article for a finding that records none (one about the whole
    article, or one made elsewhere than by a rule); each scores one point per location whose
    line lies in that version's cell, and one per deviating version whose cell is empty there
    (the thing it lacks); the highest score wins, then the most contained locations, then the
    first element.  An element must contain at least one location; when no element of its
    section does, the whole article is searched.  A finding whose deviating versions have no
    file (a missing version) is about the whole article and placed nowhere.
    """
    if not finding.locations or not any(lang in article.langs for lang in finding.langs):
        return None
    section = finding.section_row
    if section is not None and 0 <= section < len(article.sections):
        rows = len(article.sections[section].rows)
        if finding.block_row is not None and 0 <= finding.block_row < rows:
            return Element(section, finding.block_row)
        candidates = [Element(section, row) for row in range(rows)]
        if section > 0:
            candidates.insert(0, Element(section, None))
        chosen = _best(article, finding, candidates)
        if chosen is not None:
            return chosen
    return _best(article, finding, elements(article))


def _best(
    article: AlignedArticle, finding: Finding, candidates: Iterable[Element]
) -> Element | None:
    """The candidate element that best explains the finding's locations (see
    :func:`place_finding`), or ``None`` when none contains one."""
    best: tuple[int, int] = (0, 0)
    chosen = None
    for element in candidates:
        contained = 0
        absent = 0
        for loc in finding.locations:
            ranges = _lines_of(article, element, loc.lang)
            if _contains(ranges, loc.line):
                contained += 1
        for lang in finding.langs:
            if lang in article.langs and not _lines_of(article, element, lang):
                absent += 1
        score = (contained + absent, contained)
        if contained and score > best:
            best, chosen = score, element
    return chosen


def _element_at(article: AlignedArticle, loc: Location) -> Element | None:
    for element in elements(article):
        if _contains(_lines_of(article, element, loc.lang), loc.line):
            return element
    return None


def place_findings(article: AlignedArticle, findings: list[Finding]) -> Placement:
    """Mark the cells of every finding of one article (see the module documentation)."""
    placement = Placement()
    for number, finding in enumerate(findings):
        element = place_finding(article, finding)
        if element is None:
            for lang in finding.langs:
                kind = DEVIATING if lang in article.langs else MISSING
                placement.header.setdefault(lang, []).append(Mark(number, kind))
            continue
        placement.placed.add(number)
        for lang in finding.langs:
            if lang in article.langs:
                empty = not _lines_of(article, element, lang)
                placement.add(element, lang, Mark(number, MISSING if empty else DEVIATING))
        for lang in finding.reference_langs:
            if _lines_of(article, element, lang):
                placement.add(element, lang, Mark(number, REFERENCE))
        for loc in finding.locations:
            ranges = _lines_of(article, element, loc.lang)
            if not ranges or _contains(ranges, loc.line):
                continue
            # The version has the element, but the location points elsewhere: mark that too.
            other = _element_at(article, loc)
            if other is not None:
                kind = DEVIATING if loc.lang in finding.langs else REFERENCE
                placement.add(other, loc.lang, Mark(number, kind))
    return placement


# ---------------------------------------------------------------------------
# Rendering blocks


def render_block(block: Block) -> str:
    """One block's content as HTML, every piece of text escaped."""
    kind = block.kind
    if kind is BlockKind.TABLE:
        return _render_table(block)
    if kind is BlockKind.CODE:
        label = f'<div class="pc-info">{esc(block.info)}</div>' if block.info else ""
        return f'{label}<pre class="pc-code"><code>{esc(block.text)}</code></pre>'
    if kind is BlockKind.LIST:
        tag = "ol" if block.ordered else "ul"
        items = "".join(f"<li>{esc(item.text)}</li>" for item in block.children)
        return f'<{tag} class="pc-list">{items}</{tag}>'
    if kind in (BlockKind.QUOTE, BlockKind.ADMONITION):
        inner = "".join(render_block(child) for child in block.children)
        if not inner:
            inner = f'<p class="pc-p">{esc(block.text)}</p>'
        if kind is BlockKind.ADMONITION:
            title = f'<div class="pc-info">{esc(block.info)}</div>' if block.info else ""
            return f'<div class="pc-admonition">{title}{inner}</div>'
        return f'<blockquote class="pc-quote">{inner}</blockquote>'
    if not block.text.strip() and block.all_links():
        parts = []
        for link in block.all_links():
            noun = "image" if link.is_image else "link"
            parts.append(f'<span class="pc-link">[{noun}: {esc(link.target)}]</span>')
        return f'<p class="pc-p">{" ".join(parts)}</p>'
    css = "pc-p pc-htmlblock" if kind is BlockKind.HTML else "pc-p"
    return f'<p class="{css}">{esc(block.text)}</p>'


def _render_table(block: Block) -> str:
    rows = []
    for number, row in enumerate(block.rows):
        tag = "th" if block.header and number == 0 else "td"
        rows.append("<tr>" + "".join(f"<{tag}>{esc(cell)}</{tag}>" for cell in row) + "</tr>")
    return f'<div class="pc-tablewrap"><table class="pc-inner">{"".join(rows)}</table></div>'


def _kind_label(blocks: list[Block]) -> str:
    return " + ".join(dict.fromkeys(b.kind.value for b in blocks))


# ---------------------------------------------------------------------------
# The page


@dataclass
class _Ids:
    """Element ids of one article: ``a{article}``, findings ``a{a}-f{n}``, notes
    ``a{a}-f{n}-c{column}`` (the column's position, so a tag never has to be an id)."""

    article: int

    def article_id(self) -> str:
        return f"a{self.article}"

    def finding(self, number: int) -> str:
        return f"a{self.article}-f{number + 1}"

    def note(self, number: int, column: int, where: str = "") -> str:
        return f"a{self.article}-f{number + 1}-c{column}{where}"


class _ArticlePage:
    def __init__(self, index: int, article: AlignedArticle, findings: list[Finding]) -> None:
        self.index = index
        self.article = article
        self.findings = findings
        self.ids = _Ids(index)
        self.columns = list(dict.fromkeys([*article.langs, *article.expected]))
        self.placement = place_findings(article, findings)
        # note ids per finding: (lang, note id, kind), in table order
        self.note_ids: dict[int, list[tuple[str, str, str]]] = {}

    # -- table ------------------------------------------------------------------

    def _note(self, mark: Mark, lang: str, where: str) -> str:
        finding = self.findings[mark.finding]
        column = self.columns.index(lang)
        note_id = self.ids.note(mark.finding, column, where)
        self.note_ids.setdefault(mark.finding, []).append((lang, note_id, mark.kind))
        target = self.ids.finding(mark.finding)
        number = mark.finding + 1
        common = f'id="{esc(note_id)}" data-finding="{esc(target)}" data-rule="{esc(finding.rule)}"'
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

    def _cell(self, element: Element, lang: str) -> str:
        section = self.article.sections[element.section]
        marks = self.placement.cells.get((element, lang), [])
        where = f"s{element.section}" + ("" if element.row is None else f"r{element.row}")
        classes = ["pc-cell"]
        content = ""
        if lang not in self.article.langs:
            classes.append(EMPTY)
            content = '<span class="pc-absent">no file</span>'
        elif element.row is None:
            heading = section.cells.get(lang)
            if heading is None:
                classes.append(EMPTY)
                content = '<span class="pc-absent">— no such section —</span>'
            else:
                level = max(1, min(heading.level, 6))
                classes.append("pc-heading")
                content = (
                    f'<div class="pc-meta"><span class="pc-kind">H{level}</span> '
                    f'<span class="pc-line">line {heading.line}</span></div>'
                    f'<div class="pc-h pc-h{level}">{esc(heading.title)}</div>'
                )
        else:
            blocks = _blocks_of(section, element.row, lang)
            if not blocks:
                classes.append(EMPTY)
                content = '<span class="pc-absent">—</span>'
            else:
                first, last = blocks[0].line, max(b.end_line for b in blocks)
                lines = f"line {first}" if first == last else f"lines {first}–{last}"
                content = (
                    f'<div class="pc-meta"><span class="pc-kind">{esc(_kind_label(blocks))}'
                    f'</span> <span class="pc-line">{lines}</span></div>'
                    + "".join(render_block(b) for b in blocks)
                )
        kinds = {m.kind for m in marks}
        for kind in (MISSING, DEVIATING, REFERENCE):
            if kind in kinds:
                classes.append(kind)
        notes = ""
        if marks:
            classes.append("pc-marked")
            notes = "".join(self._note(m, lang, where) for m in marks)
        return f'<td class="{" ".join(classes)}" data-col="{esc(lang)}">{content}{notes}</td>'

    def _header(self) -> str:
        cells = []
        for lang in self.columns:
            classes = ["pc-lang"]
            marks = self.placement.header.get(lang, [])
            if lang not in self.article.langs:
                classes.append(EMPTY)
            kinds = {m.kind for m in marks}
            classes += [kind for kind in (MISSING, DEVIATING) if kind in kinds]
            if marks:
                classes.append("pc-marked")
            role = " (source)" if lang == self.article.source else ""
            path = self.article.paths.get(lang)
            where = (
                f'<div class="pc-path">{esc(path)}</div>'
                if path
                else '<div class="pc-path">no file</div>'
            )
            notes = "".join(self._note(m, lang, "h") for m in marks)
            cells.append(
                f'<th scope="col" class="{" ".join(classes)}" data-col="{esc(lang)}">'
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
        cols = "".join(f'<col class="pc-col" data-col="{esc(lang)}">' for lang in self.columns)
        return (
            f'<div class="pc-scroll"><table class="pc-aligned">'
            f"<colgroup>{cols}</colgroup>{header}<tbody>{''.join(rows)}</tbody></table></div>"
        )

    # -- findings list ----------------------------------------------------------

    def findings_list(self) -> str:
        if not self.findings:
            return '<p class="pc-clean">No findings: the versions agree.</p>'
        items = []
        for number, finding in enumerate(self.findings):
            notes: dict[str, str] = {}
            for lang, note, _kind in self.note_ids.get(number, []):
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
                    places.append(
                        f'<span class="pc-loc pc-loc-deviating">✗ {text} (no file)</span>'
                    )
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
            langs = " ".join(finding.langs)
            items.append(
                f'<li class="pc-finding pc-sev-{esc(finding.severity)}" '
                f'id="{esc(self.ids.finding(number))}" data-rule="{esc(finding.rule)}" '
                f'data-langs="{esc(langs)}">'
                f'<span class="pc-sev">{esc(finding.severity)}</span> '
                f"<code>{esc(finding.rule)}</code>{section}{unplaced} "
                f'<span class="pc-locs">{" ".join(places)}</span>'
                f'<div class="pc-message">{esc(finding.message)}</div></li>'
            )
        return f'<ol class="pc-findings">{"".join(items)}</ol>'

    def render(self) -> str:
        article = self.article
        table = self.table()  # first: it numbers the notes the list links to
        listing = self.findings_list()
        versions = ", ".join(esc(lang) for lang in article.langs)
        counts = _severity_counts(self.findings)
        return (
            f'<section class="pc-article" id="{esc(self.ids.article_id())}">'
            f"<h2>{esc(article.id)}</h2>"
            f'<p class="pc-versions">Source {esc(article.source)}; versions {versions}. '
            f"{counts}</p>"
            f"<h3>Findings</h3>{listing}"
            f"<h3>Side by side</h3>{table}</section>"
        )


def _severity_counts(findings: list[Finding]) -> str:
    parts = []
    for severity in SEVERITIES:
        count = sum(1 for f in findings if f.severity == severity)
        parts.append(f'<span class="pc-count pc-sev-{severity}">{count} {severity}</span>')
    return " ".join(parts)


STYLE = """
:root { color-scheme: light; --dev: #c62828; --dev-bg: #fdecea; --ref: #1565c0;
  --ref-bg: #e8f0fd; --line: #d0d4da; --muted: #5f6670; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem 1.5rem 3rem; font: 14px/1.45 system-ui, sans-serif;
  color: #1d2127; background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .25rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
code, pre { font-family: ui-monospace, monospace; font-size: .92em; }
a { color: #0b57d0; }
.pc-summary, .pc-versions { color: var(--muted); margin: .2rem 0; }
.pc-filters { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .8rem 0;
  padding: .5rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: #f7f8fa; }
.pc-filters fieldset { border: 0; margin: 0; padding: 0; }
.pc-filters legend { font-weight: 600; padding: 0; }
.pc-filters label { margin-right: .8rem; white-space: nowrap; }
.pc-count { margin-right: .5rem; }
.pc-sev { font-weight: 600; text-transform: uppercase; font-size: .75em; padding: 0 .3em;
  border-radius: 3px; background: #eee; }
.pc-sev-error .pc-sev, .pc-sev.pc-sev-error { background: var(--dev); color: #fff; }
.pc-sev-warning .pc-sev { background: #ef6c00; color: #fff; }
.pc-sev-info .pc-sev { background: #607d8b; color: #fff; }
.pc-findings { padding-left: 2rem; }
.pc-finding { margin: .35rem 0; }
.pc-finding:target { outline: 2px solid #fbc02d; }
.pc-message { margin: .1rem 0; }
.pc-section, .pc-unplaced { color: var(--muted); }
.pc-locs { font-size: .85em; color: var(--muted); margin-left: .4rem; }
.pc-loc { margin-right: .5rem; white-space: nowrap; }
.pc-loc-deviating { color: var(--dev); }
.pc-scroll { overflow-x: auto; }
.pc-aligned { width: 100%; table-layout: fixed; border-collapse: collapse; min-width: 40rem; }
.pc-aligned > thead th { position: sticky; top: 0; z-index: 1; background: #eef1f5;
  text-align: left; vertical-align: top; padding: .4rem .5rem; border: 1px solid var(--line); }
.pc-tag { font-size: 1.1em; }
.pc-path { font-weight: 400; font-size: .8em; color: var(--muted); overflow-wrap: anywhere; }
.pc-cell { vertical-align: top; padding: .35rem .5rem; border: 1px solid var(--line);
  overflow-wrap: anywhere; }
.pc-headrow > .pc-cell { background: #f7f8fa; }
.pc-meta { font-size: .75em; color: var(--muted); }
.pc-kind { text-transform: uppercase; letter-spacing: .03em; }
.pc-h { font-weight: 700; }
.pc-h1 { font-size: 1.25em; } .pc-h2 { font-size: 1.15em; } .pc-h3 { font-size: 1.05em; }
.pc-p { margin: .2rem 0; white-space: pre-wrap; }
.pc-htmlblock { font-style: italic; }
.pc-info { font-size: .75em; color: var(--muted); }
.pc-code { margin: .2rem 0; padding: .4rem; background: #f4f5f7; overflow-x: auto;
  white-space: pre; }
.pc-list { margin: .2rem 0; padding-left: 1.3rem; white-space: pre-wrap; }
.pc-quote, .pc-admonition { margin: .2rem 0; padding-left: .6rem;
  border-left: 3px solid var(--line); }
.pc-tablewrap { overflow-x: auto; }
.pc-inner { border-collapse: collapse; font-size: .88em; margin: .2rem 0; }
.pc-inner th, .pc-inner td { border: 1px solid var(--line); padding: .15rem .3rem;
  vertical-align: top; }
.pc-inner th { background: #f0f2f5; }
.pc-empty { background: repeating-linear-gradient(135deg, #fafafa 0 8px, #f1f2f4 8px 16px);
  border: 1px dashed #9aa1ab; }
.pc-absent { color: var(--muted); font-style: italic; }
.pc-ref { background: var(--ref-bg); box-shadow: inset 4px 0 0 var(--ref); }
.pc-deviating { background: var(--dev-bg); box-shadow: inset 4px 0 0 var(--dev); }
.pc-missing { background: repeating-linear-gradient(135deg, #fdecea 0 8px, #f9d6d2 8px 16px);
  border: 2px dashed var(--dev); }
.pc-aligned > thead th.pc-missing, .pc-aligned > thead th.pc-deviating { background: #f9d6d2; }
.pc-quiet.pc-ref, .pc-quiet.pc-deviating { background: inherit; box-shadow: none; }
.pc-quiet.pc-missing { background: repeating-linear-gradient(135deg, #fafafa 0 8px,
  #f1f2f4 8px 16px); border: 1px dashed #9aa1ab; }
.pc-note { margin-top: .35rem; padding: .25rem .4rem; font-size: .85em; border-radius: 4px;
  font-weight: 400; }
.pc-note-dev { background: #fff; border: 1px solid var(--dev); color: #5b1212; }
.pc-note-ref { background: #fff; border: 1px solid var(--ref); color: #0d3c78; }
.pc-note:target { outline: 2px solid #fbc02d; }
.pc-clean { color: #2e7d32; }
[hidden] { display: none !important; }
"""

SCRIPT = """
(function () {
  "use strict";
  var form = document.getElementById("pc-filters");
  if (!form) { return; }
  form.hidden = false;
  function chosen(name) {
    var on = {};
    form.querySelectorAll("input[name='" + name + "']").forEach(function (box) {
      if (box.checked) { on[box.value] = true; }
    });
    return on;
  }
  function apply() {
    var rules = chosen("rule"), langs = chosen("lang");
    var onlyMarked = form.querySelector("input[name='marked']").checked;
    document.querySelectorAll("[data-col]").forEach(function (el) {
      el.hidden = !langs[el.getAttribute("data-col")];
    });
    document.querySelectorAll(".pc-finding").forEach(function (el) {
      var tags = el.getAttribute("data-langs").split(" ");
      var anyLang = tags.some(function (tag) { return langs[tag]; });
      el.hidden = !(rules[el.getAttribute("data-rule")] && anyLang);
    });
    document.querySelectorAll(".pc-note").forEach(function (el) {
      var owner = document.getElementById(el.getAttribute("data-finding"));
      el.hidden = owner ? owner.hidden : false;
    });
    document.querySelectorAll(".pc-marked").forEach(function (cell) {
      cell.classList.toggle("pc-quiet", !cell.querySelector(".pc-note:not([hidden])"));
    });
    document.querySelectorAll(".pc-row").forEach(function (row) {
      row.hidden = onlyMarked && !row.querySelector(".pc-note:not([hidden])");
    });
  }
  var params = new URLSearchParams(window.location.search);
  ["rule", "lang"].forEach(function (name) {
    var wanted = params.getAll(name);
    if (!wanted.length) { return; }
    form.querySelectorAll("input[name='" + name + "']").forEach(function (box) {
      box.checked = wanted.indexOf(box.value) >= 0;
    });
  });
  if (params.get("marked")) { form.querySelector("input[name='marked']").checked = true; }
  form.addEventListener("change", apply);
  apply();
})();
"""


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CSP = (
    f"default-src 'none'; style-src {_csp_hash(STYLE)}; script-src {_csp_hash(SCRIPT)}; "
    "img-src 'none'; base-uri 'none'; form-action 'none'"
)


def _filters(report: Report) -> str:
    rules = sorted({f.rule for f in report.findings})
    langs: list[str] = []
    for article in report.articles:
        for lang in dict.fromkeys([*article.langs, *article.expected]):
            if lang not in langs:
                langs.append(lang)
    catalogue = report.rule_catalogue()
    rule_boxes = "".join(
        f'<label title="{esc(catalogue[rule].summary)}"><input type="checkbox" name="rule" '
        f'value="{esc(rule)}" checked> {esc(rule)}</label>'
        for rule in rules
    )
    lang_boxes = "".join(
        f'<label><input type="checkbox" name="lang" value="{esc(lang)}" checked> '
        f"{esc(lang)}</label>"
        for lang in langs
    )
    return (
        '<form id="pc-filters" class="pc-filters" hidden>'
        f"<fieldset><legend>Rules</legend>{rule_boxes or 'none'}</fieldset>"
        f"<fieldset><legend>Versions</legend>{lang_boxes}</fieldset>"
        '<fieldset><legend>Rows</legend><label><input type="checkbox" name="marked"> '
        "only rows with findings</label></fieldset></form>"
    )


@output_format("html", needs=ALIGNED)
def render_html(report: Report) -> str:
    """The whole report as one self-contained HTML page."""
    aligned = report.aligned()
    by_article: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    summary = report.summary()
    articles = [
        _ArticlePage(index, article, by_article.get(article.id, [])).render()
        for index, article in enumerate(aligned)
    ]
    toc = "".join(
        f'<li><a href="#a{index}">{esc(article.id)}</a> '
        f"({len(by_article.get(article.id, []))})</li>"
        for index, article in enumerate(aligned)
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>parallelcheck report</title>"
        f"<style>{STYLE}</style></head><body>"
        "<header><h1>parallelcheck report</h1>"
        f'<p class="pc-summary">{summary["findings"]} finding(s) in {summary["articles"]} '
        f"article(s): {summary['error']} error, {summary['warning']} warning, "
        f"{summary['info']} info · parallelcheck {esc(report.tool_version)}</p>"
        f"{_filters(report)}"
        f'<nav><ul class="pc-toc">{toc}</ul></nav></header>'
        f"<main>{''.join(articles)}</main>"
        f"<script>{SCRIPT}</script></body></html>\n"
    )
