"""An article's history, read from git, for the ``stale-translation`` rule.

:func:`source_changes` answers, for every translation of one article: which commits changed the
*content* of the source version after the translation was last committed, and which sections
they touched.  The engine calls it only when that rule runs, and puts the answer on the
:class:`~parallelcheck.align.AlignedArticle`; rules never run git themselves.

How it is worked out, with few git calls per article (two when every version is in step):

1. The git work tree holding the source file: the nearest folder above it with a ``.git`` entry
   (no program is run for files outside any), confirmed once per work tree with
   ``git rev-parse --show-toplevel``.
2. ``git status`` on the article's files.  A translation with uncommitted changes (or not yet
   committed at all) is being worked on: it counts as up to date and is left out.
3. One ``git log`` over all the article's files, read only until each file's newest commit is
   seen: a version's *last commit* is the newest commit reachable from ``HEAD`` that touched
   its file (git's default history simplification; renames are not followed).
4. For each translation whose last commit ``T`` is not also the source's last commit:
   ``git log HEAD ^T -- source`` — the source's commits not reachable from ``T``, which is
   right for merged branches too (a source change made on another branch than the
   translation's update counts, whatever the dates say).  At most :data:`MAX_COMMITS` per
   translation are examined.
5. One ``git cat-file --batch`` for the source's text before and after each such commit.  Both
   are parsed with the project's reader and compared section by section after normalising
   formatting (see :func:`outline`); a commit whose normalised text equals its parent's is not
   counted.  A merge counts only when its text differs from every parent's, and only for the
   sections that differ from every parent.  A commit that creates the source by renaming
   another file is compared with that file (one ``git diff-tree``).
6. Uncommitted changes to the source count as one more change when its normalised work-tree
   text differs from ``HEAD``'s.

Nothing here raises for git's sake: no git, no work tree, an untracked source, a repository
without commits, a failing or slow (:data:`TIMEOUT`) git — each gives ``None`` or leaves the
translation out.
"""

from __future__ import annotations

import codecs
import difflib
import functools
import os
import subprocess
import threading
from collections.abc import Hashable, Iterable, Mapping

from parallelcheck.document import Block, BlockKind, Document
from parallelcheck.errors import InputError
from parallelcheck.readers import kind_for_path, parse_text, read_document
from parallelcheck.readers.decode import decode_bytes
from parallelcheck.revisions import (
    FRONT_MATTER,
    PREAMBLE,
    REMOVED,
    UNTITLED,
    SourceChanges,
    VersionHistory,
)

#: Seconds any one git call may take before it is abandoned.
TIMEOUT = 20.0
#: Source commits examined per translation (the newest ones).
MAX_COMMITS = 100

_CONFIG = (
    "-c",
    "core.quotepath=off",
    "-c",
    "log.showSignature=false",
    "-c",
    "color.ui=false",
    "-c",
    "core.fsmonitor=false",  # never run a program the checked repository names
)

Outline = list[tuple[Hashable, str]]


# ---------------------------------------------------------------------------
# Running git


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        LC_ALL="C",
        GIT_OPTIONAL_LOCKS="0",  # status must not write the index behind the user's back
        GIT_TERMINAL_PROMPT="0",
        GIT_LITERAL_PATHSPECS="1",
    )
    return env


