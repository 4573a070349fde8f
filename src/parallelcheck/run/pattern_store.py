"""The compiled forms of the package's regular expressions, kept in the cache folder.

A run of the command line loads the forms an earlier run kept before the package's modules
are imported (:meth:`PatternStore.load`, called by :meth:`Session.start
<parallelcheck.run.session.Session.start>`), builds its patterns from them
(:mod:`parallelcheck.text.regexes`), and once it has checked its articles
(:meth:`Session.finish <parallelcheck.run.session.Session.finish>`) stores the table again
if it compiled patterns the table did not have (:func:`keep_new_forms`): the first run on a
machine, or after an upgrade that changed patterns.  A run stopped before it checks (bad
input, a cache folder inside an article folder) stores nothing.  A cold check of the FastAPI
documentation then does 2.8 % fewer instructions, a warm re-run 14 % fewer (about 6 % less
processor time) and a pre-commit hook's run 19 % fewer.

The folder is the result cache's, so what it trusts is the same: the file is read before
the run knows its inputs, and a cache folder that turns out to lie inside an article folder
stops the run before it checks anything.

Like the stored language model (:mod:`parallelcheck.run.model_store`), the forms are no
result: they are the same whatever is checked, so they are used with ``--no-cache`` too.
``parallelcheck cache info`` counts them and ``cache clear`` removes them.  One file per
interpreter, ``<cache folder>/patterns/<digest>.json``, the digest naming what the forms
depend on (:func:`~parallelcheck.text.regexes.interpreter_tag`): another Python's forms are
never read, and each Python keeps its own.

The file is plain data, as result entries are (:mod:`parallelcheck.run.cache`): one JSON
document ``{"format": "parallelcheck-patterns", "version": 1, "interpreter": <tag>,
"forms": [[source, flags, final flags, opcodes in base64, groups, group index, index
group], …]}``; nothing in it is run or unpickled, and opcodes the engine rejects are
compiled afresh.  It is read only when it is a regular file of the user's own that no one
else may write, in such a folder, opened without following a link, up to
:data:`MAX_BYTES`; it is written to a temporary file renamed into place.  A file that is not
such a document is ignored and replaced.  A folder that cannot be written (a read-only
disk) only costs the saving.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from parallelcheck.run.cache import PATTERNS, default_dir, read_document, write_document
from parallelcheck.text.regexes import CompiledForms, in_use, interpreter_tag

#: What the file's ``format`` and ``version`` say.
FORMAT, VERSION = "parallelcheck-patterns", 1
#: The largest file read (a run's forms take about 1 MB).
MAX_BYTES = 64 * 1024 * 1024
#: Forms kept at most: beyond it, a store keeps only those of the run that writes it.
MAX_FORMS = 8_000


class PatternStore:
    """Load and store this interpreter's compiled forms in one cache folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder if folder is not None else default_dir()) / PATTERNS
        self.tag = interpreter_tag()
        self.path = self.folder / f"{hashlib.sha256(self.tag.encode()).hexdigest()[:32]}.json"

    def load(self) -> CompiledForms:
        """The forms stored for this interpreter; an empty table when there are none, or
        none to be trusted or well formed."""
        document = read_document(
            self.path, MAX_BYTES, {"format": FORMAT, "version": VERSION, "interpreter": self.tag}
        )
        forms = _decode(document) if document is not None else None
        return CompiledForms(forms) if forms is not None else CompiledForms()

    def save(self, forms: CompiledForms) -> None:
        """Store *forms* (at most :data:`MAX_FORMS` of them); nothing when the folder
        cannot be made private or written."""
        entries = [
            [source, flags, *form] for (source, flags), form in forms.kept(MAX_FORMS).items()
        ]
        document = {"format": FORMAT, "version": VERSION, "interpreter": self.tag, "forms": entries}
        write_document(self.path, document)


def _decode(document: dict[str, Any]) -> dict[tuple[str, int], list[Any]] | None:
    """The forms of a stored document by key, or ``None`` when they are not well formed
    (each form's fields are checked again when it is used)."""
    entries = document.get("forms")
    if not isinstance(entries, list):
        return None
    forms: dict[tuple[str, int], list[Any]] = {}
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 7):
            return None
        source, flags, *form = entry
        if type(source) is not str or type(flags) is not int:
            return None
        forms[source, flags] = form
    return forms


def keep_new_forms(folder: str | os.PathLike | None = None) -> None:
    """Store the table in use when this process compiled forms it did not have."""
    forms = in_use()
    if forms is not None and forms.added:
        PatternStore(folder).save(forms)


__all__ = ["MAX_BYTES", "MAX_FORMS", "PatternStore", "keep_new_forms"]
