"""Markdown reader: CommonMark + GFM (through pyromark / pulldown-cmark) and MkDocs extras.

What it understands
-------------------
* CommonMark blocks: paragraphs, ATX and setext headings, lists (``ordered`` flag; each item
  is an :attr:`BlockKind.ITEM` child, nested lists stay inside their item), block quotes,
  fenced and indented code (``info`` = the fence's info string), HTML blocks.
* GFM: tables, strikethrough, task lists, footnotes, ``> [!NOTE]`` alerts (an admonition with
  ``info`` = the alert type in lower case).
* Heading attributes ``# Title { #id }``: the id becomes :attr:`Section.anchor` and is not part
  of the title.
* A YAML (``---``) or TOML (``+++``) metadata block at the very start becomes
  :attr:`Document.front_matter`; its lines hold no blocks.  (pulldown-cmark also reads such a
  block further down; there it becomes a code block with ``info`` ``yaml`` / ``toml``.)
* MkDocs admonitions ``!!! note "Title"`` / ``??? note`` / ``???+ note`` (body indented by four
  spaces) and the PyMdown block form ``/// tip | Title`` … ``///`` (any number of slashes from
  three, closed by a line of the same number, nestable).
* Docusaurus / Starlight asides ``:::note``, ``:::tip[Title]``, ``:::caution{title="…"}``,
  ``:::tip Title`` … ``:::`` (a closing line of *n* colons closes the innermost aside opened
  with at most *n*, so ``::::`` nests around ``:::``).
* Paired Hugo shortcodes whose tags stand on lines of their own, ``{{< note >}}`` …
  ``{{< /note >}}`` (``info`` = the name, title = its ``title`` / ``name`` / ``label``
  argument).  ``{{< highlight go >}}`` … ``{{< /highlight >}}`` and Liquid
  ``{% highlight ruby %}`` … ``{% endhighlight %}`` are fenced code (``info`` = the
  language); ``{% comment %}`` … ``{% endcomment %}`` is a comment.

  pulldown-cmark knows none of these, so the source is pre-processed first, keeping every
  line where it is: marker lines become an empty comment (:data:`BOUNDARY`, which gives no
  block but ends a paragraph or list as the container's edge does) and ``!!!`` bodies are
  de-indented; after parsing, the blocks that fall inside each region are wrapped in an
  :attr:`BlockKind.ADMONITION` block at the marker line (``info`` = the type, e.g. ``tip``;
  the title is the first line of its text).  A region that runs past a heading only wraps
  the blocks up to that heading.
* Template directives (:mod:`.directives`): a line that is only an MkDocs include —
  ``{* ../../docs_src/x.py hl[3] *}``, ``{! file.md !}``, ``--8<-- "file.md"``, or a block of
  file names between two ``--8<--`` lines — is a code block with ``info`` ``include`` also
  when it directly follows paragraph text, since those pre-processors work on lines; a
  paragraph made only of directives (Hugo shortcodes, Liquid / Jinja tags and output) is a
  code block with ``info`` ``directive``; the text of either is the normalised directives,
  so the code comparison compares target and options.  A directive inside running text is
  shortened to its name (``{{< glossary_tooltip >}}``), which is also inline code of the
  block (not of a heading).
* A :class:`Dialect` (MDX, :mod:`.mdx`) adds its own pre-processor and component tags, and
  may have no indented code: such a block's text is then read again as Markdown at its
  lines.

Inline content
--------------
Block text is the readable text: emphasis markers and link syntax are removed, link text and
inline code content are kept, soft and hard line breaks become ``\\n``, image alt text is left
out of the block text (it is the image link's ``text``).  Link and image targets (reference
links resolved; raw ``<a href>`` / ``<img src>`` included) go to :attr:`Block.links`, inline
code to :attr:`Block.code_spans`; in a heading they go to the section.

A list item's own text (its first paragraph, or the text of a tight item) is its ``text``,
``links`` and ``code_spans``; the blocks nested in it (further paragraphs, nested lists, code
…) are its ``children`` and their text is appended to the item's ``text``.

HTML
----
An HTML block's text is its visible text.  A block holding only comments, or no visible text
and no link at all (a bare ``<div>`` / ``</div>`` wrapper), is not kept as a block.
Suppression comments (docs/suppression.md) are collected wherever they appear.

Nesting deeper than :data:`~parallelcheck.readers._common.MAX_DEPTH` containers is flattened
into the deepest kept container, so no later stage needs deep recursion.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Protocol

import pyromark

from parallelcheck.model.document import (
    NO_ITEMS,
    Block,
    BlockKind,
    Directive,
    Document,
    Link,
    Section,
)
from parallelcheck.readers._common import (
    INLINE_TAGS,
    MAX_DEPTH,
    count_lines,
    directives_in,
    empty_document,
    finish,
    front_matter_end,
    html_links,
    html_text,
    html_text_lines,
    is_comment_only,
    set_container_text,
    set_lines_from,
    set_text_lines,
    shift_lines,
)
from parallelcheck.readers.directives import (
    argument,
    first_word,
    hugo_line,
    include_line,
    is_include,
    is_snippet_fence,
    liquid_line,
    normalise,
    only_directives,
    shorten,
)
from parallelcheck.readers.front_matter import read_front_matter
from parallelcheck.text.regexes import compile_pattern

_O = pyromark.Options
OPTIONS = (
    _O.ENABLE_TABLES
    | _O.ENABLE_FOOTNOTES
    | _O.ENABLE_STRIKETHROUGH
    | _O.ENABLE_TASKLISTS
    | _O.ENABLE_HEADING_ATTRIBUTES
    | _O.ENABLE_YAML_STYLE_METADATA_BLOCKS
    | _O.ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
    | _O.ENABLE_GFM
)
_PARSER = pyromark.Markdown(options=OPTIONS)

# ---------------------------------------------------------------------------------------------
# Pre-processing: admonitions, asides, paired shortcodes and line-based includes
# ---------------------------------------------------------------------------------------------

#: Deepest nesting of MkDocs admonitions that is wrapped (deeper ones are read as plain
#: content of the innermost kept one).
MAX_REGION_DEPTH = 16
_MARKERS = ("```", "~~~", "///", "!!!", "???", ":::", "{*", "{!", "{{", "{%", "--8<--")
_MARKER_ALTERNATIVES = "|".join(re.escape(marker) for marker in _MARKERS)
#: A line (after its newline) whose first non-blank characters are one of :data:`_MARKERS`.
_MARKER_LINE = compile_pattern(rf"\n[ \t]*(?:{_MARKER_ALTERNATIVES})")
_MARKER_START = compile_pattern(rf"[ \t]*(?:{_MARKER_ALTERNATIVES})")
_MARKUP = frozenset({"Emphasis", "Strong", "Strikethrough", "Superscript", "Subscript"})
#: pulldown-cmark's heading levels (H1 when none is given).
_HEADING_LEVELS = {f"H{level}": level for level in range(1, 7)}
# An include line is hidden in an HTML comment so that it interrupts a paragraph, as the MkDocs
# include pre-processor (which works on lines) does; the comment is undone after parsing.
_INCLUDE_OPEN = "<!--parallelcheck:include "
_INCLUDE_MARK = compile_pattern(r"<!--parallelcheck:include (.*?)-->", re.DOTALL)
#: What a container's marker line becomes: an empty comment, which gives no block but ends a
#: paragraph or a list just as the container's edge does (a blank line would let a list
#: before an aside run on into the aside's own list).
BOUNDARY = "<!---->"
_BOUNDARY_LINE = compile_pattern(r"^[ \t]*<!---->$", re.MULTILINE)
#: A dialect's pre-processor hides a component's tag the same way (see :class:`Dialect`).
COMPONENT_OPEN = "<!--parallelcheck:component "
_COMPONENT_MARK = compile_pattern(r"<!--parallelcheck:component (.*?)-->", re.DOTALL)
_FENCE_OPEN = compile_pattern(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_BLOCK_OPEN = compile_pattern(
    r"^[ \t]*(/{3,})[ \t]*([A-Za-z][\w-]*)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$"
)
_BLOCK_CLOSE = compile_pattern(r"^[ \t]*(/{3,})[ \t]*$")
_BANG_OPEN = compile_pattern(
    r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+[\w-]+)*[ \t]*(?:\"(.*)\")?[ \t]*$"
)
_ASIDE_OPEN = compile_pattern(
    r"^[ \t]*(:{3,})[ \t]*([A-Za-z][\w-]*)[ \t]*(?:\[(.*?)\])?[ \t]*(?:\{(.*)\})?[ \t]*(.*?)[ \t]*$"
)
_ASIDE_CLOSE = compile_pattern(r"^[ \t]*(:{3,})[ \t]*$")
_SPACE_RUN = compile_pattern(r"(?<=\S)[ \t]{2,}")
#: Paired Hugo shortcodes whose content is code, not Markdown.
_CODE_SHORTCODES = frozenset({"highlight"})
#: Liquid block tags and the tag that ends them: fenced code, or a comment.
_LIQUID_BLOCKS = {"highlight": "endhighlight", "comment": "endcomment"}


@dataclass
class Region:
    """A container found by a pre-processor: marker line, last line, type and title (an
    admonition, an aside, a paired shortcode, a component); ``links`` and ``code_spans`` are
    facts of its opening marker (a component's attributes)."""

    start: int
    end: int
    kind: str
    title: str
    links: list[Link] = field(default_factory=list)
    code_spans: list[str] = field(default_factory=list)


@dataclass
class Facts:
    """What a dialect's component tag gives the block it stands in: translatable text (such as
    a ``title`` attribute), link targets, and untranslatable values kept as inline code."""

    text: str = ""
    links: list[Link] = field(default_factory=list)
    code_spans: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.text or self.links or self.code_spans)


