"""The Markdown reader: CommonMark/GFM blocks, MkDocs extras, inline facts, lines."""

from __future__ import annotations

import copy
import pickle
import textwrap

import pytest

from parallelcheck.model.document import NO_ITEMS, Block, BlockKind, Directive, Link
from parallelcheck.readers import parse_text
from parallelcheck.readers._common import MAX_DEPTH
from parallelcheck.readers.directives import (
    _ASSIGN,
    _BRACKETS,
    _TOKEN,
    _requote,
    _tokens,
    _unspaced,
    _words,
)
from parallelcheck.readers.markdown import _MARKERS, _candidate_lines


def md(text: str):
    return parse_text(textwrap.dedent(text).lstrip("\n"), "doc.md", "en", "markdown")


def kinds(blocks):
    return [b.kind for b in blocks]


def depth(block) -> int:
    deepest, stack = 0, [(block, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in node.children)
    return deepest


# -- sections and headings ---------------------------------------------------------------------


def test_sections_levels_lines_and_preamble():
    doc = md(
        """
        Lead paragraph.

        # Title

        Body.

        Setext heading
        --------------

        ### Deeper
        """
    )
    assert [(s.level, s.title, s.line) for s in doc.sections] == [
        (0, "", 1),
        (1, "Title", 3),
        (2, "Setext heading", 7),
        (3, "Deeper", 10),
    ]
    assert doc.preamble.blocks[0].text == "Lead paragraph."
    assert doc.sections[1].blocks[0].line == 5
    assert doc.line_count == 10


def test_empty_preamble_when_document_starts_with_a_heading():
    doc = md("# A\n\ntext\n")
    assert doc.preamble.blocks == [] and doc.preamble.line == 1 and doc.preamble.level == 0


def test_preamble_line_is_its_first_block():
    doc = parse_text("\n\n\nfirst\n\n# H\n", "doc.md", "en", "markdown")
    assert doc.preamble.line == 4


def test_heading_id_becomes_anchor_and_leaves_the_title():
    doc = md("## Additional Response with `model` { #additional-response-with-model }\n")
    section = doc.sections[1]
    assert section.title == "Additional Response with model"
    assert section.anchor == "additional-response-with-model"
    assert section.code_spans == ["model"]


def test_heading_without_id_has_no_anchor():
    assert md("# Plain\n").sections[1].anchor is None


def test_heading_links_belong_to_the_section():
    doc = md("## See [the docs](https://docs.example/x) now\n\nBody.\n")
    section = doc.sections[1]
    assert section.title == "See the docs now"
    assert section.links == [Link("https://docs.example/x", 1, False, "the docs")]
    assert section.blocks[0].links == []


# -- paragraphs and inline ---------------------------------------------------------------------


def test_paragraph_text_has_no_markup_and_keeps_link_text():
    doc = md("Some *emphasis*, **strong**, ~~gone~~ and a [link](http://x.example) `x=1`.\n")
    block = doc.preamble.blocks[0]
    assert block.kind is BlockKind.PARAGRAPH
    assert block.text == "Some emphasis, strong, gone and a link x=1."
    assert block.links == [Link("http://x.example", 1, False, "link")]
    assert block.code_spans == ["x=1"]


def test_paragraph_lines_and_soft_breaks():
    doc = parse_text("\nfirst line\nsecond line\nthird line\n\nnext\n", "d.md", "en", "md")
    first, second = doc.preamble.blocks
    assert (first.line, first.end_line) == (2, 4)
    assert first.text == "first line\nsecond line\nthird line"
    assert (second.line, second.end_line) == (6, 6)


def test_links_have_their_own_line():
    doc = md("para\nwith [a](https://a.example)\nand ![pic](img/p.png)\n")
    links = doc.preamble.blocks[0].links
    assert links == [
        Link("https://a.example", 2, False, "a"),
        Link("img/p.png", 3, True, "pic"),
    ]
    assert "pic" not in doc.preamble.blocks[0].text


def test_reference_links_resolve_to_their_target():
    doc = md(
        """
        Read [the guide][g] and [Other] too.

        [g]: https://guide.example/start "Title"
        [other]: /other/
        """
    )
    block = doc.preamble.blocks[0]
    assert [link.target for link in block.links] == ["https://guide.example/start", "/other/"]
    assert len(doc.preamble.blocks) == 1  # definitions are not blocks


def test_image_inside_link_gives_both_targets():
    doc = md("[![badge](https://img.example/b.svg)](https://ci.example)\n")
    links = doc.preamble.blocks[0].links
    assert [(link.target, link.is_image) for link in links] == [
        ("https://ci.example", False),
        ("https://img.example/b.svg", True),
    ]


def test_autolinks():
    block = md("See <https://auto.example/x>.\n").preamble.blocks[0]
    assert block.links[0].target == "https://auto.example/x"
    assert block.text == "See https://auto.example/x."


def test_inline_html_links_and_images_are_links():
    block = md('Text <a href="https://h.example">here</a> and <img src="i.png" alt="A">.\n')
    paragraph = block.preamble.blocks[0]
    assert paragraph.text == "Text here and ."
    assert [(link.target, link.is_image, link.line) for link in paragraph.links] == [
        ("https://h.example", False, 1),
        ("i.png", True, 1),
    ]


# -- lists -------------------------------------------------------------------------------------


def test_list_items_ordered_flag_and_lines():
    doc = md(
        """
        - one
        - two `c`
        - three

        1. first
        2. second
        """
    )
    bullets, numbers = doc.preamble.blocks
    assert bullets.kind is BlockKind.LIST and not bullets.ordered
    assert [(i.kind, i.text, i.line) for i in bullets.children] == [
        (BlockKind.ITEM, "one", 1),
        (BlockKind.ITEM, "two c", 2),
        (BlockKind.ITEM, "three", 3),
    ]
    assert bullets.children[1].code_spans == ["c"]
    assert (bullets.line, bullets.end_line) == (1, 3)
    assert numbers.ordered and len(numbers.children) == 2 and numbers.line == 5
    assert bullets.text == "one\ntwo c\nthree"


def test_nested_list_stays_inside_its_item():
    doc = md(
        """
        * parent [l](u)
            * child one
            * child two
        * sibling
        """
    )
    (top,) = doc.preamble.blocks
    assert len(top.children) == 2
    parent = top.children[0]
    assert parent.links == [Link("u", 1, False, "l")]
    assert parent.text == "parent l\nchild one\nchild two"
    (nested,) = parent.children
    assert nested.kind is BlockKind.LIST
    assert [i.text for i in nested.children] == ["child one", "child two"]
    assert [i.line for i in nested.children] == [2, 3]
    assert (parent.line, parent.end_line) == (1, 3)
    assert top.children[1].line == 4
    assert [link.target for link in top.all_links()] == ["u"]


def test_loose_item_with_several_paragraphs_and_code():
    doc = md(
        """
        1. First paragraph.

            Second paragraph.

            ```bash
            run it
            ```
        2. Next
        """
    )
    item = doc.preamble.blocks[0].children[0]
    assert item.text.startswith("First paragraph.\nSecond paragraph.")
    assert kinds(item.children) == [BlockKind.PARAGRAPH, BlockKind.CODE]
    assert item.children[1].info == "bash" and item.children[1].text == "run it"
    assert (item.line, item.end_line) == (1, 7)


def test_task_list_items_keep_their_text():
    doc = md("- [x] done\n- [ ] todo\n")
    assert [i.text for i in doc.preamble.blocks[0].children] == ["done", "todo"]


def test_twenty_thousand_items():
    text = "".join(f"- item {n}\n" for n in range(20000))
    doc = parse_text(text, "big.md", "en", "markdown")
    (block,) = doc.preamble.blocks
    assert len(block.children) == 20000
    assert block.children[-1].line == 20000 and block.end_line == 20000


# -- quotes, alerts, code, tables, html --------------------------------------------------------


def test_block_quote_holds_its_blocks():
    doc = md(
        """
        > quoted paragraph
        >
        > - a
        > - b
        """
    )
    (quote,) = doc.preamble.blocks
    assert quote.kind is BlockKind.QUOTE
    assert kinds(quote.children) == [BlockKind.PARAGRAPH, BlockKind.LIST]
    assert (quote.line, quote.end_line) == (1, 4)
    assert quote.text == "quoted paragraph\na\nb"


def test_gfm_alert_is_an_admonition():
    doc = md("text\n\n> [!WARNING]\n> Careful **now**.\n")
    alert = doc.preamble.blocks[1]
    assert alert.kind is BlockKind.ADMONITION
    assert alert.info == "warning"
    assert alert.line == 3
    assert alert.text == "Careful now."


def test_fenced_and_indented_code():
    doc = md(
        """
        ```JSON hl_lines="3-12"
        {"a": 1}
        ```

        para

            indented()
            more()
        """
    )
    fenced, _para, indented = doc.preamble.blocks
    assert (fenced.kind, fenced.info, fenced.text) == (
        BlockKind.CODE,
        'JSON hl_lines="3-12"',
        '{"a": 1}',
    )
    assert (fenced.line, fenced.end_line) == (1, 3)
    assert (indented.info, indented.text) == ("", "indented()\nmore()")
    assert (indented.line, indented.end_line) == (7, 8)


def test_code_content_is_not_parsed():
    doc = md("```md\n# not a heading\n<!-- parallelcheck-disable x -->\n```\n")
    assert len(doc.sections) == 1
    assert doc.directives == []
    assert doc.preamble.blocks[0].text == "# not a heading\n<!-- parallelcheck-disable x -->"


def test_table_shape_header_text_and_line():
    doc = md(
        """
        Intro.

        | Name | Value |
        |------|------:|
        | a    | `1`   |
        | [b](u) | 2 \\| 3 |
        """
    )
    table = doc.preamble.blocks[1]
    assert table.kind is BlockKind.TABLE
    assert table.rows == [["Name", "Value"], ["a", "1"], ["b", "2 | 3"]]
    assert table.header is True
    assert (table.body_rows, table.columns) == (2, 2)
    assert (table.line, table.end_line) == (3, 6)
    assert table.text == "Name\tValue\na\t1\nb\t2 | 3"
    assert table.code_spans == ["1"]
    assert table.links == [Link("u", 6, False, "b")]


def test_html_block_text_and_links():
    doc = md(
        """
        <div class="x">
        <p>Visible &amp; <b>bold</b></p>
        <img src="/img/a.png" alt="A">
        <a href="https://x.example">go</a>
        </div>
        """
    )
    (block,) = doc.preamble.blocks
    assert block.kind is BlockKind.HTML
    assert block.text == "Visible & bold\ngo"
    assert [(link.target, link.line, link.is_image) for link in block.links] == [
        ("/img/a.png", 3, True),
        ("https://x.example", 4, False),
    ]
    assert (block.line, block.end_line) == (1, 5)


def test_comment_only_html_block_is_not_a_block():
    doc = md("<!-- overview -->\n\nText.\n\n<!--\nmulti\n-->\n")
    assert kinds(doc.preamble.blocks) == [BlockKind.PARAGRAPH]
    assert doc.preamble.line == 3


def test_front_matter_is_kept_apart():
    doc = md(
        """
        ---
        title: Hello
        weight: 30
        ---

        First paragraph.
        """
    )
    assert doc.front_matter == "title: Hello\nweight: 30\n"
    assert [(b.kind, b.line) for b in doc.preamble.blocks] == [(BlockKind.PARAGRAPH, 6)]
    assert doc.preamble.line == 6


def test_no_front_matter():
    assert md("# x\n").front_matter is None


def test_thematic_break_is_not_a_block():
    doc = md("a\n\n---\n\nb\n")
    assert [b.text for b in doc.preamble.blocks] == ["a", "b"]


def test_footnotes_keep_their_text():
    doc = md("Claim[^1].\n\n[^1]: The source.\n")
    assert [b.text for b in doc.preamble.blocks] == ["Claim.", "The source."]


# -- MkDocs / FastAPI extras -------------------------------------------------------------------


def test_block_admonition_wraps_its_blocks_at_the_marker_line():
    doc = md(
        """
        Before.

        /// note | Technical Details

        Inside `x`.

        * item

        ///

        After.
        """
    )
    before, admonition, after = doc.preamble.blocks
    assert admonition.kind is BlockKind.ADMONITION
    assert admonition.info == "note"
    assert (admonition.line, admonition.end_line) == (3, 9)
    assert admonition.text == "Technical Details\nInside x.\nitem"
    assert kinds(admonition.children) == [BlockKind.PARAGRAPH, BlockKind.LIST]
    assert admonition.children[0].line == 5
    assert admonition.all_code_spans() == ["x"]
    assert (before.line, after.line) == (1, 11)


def test_block_admonition_without_title():
    doc = md("/// tip\n\nJust a tip.\n\n///\n")
    (admonition,) = doc.preamble.blocks
    assert (admonition.info, admonition.text, admonition.line) == ("tip", "Just a tip.", 1)


def test_block_admonitions_nest():
    doc = md(
        """
        //// tab | Test

        outer text

        /// warning

        inner text

        ///

        ////
        """
    )
    (outer,) = doc.preamble.blocks
    assert (outer.info, outer.line, outer.end_line) == ("tab", 1, 11)
    paragraph, inner = outer.children
    assert paragraph.text == "outer text"
    assert (inner.kind, inner.info, inner.line, inner.end_line) == (
        BlockKind.ADMONITION,
        "warning",
        5,
        9,
    )
    assert inner.children[0].text == "inner text"
    assert outer.text == "Test\nouter text\ninner text"


def test_indented_block_admonition_inside_a_list_item():
    doc = md(
        """
        1. Step one.

            /// note

            A note inside the step.

            ///

        2. Step two.
        """
    )
    (steps,) = doc.preamble.blocks
    first = steps.children[0]
    assert len(steps.children) == 2
    (note,) = first.children
    assert (note.kind, note.info, note.line) == (BlockKind.ADMONITION, "note", 3)
    assert note.children[0].text == "A note inside the step."
    assert first.text == "Step one.\nA note inside the step."
    assert steps.children[1].line == 9


def test_bang_admonition_with_indented_body():
    doc = md(
        """
        !!! warning "Mind the gap"
            Body line one.

            ```python
            code()
            ```

        After.
        """
    )
    admonition, after = doc.preamble.blocks
    assert (admonition.kind, admonition.info) == (BlockKind.ADMONITION, "warning")
    assert (admonition.line, admonition.end_line) == (1, 6)
    assert admonition.text == "Mind the gap\nBody line one.\ncode()"
    paragraph, code = admonition.children
    assert (paragraph.line, code.line, code.info) == (2, 4, "python")
    assert after.line == 8 and after.kind is BlockKind.PARAGRAPH


def test_collapsible_bang_admonition():
    doc = md('??? note\n    Hidden body.\n\n???+ tip "Open"\n    Shown body.\n')
    first, second = doc.preamble.blocks
    assert (first.info, first.text, first.line) == ("note", "Hidden body.", 1)
    assert (second.info, second.text, second.line) == ("tip", "Open\nShown body.", 4)


def test_admonition_markers_inside_code_are_left_alone():
    doc = md("```\n/// note\nnot an admonition\n///\n```\n")
    (code,) = doc.preamble.blocks
    assert code.kind is BlockKind.CODE
    assert code.text == "/// note\nnot an admonition\n///"


def test_admonition_running_past_a_heading_stops_there():
    doc = md("/// tab | A\n\ntext\n\n## Heading\n\nmore\n\n///\n")
    (admonition,) = doc.preamble.blocks
    assert [c.text for c in admonition.children] == ["text"]
    assert admonition.end_line < 5
    assert [b.text for b in doc.sections[1].blocks] == ["more"]


def test_code_include_line_is_a_code_block():
    doc = md("Example:\n\n{* ../../docs_src/first_steps/tutorial001_py310.py hl[3,5:7] *}\n")
    include = doc.preamble.blocks[1]
    assert include.kind is BlockKind.CODE
    assert include.info == "include"
    assert include.text == "{* ../../docs_src/first_steps/tutorial001_py310.py hl[3,5:7] *}"
    assert include.line == 3


def test_braces_alone_are_a_paragraph():
    block = md("{not an include}\n").preamble.blocks[0]
    assert block.kind is BlockKind.PARAGRAPH


# -- suppression comments ----------------------------------------------------------------------


def test_directives_from_block_and_inline_comments():
    doc = md(
        """
        <!-- parallelcheck-disable number-mismatch,link-mismatch -->

        Text <!-- parallelcheck-disable-next-block term-missing --> more.

        <!-- parallelcheck-enable -->

        <!-- an ordinary comment -->
        """
    )
    assert doc.directives == [
        Directive("disable", ("number-mismatch", "link-mismatch"), 1),
        Directive("disable-next-block", ("term-missing",), 3),
        Directive("enable", (), 5),
    ]
    assert [b.text for b in doc.preamble.blocks] == ["Text more."]


def test_directive_line_inside_a_multi_line_comment_block():
    doc = md(
        "para\n\n<!--\nnotes\nparallelcheck-disable x\n-->\n\n<!--\n parallelcheck-enable -->\n"
    )
    assert doc.directives == [Directive("enable", (), 8)]


# -- robustness --------------------------------------------------------------------------------


def test_ten_thousand_nested_quotes_are_bounded():
    doc = parse_text(">" * 10000 + " deep\n", "d.md", "en", "markdown")
    (quote,) = doc.preamble.blocks
    assert depth(quote) <= MAX_DEPTH + 1
    assert "deep" in quote.text
    quote.all_links()  # walking the tree recursively is safe


def test_ten_thousand_nested_lists_are_bounded():
    doc = parse_text("- " * 10000 + "x\n", "d.md", "en", "markdown")
    (top,) = doc.preamble.blocks
    assert depth(top) <= MAX_DEPTH + 1
    top.all_code_spans()


def test_deeply_nested_block_admonitions_are_bounded():
    opening = "".join("/" * (3 + n) + " note\n\n" for n in range(200))
    closing = "".join("/" * (3 + n) + "\n\n" for n in reversed(range(200)))
    doc = parse_text(opening + "x\n\n" + closing, "d.md", "en", "markdown")
    (outer,) = doc.preamble.blocks
    assert depth(outer) < 40
    assert "x" in outer.text


@pytest.mark.parametrize(
    "text",
    [
        "/// note\nnever closed\n",
        "///\n",
        "!!! note\n",
        "| a |\n|---|\n",
        "[x]: /u\n",
        "<div>\n",
        "***\n",
        "- \n-\n",
        "> \n",
        "# \n",
        "\t\t```\n\n",
        "---\ntitle: only front matter\n---\n",
    ],
)
def test_odd_inputs_do_not_crash_and_stay_within_the_file(text):
    doc = parse_text(text, "odd.md", "en", "markdown")
    for block in doc.iter_blocks():
        assert 1 <= block.line <= block.end_line <= doc.line_count


# --- ``#`` followed by a no-break space (Python-Markdown reads it as a heading) -----------------


def test_nbsp_after_hashes_is_a_heading_with_its_title_and_line():
    doc = md(
        "Intro.\n"
        "\n"
        "#\u00a0First title\n"
        "\n"
        "Body one.\n"
        "\n"
        "   ###\u00a0Third { #third }\n"
        "\n"
        "######\u00a0Sixth\n"
    )
    assert [(s.level, s.title, s.line, s.anchor) for s in doc.sections] == [
        (0, "", 1, None),
        (1, "First title", 3, None),
        (3, "Third", 7, "third"),
        (6, "Sixth", 9, None),
    ]
    assert [(b.text, b.line) for b in doc.sections[1].blocks] == [("Body one.", 5)]


def test_nbsp_heading_reads_like_the_same_heading_with_a_space():
    with_nbsp = md("# Top\n\n##\u00a0Second `code` [x](/y)\n\ntext\n")
    with_space = md("# Top\n\n## Second `code` [x](/y)\n\ntext\n")
    assert [(s.level, s.title, s.line, s.links, s.code_spans) for s in with_nbsp.sections] == [
        (s.level, s.title, s.line, s.links, s.code_spans) for s in with_space.sections
    ]


def test_hash_without_any_space_stays_text():
    doc = md("#Text\n\n#\u00a0\u00a0Two spaces\n")
    assert doc.preamble.blocks[0].text == "#Text"
    assert [(s.level, s.title) for s in doc.sections[1:]] == [(1, "Two spaces")]


def test_nbsp_heading_markers_that_are_not_headings_are_untouched():
    doc = md(
        "---\n"
        "#\u00a0a YAML comment, not a heading\n"
        "---\n"
        "\n"
        "```md\n"
        "#\u00a0inside code\n"
        "```\n"
        "\n"
        "~~~~\n"
        "##\u00a0also code\n"
        "~~~\n"
        "~~~~\n"
        "\n"
        "    #\u00a0indented code\n"
        "\n"
        "#######\u00a0seven hashes\n"
    )
    assert len(doc.sections) == 1
    assert "#\u00a0a YAML comment" in doc.front_matter
    code = [b for b in doc.preamble.blocks if b.kind is BlockKind.CODE]
    assert [(b.text, b.line) for b in code] == [
        ("#\u00a0inside code", 5),
        ("##\u00a0also code\n~~~", 9),
        ("#\u00a0indented code", 14),
    ]
    assert doc.preamble.blocks[-1].text == "#######\u00a0seven hashes"
    assert doc.preamble.blocks[-1].line == 16


def test_front_matter_after_a_blank_line_is_front_matter_not_a_heading() -> None:
    # Jekyll, Hugo and Astro accept a blank line after the opening ---; pulldown-cmark alone
    # would read a thematic break and a setext heading "title: x".
    doc = parse_text("---\n\ntitle: Guide\n---\n\n# Guide\n\nText.\n", "a.md", "en", "markdown")
    assert doc.front_matter == "\ntitle: Guide\n"
    assert [(s.title, s.line) for s in doc.sections] == [("", 1), ("Guide", 6)]
    # A thematic break followed by prose is no metadata block.
    doc = parse_text("---\n\nSome text.\n\n---\n\nMore.\n", "a.md", "en", "markdown")
    assert doc.front_matter is None
    assert [b.text for b in doc.sections[0].blocks] == ["Some text.", "More."]


def test_an_item_s_prose_leaves_out_its_nested_code() -> None:
    text = "# T\n\n- 実行します。\n\n  ```sh\n  npm run build\n  ```\n\n- 二つ目\n"
    (lst,) = parse_text(text, "a.md", "ja", "markdown").sections[-1].blocks
    first, second = lst.children
    assert first.text == "実行します。\nnpm run build"
    assert first.prose_text() == "実行します。"
    assert second.prose_text() == second.text == "二つ目"


def test_an_item_s_prose_leaves_out_code_nested_in_a_box_inside_it() -> None:
    # a command in a tab (an admonition) inside a list item is code, however deep
    text = (
        '# T\n\n- インストールします:\n\n  !!! note "npm"\n\n'
        "      ```sh\n      npm i x\n      ```\n"
    )
    (lst,) = parse_text(text, "a.md", "ja", "markdown").sections[-1].blocks
    (item,) = lst.children
    assert "npm i x" in item.text
    assert item.prose_text() == "インストールします:\nnpm"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "```",
        "plain\n  ```py\ntext ``` not\n\t:::note\n---8<--\n--8<--\n{{< x >}}\n x {%",
        "\n\n/// tip\n!!! note\n??? x\n{* a *}\n{! b !}\n~~~\n",
        "a ``` ```\n   {{% y %}}\n\u00a0```",
    ],
)
def test_candidate_lines_are_the_lines_that_start_with_a_marker(text: str) -> None:
    """One regular expression finds the lines the pre-processor looks at: those whose first
    characters after spaces and tabs are one of the markers."""
    expected = [
        index
        for index, line in enumerate(text.split("\n"))
        if line.lstrip(" \t").startswith(_MARKERS)
    ]
    assert _candidate_lines(text) == expected


