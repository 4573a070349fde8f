"""An article's history, read from git, for the ``stale-translation`` rule.

:func:`source_changes` answers, for every translation of one article: which commits changed the
*content* of the source version after the translation was last committed, and which sections
they touched — or, when the history cannot tell, why not.  The engine calls it only when that
rule runs, and puts the answer on the :class:`~parallelcheck.model.aligned.AlignedArticle`;
rules never
run git themselves.

How it is worked out, with few git calls per article (two when every version is in step):

1. The git work tree holding the source file: the nearest folder above it with a ``.git`` entry
   (no program is run for files outside any), confirmed once per work tree with
   ``git rev-parse``, which also says whether the clone is shallow.
2. One ``git cat-file --batch-check`` for ``HEAD``, and each version's blob in ``HEAD`` and
   in the index.  A version whose index entry differs from ``HEAD``'s, or whose work-tree
   bytes differ from its index blob (see :func:`_uncommitted`), has uncommitted changes; a
   version in neither is untracked.  A translation with uncommitted changes (or not yet
   committed at all) is being worked on: it counts as up to date and is left out.
3. One ``git log`` over all the article's files, read only until each file's newest commit is
   seen: a version's *last commit* is the newest commit reachable from ``HEAD`` that touched
   its file (git's default history simplification; renames are not followed).
4. In a shallow clone, a translation is judged only when the history needed is all there: its
   last commit is not a commit at the clone's boundary (whose parents are cut off, so the file
   may have changed earlier) and every boundary commit reachable from ``HEAD`` is in the
   history of that last commit (``git rev-list HEAD ^T``), so no cut-off commit can be one
   the translation lacks.  Otherwise the translation's staleness is *unknown* (see
   :class:`~parallelcheck.model.changes.SourceChanges`), never a count.
5. For each translation whose last commit ``T`` is not also the source's last commit:
   ``git rev-list HEAD ^T -- source`` — the source's commits not reachable from ``T``, which
   is right for merged branches too (a source change made on another branch than the
   translation's update counts, whatever the dates say).  At most :data:`MAX_COMMITS` per
   translation are examined.
6. One ``git cat-file --batch`` for the source's text before and after each such commit.  Both
   are parsed with the project's reader and compared section by section after normalising
   formatting (see :func:`outline`); a commit whose normalised text equals its parent's is not
   counted.  A merge counts only when its text differs from every parent's, and only for the
   sections that differ from every parent.  A commit that creates the source by renaming
   another file is compared with that file (one ``git diff-tree``).
7. Uncommitted changes to the source count as one more change when its normalised work-tree
   text differs from ``HEAD``'s.

**The checked repository is untrusted input.**  Its ``.git/config``, ``.gitattributes`` and
hooks are written by whoever made the repository (a clone, an unpacked archive), and git runs
programs they name: ``core.fsmonitor``, hooks, pagers, external diff and textconv drivers,
clean filters (``filter.*.clean`` runs whenever git hashes a work-tree file, as ``git status``
does), credential helpers and transports (a partial clone fetches missing objects from a
remote whose URL may be ``ext::COMMAND``).  So every git call here:

* runs with a fixed environment (:func:`_environment`): the caller's ``PATH``, home and
  user-level git configuration, which are the user's own and trusted (they also hold
  ``safe.directory``, which is respected, never overridden), plus the variables that point git
  at a repository on purpose (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE``, which the
  pre-commit hook sets) — and nothing else of the caller's ``GIT_*`` (no ``GIT_SSH``,
  ``GIT_EXTERNAL_DIFF``, ``GIT_PAGER``, ``GIT_TRACE`` …);
* pins with ``-c`` (:data:`_OVERRIDES`, which beat the repository's configuration) everything
  that could start a program from the repository's configuration, and forbids every transport
  (``GIT_ALLOW_PROTOCOL`` empty, ``GIT_NO_LAZY_FETCH``), so nothing is ever fetched;
* uses only commands that read objects, refs and the index — ``rev-parse``, ``cat-file``,
  ``rev-list``, ``log`` and ``diff-tree`` on commits, ``diff-index --cached`` — never one that
  reads work-tree files through git (``status``, ``diff``, ``diff-files``, ``diff-index``
  without ``--cached``, ``add``), which is what runs clean filters and the fsmonitor hook;
  whether a work-tree file differs from git's copy is decided here, by hashing its bytes;
* reads paths as bytes (``-z`` output, :func:`os.fsdecode`/:func:`os.fsencode`), so a file
  name that is not UTF-8 is a file name like any other;
* is bounded in time (:data:`TIMEOUT`; the whole process group is killed), and after one
  timeout no further call is made in that work tree for the rest of the run.

Nothing here raises for git's sake.  No git program, no work tree, an untracked source or a
repository without commits give ``None`` (nothing to say); git failing, timing out or refusing
the repository (``safe.directory``) gives an *unknown* entry per translation that says why.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import hashlib
import os
import signal
import subprocess
import tempfile
import threading
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from parallelcheck.errors import InputError
from parallelcheck.model.changes import (
    FRONT_MATTER,
    PREAMBLE,
    REMOVED,
    UNTITLED,
    SourceChanges,
    VersionHistory,
)
from parallelcheck.model.document import Block, BlockKind, Document
from parallelcheck.readers import kind_for_path, parse_text, read_document
from parallelcheck.readers.decode import decode_bytes

#: Seconds any one git call may take before it (and every process it started) is killed.
TIMEOUT = 20.0
#: Source commits examined per translation (the newest ones).
MAX_COMMITS = 100

#: Configuration given on git's command line, which beats the repository's own.  The first
#: group stops git from starting any program the repository names; the second pins what the
#: output parsed here depends on.  Git ignores keys it does not know, so older versions of
#: git are not harmed by the newer keys.
_OVERRIDES = (
    "core.fsmonitor=false",  # the fsmonitor hook is a program (git runs it on reading the index)
    f"core.hooksPath={os.devnull}",  # no hook at all (post-index-change, reference-transaction)
    "core.pager=cat",  # with --no-pager: never a pager, whatever pager.<command> says
    "diff.external=",  # with --no-ext-diff where a command takes it
    "protocol.allow=never",  # no transport; GIT_ALLOW_PROTOCOL also beats protocol.<x>.allow
    "credential.helper=",  # an empty value empties the list of helpers
    "core.askPass=",
    "log.showSignature=false",  # would run gpg.program (or gpg.ssh.program)
    "gc.auto=0",
    "maintenance.auto=false",
    "core.quotepath=off",
    "color.ui=false",
    "log.showRoot=true",  # a root (or shallow boundary) commit lists the files it holds
    "log.follow=false",  # one path given is not followed through renames
    "diff.relative=false",
)

#: The caller's environment variables passed on to git (when set); everything else is dropped.
#: Home and user-level configuration are the user's, trusted (they hold ``safe.directory``,
#: which git only reads from there); GIT_DIR, GIT_WORK_TREE and
#: GIT_INDEX_FILE name a repository on purpose (the pre-commit hook's index, a caller's
#: explicit choice — :func:`work_tree` documents them); the rest is what processes need to
#: start on Windows.
_PASSED_ON = (
    "PATH",
    "HOME",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_EXEC_PATH",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "SUDO_UID",  # git lets root read the repository of the user who ran sudo
    "SYSTEMROOT",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "USERPROFILE",
    "HOMEDRIVE",
    "HOMEPATH",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
)
#: Passed on made absolute: git runs with ``-C <work tree>``, and these are relative to the
#: caller's working directory.
_REPOSITORY_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")
_FIXED = {
    "LC_ALL": "C",  # messages in English (they are quoted in findings); bytes stay bytes
    "GIT_OPTIONAL_LOCKS": "0",  # never write the index behind the user's back
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_LITERAL_PATHSPECS": "1",  # a file named '*.md' is that file
    "GIT_ALLOW_PROTOCOL": "",  # no transport at all, whatever protocol.<name>.allow says
    "GIT_NO_LAZY_FETCH": "1",  # a partial clone's missing objects are missing, not fetched
}

Outline = list[tuple[Hashable, str]]

SHALLOW = (
    "this shallow clone's history is too short to judge (it is cut off before the commits "
    "that decide it); fetch the whole history with `git fetch --unshallow` (with "
    "actions/checkout: `fetch-depth: 0`)"
)


# ---------------------------------------------------------------------------
# Running git


class _NoGit(Exception):
    """There is no git program to run: staleness is not a question here."""


class _GitFailure(Exception):
    """A git call failed or timed out; ``reason`` says so in a few words."""

    def __init__(self, reason: str, *, timed_out: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.timed_out = timed_out


@dataclass
class _Repository:
    """A work tree found in this run: its top folder and, for a shallow clone, the commits at
    its boundary (``None`` when the clone is shallow but they cannot be read).

    ``gave_up`` is set when a git call in this work tree timed out: no more calls are made in
    it, and every later question gets that answer at once.
    """

    top: str
    shallow: bool = False
    boundary: frozenset[str] | None = frozenset()
    gave_up: str = field(default="", compare=False)


@dataclass(frozen=True)
class _Unavailable:
    """A folder with a ``.git`` entry where git refuses or fails to say what the work tree is."""

    reason: str


def _environment() -> dict[str, str]:
    """The fixed environment every git call gets (see the module's documentation)."""
    env = {name: os.environ[name] for name in _PASSED_ON if name in os.environ}
    for name in _REPOSITORY_VARIABLES:
        value = os.environ.get(name)
        if value:
            env[name] = os.path.abspath(value)
    env.update(_FIXED)
    return env


def _command(args: Sequence[str]) -> list[str]:
    command = ["git", "--no-pager"]
    for setting in _OVERRIDES:
        command += ["-c", setting]
    return [*command, *args]


def _start(where: str, args: Sequence[str], *, stdin: bool, stderr) -> subprocess.Popen:
    """Start git in ``where`` in a process group of its own (killed whole on timeout)."""
    try:
        return subprocess.Popen(
            _command(["-C", where, *args]),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=_environment(),
            start_new_session=True,
        )
    except FileNotFoundError as error:
        raise _NoGit() from error
    except (OSError, ValueError) as error:
        raise _GitFailure(f"git could not be started ({error})") from error


def _kill(process: subprocess.Popen) -> None:
    """Kill git and whatever it started (its process group), or git alone where there are
    no process groups."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            process.kill()


def _said(stderr: bytes) -> str:
    """What git said it failed on: its first ``fatal:`` or ``error:`` line (else its first
    line), printable and short."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    chosen = next(
        (ln for ln in lines if ln.startswith(("fatal:", "error:"))), lines[0] if lines else ""
    )
    chosen = "".join(ch if ch.isprintable() else "?" for ch in chosen)
    return chosen if len(chosen) <= 200 else chosen[:199] + "…"


