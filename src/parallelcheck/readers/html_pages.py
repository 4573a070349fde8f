"""HTML reader (``.html`` / ``.htm``), built on the standard library's :mod:`html.parser`.

* ``h1``–``h6`` start sections (``id`` → :attr:`Section.anchor`); inside a list item or quote
  a heading is a paragraph of that container.
* ``p`` (and ``dt``, ``dd``, ``figcaption``, ``summary``, ``address``) → paragraph; text
  outside any of them (directly in ``body``, ``div`` …) → a paragraph per run of text.
* ``ul`` / ``ol`` → list (``ordered`` for ``ol``) with ``li`` items; nested blocks stay in
  their item, as in the Markdown reader (an item's first paragraph is its own text).
* ``table`` / ``tr`` / ``th`` / ``td`` → table; rows inside ``thead`` — or a first row made
  only of ``th`` cells — are the header.  A table nested in a cell is a table block of its
  own, with its own rows and the line of its own ``<table>``, placed right after the table
  that holds it (so it is aligned and checked like any other table); the enclosing cell keeps
  only its own text, from before and after the nested table.
* ``pre`` (with or without ``code``) → code block; a ``language-x`` / ``lang-x`` class on the
  ``pre`` or its ``code`` gives ``info`` ``x``.  ``code`` elsewhere → inline code.
* ``blockquote`` → quote.  ``a href`` and ``img src`` → links (images with ``is_image``).
* ``script``, ``style``, ``template`` and everything in ``head`` are ignored; other
  containers (``div``, ``section``, ``article``, ``main`` …) are transparent.
* Comments give suppression directives (docs/suppression.md).

Closing tags HTML lets authors omit (``</p>``, ``</li>``, ``</td>`` …) are inferred.  Lines
are those of the file as stored (``html.parser`` tracks them).
"""

from __future__ import annotations

from html.parser import HTMLParser

from parallelcheck.model.document import Block, BlockKind, Directive, Document, Link, Section
from parallelcheck.readers._common import (
    MAX_DEPTH,
    directives_in,
    read_whole,
    set_container_text,
    set_lines_from,
    set_text_lines,
)
from parallelcheck.readers.directives import text_block
from parallelcheck.text.regexes import compile_pattern

