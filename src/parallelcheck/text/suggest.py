"""The closest of some names to a name that is not one of them: what a "did you mean" offers
for a mistyped rule id, tag, key or option."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: How alike a suggestion must be (difflib's ratio): ``lenght-ratio`` finds ``length-ratio``,
#: ``foo`` finds nothing.
CUTOFF = 0.6


def closest(word: object, choices: Iterable[str]) -> str | None:
    """The choice most like *word*, or ``None`` when none is alike enough."""
    found = difflib.get_close_matches(str(word), sorted(set(choices)), n=1, cutoff=CUTOFF)
    return found[0] if found else None
