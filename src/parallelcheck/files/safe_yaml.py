"""Bounds on hostile YAML, shared by the configuration and the glossary loaders.

Both read YAML through :func:`compose` only, which never builds anything from a tag and turns
every problem into an :class:`~parallelcheck.errors.InputError` naming the file and line:

1. a character YAML does not allow (C0/C1 control characters such as BEL or ESC, U+FFFE,
   U+FFFF, lone surrogates) is refused with its line and column, before parsing;
2. one pass over the parser's events bounds the nesting depth (:data:`MAX_DEPTH`) and the
   number of nodes as written (``max_nodes``, chosen by the caller), so a deep or vast
   document is refused before any node is built, and no parser recursion is ever exhausted.
   With ``libyaml=True`` (glossaries, which may hold 200,000 terms) libyaml's parser is used
   when PyYAML has it: 15 times faster, with messages worded a little differently;
3. the node tree is composed with the safe loader, the garbage collector paused (composing
   allocates many objects and no cycles; collecting during it tripled the time);
4. one walk over the composed tree (:func:`check_node_tree`) refuses a document whose aliases
   would expand to more than :data:`MAX_NODES` nodes and to more than twice the nodes it holds
   ("billion laughs": expansion stays linear in the file's size), an alias that contains
   itself, and, on request, any tag the safe loader does not construct itself.

:func:`construct` builds Python values from a checked tree (the configuration needs them; the
glossary reads node text directly) and reports values that cannot be built — a 5,000-digit
integer (Python refuses more than 4,300 digits), a date such as ``2001-13-45`` — at their line.
"""

from __future__ import annotations

import gc
import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import yaml
import yaml.constructor

from parallelcheck.errors import InputError

MAX_NODES = 100_000
MAX_DEPTH = 100

#: PyYAML's own test (``yaml.reader.Reader.NON_PRINTABLE``): what a YAML stream may not hold.
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_C0_NAMES = (
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN "
    "EM SUB ESC FS GS RS US"
).split()
_FAST_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep"
_SAFE_TAGS = yaml.SafeLoader.yaml_constructors


def describe_character(char: str) -> str:
    """``U+0007 (BEL)``, ``U+200D (ZERO WIDTH JOINER)``, ``U+FFFE (a noncharacter)``."""
    code = ord(char)
    if code < 0x20:
        name = _C0_NAMES[code]
    elif code == 0x7F:
        name = "DEL"
    elif 0x80 <= code < 0xA0:
        name = "a C1 control character"
    elif 0xD800 <= code < 0xE000:
        name = "a lone surrogate"
    else:
        name = unicodedata.name(char, "a noncharacter")
    return f"U+{code:04X} ({name})"