class Dialect(Protocol):
    """A Markdown dialect read through this reader (MDX): a pre-processor run before
    :func:`preprocess`, and what its component tags say (``None`` for a tag that is no
    component).  A pre-processor that keeps a component tag for the builder hides it in an
    HTML comment starting with :data:`COMPONENT_OPEN`."""

    #: Whether the dialect has indented code blocks (MDX has none: such a block's text is
    #: read again as Markdown).
    indented_code: bool

    def prepare(self, text: str) -> tuple[str, list[Region]]: ...

    def facts(self, html: str, line: int) -> Facts | None: ...


_TAG_NAME = compile_pattern(r"</?([A-Za-z][A-Za-z0-9-]*)")
_front_matter_end = front_matter_end


def _tag_name(html: str) -> str | None:
    """The name of the tag *html* starts with, in lower case (``None``: no tag)."""
    match = _TAG_NAME.match(html)
    return None if match is None else match.group(1).lower()


def _is_inline_tag(html: str) -> bool:
    name = _tag_name(html)
    return name is None or name in INLINE_TAGS


def preprocess(text: str) -> tuple[str, list[Region]]:
    """Blank admonition, aside and paired-shortcode marker lines, de-indent ``!!!`` bodies,
    turn Hugo / Liquid ``highlight`` blocks into fenced code and Liquid comments into HTML
    comments, and wrap include lines (``{* … *}``, ``{! … !}``, ``--8<--``) in a marker
    comment (so they stand alone even right under paragraph text), keeping every line where
    it is.  Fenced code is left alone.

    Returns the text to parse and the regions (1-based lines) found in it.
    """
    candidates = _candidate_lines(text)
    if not candidates:
        return text, []
    lines = text.split("\n")
    state = _Preprocessor(lines)
    skip = _front_matter_end(lines)
    for index in candidates:
        if index >= skip:
            state.visit(index)
    return "\n".join(lines), _bounded(state.regions)


