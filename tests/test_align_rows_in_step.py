"""The shortcuts of block rows in step (every row holds a block of every version) against the
full computation: :func:`parallelcheck.align.splits._every_row_holds` before split
paragraphs are looked for, :func:`parallelcheck.align.swallowed_lists._in_step` before
swallowed lists are.  Random sections whose versions split paragraphs, lose blocks, add a
list or write it inside a paragraph (so that both shortcuts decide, and must not, in turn)
are aligned with the shortcuts and with them turned off: the rows must be the same."""

from __future__ import annotations

from conftest import parse_versions
from hypothesis import given, settings
from hypothesis import strategies as st

from parallelcheck.align import splits, swallowed_lists
from parallelcheck.align.progressive import align_article

_WORDS = ["Alpha", "beta", "`code`", "42", "gamma", "Delta", "7.5", "epsilon", "zeta", "Eta"]

#: One block of the source and what a version does with it.
_CHANGES = ["same", "same", "same", "split", "drop", "swallow"]


def _paragraph(draw, size: int) -> str:
    return " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=size))) + "."


@st.composite
def _articles(draw) -> dict[str, str]:
    """Markdown of an English source and two versions, block by block."""
    blocks = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            blocks.append(("paragraph", _paragraph(draw, 8)))
        else:
            items = draw(st.integers(2, 3))
            blocks.append(("list", [_paragraph(draw, 3) for _ in range(items)]))
    texts = {}
    for lang in ("en", "de", "ja"):
        out = ["# Title", ""]
        for number, (kind, content) in enumerate(blocks):
            change = "same" if lang == "en" else draw(st.sampled_from(_CHANGES))
            if kind == "list":
                if change == "drop":
                    continue
                if change == "swallow" and number and blocks[number - 1][0] == "paragraph":
                    # A paragraph's lines numbered from 2 on: the list read as more of it.
                    out[-1:] = [
                        *(f"{i}. {item}" for i, item in enumerate(content[1:], start=2)),
                        "",
                    ]
                    continue
                out += [f"{i}. {item}" for i, item in enumerate(content, start=1)] + [""]
            elif change == "drop":
                continue
            elif change == "split":
                words = content.split(" ")
                half = max(1, len(words) // 2)
                out += [" ".join(words[:half]) + ".", "", " ".join(words[half:]), ""]
            else:
                out += [content, ""]
        texts[lang] = "\n".join(out)
    return texts


def _rows(texts: dict[str, str]) -> list:
    article = align_article("a", parse_versions(**texts), "en")
    return [
        (
            {lang: b and b.line for lang, b in row.cells.items()},
            {lang: [b.line for b in blocks] for lang, blocks in row.extra.items()},
        )
        for section in article.sections
        for row in section.rows
    ]


@settings(max_examples=150, deadline=None)
@given(_articles())
def test_rows_in_step_are_aligned_as_without_the_shortcuts(texts):
    shortcut = _rows(texts)
    every_row_holds, in_step = splits._every_row_holds, swallowed_lists._in_step
    splits._every_row_holds = lambda rows, versions: False
    swallowed_lists._in_step = lambda rows: False
    try:
        full = _rows(texts)
    finally:
        splits._every_row_holds, swallowed_lists._in_step = every_row_holds, in_step
    assert shortcut == full


def test_the_shortcuts_decide_only_rows_that_hold_every_version():
    row = ({"en": 1, "de": 2}, {})
    assert splits._every_row_holds([row, row], 2)
    assert not splits._every_row_holds([row, ({"en": 3}, {})], 2)
    assert swallowed_lists._in_step([row, row])
    assert not swallowed_lists._in_step([row, ({"en": 3}, {})])
    assert not swallowed_lists._in_step([row, ({"en": 3, "de": 4}, {"de": [5]})])
