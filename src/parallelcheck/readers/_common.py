"""Small helpers shared by the readers: suppression comments, raw-HTML fragments, counting."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from html import unescape

from parallelcheck.model.document import NO_ITEMS, Block, Directive, Document, Link, Section
from parallelcheck.text.regexes import compile_pattern

#: Deepest nesting of container blocks (lists, items, quotes, admonitions) a reader builds.
#: Anything nested deeper is attached to the container at this depth, so later stages may
#: walk the tree recursively without exhausting Python's stack.
MAX_DEPTH = 64

DIRECTIVE_RE = compile_pattern(
    r"<!--\s*parallelcheck-(disable-next-block|disable|enable)(?=\s|-->)(.*?)-->",
    re.DOTALL,
)
_COMMENT_RE = compile_pattern(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_DROP_RE = compile_pattern(r"<(script|style|head|template)\b.*?(?:</\1\s*>|\Z)", re.DOTALL | re.I)
_TAG_RE = compile_pattern(r"<(/?)([A-Za-z][\w:-]*)[^>]*>|<![^>]*>|<\?[^>]*>")
_LINK_TAG_RE = compile_pattern(r"<(a|img)\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.I)
_ATTR_RE = compile_pattern(
    r"(?:^|\s)([\w:-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))",
)
_SPACES_RE = compile_pattern(r"[ \t\f\v\u00a0]+")
INLINE_TAGS = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i",
     "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
     "u", "var", "wbr"}
)  # fmt: skip


def directives_in(text: str, line: int) -> list[Directive]:
    """The suppression comments (docs/suppression.md) in ``text``, which starts at ``line``."""
    if "parallelcheck-" not in text:
        return []
    found = []
    for match in DIRECTIVE_RE.finditer(text):
        rules = tuple(r for r in re.split(r"[,\s]+", match.group(2).strip()) if r)
        at = line + text.count("\n", 0, match.start())
        found.append(Directive(action=match.group(1), rules=rules, line=at))
    return found


def is_comment_only(html: str) -> bool:
    """True when ``html`` holds nothing but comments and whitespace."""
    return not _COMMENT_RE.sub("", html).strip()


def html_text(html: str) -> str:
    """Visible text of a raw HTML fragment: comments, scripts and tags removed, entities
    decoded, block-level tags read as line breaks, blank lines dropped.

    A fragment made only of tags and blank space (``</div>``, ``<img src="…">``, the
    commonest HTML blocks) has none: see :func:`_only_tags`."""
    if _only_tags(html):
        return ""
    html = _COMMENT_RE.sub("", html)
    if "<" in html:
        html = _DROP_RE.sub("", html)
        html = _TAG_RE.sub(_tag_replacement, html)
    text = unescape(html)
    lines = (_SPACES_RE.sub(" ", part).strip() for part in text.split("\n"))
    return "\n".join(part for part in lines if part)


#: Tags (no ``<`` or ``>`` inside one) separated by spaces, tabs and newlines only.
_ONLY_TAGS_RE = compile_pattern(r"(?:[ \t\n]*</?[A-Za-z][^<>]*>)+[ \t\n]*")


def _only_tags(html: str) -> bool:
    """Whether ``html`` is one or more tags and blank space alone, so that :func:`html_text`
    gives ``""`` without its passes (a sufficient test; anything else is read in full).

    Exact: a tag of the form matched holds no ``<``, so no comment starts inside it and
    :data:`_COMMENT_RE` removes nothing; :data:`_DROP_RE` removes whole tags or everything
    from one on, and :data:`_TAG_RE` matches each remaining tag up to its one ``>``, so what
    is left is the spaces, tabs and newlines between them, which decode to no entity and
    strip to no line."""
    return _ONLY_TAGS_RE.fullmatch(html) is not None


def _tag_replacement(match: re.Match[str]) -> str:
    """Inline tags vanish; block-level tags and ``<br>`` read as a line break."""
    name = match.group(2)
    return "" if name and name.lower() in INLINE_TAGS else "\n"


def html_links(html: str, line: int) -> list[Link]:
    """``<a href>`` and ``<img src>`` targets of a raw HTML fragment starting at ``line``."""
    if "<" not in html:
        return []
    links = []
    for match in _LINK_TAG_RE.finditer(_COMMENT_RE.sub(_blank_keep_lines, html)):
        attrs = tag_attributes(match.group(2))
        at = line + html.count("\n", 0, match.start())
        if match.group(1).lower() == "a":
            if "href" in attrs:
                links.append(Link(target=attrs["href"], line=at))
        elif "src" in attrs:
            links.append(
                Link(target=attrs["src"], line=at, is_image=True, text=attrs.get("alt", ""))
            )
    return links


def _blank_keep_lines(match: re.Match[str]) -> str:
    """Replace a comment by as many newlines as it spans, so offsets keep their line."""
    return "\n" * match.group(0).count("\n")


def tag_attributes(source: str) -> dict[str, str]:
    """Attributes (lower-cased names, entity-decoded values) of a tag's attribute text."""
    attrs: dict[str, str] = {}
    for match in _ATTR_RE.finditer(source):
        value = match.group(2)
        if value is None:
            value = match.group(3) if match.group(3) is not None else match.group(4)
        attrs.setdefault(match.group(1).lower(), unescape(value))
    return attrs