@pytest.mark.parametrize(
    "body",
    [
        "../../docs_src/app.py hl[3:5,8]",
        "a.py hl[1, 2] ln[3]",
        "x[ y] z",
        "x[y z] [",
        "a[b[c] d]",
        "'q u' \"d q\" `b t` k = v",
        "a\u00a0b\x1cc\u2003d",
        "",
    ],
)
def test_directive_words_split_on_white_space_only_when_the_pattern_would(body: str) -> None:
    """The words of a directive are those of the token pattern also when found by
    str.split (the fast path for includes without quotes)."""
    assert _tokens(body) == _TOKEN.findall(body)


def _held_lists(block) -> list[list]:
    found = [block.children, block.rows, block.links, block.code_spans, block.text_lines]
    for child in block.children:
        found.extend(_held_lists(child))
    return found


def test_a_read_document_holds_no_empty_list_of_its_own() -> None:
    """Every empty list field of a block (and a heading's links and code) is the shared
    NO_ITEMS, whatever made the block: a paragraph, a tight and a loose item, a heading, a
    table, code, an HTML block, an include and an admonition (the memory the reader saves
    and the garbage collector does not walk)."""
    doc = md(
        """
        # Title

        Text with `code` and [a link](x.md).

        - tight item
        - item with `code`

        1. loose item

           more

        | a | b |
        |---|---|
        | 1 | 2 |

        ```python
        x = 1
        ```

        <div>html</div>

        {* ../../docs_src/app.py hl[3] *}

        /// tip | Title

        Inside.

        ///

        ## Second
        """
    )
    lists = [list_ for block in doc.iter_blocks() for list_ in _held_lists(block)]
    lists += [field for section in doc.sections for field in (section.links, section.code_spans)]
    empty = [list_ for list_ in lists if not list_]
    assert len(empty) > 20
    assert all(list_ is NO_ITEMS for list_ in empty)
    kinds_read = {block.kind for block in doc.iter_blocks()}
    assert {BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.TABLE, BlockKind.CODE} <= kinds_read
    assert {BlockKind.HTML, BlockKind.ADMONITION} <= kinds_read


