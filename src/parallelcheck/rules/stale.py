"""Translations that are older than the source's latest content changes (from git history),
and translations whose history cannot tell (a shallow clone, git failing)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.changes import FRONT_MATTER, PREAMBLE, UNTITLED
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs
from parallelcheck.rules.base import RuleContext, rule

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


@rule("stale-unknown", severity="info", tags=("history",), needs=("history",))
def stale_unknown(ctx: RuleContext) -> Iterator[Finding]:
    """Whether translations are up to date cannot be told (shallow clone, git failed): says why
    and how to fetch more history.

    The git history cannot tell whether some translations are up to date with the source,
    so ``stale-translation`` says nothing about them; this rule says why, once per article and
    reason, naming those translations.

    The reasons:

    * **A shallow clone whose history is too short** (``git clone --depth N``; the default of
      ``actions/checkout``, which fetches one commit).  A translation is judged only when its
      last commit lies inside the fetched history — not at its boundary, where git shows every
      file as new — and every cut-off branch reachable from ``HEAD`` joins the history of that
      commit.  Otherwise the message says the history is too short and how to fetch more:
      ``git fetch --unshallow``, or ``fetch-depth: 0`` for ``actions/checkout``.
    * **Git failed**: it refused the repository (owned by another user and not listed in
      ``safe.directory``), exited with an error (a corrupt repository, a partial clone's
      missing objects, which are never fetched), or took longer than 20 seconds (after which
      no more git calls are made in that work tree).  The message quotes git's own words.

    Needs the history that ``stale-translation`` reads, so it reports only when that rule
    runs too (``--select stale-translation --select stale-unknown``).  The locations are the
    first line of each translation named and of the source.  Info by default: it changes no
    exit status.
    """
    article = ctx.article
    if not ctx.history:
        return
    source = article.source
    reasons: dict[tuple[str, bool], list[str]] = {}
    for lang in article.langs:
        changes = ctx.history.get(lang)
        if lang != source and changes is not None and changes.unknown:
            reasons.setdefault((changes.unknown, changes.shallow), []).append(lang)
    for (reason, shallow), langs in sorted(reasons.items()):
        verb = "is" if len(langs) == 1 else "are"
        yield ctx.finding(
            None,
            langs,
            [source],
            {lang: 1 for lang in [*langs, source]},
            f"cannot tell whether {join_langs(langs)} {verb} up to date with {source}: {reason}",
            {"reason": reason, "shallow_clone": shallow},
        )
