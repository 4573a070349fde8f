"""Writing a site — an index file and a folder of pages beside it — so that it changes in one step.

**Where.**  ``--output`` names either a folder or the index file:

* a path that is an existing folder, ends with a slash, or does not end with ``.html`` or
  ``.htm`` is a folder: the index is ``index.html`` in it and the pages go in ``pages/`` in
  it (the folder is made when missing; its parent must exist);
* a path ending with ``.html`` or ``.htm`` is the index itself, and the pages go in the folder
  beside it named after it: ``review.html`` → ``review_files/`` (as a browser saves a page).

**In one step.**  The pages are written, as they are made, into a new hidden folder beside the
pages folder (``.pages.tmp-…``).  Only when the whole run has succeeded does :meth:`Site.commit`
put it in place of the pages folder (the old one, if any, is renamed away first and removed
after) and then replace the index (written beside it and renamed over it).  A failed or
interrupted run removes the hidden folder (:meth:`Site.discard`) and leaves an earlier site
as it was.  Between the two renames of the pages folder there is an instant without it; the
index is replaced after the pages, so an index is never newer than its pages.

**Never over what is not its own.**  An existing pages folder is replaced only when everything
in it is a page this tool writes (a file named like ``name-1a2b3c4d.html``), so a folder of
someone else's files named by mistake is refused (:class:`~parallelcheck.errors.InputError`,
before anything is checked).  The caller also refuses a site over the run's inputs (see
:func:`parallelcheck.run.guard.refuse_writes_over_inputs`).

Files get 0666 and folders 0777 less the umask, as any new file would.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from parallelcheck.errors import InputError

#: The index file inside an output folder, and the pages folder beside it.
INDEX, PAGES = "index.html", "pages"
#: Suffixes that make ``--output`` the index file itself.
INDEX_SUFFIXES = (".html", ".htm")
#: A file a site's pages folder may hold (what the html format names its pages).
PAGE_FILE = re.compile(r"[a-z0-9_-]+\.html")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@dataclass
class Site:
    """Where a site goes (:meth:`at`), and the writing of it (see the module's docstring)."""

    index: Path
    pages: Path
    #: Whether ``--output`` named the folder (holding only the site), not the index file.
    own_folder: bool = False
    #: The folder being written (from the first page to :meth:`commit`).
    draft: Path | None = field(default=None, repr=False)

    @classmethod
    def at(cls, output: str) -> Site:
        """The site ``--output`` names; raises :class:`InputError` when it cannot be written
        there (a parent folder missing, a file where a folder must go, a pages folder holding
        what this tool did not write)."""
        path = Path(output)
        is_folder = output.endswith(("/", os.sep)) or path.is_dir()
        if is_folder or path.suffix.lower() not in INDEX_SUFFIXES:
            site = cls(path / INDEX, path / PAGES, own_folder=True)
            if path.exists() and not path.is_dir():
                raise InputError(f"--output {output}: is a file; name a folder for the site")
            if not path.parent.is_dir():
                raise InputError(f"--output {output}: its folder {path.parent} does not exist")
        else:
            site = cls(path, path.with_name(f"{path.stem}_files"))
            if not path.parent.is_dir():
                raise InputError(f"--output {output}: its folder {path.parent} does not exist")
            if path.is_dir():
                raise InputError(f"--output {output}: is a folder")
        site._check_replaceable()
        return site

    def _check_replaceable(self) -> None:
        if self.index.is_dir():
            raise InputError(f"--output: {self.index} is a folder, where the index would go")
        if not self.pages.exists() and not self.pages.is_symlink():
            return
        if self.pages.is_symlink() or not self.pages.is_dir():
            raise InputError(
                f"--output: {self.pages} is not a folder of pages this tool wrote; "
                "choose another --output"
            )
        foreign = sorted(
            entry.name
            for entry in os.scandir(self.pages)
            if not (PAGE_FILE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False))
        )
        if foreign:
            raise InputError(
                f"--output: the pages folder {self.pages} holds {foreign[0]!r}, which is not a "
                "page of a parallelcheck report; it is never replaced — choose another --output"
            )

    @property
    def folder(self) -> Path:
        """The folder that holds the index and the pages folder."""
        return self.index.parent

    def _begun(self) -> Path:
        """The folder the pages are written to, made (with the output folder, when missing)
        at the first page."""
        if self.draft is None:
            self.folder.mkdir(exist_ok=True)
            prefix = f".{self.pages.name}.tmp-"
            self.draft = Path(tempfile.mkdtemp(prefix=prefix, dir=self.folder))
        return self.draft

    def add(self, name: str, text: str) -> None:
        """Write the page *name* (a bare file name) into the folder being written."""
        if not PAGE_FILE.fullmatch(name):
            raise ValueError(f"not a page name: {name!r}")
        with open(self._begun() / name, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)

    def commit(self, index: str) -> None:
        """Put the pages in place, then the index (see the module's docstring)."""
        draft = self._begun()
        mask = _umask()
        for page in draft.iterdir():
            page.chmod(0o666 & ~mask)
        draft.chmod(0o777 & ~mask)
        fd, temporary = tempfile.mkstemp(prefix=f".{self.index.name}.", dir=self.folder)
        old = None
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(index)
            os.chmod(temporary, 0o666 & ~mask)
            if self.pages.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{self.pages.name}.old-", dir=self.folder))
                os.replace(self.pages, old / self.pages.name)
            try:
                os.replace(draft, self.pages)
            except BaseException:
                if old is not None:  # the earlier site stays whole
                    os.replace(old / self.pages.name, self.pages)
                raise
            self.draft = None
            os.replace(temporary, self.index)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)

    def discard(self) -> None:
        """Remove the folder being written, if any: the run did not complete."""
        if self.draft is not None:
            shutil.rmtree(self.draft, ignore_errors=True)
            self.draft = None
