"""Template directives: what static-site generators replace before (or while) they render.

A directive is no prose and no code: a translation keeps it as it is, and its arguments are
file names, variables and options, not sentences.  The readers recognise these forms:

==============================  ====================================================
``{{< name args >}}``           Hugo shortcode (``{{% name args %}}``: the same, its
``{{< /name >}}``               content rendered as Markdown); closed by ``/name``
``{% tag args %}``              Jinja / Liquid tag (``{%- … -%}`` too)
``{{ variable | filter }}``     Jinja / Liquid output
``{* file hl[3] *}``            FastAPI / MkDocs code include
``{! file !}``                  ``markdown-include`` include
``--8<-- "file"``               PyMdown snippet (``'file'`` and bare ``file`` too)
==============================  ====================================================

How the readers use them (the model, not the rules, carries the distinction):

* A block made only of directives (and white space) becomes a :attr:`BlockKind.CODE` block,
  ``info`` ``include`` for one MkDocs include or snippet, ``directive`` otherwise, whose text
  is the :func:`normalise`\\ d directives.  No rule reads a code block as prose, and the code
  comparison compares such a block by that normalised text (target and options).
* A directive inside running text stays in the text in its :func:`shorten`\\ ed form — its
  delimiters and name only (``{{< glossary_tooltip >}}``, ``{% link %}``, ``{{ site.url }}``) —
  so its arguments, which a translation may translate (``text="…"``) or localise (a link
  target), give no token, number or language evidence; in a block that short form is also
  inline code (:attr:`Block.code_spans`: untranslatable, like a name), in a heading it is
  not (no rule judges a heading's language, and ``## {{% heading "objectives" %}}`` where
  another version writes the heading out is no missing token).

Paired Hugo shortcodes and Liquid ``highlight`` / ``comment`` blocks are handled by the
Markdown pre-processor (they are containers, fenced code and comments).
"""

from __future__ import annotations

import re

from parallelcheck.model.document import Block, BlockKind, Link
from parallelcheck.text.regexes import compile_pattern

_QUOTED = r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`]*`"
#: Hugo: ``{{<`` or ``{{%``, optional ``/``, the name, arguments (quotes may hold ``>}}``).
HUGO = compile_pattern(
    r"\{\{(?:(?P<angle><)|%)[ \t]*(?P<slash>/?)[ \t]*(?P<name>[A-Za-z_][\w./-]*)"
    r"(?P<args>(?:" + _QUOTED + r"|[^\"'`>%}]|[>%}](?!\}))*?)[ \t\n]*(?(angle)>|%)\}\}"
)
#: Liquid / Jinja tag ``{% name … %}`` (whitespace control ``{%-`` / ``-%}`` allowed).
LIQUID_TAG = compile_pattern(
    r"\{%(-?)[ \t]*([A-Za-z_]\w*)((?:" + _QUOTED + r"|[^\"'`%]|%(?!\}))*?)(-?)%\}"
)
#: Liquid / Jinja output ``{{ expression | filter }}`` (not a Hugo shortcode).
LIQUID_OUTPUT = compile_pattern(
    r"\{\{(?![<%])(-?)((?:" + _QUOTED + r"|[^\"'`}]|\}(?!\}))*?)(-?)\}\}"
)
#: Hugo, Liquid and Jinja in running text (named groups for :func:`shorten`).
_TEMPLATE = compile_pattern(
    HUGO.pattern
    + r"|\{%-?[ \t]*(?P<tag>[A-Za-z_]\w*)(?:"
    + _QUOTED
    + r"|[^\"'`%]|%(?!\}))*?-?%\}"
    + r"|\{\{(?![<%])-?(?P<expression>(?:"
    + _QUOTED
    + r"|[^\"'`}]|\}(?!\}))*?)-?\}\}"
)
#: The MkDocs includes, alone on their line.
CODE_INCLUDE = compile_pattern(r"\{\*(.*?)\*\}", re.DOTALL)
MARKDOWN_INCLUDE = compile_pattern(r"\{!(.*?)!\}", re.DOTALL)
SNIPPET = compile_pattern(r"--8<--(?:[ \t]+(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+))?")
#: Any directive, for finding and removing them.
ANY = compile_pattern(
    "|".join(p.pattern for p in (HUGO, LIQUID_TAG, LIQUID_OUTPUT, CODE_INCLUDE, MARKDOWN_INCLUDE))
    + r"|--8<--[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)",
    re.DOTALL,
)
_INCLUDE_LINE = compile_pattern(
    r"^([ \t]*)(\{\*.*\*\}|\{!.*!\}|--8<--[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+))[ \t]*$"
)
_SNIPPET_FENCE = compile_pattern(r"^[ \t]*--8<--[ \t]*$")
_TOKEN = compile_pattern(r"(?:" + _QUOTED + r"|[^\s\"'`\[]|\[[^\]\n]*\])+|\S")
_BRACKETS = compile_pattern(r"\[[^\]\n]*\]")
_SPACE = compile_pattern(r"\s+")
_VALUE = r"\"[^\"]*\"|'[^']*'|[^\s\"']+"
_ASSIGN = compile_pattern(r"[ \t]*(?<![=!<>])=(?!=)[ \t]*")


