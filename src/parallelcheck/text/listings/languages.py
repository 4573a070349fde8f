"""How each code language writes comments and strings, found by a fence's language tag.

A :class:`Syntax` names a language's *family* — how its code is read (:mod:`.lexer`,
:mod:`.markup`, :mod:`.diagram`) — and, for the languages read by the generic lexer, the
patterns of its comments and string literals.  Comment patterns never cut a URL or an
option: ``#`` starts a comment only at the start of a word (``https://x/#top``, ``$#`` and
``${#v}`` stay code), ``//`` and ``--`` only in the languages where they are comments, so in
a shell command ``--namespace=default`` and ``https://…`` are code.
"""

from __future__ import annotations

from dataclasses import dataclass

# Comment patterns (regular-expression fragments, to be compiled with re.MULTILINE).
HASH_ANYWHERE = r"#[^\n]*"
HASH_AT_WORD = r"(?<!\S)#[^\n]*"
HASH_AT_LINE_START = r"^[ \t]*#[^\n]*"
SLASHES = r"//[^\n]*"
SLASHES_AT_LINE_START = r"^[ \t]*//[^\n]*"
SLASHES_AT_WORD = r"(?<!\S)//[^\n]*"
DASHES = r"--[^\n]*"
SEMICOLON_AT_LINE_START = r"^[ \t]*;[^\n]*"
C_BLOCK = r"/\*[\s\S]*?\*/"
XML_BLOCK = r"<!--[\s\S]*?-->"

# String patterns.
DOUBLE = r'"(?:[^"\\\n]|\\.)*"'
SINGLE = r"'(?:[^'\\\n]|\\.)*'"
CHARACTER = r"'(?:[^'\\\n]|\\[^\n]{1,8}?)'"  # C, Java, Rust: never a Rust lifetime ('a)
BACKTICK = r"`(?:[^`\\]|\\[\s\S])*`"
TRIPLE = r'"""[\s\S]*?"""' + "|" + r"'''[\s\S]*?'''"

#: Families: how a language's code is read.
PROGRAM = "program"  # comments and strings; strings that are prose may be translated
SHELL = "shell"  # strings are arguments: compared as written
CONSOLE = "console"  # prompt lines are shell commands, the other lines their output
DATA = "data"  # YAML / TOML / INI: prose values may be translated
MARKUP = "markup"  # HTML, XML, JSX, Astro, Vue, Svelte: text between tags is prose
MARKDOWN = "markdown"  # prose, with its link targets, inline code and nested code compared
DIAGRAM = "diagram"  # Mermaid: labels are prose
DIRECTIVE = "directive"  # a reader's include or template directive: compared as normalised
PLAIN = "plain"  # no language (or plain text): guessed conservatively


@dataclass(frozen=True)
class Syntax:
    """What a language tag tells about a code block's comments and strings."""

    name: str
    family: str
    comments: tuple[str, ...] = ()
    strings: tuple[str, ...] = ()
    #: Placeholders compared by kind, not text: ``angle`` ``<file>``, ``braces``
    #: ``{{branch_name}}``, ``dollar`` ``$VAR`` / ``${VAR}``.
    placeholders: frozenset[str] = frozenset({"braces"})


_C = (SLASHES, C_BLOCK)
_SHELLISH = frozenset({"angle", "braces", "dollar"})

