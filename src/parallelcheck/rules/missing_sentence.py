"""The ``missing-sentence`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.align.sentences import Gap, gap_candidates, sentence_gaps
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt, join_langs
from parallelcheck.rules.base import RuleContext, rule

#: Longest quotation of a sentence in a message.
QUOTE = 100


def quote(gap: Gap) -> str:
    """The sentence quoted for a message: ‘sentence “…”’, or ‘sentence “…” (or “…”)’ when
    lengths and anchors find another sentence as likely to be the one lacking."""
    text = f"sentence “{excerpt(gap.sentence.text, QUOTE)}”"
    if gap.alternatives:
        others = " or ".join(f"“{excerpt(a.text, QUOTE // 2)}”" for a in gap.alternatives)
        text += f" (or {others}: their lengths cannot tell which)"
    return text


def evidence(gap: Gap) -> dict:
    found: dict = {"sentence": gap.sentence.text}
    if gap.alternatives:
        found["alternatives"] = [a.text for a in gap.alternatives]
    return found


@rule("missing-sentence", severity="warning", tags=("structure",))
def missing_sentence(ctx: RuleContext) -> Iterator[Finding]:
    """A sentence of the source has no counterpart in the aligned paragraph of a translation.

    A sentence of a source paragraph (or list item, or paragraph inside a quote or admonition)
    has no counterpart in the paragraph it is aligned with in a translation: it was dropped,
    or added to the source after the translation was made.

    Every aligned pair of prose blocks is split into sentences (full stops of every script:
    ``。！？`` need no space after them, ``।`` ends Hindi sentences; ``e.g.``, ``3.10``,
    ``v1.2.3``, ``main.py``, URLs and inline code never end one) and the two sequences are
    aligned by length and anchors, Gale–Church style: one sentence to one, to none, or two to
    one (a translator joining two short sentences or splitting a long one is not a finding).
    Lengths are compared through the ratio of the two versions' total prose lengths in the
    article (a Japanese sentence is about half as long as its English original), and shared
    numbers, names, inline code and URLs tie sentences together.

    A source sentence that aligns with nothing is reported only when the translated block as
    a whole is shorter than the article's usual ratio predicts — by at least 2.5 times the
    article's usual spread and by at least half that sentence's length — when the source
    block has more sentences than the translated one, and when the sentence has at least 30
    characters: rewording that keeps the length says nothing.  A sentence whose numbers,
    names and code all appear elsewhere in the translated block (merged into another
    sentence), or in the next or previous block when that one is too long (blocks paired one
    place off),
    is not reported.  One finding names every translation lacking the sentence; its location
    in the source is the sentence's own line, in each translation the line of the aligned
    block.  Example: ``sentence “You can also use it for testing.” of en is missing from ja
    and ko``.  When lengths cannot tell which of two sentences went missing, the message
    names both (``… (or “…”: their lengths cannot tell which)``).  Blocks missing as a whole
    are ``missing-paragraph``'s.
    """
    article = ctx.article
    source = article.source
    found: dict[tuple[int, int], tuple[Gap, dict[str, int]]] = {}
    for lang, gap in sentence_gaps(
        article, ctx.facts.sentences, missing=True, candidates=candidates(ctx)
    ):
        key = (gap.line, gap.sentence.start)
        if key not in found:
            found[key] = (gap, {})
        found[key][1][lang] = gap.other.line
    for _, (gap, places) in sorted(found.items(), key=lambda item: item[0]):
        langs = list(places)
        yield ctx.finding(
            gap.section,
            langs,
            [source],
            {source: gap.line, **places},
            f"{quote(gap)} of {source} is missing from {join_langs(langs)}",
            evidence(gap),
            row=gap.row,
        )


def candidates(ctx: RuleContext) -> dict:
    """The article's prose pairs worth segmenting, found once for both sentence rules (this
    one and ``extra-sentence``) and kept in the article's facts."""
    return ctx.facts.of_article("sentence candidates", lambda: gap_candidates(ctx.article))
