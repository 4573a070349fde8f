"""Configuration: ``parallelcheck.yaml`` or ``[tool.parallelcheck]`` in ``pyproject.toml``.

Where it is read from (the first that exists wins), as ruff finds its own:

1. the file given with ``--config FILE`` (YAML, or TOML when it ends in ``.toml``: its
   ``[tool.parallelcheck]`` table if it has one, else the whole document);
2. walking up from the first checked path (then from the working directory), in each folder:
   ``parallelcheck.yaml`` (or ``parallelcheck.yml``, ``.parallelcheck.yaml``,
   ``.parallelcheck.yml``), then the ``[tool.parallelcheck]`` table of ``pyproject.toml``.
   The walk ends at the first folder holding ``.git`` (a project's configuration lives in the
   project) or at the file system's root;
3. the defaults, relative to the working directory (``glossary/`` there; see docs/configuration.md).

Paths in the file (``root``, ``glossary``) are relative to the folder holding the file, and
that folder is the *project root* discovery never reads above.

Every problem is an :class:`~parallelcheck.errors.InputError` naming the file, the line of the
offending key and the key itself; unknown keys, rule ids and options are errors, with a close
match suggested.  YAML is read with the safe loader only, through
:mod:`parallelcheck.files.safe_yaml`: files over 1 MB, control characters, nesting deeper than 100
levels, documents whose aliases would expand to more than 100,000 nodes and integers of more
digits than Python converts are refused at their line.  TOML nested deeper than 100 levels
(arrays, inline tables) is refused at its line before ``tomllib`` reads it.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from parallelcheck.discover.layout import DEFAULT_LAYOUTS, LayoutError, PatternLayout
from parallelcheck.errors import InputError, describe_kind
from parallelcheck.files.globs import Globs, pattern_error
from parallelcheck.files.safe_read import TOO_LARGE, ReadRefused, read_capped
from parallelcheck.files.safe_yaml import MAX_DEPTH, compose, construct, describe_character
from parallelcheck.model.options import Option, OptionError
from parallelcheck.text.langtag import canonical_tag, did_you_mean
from parallelcheck.text.regexes import compile_pattern
from parallelcheck.text.suggest import closest

SEVERITIES = ("error", "warning", "info")
TOP_KEYS = (
    "root",
    "source",
    "languages",
    "layout",
    "glossary",
    "exclude",
    "rules",
    "overrides",
    "links",
    "regional",
)
OVERRIDE_KEYS = ("paths", "rules")
LAYOUT_KEYS = ("pattern", "source")
RULE_OPTIONS = ("severity", "enabled")
LINK_KEYS = ("localized_prefixes", "ignore_targets")
YAML_NAMES = (
    "parallelcheck.yaml",
    "parallelcheck.yml",
    ".parallelcheck.yaml",
    ".parallelcheck.yml",
)
#: The configuration files' names, in the order they are looked for in one folder.
CONFIG_NAMES = YAML_NAMES
PYPROJECT = "pyproject.toml"
MAX_CONFIG_BYTES = 1_000_000

#: A rule's setting for some paths (``overrides``): off, on (its own grading) or a severity.
OFF, ON = "off", "on"

_OFF = frozenset({"off", "false", "no", "disable", "disabled"})
_ON = frozenset({"on", "true", "yes", "enable", "enabled"})

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class RuleConfig:
    """How one rule is configured: switched off, or on with an optional severity override,
    and the values of the rule's own options that the configuration sets (each checked by the
    option's declaration, :class:`~parallelcheck.rules.base.Option`)."""

    enabled: bool = True
    severity: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def setting(self) -> str:
        """:data:`OFF`, :data:`ON` or the configured severity."""
        return OFF if not self.enabled else self.severity or ON


@dataclass(frozen=True)
class Override:
    """An entry of ``overrides:``: how rules are set for the files its ``paths`` match (off,
    on or a severity, by rule; see :meth:`Config.rules_by_version`)."""

    paths: Globs
    rules: Mapping[str, RuleConfig]


@dataclass(frozen=True)
class LinkConfig:
    """Options of the link comparison.

    ``localized_prefixes``: URL path prefixes with a ``{lang}`` placeholder; a target starting
    with one, filled with the version's own language, is compared without it (alignment and
    the rules comparing links read it).  ``links.ignore_targets`` is read as the
    ``link-mismatch`` rule's ``ignore_targets`` option.
    """

    localized_prefixes: tuple[str, ...] = ("/{lang}/",)


