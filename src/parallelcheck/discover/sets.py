"""Discovery: find the article sets (one article, its language versions) below given paths.

Three layouts are recognised without configuration (docs/layouts.md,
:mod:`parallelcheck.discover.layout`)
and may be mixed in one tree:

1. folder per article, ``<root>/<article>/<lang>.<ext>``: the id is the folder's path relative to
   the root (a folder passed directly that lies outside the root is named by its own name);
2. language suffix, ``<root>/<article>.<lang>.<ext>``: the id is the stem's path; an unsuffixed
   ``<article>.<ext>`` beside suffixed versions is the source-language version;
3. tree per language, ``<root>/<lang>/<path>.<ext>``: the id is ``<path>`` without its extension,
   and the versions are gathered from every language directory beside ``<lang>``.

A configuration's ``layout:`` replaces them with the layouts it lists (named defaults and path
patterns, see :mod:`parallelcheck.discover.layout`).

What is a language version
    A name is a language only when :func:`~parallelcheck.text.langtag.language_of_name` accepts it
    (a registered tag of a language CLDR knows, or one the configuration names: ``go``, ``js``,
    ``py``, ``ls``, ``cp``, ``tar``, ``sh`` and ``cs-Java`` are not) **and** the layout
    corroborates it:

    * a folder is an article folder only when it holds ``<lang>.<ext>`` files and no more other
      documents than those (a folder of command pages ``ls.md``, ``cp.md``, ``ar.md`` … is not);
    * a tree per language needs at least two language folders, side by side, that share a page
      (a lone ``docs/ui/`` or ``docs/de/`` is an ordinary folder);
    * an article found with a single version is kept only when the tree it belongs to is a
      corroborated tree per language or a configured pattern, or its language is configured or
      is held by an article with several versions found in the same run.

    Files whose extension no reader knows are never versions.  Hidden entries (``.git``,
    ``.venv`` …), ``node_modules`` and ``__pycache__`` are skipped.

Never outside what was asked
    Discovery reads the paths it is given and what lies below them.  To find the other
    versions of a file or folder inside a tree per language it may look at the folders above
    it, but never above the *project root*: the folder holding the configuration file, else
    the nearest folder above the path holding ``.git`` or a configuration file, else the
    working directory.  For a folder outside all three nothing above it is read.  A file
    stands for its whole article set (docs/layouts.md): outside all three, the nearest
    :data:`MAX_TREE_DEPTH` folders above it are looked at for the tree per language it
    belongs to, and nothing else of them is used; the root of that tree joins the boundary of
    reads below.

    Inside the language folders of a tree, a file is claimed by its own name first: the
    ``<lang>.<ext>`` versions of an article folder there belong to that article, never to the
    tree (``de/site/post1/en.md`` is not the German page ``site/post1/en``).

Ids are always measured from the configured root when the path given lies below it, so a
pre-commit hook passing ``articles/blog/foo/ja.md`` gets the same id (``blog/foo``) as a full
run; this keeps baselines stable.

Symbolic links to files are followed; directories reached twice (through a link cycle or an
alias) are read once.

The boundary of reads
    Every article set carries the run's *boundary*
    (:class:`~parallelcheck.files.safe_read.Boundary`):
    the real paths of the folders given (a file's own folder), of the configured root, and of
    each one's project root (the bound above).  Discovery never walks a folder whose real path
    lies outside it: a symbolic link to a folder elsewhere (``/``, another checkout) or into a
    hidden folder (``.git``) is passed over like a hidden folder.  Pseudo-filesystems
    (``/proc``, ``/sys``, ``/dev``; recognised by path and by device) are never walked, even
    below ``root: /``, and naming one is an error.  Symbolic links to *files* are listed
    wherever they point — stat only, nothing is opened — and the engine reads a version only
    when its real path lies inside the boundary (checked right before opening it), so a link
    out of it is an ``unreadable-version`` finding naming the link, never read.  Discovery
    opens no file at all; a FIFO, socket or device named like a document is passed over.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from parallelcheck.config import CONFIG_NAMES
from parallelcheck.discover.layout import DEFAULT_LAYOUTS, PatternLayout
from parallelcheck.errors import InputError
from parallelcheck.files.globs import Globs
from parallelcheck.files.safe_read import (
    PSEUDO_FILESYSTEMS,
    Boundary,
    is_pseudo_filesystem,
    special_kind,
)
from parallelcheck.model.article import ArticleSet
from parallelcheck.readers import EXTENSIONS as READER_EXTENSIONS
from parallelcheck.text.langtag import canonical_tag, language_of_name

#: Every extension a reader knows, without the dot.
EXTENSIONS = tuple(ext.lstrip(".") for ext in READER_EXTENSIONS)
#: Preference when one language has several files in one set: earlier wins, unlisted last.
_PREFERENCE = ("md", "mdx", "markdown", "html", "htm", "txt")
_EXT_RANK = {ext: _PREFERENCE.index(ext) if ext in _PREFERENCE else 99 for ext in EXTENSIONS}
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})
#: Outside any project, how many folders above a given file may hold its tree per language.
MAX_TREE_DEPTH = 8
#: What makes a folder a project root: a git work tree, or a configuration file.
PROJECT_MARKERS = (".git", *CONFIG_NAMES)


# ---------------------------------------------------------------------------
# Small helpers


def _split_ext(name: str) -> tuple[str, str] | None:
    """``("ja", "md")`` for ``ja.MD``; ``None`` when the extension is not a document's."""
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return None
    ext = ext.lower()
    return (stem, ext) if ext in _EXT_RANK else None