def _git(top: str, *args: str, stdin: bytes | None = None) -> bytes | None:
    """Run git in ``top``; its standard output, or ``None`` on any failure."""
    try:
        result = subprocess.run(
            ["git", "-C", top, *_CONFIG, *args],
            input=stdin,
            capture_output=True,
            timeout=TIMEOUT,
            env=_env(),
            check=False,
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return result.stdout if result.returncode == 0 else None


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _unquote(path: str) -> str:
    """A path as git prints it (C-quoted when it holds special characters) → the path."""
    if len(path) >= 2 and path[0] == '"' and path[-1] == '"':
        raw = codecs.escape_decode(path[1:-1].encode("utf-8", "surrogateescape"))[0]
        return _text(raw)
    return path


# ---------------------------------------------------------------------------
# The work tree


@functools.cache
def _has_git_marker(directory: str) -> str | None:
    """The nearest folder at or above ``directory`` holding a ``.git`` entry."""
    if os.path.lexists(os.path.join(directory, ".git")):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _has_git_marker(parent)


@functools.cache
def _toplevel(directory: str) -> str | None:
    out = _git(directory, "rev-parse", "--show-toplevel")
    top = _text(out).strip() if out else ""
    return os.path.realpath(top) if top else None


def work_tree(path: str) -> str | None:
    """The top folder of the git work tree holding the file ``path``, or ``None``.

    Cached per folder: one ``git rev-parse`` per work tree and run, none outside git (unless
    ``GIT_DIR`` or ``GIT_WORK_TREE`` is set, which may put any folder in a work tree)."""
    directory = os.path.dirname(os.path.realpath(path))
    marker = _has_git_marker(directory)
    if marker is None:
        if "GIT_DIR" not in os.environ and "GIT_WORK_TREE" not in os.environ:
            return None
        marker = directory
    return _toplevel(marker)


def staged_deletions(directory: str) -> list[str]:
    """The files the commit being prepared in *directory*'s work tree deletes, as absolute
    paths (git's staged deletions, ``git diff --cached --diff-filter=D``); none outside git."""
    top = _toplevel(os.path.abspath(directory))
    if top is None:
        return []
    out = _git(top, "diff", "--cached", "--name-only", "--no-renames", "--diff-filter=D", "-z")
    if not out:
        return []
    return sorted(os.path.join(top, _text(name)) for name in out.split(b"\0") if name)


@functools.lru_cache(maxsize=64)
def head_commit(top: str) -> str | None:
    """The commit HEAD of a work tree names (cached per run), or ``None``."""
    out = _git(top, "rev-parse", "HEAD")
    return _text(out).strip() or None if out else None


def clear_cache() -> None:
    """Forget the work trees found so far (for a long-lived process whose folders change)."""
    _has_git_marker.cache_clear()
    _toplevel.cache_clear()
    head_commit.cache_clear()


def _relative(top: str, path: str) -> str | None:
    try:
        rel = os.path.relpath(os.path.realpath(path), top)
    except ValueError:  # another drive
        return None
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    rel = rel.replace(os.sep, "/")
    return None if "\n" in rel else rel


# ---------------------------------------------------------------------------
# What git says


def _dirty(top: str, paths: Iterable[str]) -> dict[str, str] | None:
    """Path → two-letter status for every path with uncommitted changes or untracked."""
    out = _git(
        top,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--",
        *paths,
    )
    if out is None:
        return None
    found = {}
    for entry in out.split(b"\0"):
        if len(entry) > 3:
            found[_text(entry[3:])] = _text(entry[:2])
    return found


def _last_commits(top: str, paths: set[str]) -> dict[str, VersionHistory] | None:
    """Each path's newest commit reachable from HEAD, read from one ``git log`` that is
    stopped as soon as every path has been seen."""
    command = [
        "git",
        "-C",
        top,
        *_CONFIG,
        "log",
        "--no-color",
        "-c",
        "--name-status",
        "--no-renames",
        "--format=%x1e%H %as",
        "HEAD",
        "--",
        *sorted(paths),
    ]
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_env(),
        )
    except (OSError, ValueError):
        return None
    timer = threading.Timer(TIMEOUT, process.kill)
    timer.start()
    found: dict[str, VersionHistory] = {}
    complete = False
    try:
        current = None
        assert process.stdout is not None
        for raw in process.stdout:
            line = _text(raw.rstrip(b"\n"))
            if line.startswith("\x1e"):
                sha, _, date = line[1:].partition(" ")
                current = VersionHistory(sha, date)
            elif "\t" in line and current is not None:
                path = _unquote(line.rsplit("\t", 1)[1])
                if path in paths and path not in found:
                    found[path] = current
                    if len(found) == len(paths):
                        complete = True
                        break
    finally:
        timer.cancel()
        if process.stdout is not None:
            process.stdout.close()
        if complete:
            process.kill()
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if not complete and process.returncode != 0:
        return None
    return found


def _commits_since(top: str, source: str, since: str) -> tuple[list[tuple[str, ...]], bool]:
    """The source's commits not reachable from ``since``, newest first, each as (commit,
    *parents); and whether there were more than :data:`MAX_COMMITS`."""
    out = _git(
        top,
        "log",
        f"--max-count={MAX_COMMITS + 1}",
        "--format=%H %P",
        "HEAD",
        f"^{since}",
        "--",
        source,
    )
    commits = [tuple(line.split()) for line in _text(out or b"").splitlines() if line.strip()]
    return commits[:MAX_COMMITS], len(commits) > MAX_COMMITS