class _Preprocessor:
    """The line-by-line state of :func:`preprocess`: open fence, open blocks and asides,
    shortcodes waiting for their closing tag."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        count = len(lines)
        self.total = max(1, count - 1 if lines and lines[-1] == "" else count)  # file lines
        self.regions: list[Region] = []
        self.slashes: list[tuple[int, Region]] = []  # (slash count, region) of open ///
        self.colons: list[tuple[int, Region]] = []  # (colon count, region) of open :::
        self.shortcodes: list[tuple[str, int, str]] = []  # (name, line index, arguments)
        self.fence: tuple[str, int] | None = None
        self.resume = 0  # lines before this index belong to a block already handled

    def visit(self, index: int) -> None:
        if index < self.resume:
            return
        line = self.lines[index]
        stripped = line.lstrip(" \t")
        if self.fence is not None:
            self.close_fence(stripped)
            return
        first = stripped[:1]
        if first in ("`", "~"):
            self.open_fence(line)
        elif first == "/":
            self.slash_block(index, line)
        elif first == ":":
            self.aside(index, line)
        elif first == "{":
            self.brace(index, line)
        elif first == "-":
            self.snippet(index, line)
        elif first in ("!", "?"):
            self.bang(index, line)

    # -- fences -------------------------------------------------------------------------

    def open_fence(self, line: str) -> None:
        match = _FENCE_OPEN.match(line)
        if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
            self.fence = (match.group(1)[0] * 3, len(match.group(1)))

    def close_fence(self, stripped: str) -> None:
        fence = self.fence
        if fence is not None and stripped.startswith(fence[0]):
            run = len(stripped) - len(stripped.lstrip(fence[0][0]))
            if run >= fence[1] and not stripped[run:].strip():
                self.fence = None

    # -- /// blocks and ::: asides ------------------------------------------------------

    def slash_block(self, index: int, line: str) -> None:
        match = _BLOCK_OPEN.match(line)
        if match:
            region = Region(index + 1, self.total, match.group(2).lower(), match.group(3) or "")
            self.regions.append(region)
            self.slashes.append((len(match.group(1)), region))
            self.boundary(index)
            return
        match = _BLOCK_CLOSE.match(line)
        slashes = len(match.group(1)) if match else 0
        for depth in range(len(self.slashes) - 1, -1, -1):
            if self.slashes[depth][0] == slashes:
                self.close(self.slashes, depth, index)
                return

    def aside(self, index: int, line: str) -> None:
        """``:::note``, ``:::tip[Title]``, ``:::caution{title="…"}``, ``:::tip Title`` …
        ``:::`` (Docusaurus, Starlight, remark-directive).  A closing line of *n* colons
        closes the innermost open aside opened with at most *n*."""
        match = _ASIDE_OPEN.match(line)
        if match:
            title = match.group(3) or argument(match.group(4) or "", "title") or match.group(5)
            region = Region(index + 1, self.total, match.group(2).lower(), title or "")
            self.regions.append(region)
            self.colons.append((len(match.group(1)), region))
            self.boundary(index)
            return
        match = _ASIDE_CLOSE.match(line)
        if match is None:
            return
        colons = len(match.group(1))
        for depth in range(len(self.colons) - 1, -1, -1):
            if self.colons[depth][0] <= colons:
                self.close(self.colons, depth, index)
                return

    def close(self, stack: list[tuple[int, Region]], depth: int, index: int) -> None:
        for _, region in stack[depth:]:
            region.end = index + 1
        del stack[depth:]
        self.boundary(index)

    def boundary(self, index: int) -> None:
        """Replace a container's marker line by :data:`BOUNDARY` at the marker's indentation."""
        self.lines[index] = boundary_line(self.lines[index])

    # -- includes -----------------------------------------------------------------------

    def brace(self, index: int, line: str) -> None:
        if self.include(index, line):
            return
        stripped = line.strip()
        if stripped.startswith("{{"):
            self.shortcode(index, line)
        elif stripped.startswith("{%"):
            self.liquid(index, line)

    def include(self, index: int, line: str) -> bool:
        found = include_line(line)
        if found is None:
            return False
        self.lines[index] = f"{found[0]}{_INCLUDE_OPEN}{found[1]}-->"
        return True

    def snippet(self, index: int, line: str) -> None:
        """``--8<-- "file"`` alone on its line, or a block of file names between two bare
        ``--8<--`` lines."""
        if self.include(index, line) or not is_snippet_fence(line):
            return
        lines = self.lines
        for end in range(index + 1, len(lines)):
            if not lines[end].strip():
                return  # a blank line: no snippet block
            if is_snippet_fence(lines[end]):
                indent = line[: len(line) - len(line.lstrip(" \t"))]
                lines[index] = f"{indent}{_INCLUDE_OPEN}--8<--"
                lines[end] = f"{lines[end].rstrip()}-->"
                self.resume = end + 1
                return

    # -- Hugo shortcodes and Liquid blocks ----------------------------------------------

    def shortcode(self, index: int, line: str) -> None:
        """A paired Hugo shortcode whose opening and closing tags stand on lines of their own
        is a container (``info`` = its name, title = its ``title`` / ``name`` argument);
        ``highlight`` and ``code`` pairs are fenced code."""
        found = hugo_line(line)
        if found is None:
            return
        closing, name, _, arguments = found
        if not closing:
            if name in _CODE_SHORTCODES and self.code_pair(index, line, name, arguments):
                return
            self.shortcodes.append((name, index, arguments))
            return
        for depth in range(len(self.shortcodes) - 1, -1, -1):
            opened, start, arguments = self.shortcodes[depth]
            if opened == name:
                title = argument(arguments, "title", "name", "label")
                self.regions.append(Region(start + 1, index + 1, name, title))
                self.boundary(start)
                self.boundary(index)
                del self.shortcodes[depth:]
                return

    def code_pair(self, index: int, line: str, name: str, arguments: str) -> bool:
        for end in range(index + 1, len(self.lines)):
            found = hugo_line(self.lines[end])
            if found is not None and found[0] and found[1] == name:
                language = first_word(arguments) or argument(arguments, "lang", "language")
                self.fenced(index, end, line, language)
                return True
        return False

    def liquid(self, index: int, line: str) -> None:
        """``{% highlight ruby %}`` … ``{% endhighlight %}`` is fenced code;
        ``{% comment %}`` … ``{% endcomment %}`` an HTML comment."""
        found = liquid_line(line)
        if found is None or found[0] not in _LIQUID_BLOCKS:
            return
        name, arguments = found
        for end in range(index + 1, len(self.lines)):
            closing = liquid_line(self.lines[end])
            if closing is not None and closing[0] == _LIQUID_BLOCKS[name]:
                if name == "highlight":
                    self.fenced(index, end, line, first_word(arguments))
                else:
                    self.lines[index] = _indent_of(line) + "<!--"
                    self.lines[end] = _indent_of(self.lines[end]) + "-->"
                    self.resume = end + 1
                return

    def fenced(self, start: int, end: int, line: str, language: str) -> None:
        indent = _indent_of(line)
        longest = max((_backtick_run(text) for text in self.lines[start + 1 : end]), default=0)
        fence = "`" * max(3, longest + 1)
        self.lines[start] = f"{indent}{fence}{language}"
        self.lines[end] = f"{indent}{fence}"
        self.resume = end + 1

    # -- !!! admonitions ----------------------------------------------------------------

    def bang(self, index: int, line: str) -> None:
        match = _BANG_OPEN.match(line)
        if not match:
            return
        lines = self.lines
        indent = _width(match.group(1))
        last = index
        body = index + 1
        while body < len(lines):
            candidate = lines[body]
            if not candidate.strip():
                body += 1
                continue
            lead = len(candidate) - len(candidate.lstrip(" \t"))
            if _width(candidate[:lead]) < indent + 4:
                break
            lines[body] = " " * indent + _expand(candidate[:lead])[indent + 4 :] + candidate[lead:]
            last = body
            body += 1
        self.regions.append(
            Region(index + 1, last + 1, match.group(2).lower(), match.group(3) or "")
        )
        lines[index] = ""


def _whole_include(html: str) -> str | None:
    """What the include comment that is all of ``html`` (blank space around it aside) hides,
    or ``None``: ``_INCLUDE_MARK.fullmatch(html.strip()).group(1)``, by slicing (the
    commonest HTML block of a FastAPI page).  Exact: a full match must begin with
    :data:`_INCLUDE_OPEN` and end with ``-->`` without the two overlapping, and the lazy
    group, which may hold anything (``re.DOTALL``), is then all that lies between."""
    stripped = html.strip()
    if (
        stripped.startswith(_INCLUDE_OPEN)
        and stripped.endswith("-->")
        and len(stripped) >= len(_INCLUDE_OPEN) + 3
    ):
        return stripped[len(_INCLUDE_OPEN) : -3]
    return None


def boundary_line(line: str) -> str:
    """:data:`BOUNDARY` at the indentation of ``line``."""
    return _indent_of(line) + BOUNDARY


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _backtick_run(line: str) -> int:
    stripped = line.lstrip(" \t")
    return len(stripped) - len(stripped.lstrip("`"))


def _bounded(regions: list[Region]) -> list[Region]:
    """Drop regions nested deeper than :data:`MAX_REGION_DEPTH` (their markers stay blank)."""
    kept: list[Region] = []
    enclosing: list[Region] = []
    for region in sorted(regions, key=lambda r: (r.start, -r.end)):
        while enclosing and enclosing[-1].end < region.start:
            enclosing.pop()
        if len(enclosing) < MAX_REGION_DEPTH:
            kept.append(region)
        enclosing.append(region)
    return kept


def _candidate_lines(text: str) -> list[int]:
    """0-based indices of the lines that may open or close a fence, an admonition, an aside,
    a shortcode or an include: lines whose first non-blank characters are one of
    :data:`_MARKERS`.

    One scan of the text by :data:`_MARKER_LINE`, which starts with a newline so that the
    regular expression engine skips ahead to each newline at C speed (a ``^`` pattern is
    tried at every character, and a :meth:`str.find` per marker scans the text eleven
    times); the first line, which follows no newline, is matched on its own.
    """
    indices = [0] if _MARKER_START.match(text) else []
    line = previous = 0
    count = text.count
    for match in _MARKER_LINE.finditer(text):
        newline = match.start()
        line += count("\n", previous, newline) + 1
        previous = newline + 1
        indices.append(line)
    return indices


def _expand(whitespace: str) -> str:
    return whitespace.expandtabs(4) if "\t" in whitespace else whitespace


def _width(whitespace: str) -> int:
    return len(_expand(whitespace))


# ---------------------------------------------------------------------------------------------
# Event processing
# ---------------------------------------------------------------------------------------------


class _Inline:
    """Inline content being collected for one paragraph, heading, table cell or tight item."""

    __slots__ = (
        "breaks",
        "code_from",
        "code_spans",
        "directive_spans",
        "end",
        "image_depth",
        "implicit",
        "line",
        "link_stack",
        "links",
        "parts",
        "start",
    )

    def __init__(self, line: int, start: int, implicit: bool = False):
        self.parts: list[str] = []
        self.start = start
        self.end = start
        # The lists below are the shared empty NO_ITEMS until something is put in them (most
        # content has no break, link or directive; many no inline code): see _extended.
        self.breaks: list[int] = NO_ITEMS  # the file line after each line break put in parts
        self.links: list[Link | None] = NO_ITEMS
        self.code_spans: list[str] = NO_ITEMS
        self.directive_spans: list[str] = NO_ITEMS  # the shortened directives among code_spans
        self.link_stack: list[list] = NO_ITEMS  # [slot, target, line, is_image, text parts]
        self.image_depth = 0
        self.line = line
        self.implicit = implicit
        self.code_from = -1  # where in parts an open <code> tag's text starts (-1: none open)

    def add(self, text: str, end: int) -> None:
        """Take in readable text (or inline code) that ends at byte *end*: it is the text
        of the links being read, and of the content unless an image's alt text."""
        self.end = end
        if self.link_stack:
            self.link_stack[-1][4].append(text)
        if not self.image_depth:
            self.parts.append(text)

    def open_html_code(self) -> None:
        """A ``<code>`` tag opens: the text up to its ``</code>`` is inline code."""
        self.code_from = len(self.parts)

    def close_html_code(self) -> None:
        """A ``</code>`` tag closes: the text since ``<code>`` (links in it included) is one
        more inline code span, as a backtick span's is."""
        if self.code_from < 0:
            return
        code = "".join(self.parts[self.code_from :]).strip()
        self.code_from = -1
        if "  " in code:
            code = _SPACE_RUN.sub(" ", code)
        if code:
            self.code_spans = _extended(self.code_spans, (code,))

    def add_break(self, line: int) -> None:
        """A line break in the content (a soft or hard break, a ``<br>``); *line* is the
        file line of the text after it."""
        self.parts.append("\n")
        self.breaks = _extended(self.breaks, (line,))

    def text(self) -> str:
        text = "".join(self.parts).strip()
        if "  " in text:
            text = _SPACE_RUN.sub(" ", text)
        return text

    def text_and_lines(self) -> tuple[str, list[int] | None]:
        """:meth:`text`, and the file line of each of its lines: the line where the content
        starts, then the line after each break (the line itself for a ``<br>``); the content's
        line for every line when some line break is not one of those (a component's text);
        ``None`` for text of one line."""
        full = "".join(self.parts)
        text = full.strip()
        if "  " in text:
            text = _SPACE_RUN.sub(" ", text)
        if "\n" not in text:
            return text, None  # one line, at the content's line
        lines = [self.line, *self.breaks]
        if full.count("\n") != len(self.breaks):
            return text, [self.line] * (text.count("\n") + 1)
        lead = full[: len(full) - len(full.lstrip())].count("\n")
        trail = full[len(full.rstrip()) :].count("\n")
        return text, lines[lead : len(lines) - trail]

    def heading_code(self) -> list[str]:
        """The inline code of a heading: a directive there (``{{% heading "objectives" %}}``)
        stays in the title but is no fact of it (no rule judges a heading's language)."""
        if not self.directive_spans:
            return self.code_spans
        spans = list(self.code_spans)
        for directive in self.directive_spans:
            spans.remove(directive)
        return spans

    def done_links(self) -> list[Link]:
        links = self.links
        return [link for link in links if link is not None] if links else links


