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
    if gap.lacks:
        found["partly"] = True
        found["lacking"] = list(gap.lacks)
    return found


def message(gap: Gap, source: str, langs: list[str]) -> str:
    """‘sentence “…” of en is missing from ja and ko’, or for a sentence only partly
    translated ‘sentence “…” of en is only partly in ja: the translation there is shorter by
    about a sentence and lacks `uv add`, 8000’."""
    if not gap.lacks:
        return f"{quote(gap)} of {source} is missing from {join_langs(langs)}"
    return (
        f"{quote(gap)} of {source} is only partly in {join_langs(langs)}: the translation"
        f" there is shorter by about a sentence and lacks {', '.join(gap.lacks)}"
    )


@rule("missing-sentence", severity="warning", tags=("structure",))
def missing_sentence(ctx: RuleContext) -> Iterator[Finding]:
    """A sentence of the source has no counterpart in the aligned paragraph of a translation.

    A sentence of a source paragraph (or list item, or paragraph inside a quote or admonition)
    has no counterpart in the paragraph it is aligned with in a translation: it was dropped,
    or added to the source after the translation was made.

    Every aligned pair of prose blocks is split into sentences (full stops of every script:
    ``。！？`` need no space after them, ``।`` ends Hindi sentences; ``e.g.``, ``3.10``,
    ``v1.2.3``, ``main.py``, URLs and inline code never end one; an emoji after a full stop
    belongs to the sentence, alone it is none) and the two sequences are aligned by length and
    anchors, Gale–Church style: one sentence to one, to none, or two to one (a translator
    joining two short sentences or splitting a long one is not a finding).  Lengths are
    compared through the article's own length model: the ratio of the two versions' total
    prose lengths, or for a translation written mostly outside ASCII, its ASCII characters
    (code, names, numbers) counted once and its other characters at their own rate (a
    Japanese character is worth about two English ones).  Shared numbers, names, inline code
    and URLs tie sentences together.

    A source sentence that aligns with nothing is reported only when the translated block as
    a whole is shorter than the article's model predicts — by at least 1.5 times the
    article's usual spread and by at least half that sentence's length —, when the source
    block has more sentences than the translated one, and when the alignment is sure: every
    alignment that pairs all the source sentences (joined, split or reworded) is at least 20
    times less likely, or 7 times when the block is short by 2.5 spreads and the sentence has
    at least 30 characters.  Sentences under 20 characters are never reported.  A sentence
    whose numbers, names and code all appear elsewhere in the translated block beyond what
    the sentences there account for (merged into another sentence), or in the next or
    previous block when that one is too long (blocks paired one place off), is not reported.
    One finding names every translation lacking the sentence; its location in the source is
    the sentence's own line, in each translation the line of the prose where it would be.
    Example: ``sentence “You can also use it for testing.” of en is missing from ja
    and ko``.  When lengths cannot tell which of two sentences went missing, the message names
    both (``… (or “…”: their lengths cannot tell which)``).

    A sentence only partly translated is reported too: when the translated block is shorter
    than predicted by 2.5 times the usual spread and by at least 30 characters, no sentence is
    missing as a whole (a translator who split a long sentence in two and dropped one half),
    and a sentence of the source names inline code, numbers or URLs, or at least two names
    with a digit or an inner capital, that the translated block lacks altogether, not even as
    plain text (nor does a neighbouring block hold them).  Example: ``sentence “Mount the
    older application with WSGIMiddleware from fastapi.middleware.wsgi, which takes it as its
    only argument.” of en is only partly in ja: the translation there is shorter by about a
    sentence and lacks `WSGIMiddleware`, `fastapi.middleware.wsgi```.  Blocks missing as a
    whole are ``missing-paragraph``'s.
    """
    article = ctx.article
    source = article.source
    found: dict[tuple[int, int, tuple[str, ...]], tuple[Gap, dict[str, int]]] = {}
    for lang, gap in sentence_gaps(
        article, ctx.facts.sentences, missing=True, candidates=candidates(ctx)
    ):
        key = (gap.line, gap.sentence.start, gap.lacks)
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
            message(gap, source, langs),
            evidence(gap),
            row=gap.row,
        )


def candidates(ctx: RuleContext) -> dict:
    """The article's prose pairs worth segmenting, found once for both sentence rules (this
    one and ``extra-sentence``) and kept in the article's facts."""
    return ctx.facts.of_article("sentence candidates", lambda: gap_candidates(ctx.article))
