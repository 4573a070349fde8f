"""Discovery: find the article sets (one article, its language versions) below given paths.

Three layouts are recognised without configuration (CONTRACT §1) and may be mixed in one tree:

1. folder per article, ``<root>/<article>/<lang>.<ext>``: the id is the folder's path relative to
   the root (a folder passed directly that lies outside the root is named by its own name);
2. language suffix, ``<root>/<article>.<lang>.<ext>``: the id is the stem's path;
3. tree per language, ``<root>/<lang>/<path>.<ext>``: the id is ``<path>`` without its extension,
   and the versions are gathered from every language directory beside ``<lang>``.

How a directory is read
    Files whose extension is not one of ``md``, ``markdown``, ``txt``, ``html``, ``htm`` (any
    case) are never versions, nor are names that are not language tags (``README.md``,
    ``index.md``, ``_index.md``, ``LICENSE``): they are passed over silently.  Hidden entries
    (``.git``, ``.venv`` …), ``node_modules`` and ``__pycache__`` are skipped.

    A subdirectory named by a language tag is a *language directory* (layout 3) unless it looks
    like an article folder, that is unless it directly holds ``<lang>.<ext>`` files and no more
    other documents than those (``articles/go/en.md`` is the article ``go``).  Language
    directories only count as a tree per language when at least two of them, side by side, hold
    documents: a lone ``docs/ui/`` is an ordinary folder, not a Ukrainian-less tree.

Ids are always measured from the configured root when the path given lies below it, so a
pre-commit hook passing ``articles/blog/foo/ja.md`` gets the same id (``blog/foo``) as a full
run; this keeps baselines stable.

Symbolic links to files are followed; directories reached twice (through a link cycle or an
alias) are read once.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from parallelcheck.article import ArticleSet
from parallelcheck.errors import InputError
from parallelcheck.langtag import canonical_tag

# Preference when one language has several files in one set: earlier wins.
EXTENSIONS = ("md", "markdown", "html", "htm", "txt")
_EXT_RANK = {ext: rank for rank, ext in enumerate(EXTENSIONS)}
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})
# Outside both the root and the working directory, how many folders up from a file a language
# directory is looked for.
_MAX_TREE_DEPTH = 8


# ---------------------------------------------------------------------------
# Small helpers


def _split_ext(name: str) -> tuple[str, str] | None:
    """``("ja", "md")`` for ``ja.MD``; ``None`` when the extension is not a document's."""
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return None
    ext = ext.lower()
    return (stem, ext) if ext in _EXT_RANK else None


def _version_tag(name: str) -> str | None:
    """The language of a layout-1 file name (``zh-hant.md`` → ``zh-Hant``), else ``None``."""
    parts = _split_ext(name)
    return canonical_tag(parts[0]) if parts else None


def _suffix_parts(name: str) -> tuple[str, str] | None:
    """``("install", "zh-Hant")`` for ``install.zh-hant.md`` (layout 2), else ``None``."""
    parts = _split_ext(name)
    if parts is None:
        return None
    stem, dot, lang = parts[0].rpartition(".")
    if not dot or not stem:
        return None
    tag = canonical_tag(lang)
    return (stem, tag) if tag else None


