"""The ``split-paragraph`` rule (its documentation is its docstring)."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedArticle, AlignedBlock, AlignedSection
from parallelcheck.model.document import Block, BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import excerpt, say
from parallelcheck.rules.base import RuleContext, rule


@rule("split-paragraph", severity="info", tags=("structure",))
def split_paragraph(ctx: RuleContext) -> Iterator[Finding]:
    """A paragraph is split in two in some versions, or two are merged into one.

    Some versions write as two consecutive paragraphs what the others write as one.  When the
    source has the one paragraph, the versions with two split it; when the source has two,
    the versions with one merged them.  The message names the line of each part.

    Alignment decides it (``parallelcheck.align.splits``): the two parts together match the
    one paragraph's share of the document's length clearly better than one part alone, or
    together carry its anchors (numbers, names, inline code, link targets) where each part
    alone carries only some; no part brings an anchor the one paragraph lacks.  Such a pair is
    compared as one paragraph by the other rules and is never reported by
    ``missing-paragraph``.  Nothing needs fixing unless the split changes the reading; the
    finding says where the versions' paragraphs differ.  A fragment that continues a sentence
    after a code block (``다음 명령으로`` / code / ``를 실행합니다.``) belongs to the paragraph
    before the code and is not reported.
    """
    article = ctx.article
    for section in article.sections:
        for row in section.rows:
            two = _parts(article, section, row)
            if two and any(lang not in two for lang in row.present()):
                yield _finding(ctx, section, row, two)


def _parts(
    article: AlignedArticle, section: AlignedSection, row: AlignedBlock
) -> dict[str, tuple[Block, Block]]:
    """Per version holding two parts in ``row``, its two blocks in document order — only
    where they are side by side in the version (a continuation after code is not a split)."""
    found = {}
    for lang, extra in row.extra.items():
        cell = row.cells.get(lang)
        heading = section.cells.get(lang)
        if cell is None or heading is None or len(extra) != 1:
            continue
        if extra[0].kind is BlockKind.LIST:  # a list read into a paragraph: list-shape's
            continue
        first, second = sorted((cell, extra[0]), key=lambda b: b.line)
        blocks = heading.blocks
        at = next((i for i, b in enumerate(blocks) if b is first), None)
        if at is not None and at + 1 < len(blocks) and blocks[at + 1] is second:
            found[lang] = (first, second)
    return found


def _finding(ctx, section, row, two: dict[str, tuple[Block, Block]]) -> Finding:
    article = ctx.article
    one = [lang for lang in row.present() if lang not in two]
    twos = [lang for lang in article.langs if lang in two]
    lines = {lang: row.cells[lang].line for lang in one}
    lines.update({lang: two[lang][0].line for lang in twos})
    parts = ", ".join(
        f"{lang} lines {two[lang][0].line} and {two[lang][1].line}" for lang in twos[:2]
    )
    parts += " …" if len(twos) > 2 else ""
    ones = ", ".join(f"{lang} line {row.cells[lang].line}" for lang in one[:2])
    ones += " …" if len(one) > 2 else ""
    quoted = article.source if article.source in (*one, *twos) else (one or twos)[0]
    block = two[quoted][0] if quoted in two else row.cells[quoted]
    text = excerpt(block.text)
    noun = "paragraph" if block.kind is BlockKind.PARAGRAPH else f"{block.kind.value} block"
    if article.source in two:
        message = (
            f"{say(one, 'merge')} two {noun}s into one ({ones}) where "
            f"{say(twos, 'have')} two ({parts}): “{text}”"
        )
        langs, reference = one, twos
    else:
        message = (
            f"{say(twos, 'split')} this {noun} in two ({parts}) where "
            f"{say(one, 'have')} one ({ones}): “{text}”"
        )
        langs, reference = twos, one
    evidence = {"kind": "merge" if article.source in two else "split"}
    return ctx.finding(section, langs, reference, lines, message, evidence, row=row)
