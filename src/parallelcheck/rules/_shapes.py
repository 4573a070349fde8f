"""Aligned blocks whose shape differs (rows and columns, items): shared by ``table-shape`` and
``list-shape``."""

from __future__ import annotations

from collections.abc import Iterator

from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.model.document import BlockKind
from parallelcheck.model.finding import Finding
from parallelcheck.rules._common import differing_values, join_langs
from parallelcheck.rules.base import RuleContext


def _shape_findings(ctx: RuleContext, section, blocks, value, describe, noun) -> Iterator[Finding]:
    values = {lang: value(block) for lang, block in blocks.items()}
    yield from differing_values(
        ctx,
        section,
        {lang: block.line for lang, block in blocks.items()},
        values,
        lambda langs, reference, shape, theirs: (
            f"{noun} has {describe(shape)} in {join_langs(langs)} but "
            f"{describe(theirs)} in {join_langs(reference)}"
        ),
        {"values": {lang: list(v) if isinstance(v, tuple) else v for lang, v in values.items()}},
    )


def _aligned_blocks(article: AlignedArticle, kind: BlockKind):
    for section in article.sections:
        for row in section.rows:
            blocks = {lang: b for lang, b in row.cells.items() if b is not None and b.kind is kind}
            if len(blocks) > 1:
                yield section, blocks