_PYTHON = Syntax("python", PROGRAM, (HASH_ANYWHERE,), (TRIPLE, DOUBLE, SINGLE))
_SHELL = Syntax("shell", SHELL, (HASH_AT_WORD,), (DOUBLE, SINGLE), _SHELLISH)
_JS = Syntax("javascript", PROGRAM, _C, (DOUBLE, SINGLE, BACKTICK))
_C_FAMILY = Syntax("c", PROGRAM, _C, (DOUBLE, CHARACTER))
_GO = Syntax("go", PROGRAM, _C, (DOUBLE, CHARACTER, BACKTICK))
_SQL = Syntax("sql", PROGRAM, (DASHES, C_BLOCK), (SINGLE,))  # "x" is an identifier
_YAML = Syntax("yaml", DATA, (HASH_AT_WORD, SLASHES_AT_WORD), (DOUBLE, SINGLE))
_INI = Syntax("ini", DATA, (HASH_AT_WORD, SEMICOLON_AT_LINE_START), (DOUBLE, SINGLE))
_JSON = Syntax("json", PROGRAM, (*_C, HASH_AT_WORD), (DOUBLE,))  # `#` is never JSON
_CSS = Syntax("css", PROGRAM, (C_BLOCK,), (DOUBLE, SINGLE))
_SCSS = Syntax("scss", PROGRAM, _C, (DOUBLE, SINGLE))
_DOCKERFILE = Syntax("dockerfile", SHELL, (HASH_AT_LINE_START,), (DOUBLE, SINGLE), _SHELLISH)
_MAKEFILE = Syntax("makefile", SHELL, (HASH_AT_WORD,), (DOUBLE, SINGLE), _SHELLISH)
_HASH_PROGRAM = Syntax("ruby", PROGRAM, (HASH_AT_WORD,), (DOUBLE, SINGLE))
_DASH_PROGRAM = Syntax("lua", PROGRAM, (DASHES,), (DOUBLE, SINGLE))
_POWERSHELL = Syntax("powershell", SHELL, (HASH_AT_WORD,), (DOUBLE, SINGLE), _SHELLISH)
_MARKUP = Syntax("html", MARKUP, (XML_BLOCK, *_C), (DOUBLE, SINGLE, BACKTICK))
_MARKDOWN = Syntax("markdown", MARKDOWN, (XML_BLOCK,), (DOUBLE, SINGLE, BACKTICK))
_JINJA = Syntax("jinja", MARKUP, (XML_BLOCK, r"\{#[\s\S]*?#\}"), (DOUBLE, SINGLE))
_CONSOLE = Syntax("console", CONSOLE, (HASH_AT_WORD, SLASHES_AT_WORD), (DOUBLE, SINGLE), _SHELLISH)
_DIAGRAM = Syntax("mermaid", DIAGRAM)
_DIRECTIVE = Syntax("directive", DIRECTIVE)
_PLAIN = Syntax(
    "plain", PLAIN, (HASH_AT_LINE_START, SLASHES_AT_LINE_START, XML_BLOCK), (DOUBLE,), _SHELLISH
)

_BY_TAG: dict[str, Syntax] = {}
for _syntax, _tags in (
    (_PYTHON, "python py py3 pycon python3 ipython pyi starlark bzl"),
    (_SHELL, "shell sh bash zsh fish ksh bat batch cmd"),
    (_CONSOLE, "console shell-session shellsession terminal"),
    (_POWERSHELL, "powershell ps1 pwsh ps"),
    (_JS, "js javascript mjs cjs ts typescript mts cts json5 coffee"),
    (_JSON, "json jsonc jsonl ndjson webmanifest"),
    (_C_FAMILY, "c h cpp c++ cc cxx hpp java cs csharp kotlin kt kts swift scala dart php"),
    (_C_FAMILY, "rust rs groovy gradle protobuf proto zig objc objective-c solidity"),
    (_GO, "go golang"),
    (_SQL, "sql psql postgresql postgres mysql sqlite plsql tsql"),
    (_YAML, "yaml yml toml"),
    (_INI, "ini cfg conf env dotenv properties editorconfig gitignore"),
    (_CSS, "css"),
    (_SCSS, "scss sass less stylus"),
    (_DOCKERFILE, "dockerfile docker containerfile"),
    (_MAKEFILE, "makefile make mk cmake nginx apache apacheconf"),
    (_HASH_PROGRAM, "ruby rb perl pl r elixir ex exs julia nim crystal tcl graphql gql"),
    (_HASH_PROGRAM, "hcl terraform tf nix"),
    (_DASH_PROGRAM, "lua haskell hs elm ada vhdl"),
    (_MARKUP, "html htm xhtml xml svg vue svelte astro jsx tsx"),
    (_MARKUP, "handlebars hbs liquid njk nunjucks ejs erb"),
    (_JINJA, "jinja jinja2 j2 django twig"),
    (_MARKDOWN, "md markdown mdx markdoc"),
    (_DIAGRAM, "mermaid"),
    (_DIRECTIVE, "include directive"),
    (_PLAIN, "text txt plaintext plain output log none"),
):
    for _tag in _tags.split():
        _BY_TAG[_tag] = _syntax


def syntax_of(info: str) -> Syntax:
    """The syntax a code block's info string names; an unknown or absent language is read as
    plain text (``#`` and ``//`` comments only at a line's start)."""
    tag = info.split()[0].lower().strip("{}.") if info.strip() else ""
    return _BY_TAG.get(tag, _PLAIN)


def console() -> Syntax:
    """The syntax of a console session (a block without a language whose lines start with
    a ``$`` prompt is read as one)."""
    return _CONSOLE


def javascript() -> Syntax:
    """The syntax of script inside markup (``<script>``, ``{…}`` expressions, front matter)."""
    return _JS


def yaml() -> Syntax:
    """The syntax of YAML front matter inside a Markdown block."""
    return _YAML