def _cat_files(top: str, names: Iterable[str]) -> dict[str, tuple[str, bytes] | None]:
    """``rev:path`` → (blob id, content), or ``None`` where there is no such blob."""
    names = list(dict.fromkeys(names))
    if not names:
        return {}
    out = _git(top, "cat-file", "--batch", stdin="".join(f"{n}\n" for n in names).encode())
    found: dict[str, tuple[str, bytes] | None] = dict.fromkeys(names)
    if out is None:
        return found
    position = 0
    for name in names:
        end = out.find(b"\n", position)
        if end < 0:
            break
        header = out[position:end].split()
        position = end + 1
        if len(header) == 3 and header[1] in (b"blob", b"tree", b"commit", b"tag"):
            size = int(header[2])
            if header[1] == b"blob":
                found[name] = (_text(header[0]), out[position : position + size])
            position += size + 1
    return found


def _renamed_from(top: str, commit: str, path: str) -> str | None:
    """The file ``commit`` renamed to ``path``, if it did."""
    out = _git(top, "diff-tree", "-r", "-M", "--name-status", "-z", "--no-commit-id", commit)
    fields = [_text(f) for f in (out or b"").split(b"\0")]
    index = 0
    while index + 1 < len(fields):
        status = fields[index]
        if status[:1] in ("R", "C") and index + 2 < len(fields):
            if status[0] == "R" and fields[index + 2] == path:
                return fields[index + 1]
            index += 3
        else:
            index += 2
    return None


# ---------------------------------------------------------------------------
# Content versus formatting


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _block_key(block: Block) -> Hashable:
    if block.kind is BlockKind.CODE:
        text = "\n".join(line.rstrip() for line in block.text.strip("\n").split("\n"))
    else:
        text = _collapse(block.text)
    return (
        block.kind.value,
        text,
        _collapse(block.info),
        tuple((link.target, link.text if link.is_image else "") for link in block.links),
        tuple(tuple(_collapse(cell) for cell in row) for row in block.rows),
        tuple(_block_key(child) for child in block.children),
    )


def outline(document: Document) -> Outline:
    """A document reduced to what a translation must follow: per section, (normalised content,
    display title).

    Content is the heading's level, text and explicit id, and each block's kind, text with
    whitespace collapsed (code keeps its lines, without trailing spaces), link and image
    targets, image alt text and table cells; the front matter counts as one more section.
    Markup that does not change these — list markers, emphasis markers, re-wrapped lines,
    blank lines, trailing spaces, ATX versus setext headings, table padding — is formatting.
    """
    items: Outline = []
    if document.front_matter is not None and document.front_matter.strip():
        items.append((("front matter", _collapse(document.front_matter)), FRONT_MATTER))
    for section in document.sections:
        title = _collapse(section.title)
        if section.level == 0:
            if not section.blocks:
                continue
            name = PREAMBLE
        else:
            name = title or UNTITLED
        blocks = tuple(_block_key(block) for block in section.blocks)
        items.append(((section.level, title, section.anchor, blocks), name))
    return items


def changed_sections(old: Outline, new: Outline) -> tuple[str, ...]:
    """The sections whose content differs between two outlines, by their titles in ``new``
    (sections only ``old`` has are named with `` (removed)``); empty when the content is the
    same."""
    matcher = difflib.SequenceMatcher(
        None, [key for key, _ in old], [key for key, _ in new], autojunk=False
    )
    titles_now = {name for _, name in new}
    changed: list[str] = []
    removed: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.extend(name for _, name in new[j1:j2])
        if tag == "delete":
            removed.extend(name for _, name in old[i1:i2])
        elif tag == "replace" and i2 - i1 > j2 - j1:
            removed.extend(name for _, name in old[i1:i2] if name not in titles_now)
    return tuple(dict.fromkeys([*changed, *(name + REMOVED for name in removed)]))


class _Outlines:
    """Parsed outlines of the source's blobs, each blob parsed once."""

    def __init__(self, path: str, lang: str, kind: str):
        self.path, self.lang, self.kind = path, lang, kind
        self.cache: dict[str, Outline] = {}

    def of(self, blob: tuple[str, bytes] | None) -> Outline:
        if blob is None:
            return []
        oid, data = blob
        if oid not in self.cache:
            try:
                text = decode_bytes(data, self.path)
            except InputError:
                text = data.decode("utf-8", "replace")
            try:
                self.cache[oid] = outline(parse_text(text, self.path, self.lang, self.kind))
            except InputError:
                self.cache[oid] = [(("raw", _collapse(text)), PREAMBLE)]
        return self.cache[oid]