def _skipped(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS


def _is_under(path: str, parent: str) -> bool:
    """True when *path* is *parent* or lies below it (both absolute and normalised)."""
    return path == parent or path.startswith(parent.rstrip(os.sep) + os.sep)


def _rel_id(path: str, base: str) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


def _join_id(prefix: str, rest: str) -> str:
    return f"{prefix}/{rest}" if prefix else rest


def find_project_root(start: str) -> str | None:
    """The nearest folder at or above *start* holding ``.git`` or a configuration file."""
    current = os.path.abspath(start)
    while True:
        if any(os.path.exists(os.path.join(current, m)) for m in PROJECT_MARKERS):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


@dataclass
class _Listing:
    """The documents and subdirectories directly inside one directory, sorted by name."""

    files: list[tuple[str, str]] = field(default_factory=list)  # (name, absolute path)
    dirs: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)  # + (dev, ino)


@dataclass
class _Tree:
    """A corroborated tree per language: its pages and the language folders that hold them."""

    pages: dict[str, dict[str, list[str]]]  # page → language → files
    language_dirs: set[str]


@dataclass
class _Collected:
    """Files found per article id and language, before one is chosen per language."""

    files: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # Where each article lives (its folder, its stem path, or its page path in the tree), to
    # tell two different articles that happen to get the same id apart.
    places: dict[str, str] = field(default_factory=dict)
    layouts: dict[str, set[str]] = field(default_factory=dict)
    # Articles whose layout alone corroborates them (a tree per language, a named pattern).
    vouched: set[str] = field(default_factory=set)

    def add(
        self, article_id: str, place: str, lang: str, path: str, layout: str, vouched: bool
    ) -> None:
        self.files.setdefault(article_id, {}).setdefault(lang, []).append(path)
        self.places.setdefault(article_id, place)
        self.layouts.setdefault(article_id, set()).add(layout)
        if vouched:
            self.vouched.add(article_id)

    def take(self, other: _Collected, article_id: str) -> None:
        """Add the article *article_id* as *other* holds it."""
        for lang, paths in other.files[article_id].items():
            self.files.setdefault(article_id, {}).setdefault(lang, []).extend(paths)
        self.places.setdefault(article_id, other.places[article_id])
        self.layouts.setdefault(article_id, set()).update(other.layouts[article_id])
        if article_id in other.vouched:
            self.vouched.add(article_id)


