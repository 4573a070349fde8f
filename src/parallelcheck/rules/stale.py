"""Translations that are older than the source's latest content changes (from git history)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align import AlignedArticle
from parallelcheck.finding import Finding
from parallelcheck.revisions import FRONT_MATTER, PREAMBLE, UNTITLED
from parallelcheck.rules.base import finding, rule

#: Section titles named in a message; the rest are counted.
SHOWN_SECTIONS = 5


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _ordered_titles(article: AlignedArticle, titles: tuple[str, ...]) -> tuple[list[str], int]:
    """The changed sections in the order the source has them now (sections it no longer has
    last), and the line of the first one's heading in the source (1 when it has none)."""
    document = article.documents.get(article.source)
    lines: dict[str, int] = {FRONT_MATTER: 1}
    if document is not None:
        for section in document.sections:
            title = " ".join(section.title.split())
            name = PREAMBLE if section.level == 0 else title or UNTITLED
            lines.setdefault(name, section.line)
    place = {title: index for index, title in enumerate(lines)}
    ordered = sorted(titles, key=lambda t: (place.get(t, len(place)), titles.index(t)))
    first = next((lines[t] for t in ordered if t in lines), 1)
    return ordered, first


@rule(
    "stale-translation",
    severity="warning",
    summary="the source's content changed after the translation's last commit",
)
def stale_translation(article: AlignedArticle) -> Iterator[Finding]:
    """The source version's content changed in commits the translation has not caught up with.

    For each translation, its *last commit* is the newest commit that touched its file.  The
    rule counts the source's commits that are not in that commit's history — so on merged
    branches a source change made in parallel with the translation's update counts, whatever
    the dates — and keeps only those that change the source's *content*.  Uncommitted content
    changes to the source count as one more.  The message names the translation's last commit,
    the number of content commits since, and the source sections they changed; the locations
    are the translation's first line and the heading of the first changed section in the
    source.

    Content is what a translation has to follow: heading text, level and ``{ #id }``, the text
    of every paragraph, list item, table cell and quote, code blocks line by line, link and
    image targets, image alt text, and the front matter.  Formatting is not: re-wrapped
    paragraphs, ``*`` versus ``-`` list markers, emphasis markers, blank lines, trailing
    spaces, table padding, setext versus ATX headings.  A commit that only changes formatting
    is not counted; neither is a clean merge (only a merge whose text differs from every
    parent's counts, for the sections that differ from every parent).

    A translation with uncommitted changes (or not committed yet) counts as up to date.

    Needs git and a work tree: outside one, or when git is missing or fails, the rule reports
    nothing.  Renamed files are not followed, so a commit that moves a translation counts as
    its last change.  In a shallow clone, commits older than the clone are unknown.  At most
    the newest 100 source commits per translation are examined (the message then says "at
    least").
    """
    if not article.history:
        return
    source = article.source
    for lang in article.langs:
        changes = article.history.get(lang)
        if lang == source or changes is None or not changes.changes:
            continue
        titles, line = _ordered_titles(article, changes.sections)
        what = []
        if changes.commits:
            count = _plural(changes.commits, "content commit")
            what.append(f"at least {count}" if changes.incomplete else count)
        if changes.uncommitted:
            what.append("uncommitted content changes" if not what else "uncommitted changes")
        message = (
            f"{lang} was last changed in {changes.translation.short} "
            f"({changes.translation.last_date}); {source} has {' and '.join(what)} since"
        )
        if titles:
            shown = ", ".join(f"“{t}”" for t in titles[:SHOWN_SECTIONS])
            rest = len(titles) - SHOWN_SECTIONS
            more = f" and {_plural(rest, 'more section')}" if rest > 0 else ""
            message += f", changing {shown}{more}"
        yield finding(
            "stale-translation",
            article,
            None,
            [lang],
            [source],
            {lang: 1, source: line},
            message,
            {
                "last_commit": changes.translation.last_commit,
                "last_date": changes.translation.last_date,
                "source_commits": list(changes.shas),
                "uncommitted": changes.uncommitted,
                "sections": titles,
            },
        )
