"""``--format text`` (the default): one line per finding, grouped by article.

::

    deepinfer-vs-lmdeploy  [en, ja, ko, zh-Hant; source en]
    articles/deepinfer-vs-lmdeploy/en.md:25: error missing-table table (9 rows × 3 columns) is
        present in ko and zh-Hant but missing from en and ja (also ja:25; compared with ko:29,
        zh-Hant:29)
    8 error(s), 0 warning(s), 0 info in 1 article(s), 4 version(s)

A finding is ``path:line: severity rule message`` (the first four words always on one
line), where *path:line* is the place to look in
the first deviating version (in the first version named when no deviating version has a
file: a missing version), followed in parentheses by the line of every other version
involved as ``tag:line``: ``also`` the other deviating versions, ``compared with`` the versions
they were compared with.  The findings of one article follow a line naming it, its versions
and its source, in the order of the places to look (file, then line); a summary line ends
the report, saying how many findings of each severity were found in how many articles and
versions (``--format full`` opens with a line naming the languages and layouts found too).

With a width (a terminal's), a finding's line is wrapped to it, its continuation indented
(:func:`~parallelcheck.report.terminal.wrap`: a path is never cut); the parenthesis starts a
line of its own when it does not fit on the message's last line.  Without one (a pipe, a
file) every finding is one line.  ``--show-outline`` adds each article's alignment outline
under its line; quiet leaves out the article lines, so that only the findings and the
summary remain.  ``--format full`` (:mod:`.full`) shows every finding with
its section and the path of every version.

Everything taken from the articles goes through :func:`~parallelcheck.report.inert.inert`,
as in every human format.
"""

from __future__ import annotations

from parallelcheck.model.finding import Finding, Location
from parallelcheck.report.base import Report, output_format
from parallelcheck.report.inert import inert
from parallelcheck.report.terminal import (
    INDENT,
    Paint,
    Word,
    article_lines,
    articles_with_findings,
    display_width,
    outline_lines,
    summary_lines,
    words_of,
    wrap,
)


@output_format("text")
def render_text(report: Report) -> str:
    paint = Paint(report.color)
    lines: list[str] = []
    for article, findings in articles_with_findings(report):
        if not report.quiet:
            lines.extend(article_lines(article, paint, report.width))
        if report.show_outline:
            lines.extend(outline_lines(article, paint))
        for finding in sorted(findings, key=_in_reading_order):
            lines.extend(finding_lines(finding, report.width, paint))
    lines.extend(summary_lines(report.summary(), report.outlines(), paint, report.width))
    return "\n".join(lines) + "\n"


def finding_lines(finding: Finding, width: int | None, paint: Paint) -> list[str]:
    """One finding as ``path:line: severity rule message (…)``, wrapped to *width*."""
    first = _first_location(finding)
    words: list[Word] = [
        (f"{inert(first.path)}:{first.line}:", "bold"),
        (finding.severity, finding.severity),
        (inert(finding.rule), None),
        *words_of(inert(finding.message)),
    ]
    others = _others(finding, first)
    if not others:
        return wrap(words, width, paint, keep=3)
    aside = words_of(others, "dim")
    if width is not None:
        last = wrap(words, width, Paint(False), keep=3)[-1]
        if display_width(last) + 1 + display_width(others) > width:
            own_line = wrap(aside, width, paint, first=INDENT)
            return [*wrap(words, width, paint, keep=3), *own_line]
    return wrap([*words, *aside], width, paint, keep=3)


def _in_reading_order(finding: Finding) -> tuple:
    """Findings of an article by the place to look first (file, then line), then rule:
    the order of ``Finding.sort_key`` (by rule first) suits programs, this one a reader."""
    first = _first_location(finding)
    return (first.path, first.line, finding.rule, finding.sort_key())


def _first_location(finding: Finding) -> Location:
    """Where to look first: the first deviating version's place, else the first place."""
    return (
        next((loc for loc in finding.locations if loc.lang in finding.langs), None)
        or (finding.locations[0])
    )


def _others(finding: Finding, first: Location) -> str:
    """``(also ja:25; compared with ko:29, zh-Hant:29)``: the other versions' lines."""
    also = [loc for loc in finding.locations if loc is not first and loc.lang in finding.langs]
    compared = [loc for loc in finding.locations if loc.lang not in finding.langs]
    if first.lang not in finding.langs:  # no deviating version has a file: all are alike
        also, compared = [loc for loc in compared if loc is not first], []
    parts = []
    if also:
        parts.append("also " + ", ".join(_tagged(loc) for loc in also))
    if compared:
        parts.append("compared with " + ", ".join(_tagged(loc) for loc in compared))
    return f"({'; '.join(parts)})" if parts else ""


def _tagged(location: Location) -> str:
    return f"{inert(location.lang)}:{location.line}"
