"""ArticleSet: one article and the files of its language versions, as discovery finds them."""

from __future__ import annotations

from dataclasses import dataclass, field

from parallelcheck.files.safe_read import Boundary


@dataclass(frozen=True)
class ArticleSet:
    """An article and its versions.

    ``id`` names the article (its folder, its file stem, or its path inside a language tree).
    ``versions`` maps a canonical language tag to the file of that version, as a POSIX path
    relative to the working directory when the file lies below it.  ``ignored`` lists files that
    were passed over because another file already holds that language (``ja.md`` and
    ``ja.txt``), so the user can be told.  ``layout`` names the layout that found it
    (``folder``, ``suffix``, ``tree``, a configured pattern, or several joined by ``+``).

    ``boundary`` is where the version files may be read (discovery sets it: the checked folders
    and the project root, as real paths; see :mod:`parallelcheck.files.safe_read`).  The engine
    reads
    a version only when its real path lies inside it: a symbolic link out of it is an
    ``unreadable-version`` finding naming the link, never read.  ``None`` (an article set built
    by hand) confines nothing.
    """

    id: str
    versions: dict[str, str]
    ignored: tuple[str, ...] = field(default=())
    layout: str = ""
    boundary: Boundary | None = field(default=None, compare=False, repr=False)