def _extended(items: list, more: Iterable) -> list:
    """*items* with *more* put at its end: *items* itself when it is a list of its own, a new
    list in place of the shared, unchangeable :data:`NO_ITEMS`."""
    if items is NO_ITEMS:
        return list(more)
    items.extend(more)
    return items


class _Frame:
    """A container block being built: list, item, quote or alert."""

    __slots__ = ("block", "own")

    def __init__(self, block: Block):
        self.block = block
        self.own = ""


class _Table:
    __slots__ = (
        "code_spans",
        "header",
        "line",
        "links",
        "row",
        "row_line",
        "row_lines",
        "rows",
        "start",
    )

    def __init__(self, line: int, start: int):
        self.line = line
        self.start = start  # the byte offset where the table's first line starts
        self.rows: list[list[str]] = []
        self.row_lines: list[int] = []  # the file line of each row
        self.row: list[str] | None = None
        self.row_line = line
        self.header = False
        self.links: list[Link] = []
        self.code_spans: list[str] = []


class _Builder:
    def __init__(
        self, source: str, path: str, lang: str, dialect: Dialect | None = None, depth: int = 0
    ):
        self.dialect = dialect
        self.depth = depth  # containers around this text (a block read again: see add_reread)
        self.data = source.encode("utf-8")
        # the byte offset line_of was last asked about, and its line (see line_of)
        self.at = 0
        self.at_line = 1
        self.document = Document(
            path=path, lang=lang, sections=[Section(level=0, title="", line=1)]
        )
        self.section = self.document.sections[0]
        self.directives: list[Directive] = []
        # Every Start of a container pushes a _Frame, or None when it is not kept (too deep,
        # footnote definitions): blocks then go to the nearest kept container.
        self.stack: list[_Frame | None] = []
        self.frames: list[_Frame] = []
        self.own_text: dict[int, str] = {}
        self.own_lines: dict[int, list[int]] = {}  # the file lines of an item's own text
        self.inline: _Inline | None = None
        self.table: _Table | None = None
        self.raw: list[tuple[str, int]] | None = None  # code / html / metadata text pieces
        self.raw_kind = ""
        self.raw_info = ""
        self.raw_start = 0
        self.seen_block = False
        self.heading: dict = {}

    # -- positions --------------------------------------------------------------------------

    def line_of(self, offset: int) -> int:
        """The line of byte ``offset`` (not negative): one more than the newlines before it.

        They are counted from the offset asked about last, whose line is kept: the events
        come in the order of the text, so nearly every offset asked about lies at or after
        the one before, and the newlines of the whole text are counted about once — instead
        of a table of where each line starts, made for every text (a bytes object per line)
        to be searched a few times per paragraph.  An offset before the last one counts the
        newlines between them back."""
        at = self.at
        if offset >= at:
            self.at_line += self.data.count(b"\n", at, offset)
        else:
            self.at_line -= self.data.count(b"\n", offset, at)
        self.at = offset
        return self.at_line

    def end_line_of(self, start: int, end: int) -> int:
        """Line of the last non-blank byte of ``[start, end)`` (0 for an empty range at the
        text's start)."""
        data = self.data
        index = end - 1
        while index > start and data[index] in b" \t\n":
            index -= 1
        return self.line_of(index) if index >= 0 else 0

    # -- output -----------------------------------------------------------------------------

    def add(self, block: Block) -> None:
        self.seen_block = True
        if self.frames:
            self.frames[-1].block.children.append(block)
        else:
            self.section.blocks.append(block)

    def add_paragraph(
        self, inline: _Inline, text: str, links: list[Link], end: int, lines: list[int] | None
    ) -> None:
        block = Block(
            BlockKind.PARAGRAPH,
            text,
            inline.line,
            end,
            links=links or NO_ITEMS,
            code_spans=inline.code_spans or NO_ITEMS,
        )
        if lines is not None:
            set_text_lines(block, lines)
        self.add(block)

    def flush_implicit(self) -> None:
        """A tight item's text ends where a nested block starts: keep it as a paragraph."""
        inline = self.inline
        if inline is not None and inline.implicit:
            self.inline = None
            text, lines = inline.text_and_lines()
            links = inline.done_links()
            if text or links or inline.code_spans:
                end = max(inline.line, self.end_line_of(inline.start, inline.end))
                self.add_paragraph(inline, text, links, end, lines)

    def ensure_inline(self, offset: int) -> _Inline:
        inline = self.inline
        if inline is None:
            inline = self.inline = _Inline(self.line_of(offset), offset, implicit=True)
        return inline

    # -- the event loop ---------------------------------------------------------------------

    def run(self, events) -> Document:
        """Feed every event to its handler and return the document.

        This loop runs once per event (more than half a million for the FastAPI docs), so the
        commonest events (text, inline code, emphasis and other markup) are handled here, and
        the handler of any other start or end is looked up by its tag in a table
        (:meth:`handlers`, made once) instead of being found by a chain of comparisons.  A tag
        comes as a string (``"Paragraph"``) or as a one-key dict (``{"Heading": {...}}``); each
        form has its own table, so a tag only ever seen in the one form does nothing in the
        other.
        """
        starts, dict_starts, ends, dict_ends = _HANDLERS
        markup = _MARKUP
        for event, span in events:
            if event.__class__ is str:
                self.on_break(event, span)
                continue
            text = event.get("Text")
            if text is not None:
                inline = self.inline
                if self.raw is not None:
                    self.raw.append((text, span["start"]))
                    continue
                if inline is None:
                    inline = self.ensure_inline(span["start"])
                inline.end = span["end"]
                if "{" in text:
                    text, spans = shorten(text)
                    inline.code_spans = _extended(inline.code_spans, spans)
                    inline.directive_spans = _extended(inline.directive_spans, spans)
                if inline.link_stack:
                    inline.link_stack[-1][4].append(text)
                if not inline.image_depth:
                    inline.parts.append(text)
                continue
            tag = event.get("Start")
            if tag is not None:
                plain, named = starts, dict_starts
            else:
                tag = event.get("End")
                plain, named = ends, dict_ends
            if tag is not None:
                if tag.__class__ is str:
                    if tag not in markup:
                        handler = plain.get(tag)
                        if handler is not None:
                            handler(self, None, span)
                else:
                    name, value = next(iter(tag.items()))
                    handler = named.get(name)
                    if handler is not None:
                        handler(self, value, span)
                continue
            code = event.get("Code")
            if code is not None:
                inline = self.inline or self.ensure_inline(span["start"])
                if inline.code_spans:
                    inline.code_spans.append(code)
                else:
                    inline.code_spans = [code]
                inline.add(code, span["end"])
                continue
            self.on_other(event, span)
        self.flush_implicit()
        self.document.directives = self.directives
        return self.document

    @classmethod
    def handlers(cls) -> tuple[dict, dict, dict, dict]:
        """The handlers of :meth:`run`, by tag: of starts given as a string and as a dict,
        of ends given as a string and as a dict (each a function, called with the builder, the
        dict's value, ``None`` for a string, and the span; the tables are made once, when the
        module is loaded: :data:`_HANDLERS`).  Tags not listed (emphasis and other markup,
        footnote references …) give nothing."""
        starts = {
            "Paragraph": cls.start_paragraph,
            "Item": cls.start_item,
            "TableRow": cls.start_row,
            "TableHead": cls.start_head,
            "TableCell": cls.start_cell,
            "HtmlBlock": cls.start_html,
            "FootnoteDefinition": cls.start_footnote,
        }
        dict_starts = {
            "Link": cls.start_link,
            "Image": cls.start_image,
            "Heading": cls.start_heading,
            "List": cls.start_list,
            "BlockQuote": cls.start_quote,
            "CodeBlock": cls.start_code,
            "Table": cls.start_table,
            "MetadataBlock": cls.start_metadata,
            "FootnoteDefinition": cls.start_footnote,
        }
        ends = {
            "Paragraph": cls.end_paragraph,
            "Item": cls.end_item,
            "TableCell": cls.end_cell,
            "TableRow": cls.end_row,
            "TableHead": cls.end_row,
            "Table": cls.end_table,
            "CodeBlock": cls.end_raw,
            "HtmlBlock": cls.end_raw,
            "Link": cls.end_link,
            "Image": cls.end_link,
            "FootnoteDefinition": cls.end_footnote,
        }
        dict_ends = {
            "Heading": cls.end_heading,
            "List": cls.end_container,
            "BlockQuote": cls.end_container,
            "MetadataBlock": cls.end_raw,
        }
        return starts, dict_starts, ends, dict_ends

    def on_break(self, event: str, span: dict) -> None:
        if event == "Rule":
            self.flush_implicit()
            return
        inline = self.inline
        if inline is None:
            return
        if inline.link_stack:
            inline.link_stack[-1][4].append(" ")
        if not inline.image_depth:
            inline.add_break(self.line_of(span["end"]))

    def on_text(self, text: str, span: dict) -> None:
        raw = self.raw
        if raw is not None:
            raw.append((text, span["start"]))
            return
        (self.inline or self.ensure_inline(span["start"])).add(text, span["end"])

    def on_other(self, event: dict, span: dict) -> None:
        """Raw HTML; text and inline code are handled in :meth:`run`."""
        html = event.get("Html")
        if html is not None:
            if self.raw is not None:
                self.raw.append((html, span["start"]))
            return
        html = event.get("InlineHtml")
        if html is not None:
            self.on_inline_html(html, span)
            return
        # FootnoteReference, TaskListMarker, math: no readable text of their own.

    def on_inline_html(self, html: str, span: dict) -> None:
        line = self.line_of(span["start"])
        if self.dialect is not None:
            # a component comment is undone for the dialect (no sub to run when there is none)
            tag = _COMPONENT_MARK.sub(r"\1", html) if COMPONENT_OPEN in html else html
            facts = self.dialect.facts(tag, line)
            if facts is not None:
                self.add_facts(facts, span)
                return
        if html.startswith("<!--"):
            if html.startswith(_INCLUDE_OPEN):
                self.on_text(_INCLUDE_MARK.sub(r"\1", html), span)
                return
            self.directives.extend(directives_in(html, line))
            return
        lowered = html[:5].lower()
        if lowered.startswith("<br"):
            if self.inline is not None:
                self.inline.add_break(self.line_of(span["end"]))
            return
        if lowered.startswith(("<a ", "<a\t", "<a\n", "<img")):
            inline = self.inline or self.ensure_inline(span["start"])
            inline.links = _extended(inline.links, html_links(html, line))
        elif lowered.startswith(("<code", "</cod")) and _tag_name(html) == "code":
            if html[1] != "/":
                (self.inline or self.ensure_inline(span["start"])).open_html_code()
            elif self.inline is not None:
                self.inline.close_html_code()
        elif self.inline is not None and not _is_inline_tag(html):
            self.inline.parts.append(" ")  # <td>, <p>, <li> … separate the words around them

    def add_facts(self, facts: Facts, span: dict) -> None:
        """A component tag in running text: its text joins the text, its values the inline
        code, its targets the links."""
        if not facts:
            return
        inline = self.inline or self.ensure_inline(span["start"])
        inline.end = span["end"]
        if facts.text:
            inline.parts.append(f" {facts.text} ")
        inline.links = _extended(inline.links, facts.links)
        inline.code_spans = _extended(inline.code_spans, facts.code_spans)

    # -- starts -----------------------------------------------------------------------------

    def start_paragraph(self, value: None, span: dict) -> None:
        if self.inline is not None:
            self.flush_implicit()
        start = span["start"]
        self.inline = _Inline(self.line_of(start), start)

    def start_item(self, value: None, span: dict) -> None:
        self.flush_implicit()
        self.open_container(BlockKind.ITEM, span)

    def start_row(self, value: None, span: dict) -> None:
        if self.table is not None:
            self.table.row = []
            self.table.row_line = self.line_of(span["start"])

    def start_head(self, value: None, span: dict) -> None:
        if self.table is not None:
            self.table.row = []
            self.table.row_line = self.line_of(span["start"])
            self.table.header = True

    def start_cell(self, value: None, span: dict) -> None:
        self.inline = _Inline(self.line_of(span["start"]), span["start"])

    def start_html(self, value: None, span: dict) -> None:
        self.flush_implicit()
        self.begin_raw("html", "", span)

    def start_footnote(self, value: object, span: dict) -> None:
        self.flush_implicit()
        self.stack.append(None)

    def start_link(self, value: dict, span: dict, is_image: bool = False) -> None:
        inline = self.inline or self.ensure_inline(span["start"])
        entry = [len(inline.links), value["dest_url"], self.line_of(span["start"]), is_image, []]
        inline.link_stack = _extended(inline.link_stack, (entry,))
        inline.links = _extended(inline.links, (None,))
        if is_image:
            inline.image_depth += 1

    def start_image(self, value: dict, span: dict) -> None:
        self.start_link(value, span, is_image=True)

    def start_heading(self, value: dict, span: dict) -> None:
        self.flush_implicit()
        self.inline = _Inline(self.line_of(span["start"]), span["start"])
        self.heading = value

    def start_list(self, value: int | None, span: dict) -> None:
        self.flush_implicit()
        frame = self.open_container(BlockKind.LIST, span)
        if frame is not None:
            frame.block.ordered = value is not None

    def start_quote(self, value: str | None, span: dict) -> None:
        self.flush_implicit()
        if value:
            frame = self.open_container(BlockKind.ADMONITION, span)
            if frame is not None:
                frame.block.info = str(value).lower()
        else:
            self.open_container(BlockKind.QUOTE, span)

    def start_code(self, value: dict | str, span: dict) -> None:
        self.flush_implicit()
        fenced = isinstance(value, dict)
        self.begin_raw(
            "code" if fenced else "indented", value["Fenced"].strip() if fenced else "", span
        )

    def start_table(self, value: object, span: dict) -> None:
        self.flush_implicit()
        start = span["start"]
        line_start = self.data.rfind(b"\n", 0, start) + 1
        self.table = _Table(self.line_of(start), line_start)

    def start_metadata(self, value: str, span: dict) -> None:
        self.flush_implicit()
        self.begin_raw("meta", "yaml" if value == "YamlStyle" else "toml", span)

    def open_container(self, kind: BlockKind, span: dict) -> _Frame | None:
        if len(self.frames) + self.depth >= MAX_DEPTH:
            self.stack.append(None)
            return None
        line = self.line_of(span["start"])
        frame = _Frame(Block(kind, "", line, line, children=[]))
        self.stack.append(frame)
        self.frames.append(frame)
        return frame

    def begin_raw(self, kind: str, info: str, span: dict) -> None:
        self.raw = []
        self.raw_kind = kind
        self.raw_info = info
        self.raw_start = span["start"]

    # -- ends -------------------------------------------------------------------------------

    def end_container(self, value: object, span: dict) -> None:
        start, end = span["start"], span["end"]
        self.flush_implicit()
        self.close_container(start, end)

    def end_item(self, value: object, span: dict) -> None:
        """The end of a list item.  A tight item whose content is one line of text (the
        commonest item) takes that text, its links and its inline code as its own directly:
        what :meth:`flush_implicit` and :meth:`close_container` give it, without the paragraph
        block the one makes and the other takes apart again.  Any other item is closed by
        them."""
        inline, stack = self.inline, self.stack
        frame = stack[-1] if stack else None
        if inline is None or not inline.implicit or frame is None or frame.block.children:
            self.end_container(value, span)
            return
        text, lines = inline.text_and_lines()
        if lines is not None:  # text of several lines: their file lines as a paragraph's
            self.end_container(value, span)
            return
        self.inline = None
        stack.pop()
        self.frames.pop()
        block = frame.block
        block.end_line = max(block.line, self.end_line_of(span["start"], span["end"]))
        links = inline.done_links()
        if text or links or inline.code_spans:
            block.links = links or NO_ITEMS
            block.code_spans = inline.code_spans or NO_ITEMS
            block.children = NO_ITEMS
            self.own_text[id(block)] = text
            self.own_lines[id(block)] = [inline.line] if text else []
            # a container without children: its text is its own text, of one line here
            # (what set_container_text gives, without its walk over the children)
            block.text = text
            set_text_lines(block, [inline.line] if text else None)
        # else: no text and no children, the text and lines the item was opened with
        self.add(block)

    def end_cell(self, value: object, span: dict) -> None:
        inline, table = self.inline, self.table
        self.inline = None
        if inline is not None and table is not None:
            if table.row is None:
                table.row = []
            table.row.append(" ".join(inline.text().split("\n")))
            table.links.extend(inline.done_links())
            table.code_spans.extend(inline.code_spans)

    def end_row(self, value: object, span: dict) -> None:
        table = self.table
        if table is not None and table.row is not None:
            table.rows.append(table.row)
            table.row_lines.append(table.row_line)
            table.row = None

    def end_footnote(self, value: object, span: dict) -> None:
        self.flush_implicit()
        if self.stack:
            self.stack.pop()

    def end_paragraph(self, value: object, span: dict) -> None:
        inline, self.inline = self.inline, None
        if inline is None:
            return
        text, lines = inline.text_and_lines()
        links = inline.done_links()
        if not text and not links and not inline.code_spans:
            return
        start, end = span["start"], span["end"]
        end_line = self.end_line_of(start, end)
        if text[:1] in ("{", "-") and not links:
            raw = self.data[start:end].decode("utf-8", "replace").strip()
            if only_directives(raw):
                info = "include" if is_include(raw) else "directive"
                code = Block(BlockKind.CODE, normalise(raw), inline.line, end_line, info=info)
                self.add(_unknown_lines(code))
                return
        self.add_paragraph(inline, text, links, end_line, lines)

    def end_link(self, value: object, span: dict) -> None:
        inline = self.inline
        if inline is None or not inline.link_stack:
            return
        slot, target, line, is_image, parts = inline.link_stack.pop()
        if is_image:
            inline.image_depth -= 1
        text = "".join(parts).strip()
        inline.links[slot] = Link(target=target, line=line, is_image=is_image, text=text)
        if is_image and inline.link_stack and not inline.link_stack[-1][3]:
            # an image inside a link: its alt text stands for the link text
            inline.link_stack[-1][4].append(text)

    def end_heading(self, value: object, span: dict) -> None:
        inline, self.inline = self.inline, None
        if inline is None:
            return
        heading = self.heading
        # the title's words joined by single spaces: the words of the joined parts, which
        # text()'s stripping and space folding would not change
        title = " ".join("".join(inline.parts).split())
        links = inline.done_links()
        if self.stack:
            # a heading inside a list item or quote: a paragraph of that container
            if title or links:
                self.add(
                    Block(
                        BlockKind.PARAGRAPH,
                        title,
                        inline.line,
                        self.end_line_of(span["start"], span["end"]),
                        links=links,
                        code_spans=inline.code_spans,
                    )
                )
            return
        section = Section(
            level=_HEADING_LEVELS.get(heading.get("level"), 1),
            title=title,
            line=inline.line,
            anchor=heading.get("id") or None,
            links=links or NO_ITEMS,
            code_spans=inline.heading_code() or NO_ITEMS,
        )
        self.document.sections.append(section)
        self.section = section
        self.seen_block = True

    def close_container(self, start: int, end: int) -> None:
        if not self.stack:
            return
        frame = self.stack.pop()
        if frame is None:
            return
        self.frames.pop()
        block = frame.block
        block.end_line = max(block.line, self.end_line_of(start, end))
        if block.kind is BlockKind.ITEM:
            children = block.children
            own_lines = None
            if children and children[0].kind is BlockKind.PARAGRAPH:
                first = children.pop(0)
                block.links = first.links
                block.code_spans = first.code_spans
                frame.own = first.text
                self.own_text[id(block)] = first.text
                own_lines = first.file_lines()
                self.own_lines[id(block)] = own_lines
                if not children:
                    block.children = NO_ITEMS
            set_container_text(block, frame.own, own_lines)
        else:
            set_container_text(block)
        self.add(block)

    def end_table(self, value: object, span: dict) -> None:
        end = span["end"]
        table = self.table
        self.table = None
        if table is None:
            return
        end_line = self.end_line_of(table.start, end)
        block = Block(
            BlockKind.TABLE,
            "\n".join("\t".join(row) for row in table.rows),
            table.line,
            end_line,
            rows=table.rows,
            header=table.header,
            links=table.links or NO_ITEMS,
            code_spans=table.code_spans or NO_ITEMS,
        )
        set_text_lines(block, table.row_lines)
        self.add(block)

    def end_raw(self, value: object, span: dict) -> None:
        start, end = span["start"], span["end"]
        pieces = self.raw or []
        kind, info = self.raw_kind, self.raw_info
        self.raw = None
        if kind == "html" and len(pieces) == 1 and pieces[0][0].strip() == BOUNDARY:
            return  # a container's marker line (the commonest HTML block): a bare comment
        line = self.line_of(self.raw_start)
        # the line of a code block's first piece (the line after its fence), asked before the
        # block's end so that line_of counts on instead of back
        first = self.line_of(pieces[0][1]) if pieces and kind != "html" else None
        end_line = max(line, self.end_line_of(start, end))
        if kind == "code" or kind == "indented":
            code = pieces[0][0] if len(pieces) == 1 else "".join(piece for piece, _ in pieces)
            if _INCLUDE_OPEN in code:
                code = _INCLUDE_MARK.sub(r"\1", code)
            if BOUNDARY in code:  # a marker line inside code: blank, as in the file's view
                code = _BOUNDARY_LINE.sub("", code)
            if code.endswith("\n"):
                code = code[:-1]
            if self.reread(kind):
                self.add_reread(code, line)
                return
            block = Block(BlockKind.CODE, code, line, end_line, info=info)
            self.add(self.raw_lines(block, first))
        elif kind == "meta":
            body = "".join(piece for piece, _ in pieces)
            if not self.seen_block and self.document.front_matter is None:
                self.document.front_matter = body
                self.seen_block = True
            else:
                block = Block(BlockKind.CODE, body.rstrip("\n"), line, end_line, info=info)
                self.add(self.raw_lines(block, first))
        else:
            self.end_html(pieces, line, end_line)

    def raw_lines(self, block: Block, first: int | None) -> Block:
        """Record that a code block's lines are the file's from ``first``, its first piece's
        (the line after a fence; ``None``: the block has no piece)."""
        if first is not None and block.text:
            set_lines_from(block, first)
        return block

    def reread(self, kind: str) -> bool:
        """Whether an indented code block is to be read again as Markdown (see add_reread)."""
        return (
            kind == "indented"
            and self.dialect is not None
            and not self.dialect.indented_code
            and self.depth + len(self.frames) < MAX_DEPTH
        )

    def add_reread(self, text: str, line: int) -> None:
        """An indented code block of a dialect that has none (MDX): its text, read again as
        Markdown, gives the blocks at its lines (a heading there is a paragraph)."""
        depth = self.depth + len(self.frames) + 1
        document = _parse(text, self.document.path, self.document.lang, self.dialect, depth)
        offset = line - 1
        for section in document.sections:
            if section.level and (section.title or section.links):
                heading = Block(
                    BlockKind.PARAGRAPH,
                    section.title,
                    section.line,
                    section.line,
                    links=section.links,
                    code_spans=section.code_spans,
                )
                self.add(shift_lines(heading, offset))
            for block in section.blocks:
                self.add(shift_lines(block, offset))
        for directive in document.directives:
            self.directives.append(replace(directive, line=directive.line + offset))

    def end_html(self, pieces: list[tuple[str, int]], line: int, end_line: int) -> None:
        html = pieces[0][0] if len(pieces) == 1 else "".join(piece for piece, _ in pieces)
        if _INCLUDE_OPEN in html:
            hidden = _whole_include(html)
            if hidden is not None:
                include = normalise(hidden)
                block = Block(BlockKind.CODE, include, line, end_line, info="include")
                self.add(_unknown_lines(block))
                return
            html = _INCLUDE_MARK.sub(r"\1", html)
            pieces = [(_INCLUDE_MARK.sub(r"\1", piece), offset) for piece, offset in pieces]
        if self.dialect is not None and html.lstrip().startswith(COMPONENT_OPEN):
            self.end_component(html, line, end_line)
            return
        if "<!--" in html:
            self.directives.extend(directives_in(html, line))
            if is_comment_only(html):
                return
        text = html_text(html)
        lines = html_text_lines(html, line, text) if text else []
        links: list[Link] = []
        for piece, offset in pieces:
            if "<a" in piece or "<A" in piece or "<img" in piece or "<IMG" in piece:
                links.extend(html_links(piece, self.line_of(offset)))
        facts = self.dialect.facts(html, line) if self.dialect is not None else None
        code_spans: list[str] = []
        if facts:
            if facts.text:
                lines.extend([line] * (facts.text.count("\n") + 1))
            text = "\n".join(part for part in (text, facts.text) if part)
            links.extend(facts.links)
            code_spans = facts.code_spans
        if not text and not links and not code_spans:
            return
        block = Block(
            BlockKind.HTML,
            text,
            line,
            end_line,
            links=links or NO_ITEMS,
            code_spans=code_spans or NO_ITEMS,
        )
        set_text_lines(block, lines)
        self.add(block)

    def end_component(self, html: str, line: int, end_line: int) -> None:
        """A component tag a dialect's pre-processor hid in a comment: an HTML block holding
        the tag's facts, or nothing when the tag has none (``<DontEditWarning />``)."""
        inner = _COMPONENT_MARK.sub(r"\1", html.strip())
        facts = self.dialect.facts(inner, line) if self.dialect is not None else None
        if facts:
            block = Block(
                BlockKind.HTML,
                facts.text,
                line,
                end_line,
                links=facts.links,
                code_spans=facts.code_spans,
            )
            self.add(_unknown_lines(block))

    # -- admonition regions -----------------------------------------------------------------

    def wrap_regions(self, regions: list[Region]) -> None:
        sections = self.document.sections
        heading_lines = [section.line for section in sections[1:]]
        by_line = attrgetter("line")
        for region in sorted(regions, key=lambda r: (r.end - r.start, r.start)):
            index = bisect_right(heading_lines, region.start)
            section = sections[index]
            limit = region.end
            if index < len(heading_lines):
                limit = min(limit, heading_lines[index] - 1)
            blocks = section.blocks
            path: list[Block] = []
            while True:
                at = bisect_right(blocks, region.start, key=by_line)
                host = blocks[at - 1] if at else None
                if (
                    host is not None
                    and host.children
                    and host.end_line >= region.start
                    and host.kind is not BlockKind.TABLE
                    and len(path) < MAX_DEPTH
                ):
                    path.append(host)
                    blocks = host.children
                    continue
                break
            stop = bisect_right(blocks, limit, key=by_line)
            inner = blocks[at:stop]
            if region.end <= limit:
                end_line = region.end
            else:
                end_line = max([region.start, *(b.end_line for b in inner)])
            title = region.title.strip()
            block = Block(
                BlockKind.ADMONITION,
                "",
                region.start,
                end_line,
                info=region.kind,
                children=inner,
                links=list(region.links) if region.links else NO_ITEMS,
                code_spans=list(region.code_spans) if region.code_spans else NO_ITEMS,
            )
            set_container_text(block, title)
            self.own_text[id(block)] = title
            blocks[at:stop] = [block]
            for ancestor in reversed(path):
                set_container_text(
                    ancestor,
                    self.own_text.get(id(ancestor), ""),
                    self.own_lines.get(id(ancestor)),
                )
                ancestor.end_line = max(ancestor.end_line, end_line)


