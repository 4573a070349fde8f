"""A code block's pieces, read by its language's family."""

from __future__ import annotations

from parallelcheck.text.listings.diagram import diagram_pieces
from parallelcheck.text.listings.languages import DIAGRAM, DIRECTIVE, MARKDOWN, MARKUP, Syntax
from parallelcheck.text.listings.lexer import CODE, Piece, lex
from parallelcheck.text.listings.markup import markdown_pieces, markup_pieces


def pieces_of(code: str, syntax: Syntax, start: int = 0) -> list[Piece]:
    """The pieces of ``code`` (starting at offset ``start`` of its block) in order."""
    if syntax.family == DIRECTIVE:
        return [Piece(CODE, code, start)] if code else []
    if syntax.family == DIAGRAM:
        return [Piece(p.kind, p.text, start + p.start) for p in diagram_pieces(code)]
    if syntax.family == MARKUP:
        return markup_pieces(code, syntax, start)
    if syntax.family == MARKDOWN:
        return markdown_pieces(code, start)
    return lex(code, syntax, start)
