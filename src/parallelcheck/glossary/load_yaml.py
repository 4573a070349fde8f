"""Reading YAML glossaries (``docs/configuration.md``, "Glossaries", "YAML").

``.yaml`` / ``.yml``
    The format of ``docs/configuration.md``.  Read with PyYAML's safe loader through
    :mod:`parallelcheck.files.safe_yaml`: control characters, nesting deeper than 100 levels,
    more than 4,000,000 nodes and aliases that would expand the document beyond its size are
    refused at their line; files over 64 MB are refused outright.  Keys are taken as written
    (``no:`` is Norwegian, not false), duplicate keys are errors.
"""

from __future__ import annotations

import yaml

from parallelcheck.errors import InputError
from parallelcheck.files.safe_yaml import compose
from parallelcheck.glossary.build import (
    MAX_TERMS,
    _decode,
    _Problems,
    _read_bytes,
    _Skip,
    _TermBuilder,
)
from parallelcheck.glossary.model import Term

MAX_YAML_BYTES = 64_000_000
#: YAML nodes (scalars, lists, mappings) one glossary file may hold: 20 per term at the bound.
MAX_YAML_NODES = 20 * MAX_TERMS
LANG_KEYS = ("term", "forbidden", "case_sensitive")


# ---------------------------------------------------------------------------
# YAML (docs/configuration.md, "YAML")


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if not node.value.strip() or (not node.style and node.value in _NULLS):
        return "an empty value"
    return "a scalar"


_NULLS = ("", "~", "null", "Null", "NULL")


def _scalar_text(node: yaml.Node) -> str | None:
    """A scalar's text as written (``yes`` stays ``yes``); None for an empty value, a plain
    null or anything that is not a scalar."""
    if not isinstance(node, yaml.ScalarNode) or not node.value.strip():
        return None
    if not node.style and node.value in _NULLS:  # plain style: None, or '' from libyaml
        return None
    return node.value


def _bool(node: yaml.Node) -> bool | None:
    if isinstance(node, yaml.ScalarNode):
        value = node.value.strip().lower()
        if value in ("true", "yes", "on"):
            return True
        if value in ("false", "no", "off"):
            return False
    return None


def _compose(text: str, path: str, problems: _Problems) -> yaml.Node | None:
    """The node tree of a glossary file, bounded (see :mod:`parallelcheck.files.safe_yaml`)."""
    try:
        return compose(
            text, path, max_nodes=MAX_YAML_NODES, refuse_tags=True, libyaml=True, resolve=False
        )
    except InputError as error:
        problems.error(error.message, path, error.line)
        raise _Skip from None


def _mapping_items(
    node: yaml.MappingNode, builder: _TermBuilder | None, path: str, problems: _Problems
):
    """(key text, key line, value node) of a mapping; duplicate or non-text keys are errors."""
    seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = _scalar_text(key_node)
        line = _line(key_node)
        if key is None:
            message = "mapping keys must be plain text"
            if builder is not None:
                builder.fail(message, line)
                continue
            problems.error(message, path, line)
            continue
        if key in seen:
            message = f"duplicate key '{key}' (first given on line {seen[key]})"
            if builder is not None:
                builder.fail(message, line)
                continue
            problems.error(message, path, line)
            continue
        seen[key] = line
        yield key, line, value_node


def _load_yaml(path: str, problems: _Problems) -> list[Term]:
    text = _decode(_read_bytes(path, MAX_YAML_BYTES, problems), path, problems)
    return _yaml_terms(text, path, problems)


def _yaml_terms(text: str, path: str, problems: _Problems) -> list[Term]:
    """The terms of a YAML glossary's text; ``path`` is the name its messages give."""
    root = _compose(text, path, problems)
    if root is None:
        return []  # an empty file: no terms
    if not isinstance(root, yaml.MappingNode):
        problems.error(
            f"a glossary must be a mapping with a 'terms' list, not {_kind(root)}",
            path,
            _line(root),
        )
        return []
    terms_node = None
    for key, line, value in _mapping_items(root, None, path, problems):
        if key == "terms":
            terms_node = value
        else:
            problems.error(f"unknown key '{key}' (a glossary file has only 'terms')", path, line)
    if terms_node is None:
        problems.error("a glossary must have a 'terms' list", path, _line(root))
        return []
    if isinstance(terms_node, yaml.ScalarNode) and _scalar_text(terms_node) is None:
        return []  # terms: (empty)
    if not isinstance(terms_node, yaml.SequenceNode):
        problems.error(f"'terms' must be a list, not {_kind(terms_node)}", path, _line(terms_node))
        return []
    terms = []
    for item in terms_node.value:
        if not problems.count_term(path, _line(item)):
            break
        term = _yaml_term(item, path, problems)
        if term is not None:
            terms.append(term)
    return terms


