"""The Markdown reader's shortcuts read every text as the general paths they stand in for.

Each shortcut of :mod:`parallelcheck.readers.markdown` is switched off here by putting the
general handler back in the event tables (``_HANDLERS``); the documents read either way must
be equal field for field (their ``repr`` holds every field of every block)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parallelcheck.readers import markdown, parse_text

PREFIXES = ["", "", "- ", "* ", "1. ", "  - ", "    - ", "  ", "    ", "> ", "> - ", "- - "]
CONTENT = [
    "item text",
    "`code`",
    "[a link](https://example.com/x)",
    "![alt text](image.png)",
    "[![alt](i.png)](https://example.com)",
    "text<br>more",
    "hard break  ",
    "**bold** and *emphasis*",
    '{{< glossary_tooltip text="x" >}}',
    "{* ../../docs_src/app.py hl[3] *}",
    '<a href="https://example.com/y">z</a>',
    "<span>inline</span> html",
    "<div>",
    "",
    "",
    "# a heading",
    "```",
    "---",
    "/// tip | Title",
    "///",
    "!!! note",
    "| a | b |",
    "[^1]: a footnote",
    "- [ ] a task",
]
lines = st.tuples(st.sampled_from(PREFIXES), st.sampled_from(CONTENT)).map("".join)
texts = st.lists(lines, min_size=1, max_size=12).map("\n".join)


@contextmanager
def general_paths() -> Iterator[None]:
    """Every shortcut switched off: a list item closed by flush_implicit and
    close_container (``end_container``)."""
    ends = markdown._HANDLERS[2]
    item = ends["Item"]
    ends["Item"] = markdown._Builder.end_container
    try:
        yield
    finally:
        ends["Item"] = item


def read(text: str) -> str:
    return repr(parse_text(text, "doc.md", "en", "markdown"))


@settings(max_examples=600, deadline=None)
@given(texts)
@example("- one\n- two `x` [y](z)\n- \n- [only](link)\n  more text\n- a\n\n  b")
@example("/// tip\n\n- a\n- b\n\n///\n- c")
@example("- a\n  - b\n    - `c`")
def test_items_are_read_as_the_general_path_reads_them(text: str) -> None:
    shortcut = read(text)
    with general_paths():
        general = read(text)
    assert shortcut == general


def test_the_item_shortcut_is_taken_for_tight_items(monkeypatch) -> None:
    closed: list[object] = []
    close = markdown._Builder.close_container

    def counting(builder, start: int, end: int) -> None:
        closed.append(builder.stack[-1].block.kind if builder.stack else None)
        close(builder, start, end)

    monkeypatch.setattr(markdown._Builder, "close_container", counting)
    parse_text("- one\n- two\n- three\n", "doc.md", "en", "markdown")
    assert len(closed) == 1  # the list; its three items took the shortcut
    closed.clear()
    with general_paths():
        parse_text("- one\n- two\n- three\n", "doc.md", "en", "markdown")
    assert len(closed) == 4
