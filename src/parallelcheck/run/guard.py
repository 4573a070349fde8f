"""Inputs are sacred: a run refuses to write over, or among, the files it reads.

:func:`refuse_writes_over_inputs` is called once discovery is done and before anything is
checked, so a mistyped path costs nothing.  It compares each path the run will write with the
files it reads by what they *are*, not by how they are spelled: a symbolic link to an input is
that input, and so is a hard link to it.

The comparison is made cheap for the common run, which writes nothing but its cache entries:
the inputs are looked up by device and inode (one ``stat`` each), and an input's real path
(``os.path.realpath``, which reads every component of a path) is worked out only where a
lookup needs it.  The answers are those of comparing every real path:

* a path that exists is the same file as an input exactly when their device and inode agree;
  of the inputs that are that file, the one named is the last whose real path is the path's
  own (a link named by two spellings), else the first (a hard link);
* a path that does not exist can resolve only to an input that does not exist either (a
  version a commit deletes), so only those inputs' real paths are compared;
* the folder an input lies in is the real path of the folder it is listed in, unless the
  input itself is a symbolic link (then, of the file it points at).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property

from parallelcheck.errors import InputError
from parallelcheck.model.article import ArticleSet

__all__ = ["refuse_writes_over_inputs"]


class _Inputs:
    """The files a run reads, and the article folders its versions lie in, looked up by what
    a path is (see the module's docstring); each table is made on first use."""

    def __init__(self, paths: Sequence[str], versions: Sequence[str]) -> None:
        self.paths = paths
        self.versions = versions

    @cached_property
    def _by_inode(self) -> tuple[dict[tuple[int, int], list[str]], list[str]]:
        """The inputs by (device, inode), in order; and those that cannot be looked at."""
        by_inode: dict[tuple[int, int], list[str]] = {}
        missing: list[str] = []
        for path in self.paths:
            try:
                info = os.stat(path)
            except OSError:
                missing.append(path)
            else:
                by_inode.setdefault((info.st_dev, info.st_ino), []).append(path)
        return by_inode, missing

    @cached_property
    def by_real_path(self) -> dict[str, str]:
        """Each input's real path → the input (the last of those sharing one)."""
        return {os.path.realpath(p): p for p in self.paths}

    def at(self, path: str) -> str | None:
        """The input *path* is (through symbolic or hard links), or ``None``."""
        by_inode, missing = self._by_inode
        try:
            info = os.stat(path)
        except OSError:
            real = os.path.realpath(path)
            return next((p for p in reversed(missing) if os.path.realpath(p) == real), None)
        same = by_inode.get((info.st_dev, info.st_ino))
        if not same:
            return None
        real = os.path.realpath(path)
        return next((p for p in reversed(same) if os.path.realpath(p) == real), same[0])

    @cached_property
    def homes(self) -> list[str]:
        """The real paths of the folders the versions lie in, sorted."""
        folders: dict[str, str] = {}
        homes: set[str] = set()
        for path in self.versions:
            if os.path.islink(path):
                homes.add(os.path.dirname(os.path.realpath(path)))
                continue
            folder = os.path.dirname(path)
            real = folders.get(folder)
            if real is None:
                real = folders[folder] = os.path.realpath(folder)
            homes.add(real)
        return sorted(homes)

    def home_of(self, folder: str) -> str | None:
        """The article folder *folder* is, or lies in, or ``None``."""
        real = os.path.realpath(folder)
        return next((h for h in self.homes if real == h or real.startswith(h + os.sep)), None)


def refuse_writes_over_inputs(
    writes: Sequence[tuple[str, str]],
    *,
    reads: Sequence[str],
    article_sets: Sequence[ArticleSet],
    languages: Sequence[str] = (),
    cache_folder: str | None = None,
    folders: Sequence[tuple[str, str]] = (),
) -> None:
    """Refuse (:class:`InputError`, exit 2) to write over what the run reads.

    *writes* are ``(path, option)`` pairs — the report of ``check --output``, the file of
    ``baseline -o``.  A path is refused when it resolves (``os.path.realpath``: through
    symbolic links) to a file the run reads, or is the same file by device and inode (a hard
    link): a version file of a found article set (also one that does not exist: a version the
    commit deletes), an ignored duplicate, a path given on the command line, the configuration,
    a glossary file, the baseline (*reads* lists what is not a version).  A file that does not
    exist yet is refused where a later run would read it: a name discovery could take for a
    version in an article's folder (``art/de.md``; see :func:`~parallelcheck.discover.sets.
    could_be_version`), or a glossary file in a glossary folder.  *cache_folder*, when the run
    uses the cache, is refused when it is an input file or lies inside an article folder.
    *folders* (a site's folder and its pages folder, which ``check --output`` replaces) are
    refused as the cache folder is, and also when an input lies inside them.
    Nothing is written or removed here.  A run that writes nothing (no output file or folder,
    no cache) has nothing to refuse, and looks at no path."""
    if not writes and not folders and cache_folder is None:
        return
    from parallelcheck.discover.sets import could_be_version
    from parallelcheck.glossary import EXTENSIONS as GLOSSARY_EXTENSIONS
    from parallelcheck.glossary import glossary_files

    versions: list[str] = []
    paths: list[str] = []
    for article_set in article_sets:
        versions += article_set.versions.values()
        paths += [*article_set.versions.values(), *article_set.ignored]
    read_folders = [p for p in reads if os.path.isdir(p)]
    glossary_folders = {os.path.realpath(p) for p in read_folders}
    paths += glossary_files(read_folders)
    paths += [p for p in reads if not os.path.isdir(p)]
    inputs = _Inputs(paths, versions)

    for path, option in writes:
        hit = inputs.at(path)
        if hit is not None:
            same = "" if os.path.realpath(hit) == os.path.realpath(path) else " (a link to it)"
            raise InputError(
                f"{option} {path}: this is {hit}{same}, an input of this run; inputs are never "
                "written over — choose another file"
            )
        home = could_be_version(path, article_sets, languages)
        if home is not None:
            raise InputError(
                f"{option} {path}: lies in the article folder {_shown(home)}, where a later run "
                "would take it for a language version — choose a file elsewhere"
            )
        real = os.path.realpath(path)
        if real.lower().endswith(GLOSSARY_EXTENSIONS) and os.path.dirname(real) in glossary_folders:
            raise InputError(
                f"{option} {path}: lies in the glossary folder {_shown(os.path.dirname(real))}, "
                "where a later run would read it as a glossary — choose a file elsewhere"
            )

    for folder, option in folders:
        real = os.path.realpath(folder)
        held = next(
            (
                p
                for real_input, p in sorted(inputs.by_real_path.items())
                if real_input.startswith(real + os.sep)
            ),
            None,
        )
        hit, inside = inputs.at(folder), inputs.home_of(folder)
        if hit is not None or inside is not None or held is not None:
            where = (
                f"is {hit}, an input of this run"
                if hit
                else f"lies in the article folder {_shown(inside)}"
                if inside
                else f"holds {held}, an input of this run"
            )
            raise InputError(
                f"{option} {folder}: {where}; a report is never written among the inputs — "
                "choose a folder elsewhere"
            )
    if cache_folder is not None:
        hit = inputs.at(cache_folder)
        inside = inputs.home_of(cache_folder)
        if hit is not None or inside is not None:
            raise InputError(
                f"the cache folder {cache_folder} (PARALLELCHECK_CACHE_DIR) "
                + (f"is {hit}, an input of this run" if hit else f"lies in {_shown(inside)}")
                + "; its entries are never written among the inputs — point it elsewhere, or "
                "run with --no-cache"
            )


def _shown(path: str) -> str:
    """*path* relative to the working directory when below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
