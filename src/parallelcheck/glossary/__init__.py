"""Glossaries: the terms each language version must use, read from YAML, TBX or CSV.

The modules, each importing only those listed before it:

:mod:`~parallelcheck.glossary.model`
    The model: :class:`Glossary`, :class:`Term` and :class:`LangTerms`, which entry of a term
    applies to a version's language tag, :func:`match_key` (a form as matching sees it) and
    :class:`Problem` (one thing wrong with a glossary).
:mod:`~parallelcheck.glossary.linter`
    :func:`lint`: contradictions in a loaded glossary (errors) and shadowing that makes counts
    differ between languages (warnings).
:mod:`~parallelcheck.glossary.build`
    What the format readers share: the problems of one reading (raised or collected), the
    bounds on terms and file sizes, bounded file reads, and building checked terms (ids,
    language tags, invisible characters).
:mod:`.load_yaml`, :mod:`.load_tbx`, :mod:`.load_csv`
    One format each (YAML, TBX 2008 and v3, CSV), described in ``docs/configuration.md``
    ("Glossaries").
:mod:`~parallelcheck.glossary.load`
    :func:`glossary_files`, :func:`load_glossaries` (the glossary of a run, refused with lint
    errors), :func:`load_file`, and :func:`lint_paths` (the lenient reading behind
    ``glossary lint``).
:mod:`~parallelcheck.glossary.write`
    :func:`to_yaml` and :func:`import_glossary` (``glossary import``).

:mod:`~parallelcheck.glossary.match` finds a glossary's terms in text (for the term rules, and
for the linter's shadowing check, which imports it when it runs).  The names below are the
package's public interface: import them from ``parallelcheck.glossary`` (each is imported
from its module when first asked for).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parallelcheck.glossary.linter import lint
    from parallelcheck.glossary.load import (
        EXTENSIONS,
        glossary_files,
        lint_paths,
        load_file,
        load_glossaries,
    )
    from parallelcheck.glossary.model import Glossary, LangTerms, Problem, Term, match_key
    from parallelcheck.glossary.write import import_glossary, to_yaml

#: Each public name → the module that defines it, imported when the name is first asked for
#: (PEP 562): a check imports the model and the loading, never the writer, and the linter
#: only when it has a glossary to lint — 8 ms of every run that has none (a warm re-run
#: among them), mostly compiling the linter's patterns.
_HOMES = {
    "lint": "linter",
    "EXTENSIONS": "load",
    "glossary_files": "load",
    "lint_paths": "load",
    "load_file": "load",
    "load_glossaries": "load",
    "Glossary": "model",
    "LangTerms": "model",
    "Problem": "model",
    "Term": "model",
    "match_key": "model",
    "import_glossary": "write",
    "to_yaml": "write",
}


def __getattr__(name: str) -> Any:
    """A public name, from the module :data:`_HOMES` says defines it."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "EXTENSIONS",
    "Glossary",
    "LangTerms",
    "Problem",
    "Term",
    "glossary_files",
    "import_glossary",
    "lint",
    "lint_paths",
    "load_file",
    "load_glossaries",
    "match_key",
    "to_yaml",
]
