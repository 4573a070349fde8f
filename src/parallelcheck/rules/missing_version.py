"""The ``missing-version`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import join_langs
from parallelcheck.rules.base import RuleContext, rule


@rule("missing-version", severity="error", tags=("input",))
def missing_version(ctx: RuleContext) -> Iterator[Finding]:
    """A configured language has no file for an article.

    A language listed in the configuration (``languages:``) has no file for this article.

    Reported once per article, naming the languages without a file; the locations point at
    line 1 of the versions that exist.  Without a ``languages:`` list nothing is expected and
    this rule never fires.
    """
    article = ctx.article
    missing = [lang for lang in article.expected if lang not in article.langs]
    if not missing or not article.langs:
        return
    lines = {lang: 1 for lang in article.langs}
    yield ctx.finding(
        None,
        missing,
        article.langs,
        lines,
        f"no {join_langs(missing)} version of this article (expected by the configuration); "
        f"it exists in {join_langs(article.langs)}",
        {"missing": missing},
    )