def count_lines(text: str) -> int:
    """Number of lines in ``text`` (``\\n`` separated; a final newline ends the last line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def front_matter_end(lines: list[str]) -> int:
    """Index of the first line after a leading ``---`` / ``+++`` metadata block (else 0)."""
    if not lines or lines[0].rstrip() not in ("---", "+++"):
        return 0
    closers = ("---", "...") if lines[0].rstrip() == "---" else ("+++",)
    for index in range(1, len(lines)):
        if lines[index].rstrip() in closers:
            return index + 1
    return 0


_FENCE = compile_pattern(r"^[ \t]*(`{3,}|~{3,})(.*)$")


class FenceTracker:
    """Which lines belong to fenced code, fed one line at a time: a run of three or more
    backticks or tildes (at any indentation) opens a fence — backticks only when the info
    string holds none — and a run of the same character at least as long, alone on its line,
    closes it."""

    __slots__ = ("fence",)

    def __init__(self) -> None:
        self.fence: tuple[str, int] | None = None  # (character, length) of the open fence

    def feed(self, line: str) -> bool:
        """Whether ``line`` opens, closes or lies inside a fence."""
        stripped = line.lstrip(" \t")
        fence = self.fence
        if fence is not None:
            run = len(stripped) - len(stripped.lstrip(fence[0]))
            if run >= fence[1] and not stripped[run:].strip():
                self.fence = None
            return True
        if stripped[:1] not in ("`", "~"):
            return False
        match = _FENCE.match(line)
        if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
            return False
        self.fence = (match.group(1)[0], len(match.group(1)))
        return True


def shift_lines(block: Block, offset: int) -> Block:
    """``block`` (read from a piece of a file) moved ``offset`` lines down, with its children
    and links: the same block as read from the whole file."""
    block.line += offset
    block.end_line += offset
    if block.text_lines:
        block.text_lines = [line + offset for line in block.text_lines]
    if block.links:
        block.links = [replace(link, line=link.line + offset) for link in block.links]
    for child in block.children:
        shift_lines(child, offset)
    return block


def new_preamble() -> Section:
    return Section(level=0, title="", line=1)


def finish(document: Document) -> Document:
    """Set the preamble's line: its first block's line, else 1."""
    preamble = document.sections[0]
    preamble.line = preamble.blocks[0].line if preamble.blocks else 1
    return document


def container_text(block: Block, own: str = "") -> str:
    """Text of a list / item / quote / admonition: its own text then its children's."""
    if not block.children:  # a tight item's own text alone, the commonest
        return own
    parts = [own] if own else []
    parts.extend(child.text for child in block.children if child.text)
    return "\n".join(parts)


def set_container_text(block: Block, own: str = "", own_lines: list[int] | None = None) -> None:
    """Set a container's ``text`` (:func:`container_text`) and its ``text_lines``: those of
    its own text (``own_lines``; its ``line`` when not given), then each child's."""
    block.text = container_text(block, own)
    lines: list[int] = []
    if own:
        lines.extend(own_lines or [block.line] * (own.count("\n") + 1))
    for child in block.children:
        if child.text:
            lines.extend(child.file_lines())
    set_text_lines(block, lines)


def set_text_lines(block: Block, lines: list[int] | None) -> None:
    """Keep ``lines`` as the block's ``text_lines``, or none when they are the consecutive
    lines from its ``line`` (what an empty ``text_lines`` means; so is ``None``); ``lines``
    not one per line of the text (the text was rewritten since: a directive shortened) give
    the block's line for every line."""
    if not lines:
        block.text_lines = NO_ITEMS
        return
    first, text = block.line, block.text
    count = text.count("\n") + 1 if text else 0
    if len(lines) != count:
        lines = [first] * count
    if lines[0] == first and (count == 1 or lines == list(range(first, first + count))):
        block.text_lines = NO_ITEMS
    else:
        block.text_lines = lines


def set_lines_from(block: Block, first: int) -> None:
    """Record that the lines of ``block``'s text are the consecutive file lines from ``first``
    (a code block's, from the line after its fence): what
    ``set_text_lines(block, list(range(first, first + count)))`` records, ``count`` being the
    text's line count, counted once and with no list made when ``first`` is the block's own
    line (consecutive lines from there are what no recorded lines mean)."""
    if not block.text or first == block.line:
        block.text_lines = NO_ITEMS
    else:
        block.text_lines = list(range(first, first + block.text.count("\n") + 1))


def html_text_lines(html: str, line: int, text: str) -> list[int]:
    """The file line of each line of ``text``, the visible text of ``html`` (an HTML block
    starting at ``line``; see :func:`html_text`): read source line by source line when that
    gives the same text (no tag or comment spans lines), else ``line`` for every line."""
    count = text.count("\n") + 1
    if "\n" in html.strip("\n"):
        found: list[int] = []
        parts: list[str] = []
        for index, source in enumerate(html.split("\n")):
            if not source.strip():
                continue
            seen = html_text(source)
            if seen:
                parts.append(seen)
                found.extend([line + index] * (seen.count("\n") + 1))
        if "\n".join(parts) == text:
            return found
    else:
        lead = len(html) - len(html.lstrip("\n"))
        return [line + lead] * count
    return [line] * count


def empty_document(path: str, lang: str, line_count: int = 0) -> Document:
    return Document(path=path, lang=lang, sections=[new_preamble()], line_count=line_count)


def read_whole(
    text: str, path: str, lang: str, parse: Callable[[str, str, str], Document]
) -> Document:
    """The document of a whole file's *text*: an empty one when it holds only blank lines,
    else what ``parse(text, path, lang)`` reads, with the file's line count and its
    preamble's line (:func:`finish`)."""
    line_count = count_lines(text)
    if not text.strip():
        return empty_document(path, lang, line_count)
    document = parse(text, path, lang)
    document.line_count = line_count
    return finish(document)
