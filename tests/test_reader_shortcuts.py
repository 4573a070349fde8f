"""The Markdown reader's shortcuts read every text as the general paths they stand in for.

Each shortcut of :mod:`parallelcheck.readers.markdown` is switched off here by putting the
general handler back in the event tables (``_HANDLERS``); the documents read either way must
be equal field for field (their ``repr`` holds every field of every block)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parallelcheck.readers import _common, markdown, parse_text

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
@example("- \n  item text\n- b")  # an item whose text starts on the line after its marker
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


# -- HTML blocks made only of tags -----------------------------------------------------------

HTML_PIECES = [
    "<div>",
    "</div>",
    '<div class="termy">',
    '<img src="/img/a.png" alt="An &amp; image">',
    "<br/>",
    "<script>",
    "</script>",
    "<style>",
    "<span>",
    "<a href='x'>",
    "<x-y:z a=1>",
    " ",
    "\t",
    "\n",
    "\n\n",
    "text",
    "&amp;",
    "&nbsp;",
    "<!-- a comment -->",
    "<!--",
    "-->",
    "<",
    ">",
    "<1>",
    "</ div>",
    "<!DOCTYPE html>",
    '<a title="<!--">',
    '<a title="x>y">',
    "\u00a0",
    "\f",
]
html_fragments = st.lists(st.sampled_from(HTML_PIECES), max_size=8).map("".join)


@contextmanager
def full_html_passes() -> Iterator[None]:
    """html_text without its tags-alone shortcut: every fragment read by the full passes."""
    only_tags = _common._only_tags
    _common._only_tags = lambda html: False
    try:
        yield
    finally:
        _common._only_tags = only_tags


@settings(max_examples=1500, deadline=None)
@given(html_fragments)
@example("</div>\n")
@example('<div class="termy">\n')
@example('<div class="screenshot">\n<img src="/img/a.png">\n</div>\n')
@example("<script>\n</script>")
@example("<div>\u00a0</div>")
def test_an_html_fragment_of_tags_alone_has_the_text_the_full_passes_give(html: str) -> None:
    shortcut = _common.html_text(html)
    with full_html_passes():
        general = _common.html_text(html)
    assert shortcut == general
    if _common._only_tags(html):
        assert general == ""


def test_the_tags_alone_shortcut_decides_only_fragments_without_text() -> None:
    for html in ("</div>\n", '<img src="a.png">', "<div>\n<img src=a>\n</div>\n", "<p>"):
        assert _common._only_tags(html)
    for html in ("<p>x</p>", "<!-- c -->", "&amp;", '<a title="x>y">', "", " \n", "<div>\u00a0"):
        assert not _common._only_tags(html)


# -- an include comment that is a whole HTML block --------------------------------------------

INCLUDE_PIECES = [
    markdown._INCLUDE_OPEN,
    "<!--parallelcheck:include",
    "-->",
    "--",
    ">",
    "-",
    "{* ../../docs_src/app.py hl[3] *}",
    " ",
    "\n",
    "\t",
    "x",
    "<!--",
]
include_blocks = st.lists(st.sampled_from(INCLUDE_PIECES), max_size=7).map("".join)


@settings(max_examples=1500, deadline=None)
@given(include_blocks)
@example(markdown._INCLUDE_OPEN + "{* a.py *}-->\n")
@example(markdown._INCLUDE_OPEN + "-->")
@example(markdown._INCLUDE_OPEN[:-1] + "-->")
@example("\n " + markdown._INCLUDE_OPEN + "a-->b-->\n")
def test_a_whole_include_is_found_as_the_full_match_finds_it(html: str) -> None:
    match = markdown._INCLUDE_MARK.fullmatch(html.strip())
    assert markdown._whole_include(html) == (None if match is None else match.group(1))


# -- a heading's title -----------------------------------------------------------------------

HEADING_PIECES = [
    "a",
    "b c",
    " ",
    "  ",
    "\t",
    "x  y",
    "`co  de`",
    "**b**",
    "<br>",
    "&nbsp;",
    "\u00a0",
]
headings = st.lists(st.sampled_from(HEADING_PIECES), min_size=1, max_size=6).map("".join)


@settings(max_examples=500, deadline=None)
@given(headings)
@example("a\t b  `c  d`")
def test_a_headings_title_is_the_words_of_its_text(heading: str) -> None:
    """end_heading joins the words of the heading's parts: the words of its text()."""
    expected: list[str] = []
    end_heading = markdown._Builder.end_heading

    def recording(builder, value, span):
        expected.append(" ".join(builder.inline.text().split()))
        end_heading(builder, value, span)

    ends = markdown._HANDLERS[3]
    ends["Heading"] = recording
    try:
        document = parse_text(f"# {heading}\n\ntext\n", "doc.md", "en", "markdown")
    finally:
        ends["Heading"] = end_heading
    assert [section.title for section in document.sections[1:]] == expected
