"""MDX reader (``.mdx``, as Astro / Starlight, Docusaurus and Nextra write it).

MDX is Markdown with JSX components and ESM.  The file is read by the Markdown reader
(:mod:`.markdown`) after a pre-processor that turns the MDX constructs into Markdown while
keeping every line where it is, and with the component tags it leaves in place read as facts.

What it understands
-------------------
* Everything the Markdown reader does: the YAML front matter, ``:::note`` / ``:::tip[Title]``
  / ``:::caution{title="…"}`` asides (admonitions), template directives.
* ``import`` / ``export`` statements at the start of a line outside components (ESM): up to
  the next blank line, they are no block at all.
* ``{/* comments */}`` are removed; a line (or run of lines) that is only a ``{expression}`` or
  a comment is blank.  Other ``{expressions}`` in running text are left as they are.
* A component (a JSX tag whose name starts with a capital: ``<Steps>``, ``<Tabs>``,
  ``<TabItem label="npm">``, ``<Aside type="tip">``, ``<Card>``, ``<Fragment slot="x">``, or
  ``<>``) whose opening and closing tags stand on lines of their own (alone, or with other
  tags only; a tag may run over several lines) is a container: its tag lines become a
  boundary (an empty comment, as an aside's marker lines, see
  :data:`~parallelcheck.readers.markdown.BOUNDARY`) and the blocks between them are wrapped,
  as an MkDocs admonition's, in an
  :attr:`~parallelcheck.model.document.BlockKind.ADMONITION` block starting at the opening tag's
  line, ending at the closing tag's line, ``info`` = the component's name in lower case
  followed by its ``type`` attribute when it has one (``aside tip``), its ``title`` or
  ``label`` attribute as its title (the first line of its text).  A closing tag at the end
  of a text line also ends it.  ``<details>`` is a container too (``info`` ``details``), its
  ``<summary>…</summary>`` line right below the opening tag its title.
* MDX knows no indented code.  The children of a component are de-indented so that the
  least indented of them (code inside a fence set aside) stands at the opening tag's column —
  a fence inside ``<Fragment>`` indented by four stays a fence; and text still indented by
  four or more (an aside's body inside a list item) is read as Markdown at its lines, not
  as code.  A fence opening right under a line of text and indented by four or more beyond
  that text (beyond a list item's text) is moved left to the text's column, its lines with
  it, so that it is a fence and not a continuation of the text.
* A self-closing component on lines of its own (``<LinkCard title="…" href="…" />``,
  ``<Since v="4.2.0" />`` after a blank line) is an :attr:`~BlockKind.HTML` block of its
  facts, or no block when it has none (``<DontEditWarning />``).  A component in running text
  (``…<br />`` then ``<Since v="2.9.0" />`` on the next line, ``<Badge text="new" />``) gives
  its facts to the paragraph it is in.

Facts of a component tag
------------------------
Its attributes: ``href`` / ``src`` / ``link`` / ``to`` are link targets; ``title``,
``label``, ``description``, ``alt``, ``caption``, ``text``, ``cta`` … are translatable text
(the block's text, for a container its title); the other string values (``v="4.2.0"``,
``pkg="@astrojs/mdx"``, ``number="14427"``) are inline code — facts a translation keeps as
they are.  Presentational attributes (``class``, ``style``, ``icon``, ``slot`` …), boolean
attributes and ``{expression}`` values give nothing.

Other lower-case tags (``<p>``, ``<div>``, ``<h3>``) are read as Markdown reads HTML.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

from parallelcheck.model.document import Document, Link
from parallelcheck.readers._common import FenceTracker, front_matter_end
from parallelcheck.readers.markdown import (
    COMPONENT_OPEN,
    Facts,
    Region,
    boundary_line,
    parse_markdown,
)
from parallelcheck.text.regexes import compile_pattern

LINK_ATTRIBUTES = frozenset({"href", "src", "link", "to"})
TEXT_ATTRIBUTES = frozenset(
    {"title", "label", "description", "alt", "caption", "text", "cta", "summary", "heading",
     "subtitle", "tooltip", "placeholder", "aria-label"}
)  # fmt: skip
SKIPPED_ATTRIBUTES = frozenset(
    {"class", "classname", "style", "id", "key", "slot", "icon", "size", "variant", "color",
     "width", "height", "loading", "target", "rel", "type", "lang", "frame", "client:load"}
)  # fmt: skip
_NAME = compile_pattern(r"[A-Za-z_$][\w$.:-]*")
_ESM = compile_pattern(r"^(?:import|export)(?=[\s{*])")
_LIST_MARKER = compile_pattern(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?=\S)")
_SUMMARY = compile_pattern(r"^<summary>(.*)</summary>\s*$")
_CODE_SPAN = compile_pattern(r"(`+[^`]*`+)")
_COMMENT = compile_pattern(r"\{/\*.*?\*/\}")
#: First non-blank characters of a line that :meth:`_Prepare.visit` looks at more closely: a
#: fence, a flow expression, a tag.
_NOT_PLAIN = frozenset({"`", "~", "{", "<"})


@dataclass
class Tag:
    """One JSX tag: ``[start, end)`` offsets in the text it was read from, its name (``""``
    for a fragment), whether it closes or closes itself, and its attributes (``None`` for an
    ``{expression}`` value, ``""`` for a bare boolean attribute)."""

    start: int
    end: int
    name: str
    closing: bool = False
    self_closing: bool = False
    attributes: dict[str, str | None] = field(default_factory=dict)

    @property
    def component(self) -> bool:
        """A component: a capitalised name (``Tabs``, ``Tabs.Item``) or a fragment."""
        return not self.name or self.name[0].isupper()


# ---------------------------------------------------------------------------------------------
# Reading tags
# ---------------------------------------------------------------------------------------------


def read_tag(text: str, pos: int) -> Tag | None:
    """The JSX tag starting at ``text[pos]`` (a ``<``), or ``None`` when there is none."""
    if text[pos : pos + 1] != "<":
        return None
    at, closing, name = _read_name(text, pos)
    tag = Tag(pos, pos, name, closing)
    while True:
        at = _skip_space(text, at)
        char = text[at : at + 1]
        if char == ">":
            tag.end = at + 1
            return tag
        if char == "/" and text[_skip_space(text, at + 1) : _skip_space(text, at + 1) + 1] == ">":
            tag.self_closing = True
            tag.end = _skip_space(text, at + 1) + 1
            return tag
        if char == "{":
            at = _skip_braces(text, at)  # a spread {...props}
            if at < 0:
                return None
            continue
        attribute = _NAME.match(text, at)
        if attribute is None or closing:
            return None
        at = _read_value(text, attribute.end(), attribute.group(0), tag)
        if at < 0:
            return None


def _read_name(text: str, pos: int) -> tuple[int, bool, str]:
    """The start of a tag at ``text[pos]`` (a ``<``): the offset after its name, whether it
    closes, and its name (``""`` for none)."""
    at = _skip_space(text, pos + 1)
    closing = text[at : at + 1] == "/"
    if closing:
        at = _skip_space(text, at + 1)
    match = _NAME.match(text, at)
    if match is None:
        return at, closing, ""
    return match.end(), closing, match.group(0)


def _lower_case_name(text: str, pos: int) -> bool:
    """Whether the tag that may start at ``text[pos]`` (a ``<``) has a name that is no
    component's (a lower-case HTML tag), which is known without reading its attributes."""
    name = _read_name(text, pos)[2]
    return bool(name) and not name[0].isupper()