@dataclass
class Config:
    """The settings of one run, as read from the configuration file (or the defaults)."""

    root: str = "articles"
    source: str | None = None
    languages: tuple[str, ...] | None = None
    layouts: tuple[str | PatternLayout, ...] = DEFAULT_LAYOUTS
    glossary: tuple[str, ...] = ()
    rules: dict[str, RuleConfig] = field(default_factory=dict)
    links: LinkConfig = field(default_factory=LinkConfig)
    path: str | None = None
    base_dir: str = "."
    #: Files and folders discovery passes over (``exclude:``).
    exclude: Globs = field(default_factory=lambda: Globs("."))
    overrides: tuple[Override, ...] = ()

    @property
    def project_root(self) -> str | None:
        """The folder holding the configuration file, or ``None`` when there is none."""
        return self.base_dir if self.path is not None else None

    def rules_by_version(self, paths: Mapping[str, str]) -> dict[str, dict[str, str]]:
        """For each version (language → file) whose file some ``overrides`` entries match,
        the settings they give (rule → :data:`OFF`, :data:`ON` or a severity), a later entry
        winning over an earlier one."""
        found: dict[str, dict[str, str]] = {}
        for lang, path in paths.items():
            settings: dict[str, str] = {}
            for override in self.overrides:
                if override.paths.matches(path):
                    settings.update((rule, c.setting()) for rule, c in override.rules.items())
            if settings:
                found[lang] = settings
        return found


# ---------------------------------------------------------------------------
# Entry point


def load_config(
    explicit: str | None,
    *,
    cwd: str,
    known_rules: Collection[str],
    start: str | None = None,
) -> Config:
    """Read the configuration that applies to *start* (a checked path) in *cwd* (see the
    module documentation).

    *explicit* is the ``--config`` option.  *known_rules* are the rule ids that ``rules`` may
    name.  Raises :class:`InputError` for anything wrong in the file.
    """
    cwd = os.path.abspath(cwd)
    if explicit is not None:
        path = os.path.normpath(os.path.join(cwd, explicit))
        if not os.path.exists(path):
            raise InputError("configuration file not found", explicit)
        if not os.path.isfile(path):
            raise InputError("configuration path is not a file", explicit)
        if path.lower().endswith(".toml"):
            return _from_toml(path, cwd, known_rules, required=True)
        return _from_yaml(path, cwd, known_rules)
    starts = [cwd]
    if start is not None:
        first = os.path.normpath(os.path.join(cwd, start))
        starts.insert(0, first if os.path.isdir(first) else os.path.dirname(first))
    for folder in _upwards(starts):
        for name in YAML_NAMES:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return _from_yaml(path, cwd, known_rules, confined=True)
        pyproject = os.path.join(folder, PYPROJECT)
        if os.path.isfile(pyproject):
            config = _from_toml(pyproject, cwd, known_rules, required=False)
            if config is not None:
                return config
    return _build({}, _NoLines(), None, cwd, cwd, known_rules)


def _upwards(starts: Iterable[str]) -> Iterable[str]:
    """Each folder from each of *starts* up to the first holding ``.git`` (or the file
    system's root), each once."""
    seen: set[str] = set()
    for start in starts:
        current = start
        while current not in seen:
            seen.add(current)
            yield current
            parent = os.path.dirname(current)
            if parent == current or os.path.exists(os.path.join(current, ".git")):
                break
            current = parent


# ---------------------------------------------------------------------------
# Reading files


def _show(path: str, cwd: str) -> str:
    """*path* relative to *cwd* when below it, else as it is."""
    if path == cwd:
        return "."
    prefix = cwd.rstrip(os.sep) + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else path


def _read(path: str, shown: str) -> str:
    """The configuration file's text: a regular file of at most :data:`MAX_CONFIG_BYTES`,
    read by :func:`~parallelcheck.files.safe_read.read_capped` (a FIFO or device is refused
    before it is opened; the size is checked while reading)."""
    try:
        data = read_capped(path, MAX_CONFIG_BYTES, shown, what="configuration file")
    except ReadRefused as refused:
        if refused.kind == TOO_LARGE:
            raise
        raise InputError(f"cannot read configuration file: {refused.message}", shown) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("configuration file is not UTF-8 text", shown, line) from None