def include_line(line: str) -> tuple[str, str] | None:
    """``(indentation, include)`` when ``line`` is only an MkDocs include (``{* … *}``,
    ``{! … !}``, ``--8<-- "file"``); these work on lines, so they stand alone even right
    under paragraph text."""
    match = _INCLUDE_LINE.match(line)
    return (match.group(1), match.group(2)) if match else None


def is_snippet_fence(line: str) -> bool:
    """Whether ``line`` is a bare ``--8<--``: the start or end of a block of snippet files."""
    return _SNIPPET_FENCE.match(line) is not None


def only_directives(text: str) -> bool:
    """Whether ``text`` holds at least one directive and nothing else but white space."""
    if "{" not in text and "--8<--" not in text:
        return False
    stripped = text.strip()
    return bool(stripped) and not ANY.sub("", stripped).strip()


def is_include(text: str) -> bool:
    """Whether ``text`` is exactly one MkDocs include or snippet (possibly a snippet block)."""
    stripped = text.strip()
    if stripped.startswith("--8<--"):
        return stripped.count("--8<--") in (1, 2) and SNIPPET.match(stripped) is not None
    return any(pattern.fullmatch(stripped) for pattern in (CODE_INCLUDE, MARKDOWN_INCLUDE))


def normalise(text: str) -> str:
    """The comparable form of a block of directives: each directive's arguments separated by
    one space, ``{{% … %}}`` written ``{{< … >}}``, ``key = value`` written ``key=value``,
    single-quoted strings double-quoted,
    white space inside ``[…]`` removed, the options of a ``{* … *}`` include sorted after its
    file; directives separated by one space (a snippet block keeps one file a line)."""
    stripped = text.strip()
    if stripped.startswith("--8<--") and "\n" in stripped:
        files = [line.strip() for line in stripped.split("\n")[1:] if line.strip()]
        files = [_requote(name) for name in files if name != "--8<--"]
        return "\n".join(["--8<--", *files, "--8<--"])
    closing = stripped[1:2] + "}"
    if stripped[:2] in ("{*", "{!") and stripped.find(closing, 2) == len(stripped) - 2:
        # one include that is all of the text (the commonest): the one directive ANY finds
        return _normalise_one(stripped)
    return " ".join(_normalise_one(match.group(0)) for match in ANY.finditer(stripped))


def _normalise_one(directive: str) -> str:
    if directive.startswith("--8<--"):
        return "--8<-- " + _requote(directive[6:].strip())
    opening, closing = _delimiters(directive)
    if opening == "{{%":  # the same shortcode call; only how Hugo renders its output differs
        opening, closing = "{{<", ">}}"
    body = directive[len(opening) : len(directive) - len(closing)]
    words = _words(body)
    if opening == "{*" and len(words) > 2:
        words = [words[0], *sorted(words[1:])]
    return f"{opening} {' '.join(words)} {closing}" if words else f"{opening} {closing}"


def _delimiters(directive: str) -> tuple[str, str]:
    for opening, closing in (("{{<", ">}}"), ("{{%", "%}}"), ("{*", "*}"), ("{!", "!}")):
        if directive.startswith(opening) and directive.endswith(closing):
            return opening, closing
    if directive.startswith("{%"):
        return directive[:3] if directive.startswith("{%-") else "{%", (
            "-%}" if directive.endswith("-%}") else "%}"
        )
    return directive[:3] if directive.startswith("{{-") else "{{", (
        "-}}" if directive.endswith("-}}") else "}}"
    )


def _words(body: str) -> list[str]:
    """Arguments of a directive: quoted strings and bracketed lists kept whole, ``a = b``
    joined, white space dropped."""
    body = body.strip()
    if "=" in body:
        body = _ASSIGN.sub("=", body)
    words = _plain_words(body)
    if words is not None:
        return words  # no quote to requote, no white space in a bracket to take out
    return [
        _requote(_BRACKETS.sub(_unspaced, word) if "[" in word else word)
        for word in _TOKEN.findall(body)
    ]