_SKIP = frozenset({"script", "style", "template", "head", "noscript", "svg", "math"})
_PARAGRAPHS = frozenset({"p", "dt", "dd", "figcaption", "summary", "address", "caption"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_CONTAINERS = {"ul": BlockKind.LIST, "ol": BlockKind.LIST, "li": BlockKind.ITEM}
_CONTAINERS["blockquote"] = BlockKind.QUOTE
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip
# Tags whose start ends an open paragraph (HTML's implied </p>) and any loose text.
_BLOCK_LEVEL = frozenset(
    {"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset",
     "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
     "hgroup", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul", "dt",
     "dd", "summary", "body", "html", "caption", "tr", "td", "th", "thead", "tbody", "tfoot"}
)  # fmt: skip
_BAD_MARKED_SECTION = compile_pattern(r"<!\[(?![A-Za-z])")
_DECLARATION = compile_pattern(r"<!(?!--)")
_SPACE = compile_pattern(r"\s+")
_BR = "\x00"
_LANGUAGE = compile_pattern(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)")


class _Inline:
    __slots__ = ("code", "code_spans", "line", "link", "links", "parts", "piece_lines", "tag")

    def __init__(self, line: int, tag: str):
        self.line = line
        self.tag = tag
        self.parts: list[str] = []
        #: the file line where the text of each piece between two ``<br>`` starts (``None``
        #: until some text comes)
        self.piece_lines: list[int | None] = [None]
        self.links: list[Link] = []
        self.code_spans: list[str] = []
        self.link: list | None = None  # [target, line, text parts] of an open <a>
        self.code: list[str] | None = None  # parts of an open inline <code>

    def text(self) -> str:
        """Whitespace collapsed as a browser does; ``<br>`` (kept as ``\x00``) → ``\n``."""
        return self.text_and_lines()[0]

    def text_and_lines(self) -> tuple[str, list[int]]:
        """:meth:`text`, and the file line where each of its lines starts (the element's line
        for every line when the pieces were not all seen coming)."""
        pieces = [_SPACE.sub(" ", piece).strip() for piece in "".join(self.parts).split(_BR)]
        text = "\n".join(p for p in pieces if p)
        if len(pieces) != len(self.piece_lines):
            return text, [self.line] * (text.count("\n") + 1)
        lines = [n or self.line for p, n in zip(pieces, self.piece_lines, strict=True) if p]
        return text, lines or [self.line]


class _Table:
    __slots__ = (
        "all_th", "code", "head", "header", "inner", "line", "links", "row", "row_line",
        "row_lines", "rows", "saved"
    )  # fmt: skip

    def __init__(self, line: int):
        self.line = line
        self.rows: list[list[str]] = []
        self.row_lines: list[int] = []  # the file line of each row's <tr>
        self.row_line = line
        self.row: list[str] | None = None
        self.head = False  # inside <thead>
        self.header = False
        self.all_th = True  # the open row has only <th> cells so far
        self.links: list[Link] = []
        self.code: list[str] = []
        self.inner: list[Block] = []  # finished tables nested in it, in document order
        self.saved: _Inline | None = None  # its open cell while a nested table is read


class _Pre:
    __slots__ = ("info", "line", "parts")

    def __init__(self, line: int, info: str):
        self.line = line
        self.info = info
        self.parts: list[str] = []


class _Parser(HTMLParser):
    def __init__(self, path: str, lang: str):
        super().__init__(convert_charrefs=True)
        self.document = Document(path=path, lang=lang, sections=[Section(0, "", 1)])
        self.section = self.document.sections[0]
        self.directives: list[Directive] = []
        self.skip: list[str] = []
        self.stack: list[tuple[str, Block | None]] = []  # open containers (tag, block)
        self.kept: list[Block] = []
        self.own: dict[int, str] = {}
        self.inline: _Inline | None = None
        self.heading: tuple[int, str | None] | None = None
        self.table: _Table | None = None  # the innermost open table
        self.outer: list[_Table] = []  # the open tables around it, outermost first
        self.pre: _Pre | None = None
        self.last_line = 1

    # -- helpers ----------------------------------------------------------------------------

    def line(self) -> int:
        return self.getpos()[0]

    def add(self, block: Block) -> None:
        if self.kept:
            self.kept[-1].children.append(block)
        else:
            self.section.blocks.append(block)

    def close_inline(self, end_line: int | None = None) -> None:
        inline = self.inline
        if inline is None:
            return
        self.inline = None
        if inline.link is not None:
            self._end_link(inline)
        text, lines = inline.text_and_lines()
        end = max(inline.line, end_line if end_line is not None else self.last_line)
        if self.heading is not None and inline.tag in _HEADINGS:
            level, anchor = self.heading
            self.heading = None
            if not self.stack:
                self.section = Section(
                    level=level,
                    title=" ".join(text.split()),
                    line=inline.line,
                    anchor=anchor,
                    links=inline.links,
                    code_spans=inline.code_spans,
                )
                self.document.sections.append(self.section)
                return
        if text or inline.links or inline.code_spans:
            block = text_block(text, inline.line, end, inline.links, inline.code_spans)
            set_text_lines(block, lines)
            self.add(block)

    def ensure_inline(self) -> _Inline:
        if self.inline is None:
            self.inline = _Inline(self.line(), "")
        return self.inline

    def _end_link(self, inline: _Inline) -> None:
        target, line, parts = inline.link
        inline.link = None
        inline.links.append(
            Link(target=target, line=line, text=_SPACE.sub(" ", "".join(parts)).strip())
        )

    # -- containers -------------------------------------------------------------------------

    def open_container(self, tag: str, attrs: dict) -> None:
        self.close_inline()
        if tag == "li":
            # an <li> closes the previous item of the same list
            for index in range(len(self.stack) - 1, -1, -1):
                open_tag = self.stack[index][0]
                if open_tag == "li":
                    self.close_to(index)
                    break
                if open_tag in ("ul", "ol"):
                    break
        if len(self.kept) >= MAX_DEPTH:
            self.stack.append((tag, None))
            return
        line = self.line()
        block = Block(_CONTAINERS[tag], "", line, line, children=[], ordered=tag == "ol")
        self.stack.append((tag, block))
        self.kept.append(block)

    def close_to(self, index: int) -> None:
        """Close the containers from the top of the stack down to ``index`` included."""
        self.close_inline()
        while len(self.stack) > index:
            _tag, block = self.stack.pop()
            if block is None:
                continue
            self.kept.pop()
            block.end_line = max(block.line, self.last_line)
            own = ""
            own_lines = None
            if block.kind is BlockKind.ITEM and block.children:
                first = block.children[0]
                if first.kind is BlockKind.PARAGRAPH:
                    block.children.pop(0)
                    own = first.text
                    own_lines = first.file_lines()
                    block.links = first.links
                    block.code_spans = first.code_spans
            set_container_text(block, own, own_lines)
            self.add(block)

    # -- parser callbacks -------------------------------------------------------------------

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.skip:
            if self.skip == ["head"] and (tag == "body" or tag in _BLOCK_LEVEL):
                self.skip.clear()  # an omitted </head>
            else:
                if tag == self.skip[-1] and tag not in _VOID:
                    self.skip.append(tag)
                return
        if tag in _SKIP:
            self.skip.append(tag)
            return
        attributes = {name.lower(): value or "" for name, value in attrs}
        if self.pre is not None:
            if tag == "code" and not self.pre.info:
                self.pre.info = _language(attributes)
            return
        if tag == "a" or tag == "img" or tag == "br" or tag == "code":
            self.inline_tag(tag, attributes)
            return
        if tag in _BLOCK_LEVEL and self.table is not None and tag not in ("tr", "td", "th"):
            if tag in ("thead", "tbody", "tfoot"):
                self.table.head = tag == "thead"
                return
            if tag == "table":
                self.open_nested_table()
            return  # other block content inside a cell: its text stays in the cell
        if tag in _BLOCK_LEVEL and self.table is None:
            self.close_inline()
        if tag in _HEADINGS:
            self.heading = (_HEADINGS[tag], attributes.get("id") or None)
            self.inline = _Inline(self.line(), tag)
        elif tag in _PARAGRAPHS:
            self.inline = _Inline(self.line(), tag)
        elif tag in _CONTAINERS:
            self.open_container(tag, attributes)
        elif tag == "pre":
            self.pre = _Pre(self.line(), _language(attributes))
        elif tag == "table":
            if self.table is None:
                self.table = _Table(self.line())
        elif tag == "tr" and self.table is not None:
            self.end_row()
            self.table.row = []
            self.table.row_line = self.line()
            self.table.all_th = True
        elif tag in ("td", "th") and self.table is not None:
            self.end_cell()
            if self.table.row is None:
                self.table.row = []
                self.table.row_line = self.line()
                self.table.all_th = True
            if tag == "td":
                self.table.all_th = False
            self.inline = _Inline(self.line(), tag)

    def inline_tag(self, tag: str, attributes: dict) -> None:
        if tag == "br":
            if self.inline is not None:
                self.inline.parts.append(_BR)
                self.inline.piece_lines.append(None)
            return
        inline = self.ensure_inline()
        line = self.line()
        if tag == "img":
            if "src" in attributes:
                inline.links.append(
                    Link(attributes["src"], line, is_image=True, text=attributes.get("alt", ""))
                )
        elif tag == "a":
            if inline.link is not None:
                self._end_link(inline)
            if "href" in attributes:
                inline.link = [attributes["href"], line, []]
        elif tag == "code":
            inline.code = []

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            return
        self.last_line = self.line()
        if self.pre is not None:
            if tag == "pre":
                self.end_pre()
            return
        inline = self.inline
        if tag == "a":
            if inline is not None and inline.link is not None:
                self._end_link(inline)
            return
        if tag == "code":
            if inline is not None and inline.code is not None:
                inline.code_spans.append(_SPACE.sub(" ", "".join(inline.code)).strip())
                inline.code = None
            return
        if tag in ("td", "th"):
            self.end_cell()
            return
        if tag == "tr":
            self.end_row()
            return
        if tag == "table":
            self.end_table()
            return
        if self.table is not None:
            if tag == "thead":
                self.end_row()
                self.table.head = False
            return
        if tag in _HEADINGS or tag in _PARAGRAPHS:
            if inline is not None and inline.tag == tag:
                self.close_inline(self.line())
            return
        if tag in _CONTAINERS:
            for index in range(len(self.stack) - 1, -1, -1):
                if self.stack[index][0] == tag:
                    self.close_to(index)
                    break
            return
        if tag in _BLOCK_LEVEL:
            self.close_inline()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.pre is not None:
            self.pre.parts.append(data)
            return
        inline = self.inline
        line = self.line()
        if inline is None:
            stripped = data.lstrip()
            if not stripped:
                return
            inline = self.inline = _Inline(
                line + data.count("\n", 0, len(data) - len(stripped)), ""
            )
        self.last_line = line + data.rstrip().count("\n")
        inline.parts.append(data)
        if inline.piece_lines[-1] is None:
            stripped = data.lstrip()
            if stripped:
                inline.piece_lines[-1] = line + data.count("\n", 0, len(data) - len(stripped))
        if inline.link is not None:
            inline.link[2].append(data)
        if inline.code is not None:
            inline.code.append(data)

    def handle_comment(self, data: str) -> None:
        self.directives.extend(directives_in(f"<!--{data}-->", self.line()))

    # -- tables and code --------------------------------------------------------------------

    def end_cell(self) -> None:
        inline, table = self.inline, self.table
        if table is None or inline is None or inline.tag not in ("td", "th"):
            return
        self.inline = None
        if inline.link is not None:
            self._end_link(inline)
        if table.row is None:
            table.row = []
        table.row.append(" ".join(inline.text().split("\n")))
        table.links.extend(inline.links)
        table.code.extend(inline.code_spans)

    def end_row(self) -> None:
        table = self.table
        if table is None:
            return
        self.end_cell()
        row = table.row
        if row is not None:
            if not table.rows and (table.head or table.all_th):
                table.header = True
            table.rows.append(row)
            table.row_lines.append(table.row_line)
            table.row = None

    def open_nested_table(self) -> None:
        """A ``<table>`` inside a table: set the enclosing one (and its open cell) aside."""
        outer = self.table
        outer.saved = self.inline
        self.inline = None
        self.outer.append(outer)
        self.table = _Table(self.line())

    def end_table(self) -> None:
        """Close the innermost open table; a nested one waits for the table holding it."""
        table = self.table
        if table is None:
            return
        self.end_row()
        rows = table.rows
        block = Block(
            BlockKind.TABLE,
            "\n".join("\t".join(row) for row in rows),
            table.line,
            max(table.line, self.last_line),
            rows=rows,
            header=table.header,
            links=table.links,
            code_spans=table.code,
        )
        set_text_lines(block, table.row_lines)
        blocks = [block, *table.inner]
        if not self.outer:
            self.table = None
            for block in blocks:
                self.add(block)
            return
        self.table = outer = self.outer.pop()
        outer.inner.extend(blocks)
        stray, self.inline, outer.saved = self.inline, outer.saved, None
        if stray is not None:  # text in the nested table but in none of its cells
            if self.inline is None:
                self.inline = stray
            else:
                self.inline.parts.append(" ")
                self.inline.parts.extend(stray.parts)
                self.inline.links.extend(stray.links)
                self.inline.code_spans.extend(stray.code_spans)

    def end_pre(self) -> None:
        pre = self.pre
        self.pre = None
        code = "".join(pre.parts)
        first = pre.line
        if code.startswith("\n"):
            code = code[1:]
            first += 1
        if code.endswith("\n"):
            code = code[:-1]
        block = Block(BlockKind.CODE, code, pre.line, max(pre.line, self.line()), info=pre.info)
        if code:
            set_lines_from(block, first)
        self.add(block)

    def finish(self) -> Document:
        self.close()
        if self.pre is not None:
            self.end_pre()
        while self.table is not None:
            self.end_table()
        self.close_to(0)
        self.close_inline()
        self.document.directives = self.directives
        return self.document


def _language(attributes: dict) -> str:
    match = _LANGUAGE.search(attributes.get("class", ""))
    return match.group(1) if match else ""


def _parse(text: str, path: str, lang: str) -> Document:
    parser = _Parser(path, lang)
    parser.feed(text)
    return parser.finish()


def parse_html(text: str, path: str, lang: str) -> Document:
    """Read HTML ``text`` (already decoded, ``\\n`` line endings) into a :class:`Document`."""
    return read_whole(text, path, lang, _parse_page)


def _parse_page(text: str, path: str, lang: str) -> Document:
    try:
        return _parse(_BAD_MARKED_SECTION.sub("&lt;![", text), path, lang)
    except AssertionError:
        # html.parser gives up on some malformed declarations; read them as text instead.
        return _parse(_DECLARATION.sub("&lt;!", text), path, lang)


__all__ = ["parse_html"]
