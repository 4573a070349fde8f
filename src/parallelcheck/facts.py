"""Facts about an article's blocks, computed once per block when a rule first asks.

An :class:`ArticleFacts` lives for one article's check: the engine makes it after alignment
and hands it to every rule in its :class:`~parallelcheck.rules.base.RuleContext`, so two rules
asking for the same fact of the same block share one computation, and nothing outlives the
article.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class ArticleFacts:
    """The facts of one article's blocks, filled lazily: ``get(name, key, compute)`` gives
    the fact ``name`` of ``key`` (a block and what it depends on), computing it on first use."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, Hashable], Any] = {}

    def get(self, name: str, key: Hashable, compute: Callable[[], T]) -> T:
        slot = (name, key)
        try:
            return self._known[slot]
        except KeyError:
            value = self._known[slot] = compute()
            return value