def test_the_shared_empty_list_is_an_empty_list_that_cannot_change() -> None:
    """NO_ITEMS compares, prints, copies and pickles as ``[]`` (and as itself); every way of
    changing it raises, so no block's items can leak into another's."""
    block = Block(BlockKind.PARAGRAPH, "text", 1, 1)
    assert block == Block(BlockKind.PARAGRAPH, "text", 1, 1, links=[], code_spans=[])
    assert repr(block.links) == "[]" and block.links.__add__([1]) == [1]
    for copied in (copy.copy(block), copy.deepcopy(block), pickle.loads(pickle.dumps(block))):
        assert copied.links is NO_ITEMS and copied.children is NO_ITEMS
    changes = [
        lambda items: items.append(1),
        lambda items: items.extend([1]),
        lambda items: items.insert(0, 1),
        lambda items: items.__setitem__(slice(0, 0), [1]),
        lambda items: items.__iadd__([1]),
        lambda items: items.__imul__(2),
        lambda items: items.pop(),
        lambda items: items.clear(),
        lambda items: items.sort(),
    ]
    for change in changes:
        with pytest.raises(TypeError):
            change(block.links)
    assert NO_ITEMS == [] and len(NO_ITEMS) == 0


def test_a_container_read_from_markdown_fills_a_list_of_its_own() -> None:
    """Two items and two lists built one after the other do not share their children."""
    doc = md(
        """
        - a
          - b

        text

        - c
          - d
        """
    )
    first, second = doc.sections[0].blocks[0], doc.sections[0].blocks[2]
    assert first.children is not second.children
    assert [item.text for item in first.children] == ["a\nb"]
    assert [item.text for item in second.children] == ["c\nd"]


