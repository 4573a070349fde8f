"""The walks the block rules share (``rules._missing_blocks``), against the full walks."""

from __future__ import annotations

from pathlib import Path

import pytest

from parallelcheck.align.progressive import align_article
from parallelcheck.facts import ArticleFacts
from parallelcheck.readers import read_document
from parallelcheck.rules import REGISTRY
from parallelcheck.rules._missing_blocks import block_rows, nested_rows

CASES = Path(__file__).parent / "cases"
#: Rule cases with blocks missing or nested in containers (tips, tabs, asides, list items).
NAMES = [
    "code-mismatch/dropped-in-tip",
    "code-mismatch/nested-item-code",
    "code-mismatch/tabs-mdx",
    "missing-paragraph/added-in-note",
    "missing-paragraph/dropped-in-aside-mdx",
    "missing-paragraph/dropped-first",
    "wrapper-mismatch/tip-unwrapped",
]
BLOCK_RULES = ("code-mismatch", "missing-paragraph", "missing-table")


def _article(name: str):
    folder = CASES / name
    paths = sorted(p for p in folder.iterdir() if p.suffix in (".md", ".mdx"))
    documents = {p.stem: read_document(str(p), p.stem) for p in paths}
    return align_article(name, documents, "en")


@pytest.mark.parametrize("name", NAMES)
def test_nested_rows_are_the_rows_block_rows_walks_in_its_order(name):
    article = _article(name)
    nested = 0
    for section in article.sections:
        walked = [row for _, row, _ in block_rows(section)]
        assert list(nested_rows(section.rows)) == walked
        nested += len(walked) - len(section.rows)
    if name != "missing-paragraph/dropped-first":
        assert nested  # the case has rows inside containers


@pytest.mark.parametrize("name", NAMES)
def test_the_block_rules_sharing_one_walk_find_what_each_finds_alone(name):
    article = _article(name)
    shared = ArticleFacts()
    together = [list(REGISTRY[rule].run(article, facts=shared)) for rule in BLOCK_RULES]
    alone = [list(REGISTRY[rule].run(article, facts=ArticleFacts())) for rule in BLOCK_RULES]
    assert together == alone
    if not name.startswith("wrapper-mismatch"):
        assert any(together)  # the case has a block missing
