"""``--format html``: a review site — an index of every article, a page per article with findings.

* The **index** (:mod:`~parallelcheck.report.html_site.index`) lists every article × every
  language version with its counts by severity and stale versions, with search and a
  severity filter.  An article without findings is listed there and nowhere else.
* Each **article page** (:mod:`~parallelcheck.report.html_site.article`) shows the article's
  findings and its versions side by side, every finding marked in the cells it concerns
  (:mod:`~parallelcheck.report.html_site.place`), the source and one other version by default.

The pages are independent: an article's page is made as soon as the article is checked, from
that article alone, so a run holds at most one article's text at a time however large the
site (the format declares :data:`~parallelcheck.report.base.FLAGGED`: the run keeps the
aligned article of an article with findings only).  Every page is self-contained (inline CSS
and script pinned by a Content-Security-Policy, nothing loaded), escapes all article text
and is deterministic: the same input gives byte-identical files
(:mod:`~parallelcheck.report.html_site.common`).

The command line writes the site to a folder (``--output DIR``: ``DIR/index.html`` and
``DIR/pages/``) or as an index file with a folder beside it (``--output review.html``:
``review.html`` and ``review_files/``): see docs/cli.md.  :func:`render_site` gives the
whole site in memory.
"""

from __future__ import annotations

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.report.base import FLAGGED, Report, output_format
from parallelcheck.report.html_site.article import render_article
from parallelcheck.report.html_site.index import render_index


def render_site(report: Report) -> dict[str, str]:
    """Every file of the site for *report* (whose articles are aligned where they have
    findings), by path relative to the index's folder: the index first, then the pages."""
    by_article: dict[str, list] = {}
    for finding in report.findings:
        by_article.setdefault(finding.article, []).append(finding)
    site = {report.site.index: render_index(report)}
    for article in report.articles:
        findings = by_article.get(article.id)
        if findings:
            if not isinstance(article, AlignedArticle):
                raise TypeError(f"the report holds only the outline of article {article.id!r}")
            name, text = render_article(article, findings, report)
            site[report.site.to_page(name)] = text
    return site


output_format("html", needs=FLAGGED, page=render_article)(render_index)

__all__ = ["render_article", "render_index", "render_site"]