def _from_yaml(
    path: str, cwd: str, known_rules: Collection[str], *, confined: bool = False
) -> Config:
    shown = _show(path, cwd)
    text = _read(path, shown)
    data, lines = _parse_yaml(text, shown)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(
            f"the configuration must be a mapping of keys ({', '.join(TOP_KEYS)}), "
            f"not {_kind(data)}",
            shown,
            lines.line(()),
        )
    return _build(data, lines, shown, os.path.dirname(path), cwd, known_rules, confined=confined)


def _from_toml(path: str, cwd: str, known_rules: Collection[str], *, required: bool):
    shown = _show(path, cwd)
    text = _read(path, shown)
    if not required and "parallelcheck" not in text:
        return None  # another tool's pyproject.toml: not ours to judge
    deep = _toml_too_deep(text)
    if deep is not None:
        raise InputError(
            f"invalid TOML: nested more than {MAX_DEPTH} levels deep (arrays or inline tables)",
            shown,
            deep,
        )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"at line (\d+)", message)
        if match is None and "end of document" in message:
            line: int | None = text.count("\n") + 1
        else:
            line = int(match[1]) if match else None
        raise InputError(f"invalid TOML: {message}", shown, line) from None
    except ValueError:  # an integer of more digits than Python converts
        number = _LONG_NUMBER.search(text)
        line = text.count("\n", 0, number.start()) + 1 if number else 1
        digits = f"{len(number.group().replace('_', '')):,} " if number else "too many "
        raise InputError(
            f"invalid TOML: a number of {digits}digits (more than Python reads)", shown, line
        ) from None
    except RecursionError:  # not reached: _toml_too_deep bounds the nesting first
        raise InputError("invalid TOML: nested too deeply", shown, 1) from None
    tool = document.get("tool")
    if isinstance(tool, dict) and "parallelcheck" in tool:
        prefix: tuple[str, ...] = ("tool", "parallelcheck")
        data = tool["parallelcheck"]
    elif os.path.basename(path) == PYPROJECT:
        if not required:
            return None
        raise InputError("pyproject.toml has no [tool.parallelcheck] table", shown)
    else:
        prefix, data = (), document
    lines = _TomlLines(text, prefix)
    if not isinstance(data, dict):
        raise InputError("[tool.parallelcheck] must be a table of keys", shown, lines.line(()))
    return _build(
        data, lines, shown, os.path.dirname(path), cwd, known_rules, confined=not required
    )


_LONG_NUMBER = compile_pattern(r"[0-9][0-9_]{1000,}")
_TOML_TOKEN = compile_pattern(
    r'"""(?:[^\\]|\\.)*?"""'
    r"|'''.*?'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\[\]{}]",
    re.DOTALL,
)


def _toml_too_deep(text: str) -> int | None:
    """The line where arrays and inline tables of a TOML text first nest deeper than
    :data:`~parallelcheck.files.safe_yaml.MAX_DEPTH` (strings and comments skipped), else None.

    ``tomllib`` reads nesting by recursion; without this bound a few thousand ``[`` exhaust
    the interpreter's stack."""
    depth = 0
    for token in _TOML_TOKEN.finditer(text):
        char = token.group()
        if char in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, token.start()) + 1
        elif char in ("]", "}"):
            depth = max(0, depth - 1)
    return None


# ---------------------------------------------------------------------------
# Line numbers


class _NoLines:
    """Line lookup for the defaults: there is no file."""

    def line(self, path: Path, value: object = None) -> int | None:
        return None


class _YamlLines:
    """Line of each key (and list item) of the first levels of a composed YAML document."""

    DEPTH = 4

    def __init__(self, node: yaml.Node, shown: str):
        self.lines: dict[Path, int] = {(): node.start_mark.line + 1}
        self._walk(node, (), shown)

    def _walk(self, node: yaml.Node, path: Path, shown: str) -> None:
        if len(path) >= self.DEPTH:
            return
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                key_path = (*path, key_node.value)
                if key_path in self.lines and key_node.value != "<<":
                    where = ".".join(str(p) for p in key_path)
                    raise InputError(
                        f"duplicate key '{where}' (first given on line {self.lines[key_path]})",
                        shown,
                        line,
                    )
                self.lines[key_path] = line
                self._walk(value_node, key_path, shown)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self.lines[(*path, index)] = item.start_mark.line + 1
                self._walk(item, (*path, index), shown)

    def line(self, path: Path, value: object = None) -> int | None:
        while path not in self.lines:
            path = path[:-1]
        return self.lines[path]


