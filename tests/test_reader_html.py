"""The HTML reader: headings, paragraphs, lists, tables, code, quotes, links, comments."""

from __future__ import annotations

import textwrap

from parallelcheck.model.document import BlockKind, Directive, Link
from parallelcheck.readers import parse_text
from parallelcheck.readers._common import MAX_DEPTH


def page(text: str):
    return parse_text(textwrap.dedent(text).lstrip("\n"), "doc.html", "en", "html")


def test_headings_make_sections_with_anchor_and_lines():
    doc = page(
        """
        <html><head><title>Not content</title></head>
        <body>
        <p>Before any heading.</p>
        <h1 id="top">Main <em>title</em></h1>
        <p>Body.</p>
        <h3>Third level</h3>
        </body></html>
        """
    )
    assert [(s.level, s.title, s.line, s.anchor) for s in doc.sections] == [
        (0, "", 3, None),
        (1, "Main title", 4, "top"),
        (3, "Third level", 6, None),
    ]
    assert doc.preamble.blocks[0].text == "Before any heading."
    assert doc.sections[1].blocks[0].line == 5
    assert doc.line_count == 7


def test_paragraph_whitespace_links_and_code():
    doc = page(
        """
        <p>Line one
           continues <a href="https://a.example/x">the link</a><br>after break
           with <code>inline()</code>.</p>
        """
    )
    (block,) = doc.preamble.blocks
    assert block.kind is BlockKind.PARAGRAPH
    assert block.text == "Line one continues the link\nafter break with inline()."
    assert block.links == [Link("https://a.example/x", 2, False, "the link")]
    assert block.code_spans == ["inline()"]
    assert (block.line, block.end_line) == (1, 3)


def test_images_are_links():
    doc = page('<p><img src="/img/a.png" alt="Diagram"> caption</p>\n')
    assert doc.preamble.blocks[0].links == [Link("/img/a.png", 1, True, "Diagram")]


def test_loose_text_in_containers_is_a_paragraph():
    doc = page(
        """
        <main>
          <section>
            Loose text
            here.
            <div>Inner div text.</div>
          </section>
        </main>
        """
    )
    assert [(b.kind, b.text, b.line) for b in doc.preamble.blocks] == [
        (BlockKind.PARAGRAPH, "Loose text here.", 3),
        (BlockKind.PARAGRAPH, "Inner div text.", 5),
    ]


def test_lists_with_nesting_and_implied_closing_tags():
    doc = page(
        """
        <ol>
          <li>first <a href="u">l</a>
          <li>second
            <ul><li>nested a</li><li>nested b</li></ul>
          </li>
        </ol>
        """
    )
    (block,) = doc.preamble.blocks
    assert block.kind is BlockKind.LIST and block.ordered
    first, second = block.children
    assert (first.kind, first.text, first.line) == (BlockKind.ITEM, "first l", 2)
    assert first.links == [Link("u", 2, False, "l")]
    assert second.text == "second\nnested a\nnested b"
    (nested,) = second.children
    assert nested.kind is BlockKind.LIST and not nested.ordered
    assert [i.text for i in nested.children] == ["nested a", "nested b"]
    assert (block.line, block.end_line) == (1, 6)


def test_table_with_thead():
    doc = page(
        """
        <table>
          <thead><tr><th>Name</th><th>Value</th></tr></thead>
          <tbody>
            <tr><td>a</td><td><code>1</code></td></tr>
            <tr><td>b<td>2
          </tbody>
        </table>
        """
    )
    (table,) = doc.preamble.blocks
    assert table.kind is BlockKind.TABLE
    assert table.rows == [["Name", "Value"], ["a", "1"], ["b", "2"]]
    assert table.header
    assert (table.body_rows, table.columns) == (2, 2)
    assert table.code_spans == ["1"]
    assert (table.line, table.end_line) == (1, 7)
    assert table.text == "Name\tValue\na\t1\nb\t2"


def test_table_header_from_th_row_and_no_header():
    with_th = page("<table><tr><th>h</th></tr><tr><td>d</td></tr></table>").preamble.blocks[0]
    without = page("<table><tr><td>h</td></tr><tr><td>d</td></tr></table>").preamble.blocks[0]
    assert with_th.header and not without.header


def test_pre_code_keeps_text_and_language():
    doc = page(
        """
        <pre><code class="language-python">def f():
            return "&lt;x&gt;"
        </code></pre>
        <pre class="lang-bash">ls</pre>
        """
    )
    first, second = doc.preamble.blocks
    assert (first.kind, first.info) == (BlockKind.CODE, "python")
    assert first.text == 'def f():\n    return "<x>"'
    assert (first.line, first.end_line) == (1, 3)
    assert (second.info, second.text, second.line) == ("bash", "ls", 4)


def test_blockquote_holds_paragraphs():
    doc = page("<blockquote>\n<p>one</p>\n<p>two</p>\n</blockquote>\n")
    (quote,) = doc.preamble.blocks
    assert quote.kind is BlockKind.QUOTE
    assert [c.text for c in quote.children] == ["one", "two"]
    assert quote.text == "one\ntwo"
    assert (quote.line, quote.end_line) == (1, 4)