def _read_value(text: str, at: int, name: str, tag: Tag) -> int:
    """Read the value of attribute ``name`` (after its name, at ``at``) into ``tag``; the
    offset after it, or -1 when the value is malformed."""
    after = _skip_space(text, at)
    if text[after : after + 1] != "=":
        tag.attributes.setdefault(name, "")
        return at
    at = _skip_space(text, after + 1)
    quote = text[at : at + 1]
    if quote in ('"', "'"):
        end = text.find(quote, at + 1)
        if end < 0:
            return -1
        tag.attributes.setdefault(name, text[at + 1 : end])
        return end + 1
    if quote == "{":
        end = _skip_braces(text, at)
        tag.attributes.setdefault(name, None)
        return end
    return -1


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _skip_braces(text: str, at: int) -> int:
    """The offset after the ``{…}`` starting at ``at`` (strings, ``/* comments */`` and nested
    braces skipped), or -1 when it does not close."""
    depth = 0
    index = at
    length = len(text)
    while index < length:
        char = text[index]
        if char in "\"'`":
            index = text.find(char, index + 1)
            if index < 0:
                return -1
        elif char == "/" and text.startswith("/*", index):
            index = text.find("*/", index + 2)
            if index < 0:
                return -1
            index += 1
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


def tags_in(html: str) -> list[Tag]:
    """The component tags in an HTML fragment (lower-case tags are skipped)."""
    found = []
    pos = html.find("<")
    while pos >= 0:
        if _lower_case_name(html, pos):  # read_tag would give no component
            pos = html.find("<", pos + 1)
            continue
        tag = read_tag(html, pos)
        if tag is not None and tag.component:
            found.append(tag)
            pos = html.find("<", tag.end)
        else:
            pos = html.find("<", pos + 1)
    return found


