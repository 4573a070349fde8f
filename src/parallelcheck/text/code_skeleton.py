"""The part of a code block a translator must not change.

Translators may translate comments and the messages in string literals, never the code.  The
*skeleton* of a code block is its text with comments (``#``, ``//``, ``--``, ``/* */``,
``<!-- -->``) removed, string literals emptied and whitespace collapsed; two versions of a code
block agree when their skeletons are equal.

Diagram languages are text for people: in a ``mermaid`` block, participant aliases
(``participant C as Client``), message and note texts (after ``:``), bracketed node labels
(``A[Label]``, ``B(Label)``, ``C{Label}``), the labels of ``opt`` / ``alt`` / ``loop`` …
blocks and quoted strings are translatable, so only the
diagram's structure — its participants, arrows and keywords — is compared.

Template directives the readers keep as code blocks (``info`` ``include``: ``{* file hl[3] *}``,
``--8<-- "file"``; ``info`` ``directive``: Hugo shortcodes, Liquid tags) are compared as the
readers normalised them — target file and options, white space collapsed — since their
quoted arguments and ``--8<--`` markers are what they say, not strings or comments.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"(#|//|--)[^\n]*|/\*.*?\*/|<!--.*?-->", re.DOTALL)
_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
_SPACE = re.compile(r"\s+")

DIAGRAM_LANGUAGES = frozenset({"mermaid"})
DIRECTIVE_INFOS = frozenset({"include", "directive"})
_DIAGRAM_ALIAS = re.compile(r"^(\s*(?:participant|actor)\s+\S+)\s+as\s+.*$", re.MULTILINE)
_DIAGRAM_TEXT = re.compile(r":[^\n]*")
_DIAGRAM_BLOCK_LABEL = re.compile(
    r"^(\s*(?:opt|alt|else|loop|par|and|critical|option|break|rect|title)\b).*$", re.MULTILINE
)
_DIAGRAM_LABEL = re.compile(r"\[[^\]\n]*\]|\([^)\n]*\)|\{[^}\n]*\}|\"[^\"\n]*\"|%%[^\n]*")


def code_skeleton(code: str, info: str = "") -> str:
    """The comparable form of a code block (see the module documentation).  Rules read it
    through their article's facts (:meth:`parallelcheck.facts.ArticleFacts.code_skeleton`),
    which compute it once per distinct code block of the article."""
    language = info.split()[0].lower() if info.strip() else ""
    if language in DIRECTIVE_INFOS:
        return _SPACE.sub(" ", code).strip()
    if language in DIAGRAM_LANGUAGES:
        code = _DIAGRAM_ALIAS.sub(r"\1", code)
        code = _DIAGRAM_BLOCK_LABEL.sub(r"\1", code)
        code = _DIAGRAM_LABEL.sub("", code)
        code = _DIAGRAM_TEXT.sub("", code)
        return _SPACE.sub(" ", code).strip()
    code = _STRING.sub('""', code)
    code = _COMMENT.sub(" ", code)
    code = _STRING.sub('""', code)
    return _SPACE.sub(" ", code).strip()