def test_script_style_and_head_are_ignored():
    doc = page(
        """
        <head><style>p { color: red }</style><script>var x = "<p>no</p>";</script></head>
        <script>document.write("<h1>nope</h1>")</script>
        <p>yes</p>
        """
    )
    assert len(doc.sections) == 1
    assert [b.text for b in doc.preamble.blocks] == ["yes"]


def test_comments_give_directives():
    doc = page(
        """
        <!-- parallelcheck-disable token-mismatch -->
        <p>text</p>
        <!-- parallelcheck-disable-next-block number-mismatch, link-mismatch -->
        <!-- just a comment -->
        """
    )
    assert doc.directives == [
        Directive("disable", ("token-mismatch",), 1),
        Directive("disable-next-block", ("number-mismatch", "link-mismatch"), 3),
    ]
    assert [b.text for b in doc.preamble.blocks] == ["text"]


def test_heading_inside_list_item_is_a_paragraph():
    doc = page("<ul><li><h2>Inner</h2><p>para</p></li></ul>")
    assert len(doc.sections) == 1
    item = doc.preamble.blocks[0].children[0]
    assert item.text == "Inner\npara"


def test_deep_nesting_is_bounded():
    doc = page("<blockquote>" * 5000 + "deep" + "</blockquote>" * 5000)
    (quote,) = doc.preamble.blocks
    levels, node = 1, quote
    while node.children:
        node = node.children[0]
        levels += 1
    assert levels <= MAX_DEPTH + 1
    assert "deep" in quote.text


def test_malformed_markup_does_not_crash():
    for text in ["<![ bad ]>", "<p <a href=", "</ul></li></table>", "<table><tr><td>x", "<pre>x"]:
        doc = parse_text(text, "x.html", "en", "html")
        for block in doc.iter_blocks():
            assert 1 <= block.line <= block.end_line


NESTED_TABLE = """
<h2>Options</h2>
<table>
  <tr><th>Name</th><th>Details</th></tr>
  <tr><td>alpha</td><td>Values:
    <table>
      <thead><tr><th>key</th><th>value</th></tr></thead>
      <tr><td>x</td><td><a href="/x">1</a></td></tr>
      <tr><td>y</td><td><code>2</code></td></tr>
    </table>
    and more.</td></tr>
  <tr><td>beta</td><td>plain</td></tr>
</table>
<p>After.</p>
"""


def test_table_nested_in_a_cell_is_its_own_table_block():
    doc = page(NESTED_TABLE)
    outer, inner, after = doc.sections[1].blocks
    assert outer.kind is inner.kind is BlockKind.TABLE
    assert outer.rows == [["Name", "Details"], ["alpha", "Values: and more."], ["beta", "plain"]]
    assert outer.header and (outer.body_rows, outer.columns) == (2, 2)
    assert (outer.line, outer.end_line) == (2, 12)
    assert outer.links == [] and outer.code_spans == []
    assert inner.rows == [["key", "value"], ["x", "1"], ["y", "2"]]
    assert inner.header and (inner.body_rows, inner.columns) == (2, 2)
    assert (inner.line, inner.end_line) == (5, 9)
    assert inner.text == "key\tvalue\nx\t1\ny\t2"
    assert inner.links == [Link(target="/x", line=7, text="1")]
    assert inner.code_spans == ["2"]
    assert (after.kind, after.text, after.line) == (BlockKind.PARAGRAPH, "After.", 13)


def test_tables_nested_two_deep_and_unclosed_are_kept_in_order():
    doc = page(
        """
        <table><tr><td>a<table><tr><td>b<table><tr><td>c</td></tr></table>
        b2</td></tr></table></td><td>d</td></tr></table>
        <table><tr><td>open<table><tr><td>never closed
        """
    )
    blocks = doc.preamble.blocks
    assert [(b.kind, b.rows, b.line) for b in blocks] == [
        (BlockKind.TABLE, [["a", "d"]], 1),
        (BlockKind.TABLE, [["b b2"]], 1),
        (BlockKind.TABLE, [["c"]], 1),
        (BlockKind.TABLE, [["open"]], 3),
        (BlockKind.TABLE, [["never closed"]], 3),
    ]
    assert [b.end_line for b in blocks[:3]] == [2, 2, 1]


def test_nested_table_in_a_list_item_stays_in_the_item():
    doc = page(
        "<ul><li>item<table><tr><td>o<table><tr><td>i</td></tr></table></td></tr></table></li></ul>"
    )
    (lst,) = doc.preamble.blocks
    (item,) = lst.children
    assert [(b.kind, b.rows) for b in item.children] == [
        (BlockKind.TABLE, [["o"]]),
        (BlockKind.TABLE, [["i"]]),
    ]


def test_text_loose_in_a_nested_table_stays_in_the_enclosing_cell():
    doc = page("<table><tr><td>a<table><tr><td>i</td></tr> loose </table>b</td></tr></table>")
    outer, inner = doc.preamble.blocks
    assert outer.rows == [["a loose b"]]
    assert inner.rows == [["i"]]