def _failed(name: str, returncode: int, stderr: bytes) -> _GitFailure:
    said = _said(stderr)
    reason = f"`git {name}` failed (exit status {returncode})" + (f": {said}" if said else "")
    if b"safe.directory" in stderr:
        reason += (
            " (the repository belongs to another user; if you trust it, list it in "
            "safe.directory in your own git configuration)"
        )
    if b"promisor remote" in stderr:
        reason += (
            " (a partial clone lacks old versions of the files, and parallelcheck never "
            "fetches: clone without --filter to check staleness)"
        )
    return _GitFailure(reason)


def _timed_out(name: str) -> _GitFailure:
    return _GitFailure(f"`git {name}` took longer than {TIMEOUT:g} s", timed_out=True)


def _check(repo: _Repository | None) -> None:
    if repo is not None and repo.gave_up:
        raise _GitFailure(repo.gave_up, timed_out=True)


def _noted(repo: _Repository | None, failure: _GitFailure) -> _GitFailure:
    if repo is not None and failure.timed_out:
        repo.gave_up = failure.reason
    return failure


def _git(
    where: str, *args: str, stdin: bytes | None = None, repo: _Repository | None = None
) -> bytes:
    """Run git in ``where``; its standard output.  Raises :class:`_GitFailure` when it exits
    with an error or runs past :data:`TIMEOUT`, ``_NoGit`` when there is no git program."""
    _check(repo)
    process = _start(where, args, stdin=stdin is not None, stderr=subprocess.PIPE)
    try:
        out, err = process.communicate(stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill(process)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError, ValueError):
            process.communicate(timeout=1.0)
        raise _noted(repo, _timed_out(args[0])) from None
    except OSError as error:  # a broken pipe: git stopped reading its input
        _kill(process)
        process.wait()
        raise _GitFailure(f"`git {args[0]}` failed ({error})") from error
    if process.returncode != 0:
        raise _failed(args[0], process.returncode, err)
    return out