# ---------------------------------------------------------------------------------------------
# Facts
# ---------------------------------------------------------------------------------------------


def tag_facts(tag: Tag, line: int) -> Facts:
    """What one tag's attributes say (see the module documentation); ``line`` is the tag's."""
    facts = Facts()
    texts = []
    for name, value in tag.attributes.items():
        key = name.lower()
        if not value or key in SKIPPED_ATTRIBUTES:
            continue
        if key in LINK_ATTRIBUTES:
            facts.links.append(Link(target=value, line=line))
        elif key in TEXT_ATTRIBUTES:
            texts.append(value)
        else:
            facts.code_spans.append(value)
    facts.text = "\n".join(texts)
    return facts


def component_facts(html: str, line: int) -> Facts | None:
    """The facts of every component tag in ``html`` (which starts at ``line``), or ``None``
    when it holds no component tag."""
    if "<" not in html:
        return None
    tags = tags_in(html)
    if not tags:
        return None
    facts = Facts()
    texts = []
    for tag in tags:
        found = tag_facts(tag, line + html.count("\n", 0, tag.start))
        if found.text:
            texts.append(found.text)
        facts.links.extend(found.links)
        facts.code_spans.extend(found.code_spans)
    facts.text = "\n".join(texts)
    return facts


# ---------------------------------------------------------------------------------------------
# The pre-processor
# ---------------------------------------------------------------------------------------------


@dataclass
class _Open:
    """A component whose closing tag is still to come."""

    tag: Tag
    line: int  # 0-based line of the opening tag
    indent: int  # columns of the opening tag's indentation
    title: str = ""  # a <details>' summary


@dataclass
class _Found:
    """A component's region, the column of its opening tag, and whether its closing tag
    stands on a line of its own (else that last line is a child)."""

    region: Region
    indent: int
    tag_line: bool


