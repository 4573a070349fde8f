"""The ``extra-sentence`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align.sentences import sentence_gaps
from parallelcheck.model.finding import Finding
from parallelcheck.rules.base import RuleContext, rule
from parallelcheck.rules.missing_sentence import candidates, evidence, quote


@rule("extra-sentence", severity="info", tags=("structure",))
def extra_sentence(ctx: RuleContext) -> Iterator[Finding]:
    """A translated paragraph holds a sentence the source's aligned paragraph does not.

    A sentence of a translated paragraph (or list item, or paragraph inside a quote or
    admonition) has no counterpart in the source paragraph it is aligned with: a translator's
    addition, or a sentence the source has since removed.

    Sentences are split and aligned as for ``missing-sentence``, in the other direction: a
    translated sentence is reported when it aligns with nothing in the source, the translated
    block has more sentences than the source's and is longer than the article's length model
    predicts, by at least 1.5 times the usual spread and by at least half that sentence's
    length, and the alignment is sure of it: every alignment that pairs all the translated
    sentences (a sentence split in two, two joined, rewording) is at least 20 times less
    likely — 7 times when the block is 2.5 spreads too long and the sentence has at least
    30 characters in source terms; never under 20.  The location in the translation is the
    sentence's own line, in the source the line of the prose where it would be.  Info: a
    translator's explanation is often welcome, and an older translation keeps what the source
    has since removed; the finding asks only to look.
    """
    article = ctx.article
    source = article.source
    for lang, gap in sentence_gaps(
        article, ctx.facts.sentences, missing=False, candidates=candidates(ctx)
    ):
        yield ctx.finding(
            gap.section,
            [lang],
            [source],
            {lang: gap.line, source: gap.other.line},
            f"{lang} adds the {quote(gap)}, which {source} does not have",
            evidence(gap),
            row=gap.row,
        )