def _classify(
    commit: tuple[str, ...],
    blobs: Mapping[str, tuple[str, bytes] | None],
    olds: Mapping[str, str],
    source: str,
    outlines: _Outlines,
) -> tuple[str, ...] | None:
    """The sections a source commit changes, or ``None`` when it changes no content."""
    sha, *parents = commit
    after = blobs.get(f"{sha}:{source}")
    new = outlines.of(after)
    if not parents:
        return changed_sections([], new) or None
    per_parent = []
    for parent in parents:
        before = blobs.get(f"{parent}:{olds.get(parent, source)}")
        if before is not None and after is not None and before[0] == after[0]:
            return None
        titles = changed_sections(outlines.of(before), new)
        if not titles:
            return None  # the same content as one parent: nothing new
        per_parent.append(titles)
    first, *others = per_parent
    common = tuple(t for t in first if all(t in o for o in others))
    return common or None


# ---------------------------------------------------------------------------
# The answer


def source_changes(
    paths: Mapping[str, str], source: str, current: Document | None = None
) -> dict[str, SourceChanges] | None:
    """For each translation in ``paths`` (language → file), what changed in the ``source``
    version's content since the translation's last commit.

    ``current`` is the source as read from the work tree, if the caller has it.  Returns
    ``None`` when there is nothing to say (no git, no work tree, the source not committed);
    a translation with uncommitted changes, or with no commit, is left out of the result.
    """
    if source not in paths or len(paths) < 2:
        return None
    try:
        kind = kind_for_path(paths[source])
    except InputError:
        return None
    top = work_tree(paths[source])
    if top is None:
        return None
    rels = {lang: _relative(top, path) for lang, path in paths.items()}
    src = rels.get(source)
    if src is None:
        return None
    dirty = _dirty(top, sorted(rel for rel in rels.values() if rel is not None))
    if dirty is None or dirty.get(src) == "??":
        return None
    translations = {
        lang: rel
        for lang, rel in rels.items()
        if lang != source and rel is not None and rel not in dirty
    }
    last = _last_commits(top, {src, *translations.values()})
    if last is None or src not in last:
        return None
    translations = {lang: rel for lang, rel in translations.items() if rel in last}

    since: dict[str, tuple[list[tuple[str, ...]], bool]] = {}
    for rel in translations.values():
        commit = last[rel].last_commit
        if commit != last[src].last_commit and commit not in since:
            since[commit] = _commits_since(top, src, commit)
    commits = {c[0]: c for found, _ in since.values() for c in found}

    names = [f"{sha}:{src}" for sha in commits]
    names += [f"{parent}:{src}" for c in commits.values() for parent in c[1:]]
    if src in dirty:
        names.append(f"HEAD:{src}")
    blobs = _cat_files(top, names)
    olds: dict[str, dict[str, str]] = {}
    for sha, *parents in commits.values():
        if len(parents) == 1 and blobs.get(f"{parents[0]}:{src}") is None:
            old = _renamed_from(top, sha, src)
            if old is not None:
                olds[sha] = {parents[0]: old}
    if olds:
        renamed = [f"{p}:{old}" for pairs in olds.values() for p, old in pairs.items()]
        blobs.update(_cat_files(top, renamed))

    outlines = _Outlines(paths[source], source, kind)
    content = {
        sha: _classify(commit, blobs, olds.get(sha, {}), src, outlines)
        for sha, commit in commits.items()
    }
    uncommitted: tuple[str, ...] = ()
    head = blobs.get(f"HEAD:{src}")
    if src in dirty and head is not None:
        try:
            now = current if current is not None else read_document(paths[source], source)
        except InputError:
            now = None
        if now is not None:
            uncommitted = changed_sections(outlines.of(head), outline(now))

    result = {}
    for lang, rel in sorted(translations.items()):
        found, more = since.get(last[rel].last_commit, ([], False))
        shas = tuple(c[0] for c in found if content.get(c[0]) is not None)
        titles = [t for sha in shas for t in content[sha] or ()]
        titles.extend(uncommitted)
        result[lang] = SourceChanges(
            translation=last[rel],
            shas=shas,
            uncommitted=bool(uncommitted),
            sections=tuple(dict.fromkeys(titles)),
            incomplete=more,
        )
    return result
