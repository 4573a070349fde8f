"""Facts of installed language data that one run works out and the next is given.

Some of what the text primitives read is a pure function of a package's data, the same for
every text: the CLDR's month names and date patterns of a language (through ``babel``,
:mod:`parallelcheck.text.cldr`), the Han characters OpenCC's conversions change
(:mod:`parallelcheck.text.chinese`).  Working them out costs a run more than using them
(babel unpickles a whole locale to give twelve month names; OpenCC reads its phrase
dictionaries to say which characters a conversion changes), so a run keeps them: each kind
of fact is a :class:`KeptTable` of plain JSON data, and the command line's session stores
the tables a run added to (:mod:`parallelcheck.run.kept_store`) and gives them to the next
run before it checks anything.

The rules:

* A table is named, and tagged with what its facts depend on (``babel 2.17.0``): a table
  kept under another tag (another version of the package) is not used, and the run
  works its facts out afresh and keeps them under its own tag.
* An entry is only ever what the function that made it would make again: the modules that
  keep facts read each entry back through a check of its shape (:func:`checked`), and one
  that fails it is made afresh and replaced — a kept file is the user's own, but a damaged
  one must not change a finding.
* With no kept tables given (the package used as a library, a run with no cache folder),
  every table starts empty and works as a cache of the process's own facts.

The tables are the process's: a worker process forked by the run inherits them.  What a
worker adds is its own; the facts a check needs of every language are worked out before
the workers fork (:meth:`~parallelcheck.run.plan.RunPlan.prepare`), so the parent's tables
hold them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

_T = TypeVar("_T")


class KeptTable:
    """One kind of kept fact: entries by key (strings), each plain JSON data, under the tag
    of the data they were made from; :attr:`added` says whether this process added one."""

    def __init__(self, tag: str, entries: dict[str, Any] | None = None):
        self.tag = tag
        self.entries: dict[str, Any] = entries if entries is not None else {}
        self.added = False

    def get(self, key: str, default: Any = None) -> Any:
        return self.entries.get(key, default)

    def put(self, key: str, value: Any) -> None:
        """Keep *value* (plain JSON data) under *key*."""
        self.entries[key] = value
        self.added = True


class KeptTables:
    """The process's tables by name: those a run was given (:meth:`give`), and those made
    when first asked for (:meth:`table`)."""

    def __init__(self) -> None:
        self.given: dict[str, tuple[str, dict[str, Any]]] = {}
        self.tables: dict[str, KeptTable] = {}

    def give(self, tables: Mapping[str, tuple[str, dict[str, Any]]]) -> None:
        """Tables an earlier run kept, by name: (tag, entries).  A table asked for already
        keeps what it holds."""
        for name, (tag, entries) in tables.items():
            if name not in self.tables:
                self.given[name] = (tag, entries)

    def table(self, name: str, tag: str) -> KeptTable:
        """The table *name* of facts made from data tagged *tag*: the one given, when it was
        kept under the same tag, else an empty one."""
        found = self.tables.get(name)
        if found is None or found.tag != tag:
            given_tag, entries = self.given.pop(name, (None, None))
            found = self.tables[name] = KeptTable(
                tag, dict(entries) if given_tag == tag and entries is not None else None
            )
        return found

    def added(self) -> dict[str, KeptTable]:
        """The tables this process added to, by name (what a store should write)."""
        return {name: table for name, table in self.tables.items() if table.added}

    def to_keep(self) -> dict[str, KeptTable]:
        """Every table the next run should find: those of this process and those given that
        it never asked for (written again as they were given)."""
        kept = {name: KeptTable(tag, entries) for name, (tag, entries) in self.given.items()}
        kept.update(self.tables)
        return kept


#: The process's tables (see the module's docstring).
TABLES = KeptTables()


def checked(value: Any, shape: Callable[[Any], _T]) -> _T | None:
    """``shape(value)``, or ``None`` when *value* is not of the shape it reads (it raises
    ``TypeError``, ``ValueError``, ``KeyError``, ``IndexError`` or ``AttributeError``)."""
    try:
        return shape(value)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return None


__all__ = ["TABLES", "KeptTable", "KeptTables", "checked"]
