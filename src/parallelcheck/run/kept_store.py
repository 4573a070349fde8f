"""The facts of installed language data a run worked out, kept in the cache folder.

The text primitives keep some facts that are a pure function of a package's data in tables
(:mod:`parallelcheck.text.kept`): the CLDR data of each language the number and date
readers use (table ``cldr``), the Han characters OpenCC's conversions change
(``opencc-other-script``).  A run of the command line is given the tables an earlier run
kept before it checks anything (:meth:`KeptStore.load`, called by :meth:`Session.start
<parallelcheck.run.session.Session.start>`), and once it has checked its articles it
stores them again if it added facts (:func:`keep_new_facts`): the first run on a machine, a
run with a language no run had before, or after an upgrade of babel or OpenCC.  A later
run then loads no CLDR locale (0.14 s of processor time for the FastAPI documentation's 13
languages), and loads OpenCC's dictionaries only for a Chinese version that holds a
character of the other script (the user's article: none, 9 % of the pre-commit hook's
instructions).

Like the compiled forms of :mod:`parallelcheck.run.pattern_store`, and with the same trust
rules, the facts are no result: they are the same whatever is checked, so they are used
with ``--no-cache`` too; ``parallelcheck cache info`` counts them and ``cache clear``
removes them.  One file, ``<cache folder>/kept/language-data.json``: ``{"format":
"parallelcheck-language-data", "version": 1, "tables": {name: {"tag": tag, "entries":
{key: value}}}}``.  Each table carries the tag of the data it was made from (``babel
2.17.0``): a table of another tag is not used, and each entry is read through a check of
its shape (a damaged one is made afresh).  A file that is not such a document is ignored
and replaced.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from parallelcheck.run.cache import KEPT, default_dir, read_document, write_document
from parallelcheck.text.kept import TABLES, KeptTable

#: What the file's ``format`` and ``version`` say.
FORMAT, VERSION = "parallelcheck-language-data", 1
#: The file's name in the folder.
NAME = "language-data.json"
#: The largest file read (a run over 13 languages keeps about 0.3 MB).
MAX_BYTES = 16 * 1024 * 1024


class KeptStore:
    """Load and store the kept tables in one cache folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.path = Path(folder if folder is not None else default_dir()) / KEPT / NAME

    def load(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """The stored tables by name, as (tag, entries); none when there is no file to be
        trusted or it is not well formed."""
        document = read_document(self.path, MAX_BYTES, {"format": FORMAT, "version": VERSION})
        tables = document.get("tables") if document is not None else None
        if not isinstance(tables, dict):
            return {}
        found: dict[str, tuple[str, dict[str, Any]]] = {}
        for name, table in tables.items():
            if not isinstance(table, dict):
                return {}
            tag, entries = table.get("tag"), table.get("entries")
            if type(tag) is not str or not isinstance(entries, dict):
                return {}
            found[name] = (tag, entries)
        return found

    def save(self, tables: dict[str, KeptTable]) -> None:
        """Store *tables*; nothing when the folder cannot be made private or written."""
        document = {
            "format": FORMAT,
            "version": VERSION,
            "tables": {
                name: {"tag": table.tag, "entries": dict(sorted(table.entries.items()))}
                for name, table in sorted(tables.items())
            },
        }
        write_document(self.path, document)


def keep_new_facts(folder: str | os.PathLike | None = None) -> None:
    """Store the process's tables when it added facts to one."""
    if TABLES.added():
        KeptStore(folder).save(TABLES.to_keep())


__all__ = ["MAX_BYTES", "NAME", "KeptStore", "keep_new_facts"]