def _tokens(
    where: str, *args: str, separator: bytes, repo: _Repository | None = None
) -> Iterator[bytes]:
    """Run git in ``where`` and yield its output split at ``separator``, as it comes.

    The caller may stop early (close the generator): git is then killed, and that is no
    failure.  Raises :class:`_GitFailure` when git fails or runs past :data:`TIMEOUT`."""
    _check(repo)
    with tempfile.TemporaryFile() as errors:
        process = _start(where, args, stdin=False, stderr=errors)
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            _kill(process)

        timer = threading.Timer(TIMEOUT, expire)
        timer.daemon = True
        timer.start()
        finished = False
        try:
            assert process.stdout is not None
            pending = b""
            while chunk := process.stdout.read1(1 << 16):
                pending += chunk
                *complete, pending = pending.split(separator)
                yield from complete
            if pending:
                yield pending
            finished = True
        finally:
            timer.cancel()
            if not finished:
                _kill(process)
            process.stdout.close()
            process.wait()
        if expired.is_set():
            raise _noted(repo, _timed_out(args[0]))
        if process.returncode != 0:
            errors.seek(0)
            raise _failed(args[0], process.returncode, errors.read(1 << 14))


# ---------------------------------------------------------------------------
# The work tree


@functools.cache
def _has_git_marker(directory: str) -> str | None:
    """The nearest folder at or above ``directory`` holding a ``.git`` entry."""
    if os.path.lexists(os.path.join(directory, ".git")):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _has_git_marker(parent)


