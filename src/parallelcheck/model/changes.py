"""What version control says about the versions of one article: plain data, no I/O.

:mod:`parallelcheck.history.git` fills these from git; the engine hands them to the rules
that declare they need ``history`` (in their :class:`~parallelcheck.rules.base.RuleContext`),
which read them.  Keeping the data apart from the code that runs git lets rules use it
without depending on anything that reads files or runs programs.
"""

from __future__ import annotations

from dataclasses import dataclass

#: How sections without a heading of their own are named in :attr:`SourceChanges.sections`.
PREAMBLE = "(before the first heading)"
FRONT_MATTER = "(front matter)"
UNTITLED = "(untitled heading)"
#: Appended to the title of a section the newer text no longer has.
REMOVED = " (removed)"


@dataclass(frozen=True)
class VersionHistory:
    """The last commit that touched one version's file: full hash and author date
    (``YYYY-MM-DD``)."""

    last_commit: str
    last_date: str

    @property
    def short(self) -> str:
        """The abbreviated hash a person would type."""
        return self.last_commit[:7]


@dataclass(frozen=True)
class SourceChanges:
    """What changed in the source version since one translation was last committed.

    ``shas`` are the source's commits that change its content and are not in the history of
    the translation's last commit, newest first; ``uncommitted`` says the source's work-tree
    file has content changes not yet committed; ``sections`` are the titles of the source's
    sections those changes touch (as the newer text writes them; a section that was removed is
    marked ``(removed)``).  ``incomplete`` says there were more candidate commits than were
    examined, so ``shas`` is a lower bound.

    ``unknown`` is non-empty when the history could not tell whether the translation is up to
    date: it says why, as a clause a person reads (``shallow`` says the reason is a shallow
    clone whose history is cut off).  Such an entry has no ``translation`` and no changes:
    nothing in it may be read as a count.
    """

    translation: VersionHistory | None
    shas: tuple[str, ...] = ()
    uncommitted: bool = False
    sections: tuple[str, ...] = ()
    incomplete: bool = False
    unknown: str = ""
    shallow: bool = False

    @classmethod
    def cannot_tell(cls, reason: str, *, shallow: bool = False) -> SourceChanges:
        """An entry saying the translation's staleness is unknown, and why."""
        return cls(translation=None, unknown=reason, shallow=shallow)

    @property
    def commits(self) -> int:
        """The number of committed content changes."""
        return len(self.shas)

    @property
    def changes(self) -> int:
        """Committed content changes, plus one for uncommitted content changes."""
        return len(self.shas) + (1 if self.uncommitted else 0)