@pytest.mark.parametrize(
    "body",
    [
        " ../../docs_src/app.py hl[3:5,8] ",
        "a.py hl[1, 2] ln[3]",
        "x[ y] z",
        "x[y z] [",
        "a[b[c] d]",
        "'q u' \"d q\" `b t` k = v",
        "file='a.md' b",
        "a\u00a0b\x1cc\u2003d",
        "title = T  x[ 1 ]",
        "",
    ],
)
def test_directive_words_are_those_of_the_full_reading(body: str) -> None:
    """A directive's words by the str.split shortcut are the words the token pattern gives
    once requoted and with white space taken out of brackets."""
    stripped = body.strip()
    if "=" in stripped:
        stripped = _ASSIGN.sub("=", stripped)
    full = [
        _requote(_BRACKETS.sub(_unspaced, word) if "[" in word else word)
        for word in _TOKEN.findall(stripped)
    ]
    assert _words(body) == full


@pytest.mark.parametrize("blank", ["", "\n", " \t\n\n", "\u3000\n\u00a0\n", "\u2028\u2029\x0c\x0b"])
def test_a_text_of_white_space_alone_is_an_empty_document(blank: str) -> None:
    document = parse_text(blank, "doc.md", "en", "markdown")
    assert len(document.sections) == 1 and document.preamble.blocks == []
    assert document.line_count == blank.count("\n") + (
        0 if not blank or blank.endswith("\n") else 1
    )