def _shallow_boundary(path: str) -> frozenset[str] | None:
    """The commits listed in a shallow clone's ``shallow`` file, or ``None`` when unreadable."""
    try:
        with open(path, "rb") as listing:
            data = listing.read(1 << 22)
    except OSError:
        return None
    return frozenset(
        line.strip().decode("ascii", "replace") for line in data.split(b"\n") if line.strip()
    )


@functools.cache
def _lookup(directory: str) -> _Repository | _Unavailable | None:
    """The work tree git finds from ``directory`` (once per folder and run); ``None`` when
    there is none or no git program, :class:`_Unavailable` when git fails to say."""
    try:
        out = _git(
            directory,
            "rev-parse",
            "--show-toplevel",
            "--is-shallow-repository",
            "--git-path",
            "shallow",
        )
    except _NoGit:
        return None
    except _GitFailure as failure:
        if "not a git repository" in failure.reason or "run in a work tree" in failure.reason:
            return None  # a stray .git entry, a bare repository: not in a work tree
        return _Unavailable(failure.reason)
    lines = out.split(b"\n")
    if len(lines) < 3 or not lines[0]:
        return _Unavailable("`git rev-parse` gave an answer that cannot be read")
    top = os.path.realpath(os.fsdecode(lines[0]))
    shallow_file = os.path.join(directory, os.fsdecode(lines[2]))
    if lines[1] in (b"true", b"false"):
        shallow = lines[1] == b"true"
    else:  # a git older than --is-shallow-repository echoes the option
        shallow = os.path.exists(shallow_file)
    if not shallow:
        return _Repository(top)
    return _Repository(top, shallow=True, boundary=_shallow_boundary(shallow_file))


