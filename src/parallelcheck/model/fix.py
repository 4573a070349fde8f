"""A fix: the edits that repair what one finding reports, and how safe they are (docs/fixes.md).

A rule that knows how to repair what it found attaches a :class:`Fix` to the finding, built
from the model alone — the lines readers record, the text of blocks — since rules never read
files.  :mod:`parallelcheck.fix` applies fixes (``check --fix``) or prints them as a patch
(``check --diff``); the report formats only show them.

Lines are counted as the readers count them: 1-based, each ``\\r\\n``, ``\\n`` or lone ``\\r``
one line break.  A fix never edits the source version, and never the prose of a version: its
edits touch code, link targets, heading ids and template directives, or insert blocks copied
from the source.

Applicability, as ruff grades its fixes:

``safe``
    the version ends up saying what the source says, in its own words where it had them:
    nothing a translator wrote is lost or replaced by the source's text.  ``check --fix``
    applies these.
``unsafe``
    the repair is right for the code or structure but may undo a translator's deliberate
    choice (an example's names renamed), leave the source's language where a translation is
    needed (a table copied from the source, marked so), or rest on a guess (several changed
    links paired by their order).  Applied only with ``--unsafe-fixes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SAFE, UNSAFE = "safe", "unsafe"
APPLICABILITIES = (SAFE, UNSAFE)

#: The three forms of an :class:`Edit`.
LINES, SPAN, COPY = "lines", "span", "copy"
EDIT_KINDS = (LINES, SPAN, COPY)


@dataclass(frozen=True)
class Span:
    """Lines ``line`` to ``end_line`` (inclusive) of the file at ``path``; ``end_line`` is
    ``line - 1`` for the empty place just before ``line`` (an insertion)."""

    path: str
    line: int
    end_line: int

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "end_line": self.end_line}


@dataclass(frozen=True)
class Edit:
    """One change to one file, in one of three forms (``kind``):

    ``lines``
        the lines of ``at`` become ``new`` (``\\n``-joined lines).  Lines inside a container
        keep its prefix — a list item's indentation, a quote's ``>`` — so ``old`` and ``new``
        are the text after it: ``old`` is what the lines hold now, checked before anything is
        written.  An insertion (``at`` empty) writes ``new`` as it is.
    ``span``
        on the one line of ``at``, the text ``old`` becomes ``new``; ``old`` must stand there
        once (or once as a link target — after ``](``, ``href="``, ``src="`` … — or as a
        fence's language tag, after its backticks or tildes).  An empty
        ``old`` appends ``new`` to the line's end (trailing white space aside).
    ``copy``
        the lines of ``at`` become the lines of ``copy`` in another file (the source
        version), each with the container prefix of the copied lines exchanged for the one
        of ``at``'s first line; ``old`` is, when not empty, the normalised form both must
        have (a template directive's, see :mod:`parallelcheck.readers.directives`).
    """

    at: Span
    kind: str
    old: str = ""
    new: str = ""
    copy: Span | None = None

    def __post_init__(self) -> None:
        if self.kind not in EDIT_KINDS:
            raise ValueError(f"unknown edit kind {self.kind!r}")
        if (self.kind == COPY) != (self.copy is not None):
            raise ValueError("a copy edit, and only one, names the lines it copies")
        if self.kind == SPAN and self.at.end_line != self.at.line:
            raise ValueError("a span edit is on one line")
        if self.at.end_line < self.at.line - 1:
            raise ValueError(f"lines {self.at.line}-{self.at.end_line}: an empty range")

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            **self.at.as_dict(),
            "old": self.old,
            "new": self.new,
            "copy": None if self.copy is None else self.copy.as_dict(),
        }


@dataclass(frozen=True)
class Fix:
    """How to repair one finding: its ``edits`` (in one or several versions' files, never the
    source's), what they do in a sentence (``message``) and whether ``check --fix`` applies
    them by default (``applicability``: ``safe``, or ``unsafe`` for ``--unsafe-fixes``)."""

    applicability: str
    message: str
    edits: tuple[Edit, ...]

    def __post_init__(self) -> None:
        if self.applicability not in APPLICABILITIES:
            raise ValueError(f"unknown applicability {self.applicability!r}")
        if not self.edits:
            raise ValueError("a fix makes at least one edit")

    @property
    def paths(self) -> tuple[str, ...]:
        """The files the fix edits, in the order of its edits, each once."""
        return tuple(dict.fromkeys(edit.at.path for edit in self.edits))

    def as_dict(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability,
            "message": self.message,
            "edits": [edit.as_dict() for edit in self.edits],
        }
