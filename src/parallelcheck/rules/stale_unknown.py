"""The ``stale-unknown`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs
from parallelcheck.rules.base import RuleContext, rule


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
