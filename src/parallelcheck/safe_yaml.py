"""Bounds on hostile YAML, shared by the configuration and the glossary loaders.

Both load YAML with ``yaml.SafeLoader`` only (nothing is ever constructed from a tag) and, before
constructing anything, walk the composed node tree once: a document whose aliases would expand
to more than :data:`MAX_NODES` nodes ("billion laughs"), or an alias that contains itself, is
refused with the line where it happens.
"""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from parallelcheck.errors import InputError

MAX_NODES = 100_000


def children(node: yaml.Node) -> Iterator[yaml.Node]:
    """The nodes directly inside a mapping (keys and values) or a sequence."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def check_node_tree(root: yaml.Node, shown: str, *, refuse_tags: bool = False) -> None:
    """Raise :class:`InputError` (with the file and line) for an alias bomb, a recursive alias
    or, with ``refuse_tags``, any tag the safe loader does not construct itself."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            total = 1 + sum(sizes[id(child)] for child in children(node))
            if total > MAX_NODES:
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
        if refuse_tags and node.tag not in yaml.SafeLoader.yaml_constructors:
            raise InputError(
                f"YAML tag '{node.tag}' is not allowed (plain YAML only: nothing is constructed)",
                shown,
                node.start_mark.line + 1,
            )
        on_path.add(key)
        stack.append((node, True))
        for child in children(node):
            if id(child) in on_path:
                raise InputError(
                    "YAML alias refers to a node that contains it (recursive alias)",
                    shown,
                    child.start_mark.line + 1,
                )
            if id(child) not in sizes:
                stack.append((child, False))