def _found(path: str) -> _Repository | _Unavailable | None:
    directory = os.path.dirname(os.path.realpath(path))
    marker = _has_git_marker(directory)
    if marker is None:
        if "GIT_DIR" not in os.environ and "GIT_WORK_TREE" not in os.environ:
            return None
        marker = directory
    return _lookup(marker)


def work_tree(path: str) -> str | None:
    """The top folder of the git work tree holding the file ``path``, or ``None``.

    Cached per folder: one ``git rev-parse`` per work tree and run, none outside git (unless
    ``GIT_DIR`` or ``GIT_WORK_TREE`` is set, which may put any folder in a work tree)."""
    found = _found(path)
    return found.top if isinstance(found, _Repository) else None


def staged_deletions(directory: str) -> list[str]:
    """The files the commit being prepared in *directory*'s work tree deletes, as absolute
    paths (git's staged deletions, ``git diff-index --cached --diff-filter=D HEAD``, which
    reads the index named by ``GIT_INDEX_FILE`` when the hook runs); none outside git or when
    git fails."""
    found = _lookup(os.path.abspath(directory))
    if not isinstance(found, _Repository):
        return []
    try:
        out = _git(
            found.top,
            "diff-index",
            "--cached",
            "--name-only",
            "--no-renames",
            "--diff-filter=D",
            "-z",
            "HEAD",
            "--",
            repo=found,
        )
    except (_GitFailure, _NoGit):
        return []
    return sorted(os.path.join(found.top, os.fsdecode(name)) for name in out.split(b"\0") if name)


@functools.lru_cache(maxsize=64)
def head_commit(top: str) -> str | None:
    """What the history read in the work tree ``top`` depends on, for cache keys (cached per
    run): the commit HEAD names and, in a shallow clone, the boundary's commits too (fetching
    more history changes what the rule can say); ``None`` when git cannot say."""
    found = _lookup(top)
    if not isinstance(found, _Repository):
        return None
    try:
        head = (
            _git(found.top, "rev-parse", "--verify", "-q", "HEAD", repo=found)
            .decode("ascii", "replace")
            .strip()
        )
    except (_GitFailure, _NoGit):
        return None
    if not head:
        return None
    if found.shallow:
        cut = hashlib.sha256(" ".join(sorted(found.boundary or ("?",))).encode()).hexdigest()[:16]
        return f"{head} shallow:{cut}"
    return head


def clear_cache() -> None:
    """Forget the work trees found so far (for a long-lived process whose folders change)."""
    _has_git_marker.cache_clear()
    _lookup.cache_clear()
    head_commit.cache_clear()


def _relative(top: str, path: str) -> str | None:
    """``path`` relative to ``top`` as git names it (``/``-separated), or ``None`` when it is
    outside, or holds a line break (git's batch input is one name a line)."""
    try:
        rel = os.path.relpath(os.path.realpath(path), top)
    except ValueError:  # another drive
        return None
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    rel = rel.replace(os.sep, "/")
    return None if "\n" in rel or "\r" in rel else rel


# ---------------------------------------------------------------------------
# What git says


@dataclass(frozen=True)
class _Object:
    """An object ``git cat-file`` found: id, type, size."""

    oid: str
    kind: str
    size: int


