"""The rules reference, written from the rule specs: ``docs/rules.md`` is this module's
output (``parallelcheck rules --format markdown``), and a test keeps the two equal; and a
rule's documentation as plain text for a terminal (``parallelcheck explain RULE``, SARIF's
``help.text``).

Rule docstrings are reStructuredText of a small kind: paragraphs, ``*`` bullet lists, inline
literals in double backquotes, Sphinx roles (``:mod:`parallelcheck.text.numeric```),
``**strong**`` and ``*emphasis*``, and literal blocks introduced by ``::``.
"""

from __future__ import annotations

import inspect
import re
import textwrap

from parallelcheck.rules.base import REGISTRY, RuleSpec
from parallelcheck.text.regexes import compile_pattern

#: Sphinx roles in docstrings (``:func:`x```, ``:mod:`~a.b```) shown as plain code.
_ROLE = compile_pattern(r":[a-z]+:`~?([^`]+)`")
#: reStructuredText's inline literal: double backquotes around text that may hold single ones
#: (``` `"gzip"` ```, padded with spaces).
_LITERAL = compile_pattern(r"``(.+?)``(?!`)", re.S)
#: What plain text drops: a role's name, backquotes, strong and emphasis markers.  A marker
#: stands next to a word on its inner side (``**error**``, ``*soft*``), so a lone ``*``
#: (``{* ../src/app.py *}``) or a glob (``*.svg``) inside a literal is left alone: literals are
#: taken out first.
_STRONG_OR_EMPHASIS = compile_pattern(r"(?<![\w*])(\*\*?)(?=\S)(.+?)(?<=\S)\1(?![\w*])", re.S)
_INTERPRETED = compile_pattern(r"(?<![`\w])`([^`]+)`(?![`\w])")
_BULLET = compile_pattern(r"\* ")
#: The width of ``explain``'s text at most, however wide the terminal.
TEXT_WIDTH = 88
#: Words (a URL, a long literal) are never cut, nor broken at their hyphens.
_WRAP = {"break_long_words": False, "break_on_hyphens": False}


def markdown(text: str) -> str:
    """A docstring's reStructuredText as Markdown (``docs/rules.md``): roles become code (the
    last dotted part), double backquotes single ones, ``::`` a colon."""
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = _LITERAL.sub(lambda m: _code_span(m.group(1).strip()), text)
    return text.replace("::\n", ":\n")


def _code_span(code: str) -> str:
    """Markdown code: in single backquotes, or in double ones padded with spaces when the
    code holds a backquote itself."""
    return f"`` {code} ``" if "`" in code else f"`{code}`"


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
    if spec.opt_in:
        lines[-1] += " · runs only when asked"
    if spec.fixes:
        lines[-1] += f" · fixes: {', '.join(sorted(spec.fixes))} (`--fix`, docs/fixes.md)"
    lines += ["", markdown(" ".join(body[0].split()))]
    if len(body) > 1:
        lines += ["", markdown(body[1]).rstrip()]
    if spec.options:
        lines += ["", "Options (under `rules: {" + spec.id + ": {OPTION: VALUE}}`):", ""]
        for name, option in spec.options.items():
            lines.append(f"- `{name}` (default `{option.default!r}`): {option.help}")
    return lines


def explanation(spec: RuleSpec, width: int = TEXT_WIDTH) -> str:
    """What ``parallelcheck explain RULE`` prints: the rule's id, default severity and tags,
    its documentation as plain text, and each option with its default."""
    tags = ", ".join(sorted(spec.tags))
    parts = [f"{spec.id} (default severity: {spec.severity}; {tags})", plain_text(spec.doc, width)]
    parts += [
        textwrap.fill(
            f"option {name} (default {option.default!r}): {plain_line(option.help)}",
            width,
            subsequent_indent="  ",
            **_WRAP,
        )
        for name, option in spec.options.items()
    ]
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def plain_text(doc: str, width: int = TEXT_WIDTH) -> str:
    """A rule's documentation as plain text for a terminal: no markup left (a role shows its
    whole target, ``parallelcheck.text.numeric``; a literal its text), paragraphs and bullet
    items (``-``, continuation lines indented) filled to ``width`` columns, literal blocks
    kept as they are, indented by four spaces under a paragraph ending in ``:``."""
    blocks = inspect.cleandoc(doc).split("\n\n")
    out: list[str] = []
    literal = False
    for block in blocks:
        if literal and block.startswith(" "):
            out.append(block.rstrip())
            continue
        literal = block.rstrip().endswith("::")
        if literal:
            block = block.rstrip()[:-1]  # "::" reads as ":"
        out.append(_filled(block, width))
    return "\n\n".join(out) + "\n"


def _filled(block: str, width: int) -> str:
    """One paragraph or bullet list of a docstring, without markup, filled to ``width``."""
    if not _BULLET.match(block):
        return textwrap.fill(plain_line(block), width, **_WRAP)
    items = re.split(r"\n(?=\* )", block)
    return "\n".join(
        textwrap.fill(
            plain_line(item[2:]),
            width,
            initial_indent="- ",
            subsequent_indent="  ",
            **_WRAP,
        )
        for item in items
    )


def plain_line(text: str) -> str:
    """Inline reStructuredText as the text it shows, on one line.  Roles and literals are
    set aside first, so that a ``*`` or a backquote inside them is never read as markup."""
    kept: list[str] = []

    def set_aside(shown: str) -> str:
        kept.append(shown)
        return f"\x00{len(kept) - 1}\x00"

    text = " ".join(text.split())
    text = _ROLE.sub(lambda m: set_aside(m.group(1)), text)
    text = _LITERAL.sub(lambda m: set_aside(m.group(1).strip()), text)
    text = _INTERPRETED.sub(lambda m: set_aside(m.group(1)), text)
    text = _STRONG_OR_EMPHASIS.sub(r"\2", text)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