#: The handler tables of :meth:`_Builder.run` (:meth:`_Builder.handlers`), made once.
_HANDLERS = _Builder.handlers()


def _unknown_lines(block: Block) -> Block:
    """A block whose text is not the file's text line for line (normalised directives, a
    component's attributes): every line of it is at the block's line."""
    if "\n" in block.text:
        block.text_lines = [block.line] * (block.text.count("\n") + 1)
    return block


_NBSP_HEADING = compile_pattern(r" {0,3}#{1,6}(?=\u00a0)")


def _nbsp_headings(text: str) -> str:
    """Put an ordinary space in place of the no-break space (U+00A0) of ``#\u00a0Title``.

    Python-Markdown (MkDocs) renders one to six ``#`` followed by a no-break space, after at
    most three spaces of indentation, as a heading; pulldown-cmark wants an ASCII space there.
    Only that one character is replaced, so every offset and line stays where it is.  Lines in
    fenced code and in the front matter are left alone, and so is ``#Title`` (no space at all),
    which is text in CommonMark.
    """
    if "\u00a0" not in text or "#\u00a0" not in text:  # the one character: a faster scan
        return text
    lines = text.split("\n")
    fence: tuple[str, int] | None = None  # (marker, length) of the open code fence
    for index in range(_front_matter_end(lines), len(lines)):
        line = lines[index]
        stripped = line.lstrip(" \t")
        if fence is not None:
            run = len(stripped) - len(stripped.lstrip(fence[0]))
            if run >= fence[1] and not stripped[run:].strip():
                fence = None
            continue
        opening = _FENCE_OPEN.match(line) if stripped[:1] in ("`", "~") else None
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            fence = (opening.group(1)[0], len(opening.group(1)))
            continue
        heading = _NBSP_HEADING.match(line)
        if heading:
            cut = heading.end()
            lines[index] = f"{line[:cut]} {line[cut + 1 :]}"
    return "\n".join(lines)