def _yaml_term(node: yaml.Node, path: str, problems: _Problems) -> Term | None:
    builder = _TermBuilder(path, _line(node), problems)
    if not isinstance(node, yaml.MappingNode):
        builder.fail(f"each term must be a mapping (id, keep, languages…), not {_kind(node)}")
        return None
    for key_node, value_node in node.value:  # the id first, so every message can name it
        if _scalar_text(key_node) == "id" and _scalar_text(value_node):
            builder.id = _scalar_text(value_node)
            break
    items = list(_mapping_items(node, builder, path, problems))
    for key, line, value in items:
        if key == "id":
            text = _scalar_text(value)
            if text is None:
                builder.fail(f"'id' must be a non-empty string, not {_kind(value)}", line)
            else:
                builder.set_id(text, line)
    case_default = False
    for key, line, value in items:
        if key == "case_sensitive":
            flag = _bool(value)
            if flag is None:
                builder.fail("'case_sensitive' must be true or false", line)
            else:
                case_default = flag
    for key, line, value in items:
        if key in ("id", "case_sensitive"):
            continue
        if key == "keep":
            text = _scalar_text(value)
            if text is None:
                builder.fail(f"'keep' must be a non-empty string, not {_kind(value)}", line)
            else:
                builder.keep = builder.form(text, "'keep'", line)
        elif key == "note":
            if not isinstance(value, yaml.ScalarNode):
                builder.fail(f"'note' must be a string, not {_kind(value)}", line)
            else:
                builder.note = value.value.strip() or None
        elif key == "forbidden":
            builder.forbidden.extend(_yaml_forms(value, builder, "'forbidden'", line))
        elif key == "term":
            builder.fail(
                "'term' belongs inside a language mapping (for example  ja: {term: …, "
                "forbidden: […]})",
                line,
            )
        else:
            _yaml_lang(key, line, value, builder, case_default, path, problems)
    return builder.build()


def _yaml_forms(node: yaml.Node, builder: _TermBuilder, what: str, line: int) -> list[str]:
    """A string or a list of strings, as cleaned forms."""
    if isinstance(node, yaml.ScalarNode):
        text = _scalar_text(node)
        if text is None:
            builder.fail(f"{what} must be a string or a list of strings, not an empty value", line)
            return []
        form = builder.form(text, what, line)
        return [form] if form else []
    if not isinstance(node, yaml.SequenceNode):
        builder.fail(f"{what} must be a string or a list of strings, not {_kind(node)}", line)
        return []
    forms = []
    for index, item in enumerate(node.value, 1):
        text = _scalar_text(item)
        if text is None:
            builder.fail(
                f"{what} must be a list of strings; item {index} is {_kind(item)}", _line(item)
            )
            continue
        form = builder.form(text, what, _line(item))
        if form:
            forms.append(form)
    if not forms and builder.ok:
        builder.fail(f"{what} is an empty list", line)
    return forms


def _yaml_lang(key, line, value, builder, case_default, path, problems) -> None:
    what = f"'{key}'"
    approved: list[str] = []
    forbidden: list[str] = []
    case_sensitive = case_default
    if isinstance(value, yaml.MappingNode):
        has_term = False
        for inner, inner_line, inner_value in _mapping_items(value, builder, path, problems):
            if inner == "term":
                has_term = True
                approved = _yaml_forms(inner_value, builder, f"'{key}.term'", inner_line)
            elif inner == "forbidden":
                forbidden = _yaml_forms(inner_value, builder, f"'{key}.forbidden'", inner_line)
            elif inner == "case_sensitive":
                flag = _bool(inner_value)
                if flag is None:
                    builder.fail(f"'{key}.case_sensitive' must be true or false", inner_line)
                else:
                    case_sensitive = flag
            else:
                builder.fail(
                    f"unknown key '{inner}' in language '{key}' (expected one of: "
                    f"{', '.join(LANG_KEYS)})",
                    inner_line,
                )
        if not has_term and not forbidden and builder.ok:
            builder.fail(f"language '{key}' gives neither 'term' nor 'forbidden'", line)
            return
    else:
        approved = _yaml_forms(value, builder, what, line)
    builder.add_lang(key, approved, forbidden, case_sensitive, line)