class _Discovery:
    """One call of :func:`discover`: caches directory listings, tags and language trees."""

    def __init__(
        self,
        root: str,
        cwd: str,
        *,
        project_root: str | None,
        languages: Collection[str],
        source: str,
        layouts: Sequence[str | PatternLayout],
        exclude: Globs | None = None,
    ):
        self.cwd = os.path.abspath(cwd)
        self.exclude = exclude
        self._cwd_prefix = self.cwd.rstrip(os.sep) + os.sep
        self.root = os.path.normpath(os.path.join(self.cwd, root))
        self.project_root = os.path.abspath(project_root) if project_root else None
        self.languages = tuple(languages)
        self.source = source
        self.defaults = frozenset(x for x in layouts if isinstance(x, str))
        self.patterns = tuple(x for x in layouts if isinstance(x, PatternLayout))
        self._listings: dict[str, _Listing] = {}
        self._trees: dict[str, _Tree | None] = {}
        self._tags: dict[str, str | None] = {}
        self._pattern_index: _Collected | None = None
        self._bounds: dict[str, str] = {}
        #: Where folders may be walked and versions read; set by :func:`discover` before any
        #: folder is listed (``None``: anywhere but pseudo-filesystems).
        self.boundary: Boundary | None = None
        # Trees per language found above a file given outside any project: the boundary of
        # reads grows by them (the file stands for its whole set, docs/layouts.md).
        self.trees_of_files: set[str] = set()
        self._pseudo_devices = _pseudo_devices()

    # -- names ------------------------------------------------------------

    def tag(self, name: str) -> str | None:
        """The language *name* stands for (see :func:`language_of_name`), or ``None``."""
        if name not in self._tags:
            self._tags[name] = language_of_name(name, self.languages)
        return self._tags[name]

    def version_tag(self, name: str) -> str | None:
        """The language of a layout-1 file name (``zh-hant.md`` → ``zh-Hant``), else ``None``."""
        parts = _split_ext(name)
        return self.tag(parts[0]) if parts else None

    def suffix_parts(self, name: str) -> tuple[str, str] | None:
        """``("install", "zh-Hant")`` for ``install.zh-hant.md`` (layout 2), else ``None``."""
        parts = _split_ext(name)
        if parts is None:
            return None
        stem, dot, lang = parts[0].rpartition(".")
        if not dot or not stem:
            return None
        tag = self.tag(lang)
        return (stem, tag) if tag else None

    # -- file system ------------------------------------------------------

    def listing(self, directory: str) -> _Listing:
        cached = self._listings.get(directory)
        if cached is not None:
            return cached
        result = _Listing()
        try:
            with os.scandir(directory) as entries:
                for entry in entries:
                    name = entry.name
                    if _skipped(name) or (self.exclude and self.exclude.matches(entry.path)):
                        continue
                    try:
                        if entry.is_dir():
                            st = entry.stat()
                            if self.walkable(entry, st):
                                result.dirs.append((name, entry.path, (st.st_dev, st.st_ino)))
                        elif entry.is_file() and _split_ext(name):
                            result.files.append((name, entry.path))
                    except OSError:  # broken link, vanished entry, no permission
                        continue
        except OSError as exc:
            raise InputError(
                f"cannot read directory: {exc.strerror}", self.show(directory)
            ) from None
        result.files.sort()
        result.dirs.sort()
        self._listings[directory] = result
        return result

    def walkable(self, entry: os.DirEntry[str], st: os.stat_result) -> bool:
        """Whether the folder *entry* (its *st*, links followed) may be walked: not on a
        pseudo-filesystem, and — when it is a symbolic link — inside the boundary, with no
        hidden folder on its real path (a link to ``/`` or to ``.git`` is not)."""
        if st.st_dev in self._pseudo_devices or is_pseudo_filesystem(entry.path):
            return False
        if not entry.is_symlink():
            return True
        real = os.path.realpath(entry.path)
        if self.boundary is None:
            return not is_pseudo_filesystem(real)
        return self.boundary.admits(real)

    def show(self, path: str) -> str:
        """*path* as shown to the user: POSIX, relative to the working directory when below it."""
        if path == self.cwd:
            return "."
        if path.startswith(self._cwd_prefix):  # cheaper than os.path.relpath, same result here
            path = path[len(self._cwd_prefix) :]
        return path.replace(os.sep, "/")

    def bound_for(self, path: str) -> str:
        """The highest folder that may be read for *path*: the project root holding it (the
        configuration's folder, else the nearest folder with ``.git`` or a configuration
        file), else the working directory when *path* lies in it, else *path* itself."""
        if self.project_root is not None and _is_under(path, self.project_root):
            return self.project_root
        if path not in self._bounds:
            found = find_project_root(path)
            if found is None:
                found = self.cwd if _is_under(path, self.cwd) else path
            self._bounds[path] = found
        return self._bounds[path]

    # -- classification ---------------------------------------------------

    def looks_like_article_folder(self, directory: str) -> bool:
        """Does *directory* hold ``<lang>.<ext>`` versions rather than pages of a language tree?"""
        tagged = other = 0
        for name, _ in self.listing(directory).files:
            if self.version_tag(name):
                tagged += 1
            elif not name.lower().startswith("readme."):
                other += 1
        return tagged > 0 and tagged >= other

    def candidate_language_dirs(self, directory: str) -> list[tuple[str, str]]:
        """``(tag, path)`` of the subdirectories of *directory* that may be language directories."""
        found = []
        for name, path, _ in self.listing(directory).dirs:
            tag = self.tag(name)
            if tag and not self.looks_like_article_folder(path):
                found.append((tag, path))
        return found

    def tree(self, tree_root: str) -> _Tree | None:
        """The tree per language rooted at *tree_root*, or ``None`` when it is not one.

        A language folder belongs to the tree when it shares at least one page with another
        language folder beside it; a tree needs two such folders.
        """
        if "tree" not in self.defaults:
            return None
        if tree_root in self._trees:
            return self._trees[tree_root]
        pages: dict[str, dict[str, list[str]]] = {}
        folder_of: dict[str, str] = {}
        for tag, lang_dir in self.candidate_language_dirs(tree_root):
            folder_of.setdefault(tag, lang_dir)
            for page, path in self.pages(lang_dir):
                pages.setdefault(page, {}).setdefault(tag, []).append(path)
        sharing = {tag for versions in pages.values() if len(versions) > 1 for tag in versions}
        result = None
        if len(sharing) >= 2:
            kept = {}
            for page, versions in pages.items():
                versions = {tag: files for tag, files in versions.items() if tag in sharing}
                if versions:
                    kept[page] = versions
            dirs = {path for tag, path in self.candidate_language_dirs(tree_root) if tag in sharing}
            result = _Tree(kept, dirs)
        self._trees[tree_root] = result
        return result

    def pages(self, lang_dir: str) -> Iterable[tuple[str, str]]:
        """Every document below *lang_dir* as ``(path without extension, file)``, except the
        versions of article folders inside it (``de/site/post1/en.md`` is a version of the
        article ``post1``, not the German page ``site/post1/en``)."""
        seen: set[tuple[int, int]] = set()
        try:
            st = os.stat(lang_dir)
        except OSError:
            return
        stack = [(lang_dir, "", (st.st_dev, st.st_ino))]
        while stack:
            directory, prefix, key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            listing = self.listing(directory)
            article_folder = self.looks_like_article_folder(directory)
            for name, path in listing.files:
                if article_folder and self.version_tag(name):
                    continue
                stem = name.rpartition(".")[0]
                yield _join_id(prefix, stem), path
            for name, path, sub_key in reversed(listing.dirs):
                stack.append((path, _join_id(prefix, name), sub_key))

    def enclosing_language_dir(
        self, directory: str, *, for_file: bool = False
    ) -> tuple[str, str] | None:
        """The language directory holding *directory* (itself included), with its tree root.

        Only folders up to :meth:`bound_for` are considered, nearest first: outside a project
        the given folder is the highest read.  A file stands for its whole article set
        (docs/layouts.md), so for the folder of a file given outside any project the nearest
        :data:`MAX_TREE_DEPTH` folders above it are looked at for the tree it belongs to.
        """
        bound: str | None = self.bound_for(directory)
        if for_file and bound == directory:
            bound = None
        current = directory
        for _ in range(MAX_TREE_DEPTH if bound is None else 10_000):
            if current == bound:
                return None
            parent = os.path.dirname(current)
            if parent == current:
                return None
            if self.tag(os.path.basename(current)) and not self.looks_like_article_folder(current):
                tree = self.tree(parent)
                if tree is not None and current in tree.language_dirs:
                    if bound is None:  # a file's set, outside any project: its tree may be read
                        self.trees_of_files.add(parent)
                    return current, parent
            current = parent
        return None

    def base_for(self, path: str, fallback: str) -> str:
        """The folder ids are measured from: the root when *path* lies in it, else *fallback*."""
        return self.root if _is_under(path, self.root) else fallback

    def article_id(self, folder: str, base: str) -> str:
        """The id of a layout-1 article folder (or the folder holding layout-2 files)."""
        if folder == base:
            return ""
        return _rel_id(folder, base)

    # -- one directory ----------------------------------------------------

    def folder_versions(self, directory: str, article_id: str, out: _Collected) -> None:
        """Layout 1: the ``<lang>.<ext>`` files of *directory*, when it is an article folder."""
        if "folder" not in self.defaults or not self.looks_like_article_folder(directory):
            return
        for name, path in self.listing(directory).files:
            tag = self.version_tag(name)
            if tag:
                out.add(article_id, directory, tag, path, "folder", vouched=False)

    def suffix_versions(
        self, directory: str, folder_id: str, out: _Collected, stem_wanted: str | None = None
    ) -> None:
        """Layout 2: ``<stem>.<lang>.<ext>`` files of *directory*, and the unsuffixed
        ``<stem>.<ext>`` beside them as the source-language version."""
        if "suffix" not in self.defaults:
            return
        files = self.listing(directory).files
        stems: dict[str, set[str]] = {}
        for name, path in files:
            suffix = self.suffix_parts(name)
            if suffix and (stem_wanted is None or suffix[0] == stem_wanted):
                stems.setdefault(suffix[0], set()).add(suffix[1])
                place = os.path.join(directory, suffix[0])
                out.add(_join_id(folder_id, suffix[0]), place, suffix[1], path, "suffix", False)
        for name, path in files:
            parts = _split_ext(name)
            if parts is None or parts[0] not in stems or self.suffix_parts(name):
                continue
            if self.source in stems[parts[0]] or self.version_tag(name):
                continue  # the source language has its own tagged file, or this is layout 1
            place = os.path.join(directory, parts[0])
            out.add(_join_id(folder_id, parts[0]), place, self.source, path, "suffix", False)

    def tree_versions(self, tree_root: str, tree: _Tree, folder_id: str, out: _Collected) -> None:
        for page, versions in tree.pages.items():
            place = os.path.join(tree_root, page)
            for tag, files in versions.items():
                for path in files:
                    out.add(_join_id(folder_id, page), place, tag, path, "tree", vouched=True)

    # -- walking ----------------------------------------------------------

    def directories(self, top: str) -> Iterator[tuple[str, bool]]:
        """*top* and every folder below it, each once, with whether it lies in a language
        folder of a tree per language (whose pages are collected from the tree's root)."""
        visited: set[tuple[int, int]] = set()
        st = os.stat(top)
        stack = [(top, (st.st_dev, st.st_ino), False)]
        # Folders reached through a symbolic link are read last, so that a folder reached both
        # directly and through a link is named by its own path, whatever the link is called.
        linked: list[tuple[str, tuple[int, int], bool]] = []
        while stack or linked:
            directory, key, in_tree = stack.pop() if stack else linked.pop(0)
            if key in visited:
                continue
            visited.add(key)
            yield directory, in_tree
            tree = None if in_tree else self.tree(directory)
            language_dirs = tree.language_dirs if tree is not None else set()
            for _name, path, sub_key in reversed(self.listing(directory).dirs):
                entry = (path, sub_key, in_tree or path in language_dirs)
                (linked if os.path.islink(path) else stack).append(entry)

    def walk(self, top: str, base: str, out: _Collected) -> None:
        """Collect every article below *top* in the default layouts; ids relative to *base*.

        Inside the language folders of a tree only article folders are collected: every other
        document there is a page of the tree."""
        for directory, in_tree in self.directories(top):
            folder_id = self.article_id(directory, base)
            self.folder_versions(directory, folder_id or os.path.basename(directory), out)
            if in_tree:
                continue
            self.suffix_versions(directory, folder_id, out)
            tree = self.tree(directory)
            if tree is not None:
                self.tree_versions(directory, tree, folder_id, out)

    def add_tree_pages(
        self, tree_root: str, prefix: str, out: _Collected, *, exact: bool = False
    ) -> None:
        """Collect the pages of the tree at *tree_root* that are *prefix* or lie below it."""
        tree = self.tree(tree_root)
        if tree is None:
            return
        base = self.base_for(tree_root, tree_root)
        folder_id = self.article_id(tree_root, base)
        wanted = {
            page: versions
            for page, versions in tree.pages.items()
            if page == prefix or not (exact or (prefix and not page.startswith(prefix + "/")))
        }
        self.tree_versions(tree_root, _Tree(wanted, tree.language_dirs), folder_id, out)

    # -- named patterns ---------------------------------------------------

    def pattern_index(self) -> _Collected:
        """Every file below the root that a configured pattern matches, by article."""
        if self._pattern_index is not None:
            return self._pattern_index
        index = _Collected()
        if self.patterns and os.path.isdir(self.root):
            for directory, _ in self.directories(self.root):
                for _name, path in self.listing(directory).files:
                    relative = _rel_id(path, self.root).rpartition(".")[0]
                    for layout in self.patterns:
                        matched = layout.match(relative)
                        if matched is None:
                            continue
                        page, lang_text = matched
                        lang = self.source if lang_text is None else canonical_tag(lang_text)
                        if lang is None:
                            continue
                        place = os.path.join(self.root, page)
                        index.add(page, place, lang, path, layout.name, vouched=True)
                        break
        self._pattern_index = index
        return index

    def pattern_sets_touching(self, path: str, out: _Collected) -> None:
        """The pattern articles that have a file at or below *path*."""
        index = self.pattern_index()
        for article_id, by_lang in index.files.items():
            if any(_is_under(f, path) for files in by_lang.values() for f in files):
                out.take(index, article_id)

    # -- one argument ------------------------------------------------------

    def from_directory(self, directory: str, out: _Collected) -> None:
        self.pattern_sets_touching(directory, out)
        if not self.defaults:
            return
        enclosing = self.enclosing_language_dir(directory)
        if enclosing is not None:
            lang_dir, tree_root = enclosing
            prefix = "" if directory == lang_dir else _rel_id(directory, lang_dir)
            self.add_tree_pages(tree_root, prefix, out)
            return
        self.walk(directory, self.base_for(directory, directory), out)

    def from_file(self, path: str, out: _Collected) -> None:
        """The article set *path* belongs to (*path* need not exist: a deleted version)."""
        shown = self.show(path)
        name = os.path.basename(path)
        parts = _split_ext(name)
        if parts is None:
            raise InputError(
                "not an article version: the extension is not one of "
                + ", ".join(f".{ext}" for ext in EXTENSIONS),
                shown,
            )
        self.pattern_sets_touching(path, out)
        folder = os.path.dirname(path)
        if out.files or not self.defaults:
            if not out.files:
                raise InputError("matches none of the configured layouts", shown)
            return
        enclosing = self.enclosing_language_dir(folder, for_file=True)
        if enclosing is not None:
            lang_dir, tree_root = enclosing
            page = _rel_id(os.path.join(folder, parts[0]), lang_dir)
            self.add_tree_pages(tree_root, page, out, exact=True)
            if out.files:
                return
        if self.version_tag(name) and "folder" in self.defaults:
            base = self.base_for(folder, os.path.dirname(folder))
            article_id = self.article_id(folder, base) or os.path.basename(folder)
            self.folder_versions(folder, article_id, out)
            if out.files:
                return
        suffix = self.suffix_parts(name)
        stem = suffix[0] if suffix else parts[0]
        base = self.base_for(folder, folder)
        self.suffix_versions(folder, self.article_id(folder, base), out, stem_wanted=stem)
        if out.files:
            return
        raise InputError(
            "fits no article layout: a version is named '<lang>.<ext>' inside the article's "
            "folder, '<article>.<lang>.<ext>', or lies in a '<lang>/' folder beside other "
            f"language folders; {self.why_not_a_version(folder, parts[0])}"
            + self.outside_project_hint(folder),
            shown,
        )

    def why_not_a_version(self, folder: str, stem: str) -> str:
        """The reason a file named *stem* in *folder* is no version, for the error message."""
        if canonical_tag(stem) is None:
            return f"'{stem}' is not a language tag"
        if self.tag(stem) is None:
            return (
                f"'{stem}' is not the tag of a language CLDR knows, and the configuration's "
                "'languages:' does not name it"
            )
        return (
            f"'{stem}' is a language tag, but its folder holds more other documents than "
            "language versions, so it is no article folder"
        )

    def outside_project_hint(self, folder: str) -> str:
        """Why a tree per language may have gone unseen: nothing above *folder* may be read."""
        if self.bound_for(folder) != folder:
            return ""
        names = folder.replace(os.sep, "/").split("/")
        if any(self.tag(name) for name in names):
            return (
                " (it lies outside the working directory and any project — no .git or "
                "configuration above it — so the folders above it are not read: pass the "
                "folder holding the language folders)"
            )
        return ""