def _skipped(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS


def _is_under(path: str, parent: str) -> bool:
    """True when *path* is *parent* or lies below it (both absolute and normalised)."""
    return path == parent or path.startswith(parent.rstrip(os.sep) + os.sep)


def _rel_id(path: str, base: str) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


def _join_id(prefix: str, rest: str) -> str:
    return f"{prefix}/{rest}" if prefix else rest


@dataclass
class _Listing:
    """The documents and subdirectories directly inside one directory, sorted by name."""

    files: list[tuple[str, str]] = field(default_factory=list)  # (name, absolute path)
    dirs: list[tuple[str, str, tuple[int, int]]] = field(default_factory=list)  # + (dev, ino)


@dataclass
class _Collected:
    """Files found per article id and language, before one is chosen per language."""

    files: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # Where each article lives (its folder, its stem path, or its page path in the tree), to
    # tell two different articles that happen to get the same id apart.
    places: dict[str, str] = field(default_factory=dict)

    def add(self, article_id: str, place: str, lang: str, path: str) -> None:
        self.files.setdefault(article_id, {}).setdefault(lang, []).append(path)
        self.places.setdefault(article_id, place)


class _Discovery:
    """One call of :func:`discover`: caches directory listings and language-tree indexes."""

    def __init__(self, root: str, cwd: str):
        self.cwd = os.path.abspath(cwd)
        self._cwd_prefix = self.cwd.rstrip(os.sep) + os.sep
        self.root = os.path.normpath(os.path.join(self.cwd, root))
        self._listings: dict[str, _Listing] = {}
        self._trees: dict[str, dict[str, dict[str, list[str]]] | None] = {}

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
                    if _skipped(name):
                        continue
                    try:
                        if entry.is_dir():
                            st = entry.stat()
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

    def show(self, path: str) -> str:
        """*path* as shown to the user: POSIX, relative to the working directory when below it."""
        if path == self.cwd:
            return "."
        if path.startswith(self._cwd_prefix):  # cheaper than os.path.relpath, same result here
            path = path[len(self._cwd_prefix) :]
        return path.replace(os.sep, "/")

    # -- classification ---------------------------------------------------

    def looks_like_article_folder(self, directory: str) -> bool:
        """Does *directory* hold ``<lang>.<ext>`` versions rather than pages of a language tree?"""
        tagged = other = 0
        for name, _ in self.listing(directory).files:
            if _version_tag(name):
                tagged += 1
            elif not name.lower().startswith("readme."):
                other += 1
        return tagged > 0 and tagged >= other

    def candidate_language_dirs(self, directory: str) -> list[tuple[str, str]]:
        """``(tag, path)`` of the subdirectories of *directory* that may be language directories."""
        found = []
        for name, path, _ in self.listing(directory).dirs:
            tag = canonical_tag(name)
            if tag and not self.looks_like_article_folder(path):
                found.append((tag, path))
        return found

    def tree_index(self, tree_root: str) -> dict[str, dict[str, list[str]]] | None:
        """Pages of the tree per language rooted at *tree_root*: page → language → files.

        ``None`` when *tree_root* is not such a tree (fewer than two language directories with
        documents).
        """
        if tree_root in self._trees:
            return self._trees[tree_root]
        index: dict[str, dict[str, list[str]]] = {}
        langs_with_pages = set()
        for tag, lang_dir in self.candidate_language_dirs(tree_root):
            for page, path in self.pages(lang_dir):
                index.setdefault(page, {}).setdefault(tag, []).append(path)
                langs_with_pages.add(tag)
        result = index if len(langs_with_pages) >= 2 else None
        self._trees[tree_root] = result
        return result

    def pages(self, lang_dir: str) -> Iterable[tuple[str, str]]:
        """Every document below *lang_dir* as ``(path without extension, file)``."""
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
            for name, path in listing.files:
                stem = name.rpartition(".")[0]
                yield _join_id(prefix, stem), path
            for name, path, sub_key in reversed(listing.dirs):
                stack.append((path, _join_id(prefix, name), sub_key))

    def enclosing_language_dir(self, directory: str) -> tuple[str, str] | None:
        """The language directory holding *directory* (itself included), with its tree root.

        Only folders below the root (or, outside it, below the working directory; outside
        both, the nearest eight) are considered, nearest first, so that a user's home folder
        named ``ab`` is not mistaken for a language.
        """
        if _is_under(directory, self.root):
            bound: str | None = self.root
        elif _is_under(directory, self.cwd):
            bound = self.cwd
        else:
            bound = None
        current = directory
        for _ in range(_MAX_TREE_DEPTH if bound is None else 10_000):
            parent = os.path.dirname(current)
            if current == bound or parent == current:
                return None
            name = os.path.basename(current)
            if (
                canonical_tag(name)
                and not self.looks_like_article_folder(current)
                and self.tree_index(parent) is not None
            ):
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

    # -- walking ----------------------------------------------------------

    def walk(self, top: str, base: str, out: _Collected) -> None:
        """Collect every article below *top*; ids are relative to *base*."""
        visited: set[tuple[int, int]] = set()
        st = os.stat(top)
        stack = [(top, (st.st_dev, st.st_ino))]
        # Folders reached through a symbolic link are read last, so that a folder reached both
        # directly and through a link is named by its own path, whatever the link is called.
        linked: list[tuple[str, tuple[int, int]]] = []
        while stack or linked:
            directory, key = stack.pop() if stack else linked.pop(0)
            if key in visited:
                continue
            visited.add(key)
            folder_id = self.article_id(directory, base)
            own_id = folder_id or os.path.basename(directory)
            listing = self.listing(directory)
            for name, path in listing.files:
                tag = _version_tag(name)
                if tag:
                    out.add(own_id, directory, tag, path)
                    continue
                suffix = _suffix_parts(name)
                if suffix:
                    place = os.path.join(directory, suffix[0])
                    out.add(_join_id(folder_id, suffix[0]), place, suffix[1], path)
            language_dirs: set[str] = set()
            index = self.tree_index(directory)
            if index is not None:
                language_dirs = {path for _, path in self.candidate_language_dirs(directory)}
                for page, versions in index.items():
                    place = os.path.join(directory, page)
                    for tag, files in versions.items():
                        for path in files:
                            out.add(_join_id(folder_id, page), place, tag, path)
            for _name, path, sub_key in reversed(listing.dirs):
                if path not in language_dirs:
                    (linked if os.path.islink(path) else stack).append((path, sub_key))

    def add_tree_pages(
        self, tree_root: str, prefix: str, out: _Collected, *, exact: bool = False
    ) -> None:
        """Collect the pages of the tree at *tree_root* that are *prefix* or lie below it."""
        index = self.tree_index(tree_root) or {}
        base = self.base_for(tree_root, tree_root)
        folder_id = self.article_id(tree_root, base)
        for page, versions in index.items():
            if page != prefix and (exact or (prefix and not page.startswith(prefix + "/"))):
                continue
            place = os.path.join(tree_root, page)
            for tag, files in versions.items():
                for path in files:
                    out.add(_join_id(folder_id, page), place, tag, path)

    # -- one argument ------------------------------------------------------

    def from_directory(self, directory: str, out: _Collected) -> None:
        enclosing = self.enclosing_language_dir(directory)
        if enclosing is not None:
            lang_dir, tree_root = enclosing
            prefix = "" if directory == lang_dir else _rel_id(directory, lang_dir)
            self.add_tree_pages(tree_root, prefix, out)
            return
        self.walk(directory, self.base_for(directory, directory), out)

    def from_file(self, path: str, out: _Collected) -> None:
        shown = self.show(path)
        name = os.path.basename(path)
        parts = _split_ext(name)
        if parts is None:
            raise InputError(
                "not an article version: the extension is not one of "
                + ", ".join(f".{ext}" for ext in EXTENSIONS),
                shown,
            )
        folder = os.path.dirname(path)
        enclosing = self.enclosing_language_dir(folder)
        if enclosing is not None:
            lang_dir, tree_root = enclosing
            page = _rel_id(os.path.join(folder, parts[0]), lang_dir)
            self.add_tree_pages(tree_root, page, out, exact=True)
            return
        tag = _version_tag(name)
        if tag:
            base = self.base_for(folder, os.path.dirname(folder))
            article_id = self.article_id(folder, base) or os.path.basename(folder)
            for sibling, sibling_path in self.listing(folder).files:
                sibling_tag = _version_tag(sibling)
                if sibling_tag:
                    out.add(article_id, folder, sibling_tag, sibling_path)
            return
        suffix = _suffix_parts(name)
        if suffix:
            stem = suffix[0]
            base = self.base_for(folder, folder)
            article_id = _join_id(self.article_id(folder, base), stem)
            for sibling, sibling_path in self.listing(folder).files:
                sibling_parts = _suffix_parts(sibling)
                if sibling_parts and sibling_parts[0] == stem:
                    out.add(article_id, os.path.join(folder, stem), sibling_parts[1], sibling_path)
            return
        raise InputError(
            "fits no article layout: a version is named '<lang>.<ext>' inside the article's "
            "folder, '<article>.<lang>.<ext>', or lies in a '<lang>/' folder beside other "
            f"language folders; '{parts[0]}' is not a language tag",
            shown,
        )


def _choose(paths: Iterable[str]) -> tuple[str, list[str]]:
    """The preferred file for one language (md > markdown > html > htm > txt, then by path)."""
    ranked = sorted(set(paths), key=lambda p: (_EXT_RANK[p.rpartition(".")[2].lower()], p))
    return ranked[0], ranked[1:]


def discover(
    paths: Sequence[str],
    *,
    root: str = "articles",
    cwd: str | None = None,
    skipped: list[str] | None = None,
) -> list[ArticleSet]:
    """Find the article sets named by *paths* (or below *root* when there are none).

    Each path may be a root, an article folder, a folder inside a tree per language, or a single
    file (which stands for its whole article set).  The result is sorted by id; an article named
    by several paths appears once.  Raises :class:`InputError` for a missing path, a path with
    no article, a file that fits no layout, or two different articles given the same id.

    With a *skipped* list (what a pre-commit hook wants, since it passes every changed Markdown
    file, README.md included), a file argument that is no article version is appended to it,
    with the reason, instead of stopping the run.
    """
    work = _Discovery(root, cwd if cwd is not None else os.getcwd())
    targets = list(paths) if paths else [root]
    found = _Collected()
    for target in targets:
        absolute = os.path.normpath(os.path.join(work.cwd, target))
        out = _Collected()
        if os.path.isdir(absolute):
            work.from_directory(absolute, out)
        elif os.path.isfile(absolute):
            try:
                work.from_file(absolute, out)
            except InputError as error:
                if skipped is None:
                    raise
                skipped.append(error.describe())
                continue
        elif os.path.lexists(absolute):
            raise InputError("not a regular file or directory (broken link?)", target)
        else:
            raise InputError("no such file or directory", target)
        if not out.files:
            raise InputError(f"no articles found in {target}")
        for article_id, by_lang in out.files.items():
            place = out.places[article_id]
            earlier = found.places.get(article_id)
            if earlier is not None and earlier != place:
                raise InputError(
                    f"two different articles would both be called '{article_id}' "
                    f"({work.show(earlier)} and {work.show(place)}); check them in separate runs",
                    target,
                )
            for lang, files in by_lang.items():
                for path in files:
                    found.add(article_id, place, lang, path)
    result = []
    for article_id in sorted(found.files):
        versions = {}
        ignored: list[str] = []
        for lang in sorted(found.files[article_id]):
            chosen, others = _choose(found.files[article_id][lang])
            versions[lang] = work.show(chosen)
            ignored.extend(work.show(p) for p in others)
        result.append(ArticleSet(id=article_id, versions=versions, ignored=tuple(sorted(ignored))))
    return result


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