def line_and_column(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of ``text[index]``."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a burst of allocations that makes no cycles
    (reference counting still frees everything); the previous state is restored after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_printable(text: str, shown: str) -> None:
    """Raise :class:`InputError` at the first character YAML does not allow."""
    bad = _NOT_PRINTABLE.search(text)
    if bad is not None:
        line, column = line_and_column(text, bad.start())
        kind = "control character" if unicodedata.category(bad.group()) == "Cc" else "character"
        raise InputError(
            f"{kind} {describe_character(bad.group())} in column {column}: YAML does not allow "
            "it; remove it",
            shown,
            line,
        )


def compose(
    text: str,
    shown: str,
    *,
    max_nodes: int | None = None,
    refuse_tags: bool = False,
    libyaml: bool = False,
    resolve: bool = True,
) -> yaml.Node | None:
    """The node tree of a one-document YAML text (``None`` when it is empty), checked as the
    module documentation says.  ``max_nodes`` bounds the nodes as written (None: no bound
    beyond the alias-expansion one).  With ``resolve=False`` a node without an explicit tag
    keeps the tag ``None`` instead of the one its text implies (``1`` an int, ``yes`` a
    bool): for a reader that takes every scalar as text, this saves a third of the time."""
    check_printable(text, shown)
    loader = (_FAST_LOADER if libyaml else yaml.SafeLoader)(text)
    try:
        with collector_paused():
            node, aliases = _Composer(loader, shown, max_nodes, refuse_tags, resolve).document()
    except yaml.YAMLError as error:
        raise _input_error(error, text, shown) from None
    finally:
        loader.dispose()
    if node is not None and aliases:  # (tags were checked as the nodes were made)
        check_node_tree(node, shown)
    return node


class _Composer:
    """Builds the node tree from the parser's events with an explicit stack, as PyYAML's
    composer does by recursion, and bounds it while building: depth, nodes, tags."""

    def __init__(
        self, loader: Any, shown: str, max_nodes: int | None, refuse_tags: bool, resolve: bool
    ):
        self.loader, self.shown = loader, shown
        self.max_nodes, self.refuse_tags, self.resolve = max_nodes, refuse_tags, resolve
        self.anchors: dict[str, yaml.Node] = {}

    def fail(self, message: str, mark: Any) -> InputError:
        return InputError(message, self.shown, mark.line + 1 if mark is not None else None)

    def document(self) -> tuple[yaml.Node | None, int]:
        """(the root node or None, how many aliases it holds)."""
        loader = self.loader
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None, 0
        loader.get_event()  # the document's start
        root, aliases = self.node()
        loader.get_event()  # the document's end
        if not loader.check_event(yaml.StreamEndEvent):
            raise self.fail(
                "invalid YAML: expected a single document in the stream, but found another",
                loader.peek_event().start_mark,
            )
        return root, aliases

    def node(self) -> tuple[yaml.Node, int]:
        loader = self.loader
        resolve = loader.resolve if self.resolve else lambda _kind, _value, _implicit: None
        # Open collections: (node, its items, the key awaiting its value in a mapping).
        stack: list[list[Any]] = []
        nodes = aliases = 0
        while True:
            event = loader.get_event()
            kind = type(event)
            if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                node = stack.pop()[0]
                node.end_mark = event.end_mark
                if not stack:
                    return node, aliases
                continue  # put into its parent when it opened
            else:
                nodes += 1
                if self.max_nodes is not None and nodes > self.max_nodes:
                    raise self.fail(
                        f"YAML document too large (over {self.max_nodes:,} nodes); refusing "
                        "to read it",
                        event.start_mark,
                    )
                if kind is yaml.AliasEvent:
                    aliases += 1
                    if event.anchor not in self.anchors:
                        raise self.fail(
                            f"invalid YAML: found undefined alias '{event.anchor}'",
                            event.start_mark,
                        )
                    node = self.anchors[event.anchor]
                else:
                    tag = event.tag
                    explicit = tag is not None and tag != "!"
                    if explicit and self.refuse_tags and tag not in _SAFE_TAGS:
                        raise self.fail(
                            f"YAML tag '{tag}' is not allowed (plain YAML only: nothing is "
                            "constructed)",
                            event.start_mark,
                        )
                    if kind is yaml.ScalarEvent:
                        if tag is None or tag == "!":
                            tag = resolve(yaml.ScalarNode, event.value, event.implicit)
                        node = yaml.ScalarNode(  # plain style: None ('' from libyaml)
                            tag, event.value, event.start_mark, event.end_mark, event.style or None
                        )
                    else:
                        mapping = kind is yaml.MappingStartEvent
                        node_class = yaml.MappingNode if mapping else yaml.SequenceNode
                        if tag is None or tag == "!":
                            tag = resolve(node_class, None, event.implicit)
                        node = node_class(
                            tag, [], event.start_mark, None, flow_style=event.flow_style
                        )
                    if event.anchor is not None:
                        if event.anchor in self.anchors:
                            raise self.fail(
                                f"invalid YAML: found duplicate anchor '{event.anchor}'",
                                event.start_mark,
                            )
                        self.anchors[event.anchor] = node
                    if kind is not yaml.ScalarEvent:
                        if len(stack) >= MAX_DEPTH:
                            raise self.fail(f"invalid YAML: {_TOO_DEEP}", event.start_mark)
                        self._attach(stack, node)
                        stack.append([node, node.value, None])
                        continue
            if not stack:
                return node, aliases
            self._attach(stack, node)

    @staticmethod
    def _attach(stack: list[list[Any]], node: yaml.Node) -> None:
        """Put a finished (or just opened) node into the innermost open collection."""
        if not stack:
            return
        frame = stack[-1]
        if isinstance(frame[0], yaml.SequenceNode):
            frame[1].append(node)
        elif frame[2] is None:
            frame[2] = node
        else:
            frame[1].append((frame[2], node))
            frame[2] = None


def _input_error(error: yaml.YAMLError, text: str, shown: str) -> InputError:
    """A parser's error as the user's: ``invalid YAML: PROBLEM`` at its line."""
    if isinstance(error, yaml.reader.ReaderError):  # found by check_printable first, normally
        index = min(max(error.position, 0), len(text))
        char = chr(error.character) if isinstance(error.character, int) else "?"
        return InputError(
            f"invalid YAML: character {describe_character(char)} is not allowed",
            shown,
            line_and_column(text, index)[0],
        )
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "cannot be parsed"
        if "maximum nesting depth" in problem:
            problem = _TOO_DEEP
        return InputError(f"invalid YAML: {problem}", shown, mark.line + 1 if mark else None)
    return InputError(f"invalid YAML: {error}", shown)


def children(node: yaml.Node) -> Iterator[yaml.Node]:
    """The nodes directly inside a mapping (keys and values) or a sequence."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def check_node_tree(root: yaml.Node, shown: str, *, refuse_tags: bool = False) -> None:
    """Raise :class:`InputError` (with the file and line) for an alias bomb, a recursive alias,
    nesting deeper than :data:`MAX_DEPTH` or, with ``refuse_tags``, any tag the safe loader
    does not construct itself."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool, int]] = [(root, False, 1)]
    while stack:
        node, finished, depth = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            total = 1 + sum(sizes[id(child)] for child in children(node))
            if total > MAX_NODES and total > 2 * (len(sizes) + 1):
                raise InputError(
                    f"YAML document too large once its aliases are expanded (over {MAX_NODES:,} "
                    "nodes); refusing to read it",
                    shown,
                    node.start_mark.line + 1,
                )
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if depth > MAX_DEPTH:
            raise InputError(f"invalid YAML: {_TOO_DEEP}", shown, node.start_mark.line + 1)
        if refuse_tags and node.tag not in _SAFE_TAGS:
            raise InputError(
                f"YAML tag '{node.tag}' is not allowed (plain YAML only: nothing is constructed)",
                shown,
                node.start_mark.line + 1,
            )
        on_path.add(key)
        stack.append((node, True, depth))
        for child in children(node):
            if id(child) in on_path:
                raise InputError(
                    "YAML alias refers to a node that contains it (recursive alias)",
                    shown,
                    child.start_mark.line + 1,
                )
            if id(child) in sizes:
                continue
            if type(child) is yaml.ScalarNode and not refuse_tags:
                sizes[id(child)] = 1  # nothing inside: done at once
            else:
                stack.append((child, False, depth + 1))


def _int_digits() -> int:
    """How many digits Python converts from a string to an int (0: unlimited)."""
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def construct(root: yaml.Node, shown: str) -> Any:
    """The Python value of a tree :func:`compose` gave; a value that cannot be built is an
    :class:`InputError` at its line."""
    limit = _int_digits()
    stack = [root]
    seen: set[int] = set()
    while stack:  # integers Python would refuse to convert, found before converting any
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag != "tag:yaml.org,2002:int" or not limit or len(node.value) <= limit:
                continue
            digits = sum(char.isdigit() for char in node.value)
            if digits > limit:
                raise InputError(
                    f"a number of {digits:,} digits is not a usable value (at most {limit:,} "
                    "digits are read)",
                    shown,
                    node.start_mark.line + 1,
                )
        else:
            stack.extend(children(node))
    try:
        return yaml.constructor.SafeConstructor().construct_document(root)
    except yaml.MarkedYAMLError as error:
        raise _input_error(error, "", shown) from None
    except (ValueError, OverflowError) as error:
        line = _failing_scalar_line(root)
        raise InputError(f"invalid value: {error}", shown, line) from None


def _failing_scalar_line(root: yaml.Node) -> int:
    """The line of the first scalar that cannot be constructed on its own (else the root's)."""
    stack = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            try:
                yaml.constructor.SafeConstructor().construct_object(node)
            except (ValueError, OverflowError, yaml.YAMLError):
                return node.start_mark.line + 1
        else:
            stack.extend(reversed(list(children(node))))
    return root.start_mark.line + 1