_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_DOTTED = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_HEADER = compile_pattern(rf"^\s*\[\[?\s*({_DOTTED})\s*\]\]?")
_ASSIGN = compile_pattern(rf"^\s*({_DOTTED})\s*=")


def _key_parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip("\"'") for part in re.findall(_KEY_PART, dotted))


class _TomlLines:
    """Line numbers for keys of a TOML document, found by scanning its text.

    ``tomllib`` keeps no positions.  Table headers and ``key = value`` lines are read line by
    line (the tables of an array of tables, ``[[…]]``, by their index); keys inside inline
    tables and items of arrays are searched for after the line of the key holding them.
    """

    def __init__(self, text: str, prefix: tuple[str, ...]):
        self.text_lines = text.splitlines()
        self.prefix = prefix
        self.lines: dict[Path, int] = {}
        table: Path = ()
        arrays: dict[Path, int] = {}  # tables of each array of tables so far
        closing: str | None = None
        for number, line in enumerate(self.text_lines, 1):
            if closing is not None:
                if closing in line:
                    closing = None
                continue
            header = _HEADER.match(line)
            if header:
                table = _key_parts(header[1])
                if line.lstrip().startswith("[["):
                    index = arrays.get(table, 0)
                    arrays[table] = index + 1
                    table = (*table, index)
                self._record(table, number)
                continue
            assign = _ASSIGN.match(line)
            if assign:
                self._record((*table, *_key_parts(assign[1])), number)
                rest = line[assign.end() :]
                for quote in ('"""', "'''"):
                    if rest.count(quote) % 2 == 1:
                        closing = quote

    def _record(self, path: Path, number: int) -> None:
        for end in range(1, len(path) + 1):
            self.lines.setdefault(path[:end], number)

    def line(self, path: Path, value: object = None) -> int | None:
        full = (*self.prefix, *path)
        exact = self.lines.get(full)
        if exact is not None:
            return exact
        if not full:
            return None
        parent = self.line(path[:-1]) if path else None
        last = full[-1]
        if parent is not None:
            if isinstance(last, int):
                pattern = None if value is None else re.escape(repr(value)[1:-1])
                if pattern is not None:
                    pattern = rf"""["']{pattern}["']"""
            else:
                pattern = rf"""(?:^|[\s{{,]){re.escape(last)}\s*=|["']{re.escape(last)}["']\s*="""
            if pattern is not None:
                for number in range(parent, min(parent + 200, len(self.text_lines)) + 1):
                    if re.search(pattern, self.text_lines[number - 1]):
                        return number
        return parent


# ---------------------------------------------------------------------------
# Hostile YAML


def _parse_yaml(text: str, shown: str) -> tuple[Any, _YamlLines | _NoLines]:
    """The document's value and its lines; every problem an :class:`InputError` at its line
    (see :mod:`parallelcheck.files.safe_yaml`)."""
    node = compose(text, shown)
    if node is None:
        return None, _NoLines()
    lines = _YamlLines(node, shown)
    return construct(node, shown), lines


# ---------------------------------------------------------------------------
# Checking values


def _kind(value: object) -> str:
    return describe_kind(value, null="an empty value", mapping="a mapping")


_CONTROL = compile_pattern("[\x00-\x1f\x7f-\x9f]")


def _suggest(word: object, choices: Iterable[str]) -> str:
    close = closest(word, choices)
    return f"; did you mean '{close}'?" if close else ""


