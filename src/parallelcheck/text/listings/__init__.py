"""Code blocks compared by their language: the part a translator must not change.

Translators may translate comments, the prose in string literals, the text of markup and the
labels of diagrams, never the code.  A code block's language tag (its info string's first
word) says how its comments and strings are written (:mod:`.languages`); the block is cut
into pieces by that (:mod:`.lexer`, :mod:`.markup`, :mod:`.diagram`) and the pieces become
its comparable form (:mod:`.form`): code tokens, white space aside, placeholders as their
kinds, and the places of its comments.
"""

from __future__ import annotations

from parallelcheck.text.listings.form import (
    CodeForm,
    code_form,
    is_prose,
    renamed_directive,
    renaming,
)

__all__ = ["CodeForm", "code_form", "is_prose", "renamed_directive", "renaming"]
