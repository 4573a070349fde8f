"""Reading a version's front matter into keys and values (:mod:`parallelcheck.model.front_matter`).

The Markdown and MDX readers lift the metadata block at the top of a file (its body lands in
:attr:`~parallelcheck.model.document.Document.front_matter`); :func:`read_front_matter` reads
that body once per document:

* YAML (``---``: Jekyll, Hugo, Astro, Docusaurus, MkDocs) through the project's bounded loader
  (:func:`parallelcheck.files.safe_yaml.compose`): nothing is constructed from a tag, every
  scalar is kept as the text written, each with the line of its node;
* TOML (``+++``: Hugo) through :mod:`tomllib`, each value placed at the line of its key (a
  ``key =`` line under its ``[table]`` header; the block's first line when not found).

A block that cannot be read gives a :class:`~parallelcheck.model.front_matter.FrontMatter`
with its ``error`` and ``error_line`` (a file line), never an exception: one broken metadata
block must not stop the check of the rest.
"""

from __future__ import annotations

import datetime
import tomllib
from typing import Any

import yaml

from parallelcheck.errors import InputError
from parallelcheck.files.safe_yaml import compose
from parallelcheck.model.front_matter import FrontMatter, FrontMatterValue
from parallelcheck.text.regexes import compile_pattern

#: The first line of the block's body in the file (line 1 is the opening ``---`` / ``+++``).
FIRST_LINE = 2
#: At most this many nodes are read from one block (a front matter holds a few dozen).
MAX_NODES = 20_000
#: At most this many scalars are kept from one block.
MAX_VALUES = 5_000
#: A broken YAML block up to this size is read again to find where its fault starts.
MAX_REREAD = 100_000

