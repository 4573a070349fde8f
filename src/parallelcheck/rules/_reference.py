"""The rules reference, written from the rule specs: ``docs/rules.md`` is this module's
output (``parallelcheck rules --format markdown``), and a test keeps the two equal."""

from __future__ import annotations

import inspect
import re

from parallelcheck.rules.base import REGISTRY, RuleSpec

#: Sphinx roles in docstrings (``:func:`x```, ``:mod:`~a.b```) shown as plain code.
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
#: reStructuredText's double backquotes, shown as Markdown code.
_LITERAL = re.compile(r"``([^`]+)``")


def plain(text: str) -> str:
    """A docstring's reStructuredText as Markdown a reader (or a terminal) shows well: roles
    become code (the last dotted part), double backquotes single ones, ``::`` a colon."""
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = _LITERAL.sub(r"`\1`", text)
    return text.replace("::\n", ":\n")


def reference_markdown() -> str:
    """``docs/rules.md``: a table of every rule, then each rule's documentation and options."""
    specs = [REGISTRY[rule_id] for rule_id in sorted(REGISTRY)]
    lines = [
        "# Rules",
        "",
        "Generated from the rule specifications by `parallelcheck rules --format markdown`;",
        "do not edit by hand. Severities are the defaults; the configuration can change them",
        "(`rules: {RULE: warning}`) or switch a rule off (`rules: {RULE: off}`), and",
        "`--select`/`--ignore` choose rules for one run.",
        "",
        "| rule | severity | tags | summary |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| [`{s.id}`](#{s.id}) | {s.severity} | {', '.join(sorted(s.tags))} | {s.summary} |"
        for s in specs
    ]
    for spec in specs:
        lines += ["", *_section(spec)]
    return "\n".join(lines) + "\n"


def _section(spec: RuleSpec) -> list[str]:
    body = inspect.cleandoc(spec.doc).split("\n\n", 1)
    lines = [f"## {spec.id}", "", f"**{spec.severity}** · {', '.join(sorted(spec.tags))}"]
    if spec.needs:
        lines[-1] += f" · needs {', '.join(sorted(spec.needs))}"
    if spec.fixes:
        lines[-1] += f" · fixes: {', '.join(sorted(spec.fixes))} (`--fix`, docs/fixes.md)"
    lines += ["", plain(" ".join(body[0].split()))]
    if len(body) > 1:
        lines += ["", plain(body[1]).rstrip()]
    if spec.options:
        lines += ["", "Options (under `rules: {" + spec.id + ": {OPTION: VALUE}}`):", ""]
        for name, option in spec.options.items():
            lines.append(f"- `{name}` (default `{option.default!r}`): {option.help}")
    return lines
