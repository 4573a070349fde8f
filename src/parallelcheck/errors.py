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
