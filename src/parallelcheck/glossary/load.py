"""Loading glossaries: the files that paths name, the one glossary of a run (refused with
lint errors), one file, and the lenient reading that ``glossary lint`` lists problems from.

Formats (the file's extension decides)
--------------------------------------

``.yaml`` / ``.yml``
    :mod:`parallelcheck.glossary.load_yaml`
``.tbx``
    :mod:`parallelcheck.glossary.load_tbx`
``.csv``
    :mod:`parallelcheck.glossary.load_csv`

Each module's documentation describes its format; what they share (bounds, invisible
characters) is :mod:`parallelcheck.glossary.build`'s.

Errors and lint
---------------

Anything that makes a file unreadable or a term meaningless raises
:class:`~parallelcheck.errors.InputError` naming the file, the line and the term id (exit
status 2).  :func:`lint` checks a loaded glossary for contradictions — see its documentation for
what is an error and what a warning; :func:`load_glossaries` refuses a glossary with lint errors,
since its findings could not be trusted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from parallelcheck.errors import InputError
from parallelcheck.files.safe_yaml import collector_paused
from parallelcheck.glossary.build import _Problems, _Skip
from parallelcheck.glossary.model import Glossary, Problem, Term

# The linter and the format readers are imported where they are used: a run without a
# glossary file (a warm re-run of most projects) loads none of them — 8 ms of imports, most
# of it compiling the linter's patterns.

EXTENSIONS = (".yaml", ".yml", ".tbx", ".csv")


# ---------------------------------------------------------------------------
# Files and folders


def glossary_files(paths: Iterable[str]) -> list[str]:
    """The glossary files named by ``paths``: files as given, folders' *.yaml/*.yml/*.tbx/*.csv
    in sorted order.  Paths that do not exist are an :class:`InputError`."""
    files: list[str] = []
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            names = sorted(
                name
                for name in os.listdir(path)
                if name.lower().endswith(EXTENSIONS) and not name.startswith(".")
            )
            found = [os.path.join(path, name) for name in names]
            found = [f for f in found if os.path.isfile(f)]
        elif os.path.isfile(path):
            if not path.lower().endswith(EXTENSIONS):
                raise InputError(
                    "unknown glossary format (expected a .yaml, .yml, .tbx or .csv file)", path
                )
            found = [path]
        else:
            raise InputError("glossary path does not exist", path)
        for name in found:
            key = os.path.realpath(name)
            if key not in seen:
                seen.add(key)
                files.append(name)
    return files


def load_glossaries(paths: Iterable[str]) -> Glossary:
    """Read every glossary file under ``paths`` into one :class:`Glossary`.

    Raises :class:`InputError` (exit 2) for the first unreadable or malformed file or term and
    for the first lint error (see :func:`lint`).
    """
    problems = _Problems(strict=True)
    terms: list[Term] = []
    files = glossary_files(paths)
    with collector_paused():
        for path in files:
            terms.extend(_load_file(path, problems))
    glossary = Glossary.of(terms, files)
    if not terms:
        return glossary  # nothing to lint
    from parallelcheck.glossary.linter import lint

    for problem in lint(glossary, shadowing=False):
        if problem.severity == "error":
            raise InputError(problem.message, problem.path, problem.line)
    return glossary


def load_file(path: str) -> Glossary:
    """One glossary file, whatever its format (no lint)."""
    with collector_paused():
        return Glossary.of(_load_file(path, _Problems(strict=True)), (path,))


def _load_file(path: str, problems: _Problems) -> list[Term]:
    lower = path.lower()
    try:
        if lower.endswith((".yaml", ".yml")):
            from parallelcheck.glossary.load_yaml import _load_yaml

            return _load_yaml(path, problems)
        if lower.endswith(".tbx"):
            from parallelcheck.glossary.load_tbx import _load_tbx

            return _load_tbx(path, problems)
        if lower.endswith(".csv"):
            from parallelcheck.glossary.load_csv import _load_csv

            return _load_csv(path, problems)
    except _Skip:
        return []
    problems.error("unknown glossary format (expected .yaml, .yml, .tbx or .csv)", path, None)
    return []


# ---------------------------------------------------------------------------
# Reading leniently (``glossary lint``)


def lint_paths(paths: Sequence[str]) -> tuple[int, list[Problem]]:
    """Read glossaries as leniently as possible and lint them: (terms read, every problem).

    Unlike :func:`load_glossaries` this does not stop at the first problem, so ``glossary
    lint`` can list them all.
    """
    problems = _Problems(strict=False)
    try:
        files = glossary_files(paths)
    except InputError as error:
        return 0, [Problem(error.path or "", error.line, error.message)]
    terms: list[Term] = []
    with collector_paused():
        for path in files:
            terms.extend(_load_file(path, problems))
        glossary = Glossary(tuple(terms), tuple(files))  # no fingerprint: nothing is matched
        from parallelcheck.glossary.linter import lint

        return len(terms), problems.found + lint(glossary)