def parse_markdown(text: str, path: str, lang: str, dialect: Dialect | None = None) -> Document:
    """Read Markdown ``text`` (already decoded, ``\\n`` line endings) into a :class:`Document`;
    ``dialect`` (MDX) adds its pre-processor and its component tags."""
    document = _parse(text, path, lang, dialect, 0)
    if document.front_matter is not None:  # read as keys once, here (readers/front_matter.py)
        syntax = "toml" if text.startswith("+++") else "yaml"
        document.front_matter_data = read_front_matter(document.front_matter, syntax, path)
    return document


_METADATA_KEY = compile_pattern(r"^[A-Za-z_][\w.-]*[ \t]*[:=]")


def lift_front_matter(text: str) -> tuple[str, str | None]:
    """The text with a leading ``---`` / ``+++`` metadata block blanked (lines kept), and the
    block's body.  pulldown-cmark reads such a block only when a non-blank line follows the
    opening ``---``; Jekyll, Hugo and Astro also accept a blank one, which pulldown-cmark would
    read as a thematic break followed by a setext heading."""
    if not text.startswith(("---", "+++")):
        return text, None  # no metadata block (front_matter_end would say 0): no split
    lines = text.split("\n")
    end = front_matter_end(lines)
    if end == 0:
        return text, None
    filled = [line for line in lines[1 : end - 1] if line.strip()]
    if not lines[1].strip() and filled and not _METADATA_KEY.match(filled[0]):
        return text, None  # a thematic break, then text: not a metadata block
    body = "".join(line + "\n" for line in lines[1 : end - 1])
    lines[:end] = [""] * end
    return "\n".join(lines), body


def _parse(text: str, path: str, lang: str, dialect: Dialect | None, depth: int) -> Document:
    if not text or text.isspace():  # blank (not text.strip(): no copy of every text)
        return empty_document(path, lang, count_lines(text))
    text, front_matter = lift_front_matter(text) if depth == 0 else (text, None)
    if dialect is not None:
        source, regions = dialect.prepare(_nbsp_headings(text))
        source, more = preprocess(source)
        regions = _bounded(regions + more)
    else:
        source, regions = preprocess(_nbsp_headings(text))
    # pyromark is handed the text first: reading it as UTF-8 keeps that encoding in the str,
    # which the builder's own encoding (for byte offsets) then copies instead of redoing.
    events = _PARSER.events_with_range(source, merge_text=True)
    builder = _Builder(source, path, lang, dialect, depth)
    document = builder.run(events)
    if front_matter is not None:
        document.front_matter = front_matter
    if regions:
        builder.wrap_regions(regions)
    document.line_count = count_lines(text)
    return finish(document)


__all__ = ["OPTIONS", "Region", "parse_markdown", "preprocess"]