@pytest.mark.parametrize(
    ("text", "visible"), [("\u3000x\n", "x"), ("\u00a0\u00a0.", "."), ("\u2003\nword", "word")]
)
def test_one_visible_character_among_white_space_is_read(text: str, visible: str) -> None:
    document = parse_text(text, "doc.md", "en", "markdown")
    assert [block.text.strip() for block in document.preamble.blocks] == [visible]


def test_a_containers_links_and_code_are_a_new_list_of_its_childrens_in_order() -> None:
    doc = md(
        """
        - [a](/a) `x`
        - `y` [b](/b)
        """
    )
    (listing,) = doc.preamble.blocks
    links, code = listing.all_links(), listing.all_code_spans()
    assert [link.target for link in links] == ["/a", "/b"] and code == ["x", "y"]
    # gathered once and kept: alignment, facts and rules ask again and again
    assert listing.all_links() is links and listing.all_code_spans() is code
    links.clear()
    code.clear()  # the items' own lists are untouched
    assert [link.target for item in listing.children for link in item.all_links()] == ["/a", "/b"]
    assert [span for item in listing.children for span in item.all_code_spans()] == ["x", "y"]


def test_html_code_in_running_text_is_inline_code_as_a_backtick_span_is() -> None:
    text = (
        '# T\n\n**Type:** <code>(key: string, o?: <a href="#opts">Opts</a>) => void</code>\n\n'
        'Run <code class="sh">npm  i</code>, not <codex>this</codex>; a stray </code> is text.\n'
    )
    signature, command = parse_text(text, "a.md", "en", "markdown").sections[-1].blocks
    assert signature.text == "Type: (key: string, o?: Opts) => void"
    assert signature.code_spans == ["(key: string, o?: Opts) => void"]
    assert [link.target for link in signature.links] == ["#opts"]
    assert command.code_spans == ["npm i"]