class _Prepare:
    """The state of :func:`prepare`: the lines being rewritten, the open components and the
    regions found."""

    def __init__(self, text: str):
        self.text = text
        self.source = text.split("\n")
        self.lines = list(self.source)
        # offset where each line starts (and one past the end): each line and its newline
        self.starts = list(accumulate((len(line) + 1 for line in self.source), initial=0))
        count = len(self.lines)
        self.total = max(1, count - 1 if self.lines[-1] == "" else count)
        self.open: list[_Open] = []
        self.found: list[_Found] = []
        self.tag_lines: set[int] = set()
        self.fences = FenceTracker()

    def run(self) -> tuple[str, list[Region]]:
        """Visit the lines and return the rewritten text and the regions.

        Most lines are code in a fence or plain text, and are passed over here, without a
        call of :meth:`visit`, the fence tracker or the other tests: a line in a fence that
        does not start with the fence's character (which cannot close it), and a line
        outside one that starts with none of :data:`_NOT_PLAIN` (which the tracker leaves
        alone), where only a closing tag at the end of the line (:meth:`lazy_close`) can
        matter."""
        index = front_matter_end(self.lines)
        source, fences = self.source, self.fences
        while index < len(self.lines):
            line = source[index]
            first = line.lstrip(" \t")[:1]
            fence = fences.fence
            if fence is not None:
                if first != fence[0]:
                    index += 1
                    continue
            elif (
                first not in _NOT_PLAIN
                and "{/*" not in line
                and not line.startswith(("import", "export"))
            ):
                if self.open:
                    self.lazy_close(index)
                index += 1
                continue
            index = self.visit(index)
        for pending in self.open:
            self.found.append(_Found(_region(pending, self.total), pending.indent, False))
        self.dedent()
        return "\n".join(self.lines), [found.region for found in self.found]

    def visit(self, index: int) -> int:
        """Rewrite the construct starting at line ``index``; the next line to visit."""
        line = self.source[index]
        was_inside = self.fences.fence is not None
        if self.fences.feed(line):
            if not was_inside and self.fences.fence is not None:
                self.fence_under_text(index)
            return index + 1
        stripped = line.lstrip(" \t")
        if not self.open and _ESM.match(line):
            return self.blank_until_empty(index)
        if stripped.startswith("{"):
            end = self.flow_expression(index)
            if end is not None:
                return end
        if stripped.startswith("<"):
            end = self.flow_tags(index)
            if end is not None:
                return end
            if self.summary(index, stripped):
                return index + 1
        if "{/*" in line:
            self.lines[index] = _drop_comments(line)
        self.lazy_close(index)
        return index + 1

    def first_offset(self, index: int) -> int:
        """Offset of line ``index``'s first non-blank character."""
        line = self.source[index]
        return self.starts[index] + len(line) - len(line.lstrip(" \t"))

    def fence_under_text(self, index: int) -> None:
        """Move a fence opened at line ``index`` left to the column of the text right above
        it when it stands four or more columns deeper (see the module documentation)."""
        column = self.text_column_above(index)
        shift = _columns(self.lines[index]) - column if column is not None else 0
        if shift < 4:
            return
        fences = FenceTracker()
        last = index
        for last in range(index, len(self.lines)):
            inside = fences.feed(self.lines[last])
            if not inside or fences.fence is None:
                break
        for number, (line, _) in enumerate(_shifted(self.lines[index : last + 1], shift), index):
            self.lines[number] = line

    def text_column_above(self, index: int) -> int | None:
        """The column where the text of the line above ``index`` starts (after a list
        marker), or ``None`` when that line is blank."""
        above = self.lines[index - 1] if index else ""
        if not above.strip():
            return None
        marker = _LIST_MARKER.match(above)
        return len(marker.group(0).expandtabs(4)) if marker else _columns(above)

    def marker_line(self, index: int) -> str:
        """What the first line of a component's tag becomes: a boundary, or a blank line when
        the tag stands four or more columns deeper than text right above it (a comment there
        would be read as more of that text)."""
        column = self.text_column_above(index)
        if column is not None and _columns(self.source[index]) - column >= 4:
            return ""
        return boundary_line(self.source[index])

    # -- ESM and expressions ------------------------------------------------------------

    def blank_until_empty(self, index: int) -> int:
        while index < len(self.lines) and self.source[index].strip():
            self.lines[index] = ""
            index += 1
        return index

    def flow_expression(self, index: int) -> int | None:
        """A ``{…}`` (a comment or an expression) alone on its lines: blanked."""
        end = _skip_braces(self.text, self.first_offset(index))
        if end < 0:
            return None
        last = self.line_of(end - 1)
        if self.text[end : self.starts[last + 1] - 1].strip():
            return None
        for number in range(index, last + 1):
            self.lines[number] = ""
        return last + 1

    # -- component tags -----------------------------------------------------------------

    def flow_tags(self, index: int) -> int | None:
        """Component tags alone on their lines: container tags open or close regions and are
        blanked, self-closing components are hidden in a component comment for the builder.
        Self-closing components right under a line of text are left to be read inline."""
        name = _read_name(self.text, self.first_offset(index))[2]
        if name and not name[0].isupper() and name != "details":
            return None  # the first tag is lower-case HTML: seen without reading the line
        tags = self.read_flow(index)
        if tags is None or not all(tag.component or tag.name == "details" for tag in tags):
            return None  # text, or lower-case HTML: Markdown's business
        last = self.line_of(tags[-1].end - 1)
        kept = [tag for tag in tags if tag.self_closing]
        if kept and self.under_text(index):
            return last + 1
        for tag in tags:
            if not tag.self_closing:
                self.container_tag(tag)
        self.rewrite(index, last, kept)
        self.tag_lines.update(range(index, last + 1))
        return last + 1

    def under_text(self, index: int) -> bool:
        """Whether line ``index`` continues a paragraph (the line above is text)."""
        above = index - 1
        if above < 0 or above in self.tag_lines:
            return False
        previous = self.lines[above].strip()
        return bool(previous) and not previous.startswith("#")

    def read_flow(self, index: int) -> list[Tag] | None:
        """The tags making up the rest of line ``index`` (and the lines a tag runs on to), or
        ``None`` when anything else stands there."""
        text = self.text
        pos = self.first_offset(index)
        tags: list[Tag] = []
        while True:
            tag = read_tag(text, pos)
            if tag is None:
                return None
            tags.append(tag)
            pos = tag.end
            while pos < len(text) and text[pos] in " \t":
                pos += 1
            if pos >= len(text) or text[pos] == "\n":
                return tags
            if text[pos] != "<":
                return None

    def summary(self, index: int, stripped: str) -> bool:
        """``<summary>…</summary>`` right below ``<details>``: the title, its line blanked."""
        match = _SUMMARY.match(stripped)
        pending = self.open[-1] if self.open else None
        if match is None or pending is None or pending.tag.name != "details":
            return False
        if pending.title or pending.line != index - 1:
            return False
        pending.title = match.group(1).strip()
        self.lines[index] = ""
        self.tag_lines.add(index)
        return True

    def container_tag(self, tag: Tag) -> None:
        line = self.line_of(tag.start)
        if not tag.closing:
            self.open.append(_Open(tag, line, _columns(self.source[line])))
        else:
            self.close(tag.name, line, True)

    def close(self, name: str, line: int, tag_line: bool) -> None:
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth].tag.name == name:
                for pending in self.open[depth:]:
                    region = _region(pending, line + 1)
                    self.found.append(_Found(region, pending.indent, tag_line))
                del self.open[depth:]
                return

    def lazy_close(self, index: int) -> None:
        """A closing tag at the end of a text line ends the innermost open component."""
        if not self.open:
            return
        name = self.open[-1].tag.name
        line = self.source[index].rstrip()
        if name and line.endswith(f"</{name}>") and f"<{name}" not in line:
            self.close(name, index, False)

    def rewrite(self, first: int, last: int, kept: list[Tag]) -> None:
        """Lines ``first``–``last`` become a boundary and blank lines; self-closing
        components stay, in a component comment."""
        if not kept:
            self.lines[first] = self.marker_line(first)
            for number in range(first + 1, last + 1):
                self.lines[number] = ""
            return
        base = self.starts[first]
        chunk = list(self.text[base : self.starts[last + 1] - 1])
        keep = {i for tag in kept for i in range(tag.start - base, tag.end - base)}
        for offset, char in enumerate(chunk):
            if offset not in keep and char != "\n":
                chunk[offset] = " "
        body = "".join(chunk).lstrip(" ")
        source = self.source[first]
        lead = source[: len(source) - len(source.lstrip(" \t"))]
        rewritten = f"{lead}{COMPONENT_OPEN}{body}-->"
        self.lines[first : last + 1] = rewritten.split("\n")

    # -- positions and indentation --------------------------------------------------------

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def dedent(self) -> None:
        """Shift each component's children so that the least indented stands at the opening
        tag's column, outer components first (MDX has no indented code)."""
        removed = [0] * len(self.lines)
        for found in sorted(self.found, key=lambda f: (f.region.start, -f.region.end)):
            first = found.region.start  # 0-based: the line after the opening tag
            last = found.region.end - (2 if found.tag_line else 1)
            column = max(0, found.indent - removed[first - 1])
            lowest = _lowest_indent(self.lines[first : last + 1])
            if lowest is None or lowest <= column:
                continue
            shifted = _shifted(self.lines[first : last + 1], lowest - column)
            for number, (line, cut) in enumerate(shifted, first):
                self.lines[number] = line
                removed[number] += cut


