"""The ``stale-translation`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.finding import Finding
from parallelcheck.rules._stale import SHOWN_SECTIONS, _ordered_titles, _plural
from parallelcheck.rules.base import RuleContext, rule


@rule("stale-translation", severity="warning", tags=("history",), needs=("history",))
def stale_translation(ctx: RuleContext) -> Iterator[Finding]:
    """The source has content commits after the translation's last commit (git).

    The source version's content changed in commits the translation has not caught up with.

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

    Needs git and a work tree: outside one, or when no git program is installed, the rule
    reports nothing.  When the history cannot tell — git fails, times out or refuses the
    repository, or a shallow clone is cut off before the commits that decide it — this rule
    reports nothing for that translation and ``stale-unknown`` says why instead: a shallow
    clone never gives a wrong count or a wrong "last change".  Renamed files are not
    followed, so a commit that moves a translation counts as its last change.  At most the
    newest 100 source commits per translation are examined (the message then says "at
    least").

    Reading the history never runs a program the checked repository names (its
    ``core.fsmonitor``, hooks, pager, diff drivers, filters, remotes): see the README's
    "Reading a repository" section.
    """
    article = ctx.article
    if not ctx.history:
        return
    source = article.source
    for lang in article.langs:
        changes = ctx.history.get(lang)
        if lang == source or changes is None or changes.unknown or not changes.changes:
            continue
        if changes.translation is None:
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
        yield ctx.finding(
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
