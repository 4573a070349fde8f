"""The part of a code block a translator must not change, as one text.

Alignment compares code blocks by this text; rules read a block's full comparable form
(:mod:`parallelcheck.text.listings`) through their article's facts.  The skeleton is the
block's code tokens (:class:`~parallelcheck.text.listings.CodeForm`) joined by spaces: comments,
prose strings, markup text and diagram labels left out, placeholders as their kinds.
"""

from __future__ import annotations

from parallelcheck.text.listings import code_form


def code_skeleton(code: str, info: str = "") -> str:
    """The comparable form of a code block as one text (see the module documentation)."""
    return code_form(code, info).skeleton
