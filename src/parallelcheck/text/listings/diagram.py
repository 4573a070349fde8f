"""Mermaid diagrams: labels are prose, the diagram's structure is code.

In a ``mermaid`` block participant aliases (``participant C as Client``), message and note
texts (after ``:``), node labels (``A[Label]``, ``B(Label)``, ``C{Label}``, ``"…"``), edge
labels (``A -->|Label| B``, ``A -- Label --> B``) and the labels of ``opt`` / ``alt`` /
``loop`` … blocks are translatable; ``%%`` starts a comment.  What is left — participants,
node ids, arrows and keywords — is compared.
"""

from __future__ import annotations

from parallelcheck.text.listings.lexer import CODE, COMMENT, PROSE, Piece
from parallelcheck.text.regexes import compile_pattern

_ALIAS = compile_pattern(r"^(\s*(?:participant|actor)\s+\S+)(\s+as\s+.*)$")
_BLOCK_LABEL = compile_pattern(
    r"^(\s*(?:(?:opt|alt|else|loop|par|and|critical|option|break|rect|title)\b"
    r"|subgraph\s+[^\s\[({\"]+))"
    r"(.*)$"
)
_LABEL = compile_pattern(
    r"\[[^\]\n]*\]|\([^)\n]*\)|\{[^}\n]*\}|\"[^\"\n]*\"|\|[^|\n]*\||:(?!//)[^\n]*"
    r"|(?<=--)\s[^\n]*?(?=\s-->|\s---)|(?<==)=\s[^\n]*?(?=\s==>)|(?<=-\.)\s[^\n]*?(?=\s\.->)"
)
_COMMENT = compile_pattern(r"%%[^\n]*")


def diagram_pieces(code: str) -> list[Piece]:
    """The pieces of a Mermaid diagram, line by line."""
    pieces: list[Piece] = []
    at = 0
    for line in code.splitlines(keepends=True):
        pieces.extend(_line(line, at))
        at += len(line)
    return pieces


def _line(line: str, at: int) -> list[Piece]:
    comment = _COMMENT.search(line)
    if comment:
        before = _line(line[: comment.start()], at) if comment.start() else []
        return [*before, Piece(COMMENT, comment.group(), at + comment.start())]
    for pattern in (_ALIAS, _BLOCK_LABEL):
        match = pattern.match(line.rstrip("\n"))
        if match:
            return [
                Piece(CODE, match.group(1), at),
                Piece(PROSE, match.group(2), at + match.end(1)),
            ]
    pieces, done = [], 0
    for match in _LABEL.finditer(line):
        if match.start() > done:
            pieces.append(Piece(CODE, line[done : match.start()], at + done))
        pieces.append(Piece(PROSE, match.group(), at + match.start()))
        done = match.end()
    if done < len(line):
        pieces.append(Piece(CODE, line[done:], at + done))
    return pieces