class _Checker:
    """Turns the raw mapping into a :class:`Config`, raising errors with file and line."""

    def __init__(self, lines: Any, shown: str | None):
        self.lines = lines
        self.shown = shown

    def fail(self, message: str, path: Path, value: object = None) -> InputError:
        return InputError(message, self.shown, self.lines.line(path, value))

    def unknown(
        self, what: str, key: object, path: Path, choices: Iterable[str], context: str = ""
    ) -> InputError:
        choices = list(choices)
        listed = ", ".join(choices)
        return self.fail(
            f"unknown {what} '{key}'{context} (expected one of: {listed}){_suggest(key, choices)}",
            (*path, str(key)),
        )

    def string(self, value: object, path: Path, name: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"'{name}' must be a non-empty string, not {_kind(value)}", path)
        control = _CONTROL.search(value)
        if control is not None:
            raise self.fail(
                f"'{name}' holds the control character {describe_character(control.group())}",
                path,
                value,
            )
        return value

    def strings(self, value: object, path: Path, name: str) -> list[str]:
        """A string or a list of strings, as a list."""
        if isinstance(value, str):
            return [self.string(value, path, name)]
        if not isinstance(value, list):
            raise self.fail(f"'{name}' must be a list of strings, not {_kind(value)}", path)
        result = []
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                raise self.fail(
                    f"'{name}' must be a list of strings; item {index + 1} is {_kind(item)}",
                    (*path, index),
                    item,
                )
            result.append(item)
        return result

    def tag(self, value: object, path: Path, name: str) -> str:
        text = self.string(value, path, name)
        tag = canonical_tag(text.strip())
        if tag is None:
            raise self.fail(
                f"invalid language tag '{text}' in '{name}' (expected a registered BCP 47 tag "
                f"such as en, zh-Hant, pt-BR){did_you_mean(text.strip(), ())}",
                path,
                value,
            )
        return tag

    def mapping(self, value: object, path: Path, name: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(f"'{name}' must be a mapping, not {_kind(value)}", path)
        return value

    def rule(
        self, rule_id: str, value: object, path: Path, declared: Mapping[str, Option]
    ) -> RuleConfig:
        expected = (
            f"expected off, a severity ({', '.join(SEVERITIES)}) or {{severity: …}}, "
            f"not {_kind(value)}"
        )
        if isinstance(value, bool):
            return RuleConfig(enabled=value)
        if isinstance(value, str):
            return self.rule_word(rule_id, value, path)
        if isinstance(value, dict):
            enabled, severity = True, None
            options: dict[str, Any] = {}
            for option, setting in value.items():
                option_path = (*path, str(option))
                if option == "enabled":
                    if not isinstance(setting, bool):
                        raise self.fail(
                            f"'enabled' of rule '{rule_id}' must be true or false, "
                            f"not {_kind(setting)}",
                            option_path,
                        )
                    enabled = enabled and setting
                elif option == "severity":
                    if isinstance(setting, bool) and not setting:
                        enabled = False
                        continue
                    if not isinstance(setting, str):
                        raise self.fail(
                            f"'severity' of rule '{rule_id}' must be one of "
                            f"{', '.join(SEVERITIES)}, not {_kind(setting)}",
                            option_path,
                        )
                    word = self.rule_word(rule_id, setting, option_path)
                    enabled = enabled and word.enabled
                    severity = word.severity
                elif option in declared:
                    options[option] = self.option(
                        declared[option], setting, option_path, f"rules.{rule_id}.{option}"
                    )
                else:
                    raise self.unknown(
                        "option", option, path, (*RULE_OPTIONS, *declared), f" for rule '{rule_id}'"
                    )
            return RuleConfig(
                enabled=enabled, severity=severity if enabled else None, options=options
            )
        raise self.fail(f"rule '{rule_id}': {expected}", path)

    def option(self, declared: Option, value: object, path: Path, name: str) -> Any:
        """A rule option's configured *value*, checked by its declaration; an error names the
        option as the configuration writes it (*name*) and the line of the offending part."""
        try:
            return declared.read(value)
        except OptionError as error:
            raise self.fail(error.worded(name), (*path, *error.key)) from None

    def rule_word(self, rule_id: str, word: str, path: Path) -> RuleConfig:
        low = word.strip().lower()
        if low in _OFF:
            return RuleConfig(enabled=False)
        if low in _ON:
            return RuleConfig()
        if low in SEVERITIES:
            return RuleConfig(severity=low)
        raise self.fail(
            f"unknown severity '{word}' for rule '{rule_id}' (expected one of: "
            f"{', '.join(SEVERITIES)}, or off){_suggest(low, SEVERITIES)}",
            path,
        )


def _build(
    data: Mapping[Any, Any],
    lines: Any,
    shown: str | None,
    base_dir: str,
    cwd: str,
    known_rules: Collection[str],
    *,
    confined: bool = False,
) -> Config:
    """The :class:`Config` of *data*.  With *confined* (a configuration found in the checked
    tree, not named by ``--config``: repository content, which a pull request can change),
    ``root`` and ``glossary`` must lie inside the configuration's folder, so the file cannot
    widen what a run reads (``root: /`` beside a link to ``/etc/passwd``)."""
    check = _Checker(lines, shown)
    base_dir = os.path.abspath(base_dir)

    def resolve(path: str, key: Path = (), raw: object = None) -> str:
        joined = os.path.normpath(os.path.join(base_dir, path))
        if confined and key:
            real, inside = os.path.realpath(joined), os.path.realpath(base_dir)
            if real != inside and not real.startswith(inside.rstrip(os.sep) + os.sep):
                raise check.fail(
                    f"'{key[0]}' path '{path}' lies outside the folder of the configuration: "
                    "a configuration found in the checked tree may name only paths inside "
                    "it (name the file with --config to use it as it is)",
                    key,
                    raw,
                )
        return _show(joined, cwd)

    for key in data:
        if key not in TOP_KEYS:
            raise check.unknown("key", key, (), TOP_KEYS)

    config = Config(path=shown, base_dir=base_dir, root=resolve("articles"))
    if "root" in data:
        root = check.string(data["root"], ("root",), "root").strip()
        config.root = resolve(root, ("root",), data["root"])
    if data.get("source") is not None:
        config.source = check.tag(data["source"], ("source",), "source")
    if data.get("languages") is not None:
        raw = data["languages"]
        items = check.strings(raw, ("languages",), "languages")
        if not items:
            raise check.fail("'languages' must name at least one language", ("languages",))
        tags: list[str] = []
        for index, item in enumerate(items):
            item_path: Path = ("languages",) if isinstance(raw, str) else ("languages", index)
            tag = check.tag(item, item_path, "languages")
            if tag not in tags:
                tags.append(tag)
        config.languages = tuple(tags)
        if config.source is not None and config.source not in tags:
            raise check.fail(
                f"source language '{config.source}' is not among the configured languages "
                f"({', '.join(tags)})",
                ("source",),
            )
    if data.get("layout") is not None:
        config.layouts = _layouts(check, data["layout"])
    if "glossary" in data:
        raw = data["glossary"]
        items = [] if raw is None else check.strings(raw, ("glossary",), "glossary")
        glossary = []
        for index, item in enumerate(items):
            item_path = ("glossary",) if isinstance(raw, str) else ("glossary", index)
            resolved = resolve(item.strip(), item_path, item)
            if not os.path.exists(os.path.join(cwd, resolved)):
                raise check.fail(f"glossary path '{item}' does not exist", item_path, item)
            glossary.append(resolved)
        config.glossary = tuple(glossary)
    elif os.path.isdir(os.path.join(base_dir, "glossary")):
        config.glossary = (resolve("glossary"),)
    if data.get("rules") is not None:
        rules = check.mapping(data["rules"], ("rules",), "rules")
        known = sorted(known_rules)
        for rule_id, value in rules.items():
            if rule_id not in known_rules:
                raise check.unknown("rule id", rule_id, ("rules",), known)
            config.rules[rule_id] = check.rule(
                rule_id, value, ("rules", rule_id), _declared(known_rules, rule_id)
            )
    if data.get("exclude") is not None:
        patterns = _patterns(check, data["exclude"], ("exclude",), "exclude")
        config.exclude = Globs(base_dir, patterns)
    if data.get("overrides") is not None:
        config.overrides = _overrides(check, data["overrides"], base_dir, known_rules)
    if data.get("links") is not None:
        links = check.mapping(data["links"], ("links",), "links")
        prefixes = LinkConfig().localized_prefixes
        ignore: tuple[str, ...] = ()
        for key, value in links.items():
            path: Path = ("links", str(key))
            if key == "localized_prefixes":
                prefixes = tuple(check.strings(value, path, "links.localized_prefixes"))
                for index, prefix in enumerate(prefixes):
                    if "{lang}" not in prefix:
                        raise check.fail(
                            f"localized prefix '{prefix}' has no {{lang}} placeholder "
                            "(for example '/{lang}/')",
                            path if isinstance(value, str) else (*path, index),
                            prefix,
                        )
            elif key == "ignore_targets":
                ignore = tuple(check.strings(value, path, "links.ignore_targets"))
                _set_option(config, "link-mismatch", "ignore_targets", ignore)
            else:
                raise check.unknown("key", key, ("links",), LINK_KEYS)
        config.links = LinkConfig(localized_prefixes=prefixes)
    if data.get("regional") is not None:
        regional = check.mapping(data["regional"], ("regional",), "regional")
        declared = _declared(known_rules, "regional-variant").get("languages")
        if declared is not None:
            value = check.option(declared, regional, ("regional",), "regional")
            _set_option(config, "regional-variant", "languages", value)
    return config


def _patterns(check: _Checker, raw: object, path: Path, name: str) -> tuple[str, ...]:
    """A pattern or a list of them (:mod:`parallelcheck.files.globs`), each one usable."""
    items = check.strings(raw, path, name)
    for index, item in enumerate(items):
        problem = pattern_error(item)
        if problem is not None:
            item_path = path if isinstance(raw, str) else (*path, index)
            raise check.fail(f"the pattern '{item}' in '{name}' {problem}", item_path, item)
    return tuple(item.strip() for item in items)


def _overrides(
    check: _Checker, raw: object, base_dir: str, known_rules: Collection[str]
) -> tuple[Override, ...]:
    """``overrides:``: a list of ``{paths: PATTERNS, rules: {RULE: SETTING}}``, each setting
    off, on or a severity (a rule's options are set under ``rules:`` only)."""
    if not isinstance(raw, list):
        raise check.fail(
            f"'overrides' must be a list of {{paths, rules}} mappings, not {_kind(raw)}",
            ("overrides",),
        )
    found = []
    for index, item in enumerate(raw):
        path: Path = ("overrides", index)
        name = f"overrides[{index + 1}]"
        entry = check.mapping(item, path, name)
        for key in entry:
            if key not in OVERRIDE_KEYS:
                raise check.unknown("key", key, path, OVERRIDE_KEYS, f" in {name}")
        for key in OVERRIDE_KEYS:
            if key not in entry:
                raise check.fail(f"{name} has no '{key}' (it needs paths and rules)", path)
        patterns = _patterns(check, entry["paths"], (*path, "paths"), f"{name}.paths")
        settings = check.mapping(entry["rules"], (*path, "rules"), f"{name}.rules")
        rules = {}
        for rule_id, value in settings.items():
            if rule_id not in known_rules:
                raise check.unknown("rule id", rule_id, (*path, "rules"), sorted(known_rules))
            rules[str(rule_id)] = check.rule(rule_id, value, (*path, "rules", rule_id), {})
        found.append(Override(Globs(base_dir, patterns), rules))
    return tuple(found)


def _declared(known_rules: Collection[str], rule_id: str) -> Mapping[str, Option]:
    """The options rule *rule_id* declares (none when *known_rules* holds only ids)."""
    spec = known_rules.get(rule_id) if isinstance(known_rules, Mapping) else None
    return getattr(spec, "options", None) or {}


def _set_option(config: Config, rule_id: str, option: str, value: Any) -> None:
    """Set a rule option from a top-level key kept for earlier configurations (``links:``,
    ``regional:``), unless ``rules.<id>.<option>`` sets it."""
    setting = config.rules.get(rule_id, RuleConfig())
    if option not in setting.options:
        config.rules[rule_id] = replace(setting, options={**setting.options, option: value})


def _layouts(check: _Checker, raw: object) -> tuple[str | PatternLayout, ...]:
    """``layout:``: a list of default layout names and patterns (a string, or a mapping with
    ``pattern`` and an optional ``source``); see :mod:`parallelcheck.discover.layout`."""
    items = raw if isinstance(raw, list) else [raw]
    if not items:
        raise check.fail("'layout' must name at least one layout", ("layout",))
    layouts: list[str | PatternLayout] = []
    for index, item in enumerate(items):
        path: Path = ("layout",) if not isinstance(raw, list) else ("layout", index)
        if isinstance(item, dict):
            for key in item:
                if key not in LAYOUT_KEYS:
                    raise check.unknown("key", key, path, LAYOUT_KEYS, " in a layout")
            pattern = check.string(item.get("pattern"), (*path, "pattern"), "layout.pattern")
            source = item.get("source")
            if source is not None:
                source = check.string(source, (*path, "source"), "layout.source")
        else:
            pattern, source = check.string(item, path, "layout"), None
        if source is None and pattern in DEFAULT_LAYOUTS:
            layouts.append(pattern)
            continue
        if "{" not in pattern:
            raise check.fail(
                f"unknown layout '{pattern}' (expected one of {', '.join(DEFAULT_LAYOUTS)}, "
                f"or a pattern with {{lang}} and {{path}}){_suggest(pattern, DEFAULT_LAYOUTS)}",
                path,
                pattern,
            )
        try:
            layouts.append(PatternLayout(pattern.strip(), source.strip() if source else None))
        except LayoutError as error:
            raise check.fail(str(error), path) from None
    return tuple(layouts)