def _pseudo_devices() -> frozenset[int]:
    """The devices of the pseudo-filesystems mounted at ``/proc``, ``/sys`` and ``/dev`` (one
    that is no mount of its own, on the root's device, is left out: its path still tells)."""
    try:
        root = os.stat(os.sep).st_dev
    except OSError:
        return frozenset()
    found = set()
    for top in PSEUDO_FILESYSTEMS:
        try:
            device = os.stat(top).st_dev
        except OSError:
            continue
        if device != root:
            found.add(device)
    return frozenset(found)


def _not_a_file(path: str) -> str:
    """Why *path*, which exists but is neither a regular file nor a folder, is not read."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "not a regular file or directory (broken link?)"
    return f"not a regular file or directory: {special_kind(mode)}; not read"


def _boundary(work: _Discovery, targets: Iterable[str]) -> Boundary:
    """The run's boundary: each target's folder (a file's own folder) and its project root
    (:meth:`_Discovery.bound_for`), and the configured root with its project root."""
    folders = []
    for absolute in [*targets, work.root]:
        folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        folders += [folder, work.bound_for(folder)]
    return Boundary.of(folders)


def _choose(paths: Iterable[str]) -> tuple[str, list[str]]:
    """The preferred file for one language (md > mdx > markdown > html > htm > txt, then by
    path)."""
    ranked = sorted(set(paths), key=lambda p: (_EXT_RANK[p.rpartition(".")[2].lower()], p))
    return ranked[0], ranked[1:]


def _corroborated(found: _Collected, languages: Collection[str]) -> set[str]:
    """The ids of the articles the layout corroborates (see the module documentation)."""
    known = set(languages)
    for by_lang in found.files.values():
        if len(by_lang) > 1:
            known.update(by_lang)
    return {
        article_id
        for article_id, by_lang in found.files.items()
        if len(by_lang) > 1 or article_id in found.vouched or set(by_lang) & known
    }


def discover(
    paths: Sequence[str],
    *,
    root: str = "articles",
    cwd: str | None = None,
    skipped: list[str] | None = None,
    project_root: str | None = None,
    languages: Collection[str] = (),
    source: str | None = None,
    layouts: Sequence[str | PatternLayout] = DEFAULT_LAYOUTS,
    deleted: Sequence[str] = (),
    exclude: Globs | None = None,
) -> list[ArticleSet]:
    """Find the article sets named by *paths* (or below *root* when there are none).

    Each path may be a root, an article folder, a folder inside a tree per language, or a single
    file (which stands for its whole article set).  *deleted* names files that no longer exist
    (a commit removes them): the remaining versions of their sets are found as for a file.
    The result is sorted by id; an article named by several paths appears once.

    *project_root* (the configuration's folder) bounds how far up discovery may read; without
    it, each path's nearest folder holding ``.git`` or a configuration file does, else the
    working directory (see the module documentation).
    *languages* are the configured languages, *source* the source language that an untagged
    source file (``README.md`` beside ``README.ja.md``) holds, *layouts* the layouts in use.
    Files and folders *exclude* matches (the configuration's ``exclude:``) are passed over
    as if they were not there; a path given that it matches is an error (a note in
    *skipped*, when given).

    Raises :class:`InputError` for a missing path, a path with no article, a file that fits no
    layout, or two different articles given the same id.  With a *skipped* list (what a
    pre-commit hook wants, since it passes every changed Markdown file, README.md included), a
    file argument that is no article version is appended to it, with the reason, instead of
    stopping the run.
    """
    cwd = os.path.abspath(cwd if cwd is not None else os.getcwd())
    work = _Discovery(
        root,
        cwd,
        project_root=project_root,
        languages=languages,
        source=source or "en",
        layouts=layouts,
        exclude=exclude,
    )
    targets = [(t, False) for t in (list(paths) if paths or deleted else [root])]
    targets += [(t, True) for t in deleted]
    work.boundary = _boundary(
        work, [os.path.normpath(os.path.join(work.cwd, t)) for t, _ in targets]
    )
    found = _Collected()
    from_files: set[str] = set()
    for target, is_deleted in targets:
        absolute = os.path.normpath(os.path.join(work.cwd, target))
        out = _Collected()
        if exclude and exclude.matches(absolute):
            if skipped is None and not is_deleted:
                raise InputError("is excluded by the configuration's 'exclude:' patterns", target)
            if skipped is not None and not is_deleted:
                skipped.append(f"{target}: excluded by the configuration's 'exclude:' patterns")
            continue
        if not is_deleted and is_pseudo_filesystem(os.path.realpath(absolute)):
            raise InputError("lies on a pseudo-filesystem (/proc, /sys, /dev); not read", target)
        if is_deleted or os.path.isfile(absolute):
            try:
                work.from_file(absolute, out)
            except InputError as error:
                if skipped is None and not is_deleted:
                    raise
                if skipped is not None and not is_deleted:
                    skipped.append(error.describe())
                continue
            from_files.update(out.files)
        elif os.path.isdir(absolute):
            work.from_directory(absolute, out)
        elif os.path.lexists(absolute):
            raise InputError(_not_a_file(absolute), target)
        else:
            raise InputError("no such file or directory", target)
        if not out.files and not is_deleted:
            raise InputError(f"no articles found in {target}" + work.outside_project_hint(absolute))
        for article_id, place in out.places.items():
            earlier = found.places.get(article_id)
            if earlier is not None and earlier != place:
                raise InputError(
                    f"two different articles would both be called '{article_id}' "
                    f"({work.show(earlier)} and {work.show(place)}); check them in separate runs",
                    target,
                )
        for article_id in out.files:
            found.take(out, article_id)
    kept = _corroborated(found, languages)
    for article_id in sorted(set(found.files) - kept):
        if article_id in from_files and skipped is not None:
            (lang,) = found.files[article_id]
            skipped.append(
                f"{work.show(found.files[article_id][lang][0])}: the only version of its "
                f"article, and '{lang}' is not among the configured languages"
            )
    if work.trees_of_files and work.boundary is not None:
        work.boundary = Boundary.of([*work.boundary.roots, *work.trees_of_files])
    result = []
    for article_id in sorted(kept):
        versions = {}
        ignored: list[str] = []
        for lang in sorted(found.files[article_id]):
            chosen, others = _choose(found.files[article_id][lang])
            versions[lang] = work.show(chosen)
            ignored.extend(work.show(p) for p in others)
        result.append(
            ArticleSet(
                id=article_id,
                versions=versions,
                ignored=tuple(sorted(ignored)),
                layout="+".join(sorted(found.layouts[article_id])),
                boundary=work.boundary,
            )
        )
    if not result and skipped is None and not deleted:
        shown = ", ".join(paths) if paths else root
        raise InputError(
            f"no articles found in {shown}: every document found is the only version of its "
            "article (a layout is corroborated by a second language version, or by the "
            "configuration's 'languages:')"
        )
    return result


def could_be_version(
    path: str, article_sets: Sequence[ArticleSet], languages: Collection[str] = ()
) -> str | None:
    """The folder of a found version in which a new file *path* could be taken for a version
    of an article on a later run, or ``None``.

    That is a document (a reader's extension) in the folder of a version of *article_sets*
    whose name is a language tag (``de.md``) or ends
    in one (``report.de.md``) — or, for a set found in a tree per language or by a configured
    pattern, where every page counts, any document in or below its version's folder.  What a
    command that writes a file asks before writing it among the inputs (see
    :mod:`parallelcheck.cli`)."""
    parts = _split_ext(os.path.basename(path))
    if parts is None:
        return None
    stem = parts[0]
    tagged = bool(
        language_of_name(stem, languages)
        or ("." in stem and language_of_name(stem.rpartition(".")[2], languages))
    )
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    for article_set in article_sets:
        every_page = any(x not in ("folder", "suffix") for x in article_set.layout.split("+"))
        for version in article_set.versions.values():
            home = os.path.dirname(os.path.realpath(version))
            if folder == home and (tagged or every_page):
                return home
            if every_page and _is_under(folder, home):
                return home
    return None


def shard_of(article_sets: Sequence[ArticleSet], k: int, n: int) -> list[ArticleSet]:
    """The K-th (1-based) of N shares of the article sets, for a CI matrix of N machines.

    An article belongs to share ``1 + sha256(id) mod N``: the split depends only on the ids,
    never on the machine, the order of discovery or the other articles, so the shares of one
    site are disjoint, cover it, and each article lands in the same share on every run.
    """
    return [
        a
        for a in article_sets
        if int.from_bytes(hashlib.sha256(a.id.encode("utf-8")).digest()[:8], "big") % n == k - 1
    ]