#: The parser's words a writer knows by other names.
_PLAIN = {"scalar": "value", "sequence": "list"}
_TOML_ERROR_LINE = compile_pattern(r"\(at line (\d+)")
_TOML_TABLE = compile_pattern(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY = compile_pattern(
    r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*="""
)


def read_front_matter(body: str, syntax: str, path: str) -> FrontMatter:
    """The keys and values of a metadata block's ``body`` (``syntax`` ``yaml`` or ``toml``)
    of the file ``path``; an unreadable block gives its error (see the module's docstring)."""
    end_line = FIRST_LINE + body.count("\n")
    if syntax == "toml":
        return _read_toml(body, end_line)
    return _read_yaml(body, path, end_line)


def _read_yaml(body: str, path: str, end_line: int) -> FrontMatter:
    try:
        root = compose(body, path, max_nodes=MAX_NODES, libyaml=True, resolve=False)
    except InputError as error:
        message, line = error.message, error.line
        reread = message.startswith("invalid YAML") and len(body) <= MAX_REREAD
        opened = _opened_at(body) if reread else None
        if opened is not None:  # where the quote or bracket left open starts, not the end
            message, line = f"{message}, in {opened[0]} that starts on this line", opened[1]
        elif "mapping values are not allowed" in message:  # the commonest fault
            message += " (a value holding “: ” must be put in quotes)"
        line = 1 if line is None else line + FIRST_LINE - 1
        return FrontMatter("yaml", 1, end_line, error=message, error_line=line)
    if root is None:
        return FrontMatter("yaml", 1, end_line)
    if not isinstance(root, yaml.MappingNode):
        return FrontMatter(
            "yaml",
            1,
            end_line,
            error="the front matter is not a mapping of keys to values",
            error_line=root.start_mark.line + FIRST_LINE,
        )
    keys: dict[str, int] = {}
    for key, _value in root.value:
        if isinstance(key, yaml.ScalarNode):
            keys.setdefault(key.value, key.start_mark.line + FIRST_LINE)
    return FrontMatter("yaml", 1, end_line, tuple(_yaml_values(root)), tuple(keys.items()))


def _opened_at(body: str) -> tuple[str, int] | None:
    """What the parser was reading when it met a fault, and that thing's line in ``body``
    (``while scanning a quoted scalar``, line 1), when it names one: only for a block that
    could not be read, which the parser reads again for it (events only, nothing composed)."""
    try:
        for _event in yaml.parse(body, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as error:
        if error.context and error.context_mark is not None:
            words = error.context.split()[2:]  # "while scanning a quoted scalar"
            what = " ".join(_PLAIN.get(word, word) for word in words)
            return what, error.context_mark.line + 1
    except yaml.YAMLError:
        return None
    return None


def _yaml_values(root: yaml.MappingNode) -> list[FrontMatterValue]:
    """Every scalar under ``root`` with its path and line, in file order (a mapping's value at
    its key's line); a key that is not a scalar is skipped."""
    found: list[FrontMatterValue] = []
    stack: list[tuple[yaml.Node, str, int]] = [(root, "", root.start_mark.line)]
    while stack and len(found) < MAX_VALUES:
        node, prefix, line = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            found.append(FrontMatterValue(prefix, node.value.strip(), line + FIRST_LINE))
            continue
        children: list[tuple[yaml.Node, str, int]] = []
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    name = f"{prefix}.{key.value}" if prefix else key.value
                    children.append((value, name, key.start_mark.line))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                children.append(
                    (item, f"{prefix}.{index}" if prefix else str(index), item.start_mark.line)
                )
        stack.extend(reversed(children))
    return found


def _read_toml(body: str, end_line: int) -> FrontMatter:
    try:
        data = tomllib.loads(body)
    except tomllib.TOMLDecodeError as error:
        text = str(error)
        found = _TOML_ERROR_LINE.search(text)
        line = int(found.group(1)) + FIRST_LINE - 1 if found else 1
        message = _TOML_ERROR_LINE.split(text)[0].strip().rstrip("(").strip()
        return FrontMatter("toml", 1, end_line, error=f"invalid TOML: {message}", error_line=line)
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion
        return FrontMatter(
            "toml", 1, end_line, error="invalid TOML: nested too deeply", error_line=FIRST_LINE
        )
    lines = _toml_key_lines(body)
    values: list[FrontMatterValue] = []
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack and len(values) < MAX_VALUES:
        value, prefix = stack.pop()
        if isinstance(value, dict):
            stack.extend(
                (item, f"{prefix}.{key}" if prefix else key)
                for key, item in reversed(value.items())
            )
        elif isinstance(value, list):
            stack.extend((item, f"{prefix}.{i}") for i, item in reversed(list(enumerate(value))))
        else:
            values.append(FrontMatterValue(prefix, _toml_text(value), _toml_line(prefix, lines)))
    keys = tuple((key, _toml_line(key, lines)) for key in data)
    return FrontMatter("toml", 1, end_line, tuple(values), keys)


def _toml_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return str(value).strip()


def _toml_key_lines(body: str) -> dict[str, int]:
    """Dotted key path → the file line of its ``key =`` line (under its ``[table]`` header),
    and each table's path → its header's line."""
    found: dict[str, int] = {}
    table = ""
    for number, line in enumerate(body.split("\n"), start=FIRST_LINE):
        header = _TOML_TABLE.match(line)
        if header:
            table = _dotted(header.group(1))
            found.setdefault(table, number)
            continue
        key = _TOML_KEY.match(line)
        if key:
            name = _dotted(key.group(1))
            found.setdefault(f"{table}.{name}" if table else name, number)
    return found


def _dotted(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


def _toml_line(path: str, lines: dict[str, int]) -> int:
    """The line of ``path``'s key, else of the nearest enclosing key or table found, else the
    block's first line."""
    parts = path.split(".")
    while parts:
        line = lines.get(".".join(parts))
        if line is not None:
            return line
        parts.pop()
    return FIRST_LINE


__all__ = ["read_front_matter"]