def _tokens(body: str) -> list[str]:
    """``_TOKEN.findall(body)``, by :meth:`str.split` when that gives the same words
    (:func:`_plain_words`)."""
    words = _plain_words(body)
    return _TOKEN.findall(body) if words is None else words


def _plain_words(body: str) -> list[str] | None:
    """``body.split()`` when that gives the words of ``_TOKEN.findall(body)`` (most
    includes: ``../../docs_src/x.py hl[3:5]``), which is several times faster; else ``None``.

    It does when ``body`` holds no quote or backtick and each ``[`` of a word has a ``]``
    after it in that word: then no quoted string or bracketed list spans white space (a
    bracket ends at the first ``]`` after it), so the words are the runs of non-space
    characters (``\\s`` and :meth:`str.split` agree on what white space is).
    """
    if '"' in body or "'" in body or "`" in body:
        return None
    words = body.split()
    if all(word.rfind("[") < word.rfind("]") for word in words if "[" in word):
        return words
    return None


def _unspaced(match: re.Match[str]) -> str:
    return _SPACE.sub("", match.group(0))


def _requote(word: str) -> str:
    """``'a.md'`` → ``"a.md"`` (when the string holds no double quote); other words unchanged."""
    if "'" in word and '"' not in word:
        return re.sub(r"'([^'\n]*)'", r'"\1"', word)
    return word


def shorten(text: str) -> tuple[str, list[str]]:
    """``text`` with each Hugo shortcode and Liquid / Jinja tag or output written as its
    delimiters and name only — ``{{< glossary_tooltip text="annotation" >}}`` →
    ``{{< glossary_tooltip >}}``, ``{% link _posts/x.md %}`` → ``{% link %}``,
    ``{{ site.url | relative_url }}`` → ``{{ site.url }}`` — and those short forms, in order
    (the caller keeps them as inline code)."""
    if "{{" not in text and "{%" not in text:
        return text, []
    spans: list[str] = []

    def short(match: re.Match[str]) -> str:
        if match.group("name"):
            opening, closing = ("<", ">") if match.group("angle") else ("%", "%")
            form = f"{{{{{opening} {match.group('slash')}{match.group('name')} {closing}}}}}"
        elif match.group("tag"):
            form = f"{{% {match.group('tag')} %}}"
        else:
            words = match.group("expression").split("|", 1)[0].split()
            form = f"{{{{ {words[0]} }}}}" if words else "{{ }}"
        spans.append(form)
        return form

    return _TEMPLATE.sub(short, text), spans


def hugo_line(line: str) -> tuple[bool, str, str, str] | None:
    """``(closing, name, mark, arguments)`` when ``line`` is only one Hugo shortcode."""
    match = HUGO.fullmatch(line.strip())
    if match is None:
        return None
    mark = "<" if match.group("angle") else "%"
    return match.group("slash") == "/", match.group("name").lower(), mark, match.group("args")


def liquid_line(line: str) -> tuple[str, str] | None:
    """``(name, arguments)`` when ``line`` is only one Liquid / Jinja tag."""
    match = LIQUID_TAG.fullmatch(line.strip())
    if match is None:
        return None
    return match.group(2).lower(), match.group(3).strip()


def argument(arguments: str, *names: str) -> str:
    """The value of the first of ``names`` given as ``name="value"`` in ``arguments``."""
    for name in names:
        match = re.search(rf"(?<![\w-]){name}[ \t]*=[ \t]*({_VALUE})", arguments)
        if match:
            return match.group(1).strip("\"'")
    return ""


def first_word(arguments: str) -> str:
    """The first positional argument (``go`` in ``highlight go "linenos=table"``)."""
    words = _TOKEN.findall(arguments.strip())
    return words[0].strip("\"'") if words and "=" not in words[0] else ""


__all__ = [
    "ANY",
    "argument",
    "first_word",
    "hugo_line",
    "include_line",
    "is_include",
    "is_snippet_fence",
    "liquid_line",
    "normalise",
    "only_directives",
    "shorten",
]


def text_block(
    text: str, line: int, end_line: int, links: list[Link], code_spans: list[str]
) -> Block:
    """The block of a paragraph's *text* as a reader found it: a CODE block (``info``
    ``include`` or ``directive``, normalised text) when the text is only directives, else a
    PARAGRAPH whose directives are shortened to their names and kept as inline code."""
    if only_directives(text):
        info = "include" if is_include(text) else "directive"
        return Block(BlockKind.CODE, normalise(text), line, end_line, info=info)
    text, short_forms = shorten(text)
    return Block(
        BlockKind.PARAGRAPH,
        text,
        line,
        end_line,
        links=links,
        code_spans=[*code_spans, *short_forms],
    )