def _parse_header(line: bytes) -> _Object | None:
    """A ``cat-file`` header (``<id> <type> <size>``), or ``None`` for ``<name> missing`` and
    the like (a name is echoed only then, and never starts with an id and a space)."""
    parts = line.split(b" ")
    if len(parts) != 3 or len(parts[0]) not in (40, 64) or not parts[2].isdigit():
        return None
    try:
        int(parts[0], 16)
    except ValueError:
        return None
    if parts[1] not in (b"blob", b"tree", b"commit", b"tag"):
        return None
    return _Object(parts[0].decode("ascii"), parts[1].decode("ascii"), int(parts[2]))


def _names(names: Iterable[str]) -> bytes:
    return b"".join(os.fsencode(name) + b"\n" for name in names)


def _check_objects(repo: _Repository, names: Sequence[str]) -> dict[str, _Object | None]:
    """``name`` → the object it names (``HEAD``, ``HEAD:path``, ``:0:path`` …), or ``None``."""
    out = _git(repo.top, "cat-file", "--batch-check", stdin=_names(names), repo=repo)
    lines = out.split(b"\n")
    if len(lines) < len(names):
        raise _GitFailure("`git cat-file` gave fewer answers than it was asked for")
    return {
        name: _parse_header(line) for name, line in zip(names, lines[: len(names)], strict=True)
    }


def _cat_files(repo: _Repository, names: Iterable[str]) -> dict[str, tuple[str, bytes] | None]:
    """``rev:path`` → (blob id, content), or ``None`` where there is no such blob."""
    names = list(dict.fromkeys(names))
    if not names:
        return {}
    out = _git(repo.top, "cat-file", "--batch", stdin=_names(names), repo=repo)
    found: dict[str, tuple[str, bytes] | None] = dict.fromkeys(names)
    position = 0
    for name in names:
        end = out.find(b"\n", position)
        if end < 0:
            raise _GitFailure("`git cat-file` gave fewer answers than it was asked for")
        header = _parse_header(out[position:end])
        position = end + 1
        if header is not None:
            if header.kind == "blob":
                found[name] = (header.oid, out[position : position + header.size])
            position += header.size + 1
    return found