def _region(pending: _Open, end: int) -> Region:
    """The region of a component from its opening tag to line ``end`` (1-based)."""
    tag = pending.tag
    kind = tag.name.lower() or "fragment"
    if tag.attributes.get("type"):
        kind = f"{kind} {tag.attributes['type']}"
    facts = tag_facts(tag, pending.line + 1)
    return Region(
        pending.line + 1,
        max(end, pending.line + 1),
        kind,
        pending.title or facts.text,
        links=facts.links,
        code_spans=facts.code_spans,
    )


def _columns(line: str) -> int:
    """Columns of ``line``'s indentation (a tab to the next multiple of four)."""
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(4))


def _strip_columns(line: str, columns: int) -> tuple[str, int]:
    """``line`` without up to ``columns`` columns of its indentation, and how many went."""
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    width = len(lead.expandtabs(4))
    cut = min(columns, width)
    return " " * (width - cut) + line[len(lead) :], cut


def _shifted(lines: list[str], columns: int) -> list[tuple[str, int]]:
    """*lines* moved ``columns`` columns left (as far as each is indented), with the columns
    each lost.  Code inside a fence is moved no further left than its opening fence: as
    CommonMark strips up to the fence's indentation from the lines of its code, the code reads
    the same, and a line of code less indented than its fence (a fence indented by six in a
    list item whose commands stand at four) stays inside the list item it was in."""
    fences = FenceTracker()
    fence_column = 0
    shifted: list[tuple[str, int]] = []
    for line in lines:
        inside = fences.fence is not None
        cut = columns
        if inside:
            fences.feed(line)
            if fences.fence is not None:  # a line of code: no further left than its fence
                cut = min(columns, max(0, _columns(line) - fence_column))
        else:  # a fence may open after a list marker (``1.  ```js``), at the marker's text
            marker = _LIST_MARKER.match(line)
            opened = line if marker is None else " " * len(marker.group(0)) + line[marker.end() :]
            if fences.feed(opened):
                fence_column = max(0, _columns(opened) - columns)
        shifted.append(_strip_columns(line, cut))
    return shifted


