"""Errors that stop a run (exit status 2) with a one-paragraph message.

Every module that meets input it cannot use raises :class:`InputError` naming the file and,
where known, the line.  The command line turns it into a message on stderr and exit status 2;
nothing else in the tool prints a traceback for bad input.
"""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """The run cannot be done because of the named input (exit status 2)."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.describe())

    def describe(self) -> str:
        """The one-paragraph message shown to the user: ``path:line: message``."""
        where = ""
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
            where += ": "
        return f"{where}{self.message}"


def describe_kind(value: object, *, null: str, mapping: str) -> str:
    """What a parsed value is, for a message such as "'x' must be a list, not a number":
    ``null`` and ``mapping`` are the words of the format (JSON's "null" and "an object",
    YAML's "an empty value" and "a mapping")."""
    if value is None:
        return null
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return mapping
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"