def _blob_id(data: bytes, length: int) -> str:
    """The id git gives ``data`` as a blob, in the repository's hash (SHA-1 ids have 40 hex
    digits, SHA-256 ids 64)."""
    algorithm = hashlib.sha256 if length == 64 else hashlib.sha1
    return algorithm(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _same_text(data: bytes, blob: bytes) -> bool:
    """Work-tree bytes and a blob hold the same text, line ends aside (what ``core.autocrlf``
    and ``eol`` attributes change between them)."""
    return data == blob or data.replace(b"\r\n", b"\n") == blob.replace(b"\r\n", b"\n")


def _uncommitted(
    repo: _Repository, files: Mapping[str, str]
) -> tuple[str | None, set[str], set[str]]:
    """For the files ``files`` (path relative to the work tree → path to read): HEAD's commit
    (``None`` before the first commit), the paths that have uncommitted changes, and the
    paths that are untracked (in neither HEAD nor the index).

    Git is asked only for object ids — HEAD's and the index's — never to look at the work
    tree (which would run the repository's clean filters): a work-tree file is unchanged when
    its bytes hash to its index blob's id, or, failing that, hold the same text as that blob
    apart from line ends (one more ``cat-file`` for such files only).  A file stored through a
    filter that changes more than line ends (Git LFS …) therefore counts as changed.
    """
    rels = sorted(files)
    names = ["HEAD", *(f"HEAD:{rel}" for rel in rels), *(f":0:{rel}" for rel in rels)]
    objects = _check_objects(repo, names)
    head = objects["HEAD"]
    changed: set[str] = set()
    untracked: set[str] = set()
    compare: dict[str, bytes] = {}
    for rel in rels:
        committed, staged = objects[f"HEAD:{rel}"], objects[f":0:{rel}"]
        if committed is not None and committed.kind != "blob":
            committed = None
        if staged is None or staged.kind != "blob":
            if committed is None:
                untracked.add(rel)
            else:
                changed.add(rel)  # removed from the index, or in conflict
            continue
        if committed is None or committed.oid != staged.oid:
            changed.add(rel)
            continue
        try:
            with open(files[rel], "rb") as version:
                data = version.read()
        except OSError:
            changed.add(rel)
            continue
        if _blob_id(data, len(staged.oid)) != staged.oid:
            compare[rel] = data
    if compare:
        blobs = _cat_files(repo, [f":0:{rel}" for rel in compare])
        for rel, data in compare.items():
            blob = blobs.get(f":0:{rel}")
            if blob is None or not _same_text(data, blob[1]):
                changed.add(rel)
    return (head.oid if head is not None and head.kind == "commit" else None), changed, untracked


def _last_commits(repo: _Repository, paths: set[str]) -> dict[str, VersionHistory]:
    """Each path's newest commit reachable from HEAD, read from one ``git log`` that is
    stopped as soon as every path has been seen.

    The output is NUL-separated (``-z``): a commit is ``\\x1e<id> <date>``, then status and
    path tokens for the files it touched (``-c``: a merge lists those that differ from every
    parent)."""
    found: dict[str, VersionHistory] = {}
    tokens = _tokens(
        repo.top,
        "log",
        "-z",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "-c",
        "--name-status",
        "--no-renames",
        "--format=%x1e%H %as",
        "HEAD",
        "--",
        *sorted(paths),
        separator=b"\0",
        repo=repo,
    )
    with contextlib.closing(tokens):
        current: VersionHistory | None = None
        path_next = False
        for token in tokens:
            if path_next:
                path_next = False
                path = os.fsdecode(token)
                if current is not None and path in paths and path not in found:
                    found[path] = current
                    if len(found) == len(paths):
                        break
                continue
            token = token.lstrip(b"\n")
            if token.startswith(b"\x1e"):
                sha, _, date = token[1:].decode("ascii", "replace").partition(" ")
                current = VersionHistory(sha, date.strip())
            elif token:
                path_next = True  # a status (M, A, D, T, MM …); its path follows
    return found


def _cut_off(repo: _Repository, commit: str) -> bool:
    """Whether the shallow clone lacks history that judging against ``commit`` needs:
    ``commit`` is at the boundary (the files it lists may have changed earlier), or a boundary
    commit reachable from HEAD is not in ``commit``'s history (what lies behind it could be
    source changes ``commit`` lacks)."""
    if not repo.shallow:
        return False
    if repo.boundary is None or commit in repo.boundary:
        return True
    tokens = _tokens(repo.top, "rev-list", "HEAD", f"^{commit}", separator=b"\n", repo=repo)
    with contextlib.closing(tokens):
        return any(token.strip().decode("ascii", "replace") in repo.boundary for token in tokens)


def _commits_since(
    repo: _Repository, source: str, since: str
) -> tuple[list[tuple[str, ...]], bool]:
    """The source's commits not reachable from ``since``, newest first, each as (commit,
    *parents); and whether there were more than :data:`MAX_COMMITS`."""
    out = _git(
        repo.top,
        "rev-list",
        f"--max-count={MAX_COMMITS + 1}",
        "--parents",
        "HEAD",
        f"^{since}",
        "--",
        source,
        repo=repo,
    )
    lines = out.decode("ascii", "replace").splitlines()
    commits = [tuple(line.split()) for line in lines if line.strip()]
    return commits[:MAX_COMMITS], len(commits) > MAX_COMMITS


def _renamed_from(repo: _Repository, commit: str, path: str) -> str | None:
    """The file ``commit`` renamed to ``path``, if it did."""
    out = _git(
        repo.top,
        "diff-tree",
        "-r",
        "-M",
        "--no-ext-diff",
        "--no-textconv",
        "--name-status",
        "-z",
        "--no-commit-id",
        commit,
        repo=repo,
    )
    fields = [os.fsdecode(f) for f in out.split(b"\0")]
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
    ``None`` when there is nothing to say (no git, no work tree, the source not committed); a
    translation with uncommitted changes, or with no commit, is left out of the result.  A
    translation whose staleness the history cannot tell — git failed or timed out, or a
    shallow clone's history is cut off before what decides it — gets an entry made with
    :meth:`SourceChanges.cannot_tell` saying why.
    """
    if source not in paths or len(paths) < 2:
        return None
    try:
        kind = kind_for_path(paths[source])
    except InputError:
        return None
    found = _found(paths[source])
    if found is None:
        return None
    others = sorted(lang for lang in paths if lang != source)
    if isinstance(found, _Unavailable):
        return {
            lang: SourceChanges.cannot_tell(f"git cannot read the repository: {found.reason}")
            for lang in others
        }
    try:
        return _changes(found, paths, source, current, kind)
    except _NoGit:
        return None
    except _GitFailure as failure:
        return {lang: SourceChanges.cannot_tell(failure.reason) for lang in others}


def _changes(
    repo: _Repository,
    paths: Mapping[str, str],
    source: str,
    current: Document | None,
    kind: str,
) -> dict[str, SourceChanges] | None:
    """:func:`source_changes` in a work tree that was found; raises :class:`_GitFailure`."""
    rels = {lang: _relative(repo.top, path) for lang, path in paths.items()}
    src = rels.get(source)
    if src is None:
        return None
    files = {rel: paths[lang] for lang, rel in rels.items() if rel is not None}
    head, dirty, untracked = _uncommitted(repo, files)
    if head is None or src in untracked:
        return None
    translations = {
        lang: rel
        for lang, rel in rels.items()
        if lang != source and rel is not None and rel not in dirty and rel not in untracked
    }
    last = _last_commits(repo, {src, *translations.values()})
    if src not in last:
        return None  # staged, never committed
    translations = {lang: rel for lang, rel in translations.items() if rel in last}

    unknown: dict[str, SourceChanges] = {}
    if repo.shallow:
        cut = {
            c: _cut_off(repo, c) for c in {last[rel].last_commit for rel in translations.values()}
        }
        for lang, rel in list(translations.items()):
            if cut[last[rel].last_commit]:
                unknown[lang] = SourceChanges.cannot_tell(SHALLOW, shallow=True)
                del translations[lang]

    since: dict[str, tuple[list[tuple[str, ...]], bool]] = {}
    for rel in translations.values():
        commit = last[rel].last_commit
        if commit != last[src].last_commit and commit not in since:
            since[commit] = _commits_since(repo, src, commit)
    commits = {c[0]: c for found, _ in since.values() for c in found}

    names = [f"{sha}:{src}" for sha in commits]
    names += [f"{parent}:{src}" for c in commits.values() for parent in c[1:]]
    if src in dirty:
        names.append(f"HEAD:{src}")
    blobs = _cat_files(repo, names)
    olds: dict[str, dict[str, str]] = {}
    for sha, *parents in commits.values():
        if len(parents) == 1 and blobs.get(f"{parents[0]}:{src}") is None:
            old = _renamed_from(repo, sha, src)
            if old is not None:
                olds[sha] = {parents[0]: old}
    if olds:
        renamed = [f"{p}:{old}" for pairs in olds.values() for p, old in pairs.items()]
        blobs.update(_cat_files(repo, renamed))

    outlines = _Outlines(paths[source], source, kind)
    content = {
        sha: _classify(commit, blobs, olds.get(sha, {}), src, outlines)
        for sha, commit in commits.items()
    }
    uncommitted: tuple[str, ...] = ()
    head_blob = blobs.get(f"HEAD:{src}")
    if src in dirty and head_blob is not None:
        try:
            now = current if current is not None else read_document(paths[source], source)
        except InputError:
            now = None
        if now is not None:
            uncommitted = changed_sections(outlines.of(head_blob), outline(now))

    result = dict(unknown)
    for lang, rel in translations.items():
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
    return dict(sorted(result.items()))