def _lowest_indent(lines: list[str]) -> int | None:
    """The least indentation of the non-blank lines, code inside fences aside (a fence's own
    lines count)."""
    fences = FenceTracker()
    lowest: int | None = None
    for line in lines:
        stripped = line.lstrip(" \t")
        # the tracker is fed only the lines that can change it: in a fence, those starting
        # with the fence's character (which may close it); outside, a backtick or a tilde
        fence = fences.fence
        if fence is not None:
            if stripped[:1] != fence[0]:
                continue  # code inside the fence
            fences.feed(line)
            if fences.fence is not None:
                continue
        elif stripped[:1] in ("`", "~"):
            fences.feed(line)
        if not stripped.strip():
            continue
        columns = len(line[: len(line) - len(stripped)].expandtabs(4))  # _columns(line)
        if lowest is None or columns < lowest:
            lowest = columns
    return lowest


def _drop_comments(line: str) -> str:
    """``line`` with each ``{/* … */}`` outside inline code replaced by spaces."""
    pieces = _CODE_SPAN.split(line)
    for number in range(0, len(pieces), 2):
        pieces[number] = _COMMENT.sub(lambda m: " " * len(m.group(0)), pieces[number])
    return "".join(pieces)


def prepare(text: str) -> tuple[str, list[Region]]:
    """Turn MDX ``text`` into Markdown, line for line, and the regions of its components."""
    return _Prepare(text).run()


class MdxDialect:
    """MDX for :func:`~parallelcheck.readers.markdown.parse_markdown`."""

    indented_code = False

    def prepare(self, text: str) -> tuple[str, list[Region]]:
        return prepare(text)

    def facts(self, html: str, line: int) -> Facts | None:
        return component_facts(html, line)


def parse_mdx(text: str, path: str, lang: str) -> Document:
    """Read MDX ``text`` (already decoded, ``\\n`` line endings) into a :class:`Document`."""
    return parse_markdown(text, path, lang, MdxDialect())


__all__ = ["MdxDialect", "Tag", "component_facts", "parse_mdx", "prepare", "read_tag"]