def test_line_of_counts_newlines_before_an_offset_in_any_order():
    # _Builder.line_of keeps the line of the offset asked about last and counts on (or back)
    # from it: it must give bisect_right over the line starts, in whatever order it is asked.
    import random
    from bisect import bisect_right

    from parallelcheck.readers.markdown import _Builder

    rng = random.Random(7)
    for text in ["", "a", "a\n", "\n\n", "é\nb\n\nc", "x\ny\nzz\n\n ünï\n"]:
        builder = _Builder(text, "doc.md", "en")
        data = text.encode("utf-8")
        starts = [0, *(index + 1 for index, byte in enumerate(data) if byte == 10)]
        offsets = [rng.randrange(len(data) + 3) for _ in range(40)]
        for offset in [*offsets, *sorted(offsets), *sorted(offsets, reverse=True)]:
            assert builder.line_of(offset) == bisect_right(starts, offset), (text, offset)


def test_set_lines_from_records_what_the_list_of_consecutive_lines_gives():
    from parallelcheck.readers._common import set_lines_from, set_text_lines

    for text in ["x", "x\ny", "x\n\ny\n"]:
        for first in (3, 4, 9):
            expected = Block(BlockKind.CODE, text, 3, 12)
            set_text_lines(expected, list(range(first, first + text.count("\n") + 1)))
            block = Block(BlockKind.CODE, text, 3, 12)
            set_lines_from(block, first)
            assert block.text_lines == expected.text_lines
            assert (block.text_lines is NO_ITEMS) == (expected.text_lines is NO_ITEMS)


def test_a_table_ends_at_its_last_row_whatever_comes_before_it():
    doc = md(
        """
        Text.

          | a | b |
          |---|---|
          | 1 | 2 |

        After.
        """
    )
    table = next(b for b in doc.sections[0].blocks if b.kind is BlockKind.TABLE)
    assert (table.line, table.end_line) == (3, 5)
