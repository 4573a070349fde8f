"""A content-hash cache of checked articles, so that a re-run with nothing changed is cheap.

Keys
    The key of an article is a SHA-256 over everything its result depends on: the tool's
    version, the run's settings (configuration, rules, severities, source and language
    filter), the glossary's content, the article's id and, for every version, its language,
    path and the SHA-256 of its file's bytes, and — when a rule reads git history — the
    repository's HEAD.  Any change to any of them is a different key, so a stale entry is
    never used; old entries are left for ``parallelcheck cache clear`` to remove
    (``--older-than DAYS`` keeps those used more recently: a hit marks its entry as used).
    ``parallelcheck cache info`` tells where the entries are and how much room they take.

    The key an entry is *stored* under is made from the bytes its result was computed from
    (:mod:`parallelcheck.readers.content` records the digest of the bytes each checked document was
    parsed from), not from a second read of the files: a file edited while the run checks it
    leaves an entry under the new bytes' key, never the old bytes' key holding the new
    findings.  A version whose file could not be read when it was checked is no key at all.

Entries
    An entry is plain data: one JSON document (ASCII, UTF-8 compatible), written by
    :func:`encode_result` and read back by :func:`decode_result`, which checks every field's
    type and builds the objects itself — nothing in an entry is ever run, imported or
    unpickled.  Its top level is ``{"format": "parallelcheck-cache", "version": 3, "key":
    <the key>, "article": <outline>, "findings": [<finding>, …]}`` (see :func:`encode_result`
    for the outline and findings).  Version 3 added each finding's place in the alignment
    (``"at"``), version 4 its fix (``"fix"``); an entry whose format, version or key is not
    this one's, or with any field of the wrong type (or that is not JSON at all), is a miss
    and is removed.

    Entries live in ``<cache dir>/v2/<first two hex digits>/<key>.json`` (see
    :func:`default_dir`: never inside the checked repository).  The folders the cache creates
    are private (mode 0700) and entries are written 0600, to a temporary file in the same
    folder renamed into place (``os.replace``), so concurrent runs never see half an entry and
    a run killed mid-write leaves at most a stray temporary file, which is ignored.

Trust
    An entry is read only when it is a regular file (not a symbolic link), owned by the user
    running the check, and not writable by its group or by others — checked on the opened file
    itself — in a layout folder and shard folder that are the user's own and not group- or
    world-writable; anything else is ignored (a miss; the fresh result then replaces it), and
    nothing is written into a folder that fails the same test.  An entry is opened without
    following a link and without blocking (a FIFO put in its place is no hang) and read up to
    :data:`MAX_ENTRY_BYTES`.  (Owner and mode are POSIX notions: elsewhere only the format
    protects.)  Entries of the earlier pickle layout (``v1``) are never read: ``cache info``
    counts them and ``cache clear`` removes them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from parallelcheck.files.safe_read import MAX_DOCUMENT_BYTES, Boundary, ReadRefused, read_capped
from parallelcheck.model.finding import Finding, Location
from parallelcheck.model.fix import Edit, Fix, Span

if TYPE_CHECKING:  # the types only: the cache is imported before the rest of a run
    from parallelcheck.model.outline import Outline

_T = TypeVar("_T")


def default_dir() -> Path:
    """Where entries go: ``$PARALLELCHECK_CACHE_DIR``, else the user's cache folder
    (``$XDG_CACHE_HOME/parallelcheck`` or ``~/.cache/parallelcheck``).  Never inside the
    checked repository: a repository (a pull request) must not be able to ship results for the
    tool to report."""
    configured = os.environ.get("PARALLELCHECK_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "parallelcheck"


#: The folder of this format's entries, below the cache folder.
LAYOUT = "v2"
#: Folders of earlier formats: never read; counted by ``cache info``, removed by ``cache clear``.
OLD_LAYOUTS = ("v1",)
#: The folder of the language model kept decompressed (:mod:`parallelcheck.run.model_store`):
#: counted by ``cache info`` and removed by ``cache clear`` with the entries.
MODELS = "models"
#: The folder of the regular expressions' compiled forms (:mod:`parallelcheck.run.pattern_store`):
#: counted by ``cache info`` and removed by ``cache clear`` with the entries.
PATTERNS = "patterns"
#: The folder of facts of installed language data (:mod:`parallelcheck.run.kept_store`):
#: counted by ``cache info`` and removed by ``cache clear`` with the entries.
KEPT = "kept"
#: The folders of what a run keeps besides result entries.
KEPT_FOLDERS = (MODELS, PATTERNS, KEPT)
#: What an entry's ``format`` and ``version`` say.
FORMAT = "parallelcheck-cache"
VERSION = 4
#: An entry larger than this is not read (a miss): entries hold outlines, not text.
MAX_ENTRY_BYTES = 256 * 1024 * 1024

_KEY = re.compile(r"[0-9a-f]{64}")
_SUFFIX = ".json"


# ---------------------------------------------------------------------------
# Keys


def file_digest(path: str, within: Boundary | None = None) -> bytes | None:
    """SHA-256 of the bytes of ``path``, read as the engine reads a version (bounded, and
    inside ``within`` when given), or ``None`` when it cannot be read (no key then: the engine
    reports the file as ``unreadable-version`` on every run, until it can be read)."""
    try:  # bounded like the engine's read: a FIFO, a device or a huge file is no key
        data = read_capped(path, MAX_DOCUMENT_BYTES, within=within)
    except ReadRefused:
        return None
    return hashlib.sha256(data).digest()


def version_digests(
    versions: Mapping[str, str], within: Boundary | None = None
) -> dict[str, bytes] | None:
    """Language → :func:`file_digest` of every version, or ``None`` when one cannot be read.

    A file that can be read but not decoded (binary, not UTF-8) has a digest like any other:
    its bytes decide its fault as they decide any finding, so its result is cached too."""
    digests = {}
    for lang, path in versions.items():
        digest = file_digest(path, within)
        if digest is None:
            return None
        digests[lang] = digest
    return digests


def article_key(
    settings: bytes, article_id: str, versions: Mapping[str, str], digests: Mapping[str, bytes]
) -> str:
    """The key of one article: ``settings`` (:func:`settings_digest`, plus what history adds),
    its id, and every version's language, path and content digest (``digests``, by
    language)."""
    digest = hashlib.sha256(settings)
    # surrogateescape: file and folder names that are not UTF-8 (their bytes, as on disk)
    digest.update(b"\0" + article_id.encode("utf-8", "surrogateescape"))
    for lang in sorted(versions):
        name = versions[lang].encode("utf-8", "surrogateescape")
        digest.update(b"\0" + lang.encode("utf-8") + b"\0" + name + b"\0")
        digest.update(digests[lang])
    return digest.hexdigest()


def code_digest(package: Path | None = None) -> bytes:
    """A digest of the package's own files (its code and data, by path inside the package;
    *package* is this package's folder unless given): part of every key, so that a changed
    rule or reader never answers from entries an earlier version of the code wrote.  Reading
    them costs a few milliseconds, once per run: the folders are walked with ``os.walk``,
    leaving out ``__pycache__`` folders unlisted (3 ms for this package, where ``rglob``,
    listing and testing the compiled files too, took 7 ms — on every run, a warm re-run
    included)."""
    root = str(package or Path(__file__).resolve().parents[1])
    found: list[tuple[str, ...]] = []  # the relative path's parts: the order of sorted Paths
    for folder, dirs, files in os.walk(root):
        dirs[:] = [name for name in dirs if name != "__pycache__"]
        rel = os.path.relpath(folder, root)
        parts = () if rel == os.curdir else tuple(rel.split(os.sep))
        for name in files:
            if os.path.splitext(name)[1] == ".pyc" or name == "__pycache__":
                continue
            if os.path.isfile(os.path.join(folder, name)):  # as Path.is_file: links followed
                found.append((*parts, name))
    digest = hashlib.sha256()
    for parts in sorted(found):
        digest.update("/".join(parts).encode("utf-8") + b"\0")
        with open(os.path.join(root, *parts), "rb") as handle:
            digest.update(hashlib.sha256(handle.read()).digest())
    return digest.digest()


def settings_digest(*parts: Any) -> bytes:
    """A stable digest of the run's settings (anything with a deterministic ``repr``)."""
    return hashlib.sha256(repr(parts).encode("utf-8")).digest()


# ---------------------------------------------------------------------------
# Entries: plain data, written and read field by field


class BadEntry(ValueError):
    """An entry that is not what this format writes (a miss)."""


class NotPlain(ValueError):
    """A result that plain JSON cannot hold exactly (it is not stored)."""


def encode_result(key: str, article: Outline, findings: Sequence[Finding]) -> dict:
    """The entry of an article's outline (:class:`~parallelcheck.model.outline.Outline`) and
    its findings.

    ``article`` is ``{"id", "source", "langs": [..], "expected": [..], "paths": {lang: path},
    "link_prefixes": [..], "unreadable": [{"lang", "path", "reason", "line"}], "sections":
    [{lang: null | [level, title, line, anchor, blocks]}]}`` — each aligned row of sections,
    by language: its heading's level, title, line and explicit id (or ``null``) and how many
    blocks it holds, or ``null`` where a version lacks it.  A finding is ``{"rule",
    "severity", "article", "section", "langs", "reference_langs", "locations": [[lang, path,
    line]], "message", "evidence", "at": [section row, block row], "fix": null | [applicability,
    message, [[kind, path, line, end_line, old, new, null | [path, line, end_line]]]]}``
    (``at``: the finding's place in the alignment, each index or ``null``; ``fix``: its
    :class:`~parallelcheck.model.fix.Fix`, each edit's copied lines last).

    Raises :class:`NotPlain` when a value is not of the type :func:`decode_result` gives back
    (evidence must be JSON: str, int, float, bool, None, lists and string-keyed dicts), so
    that an entry read back is always equal to what was stored."""
    outline = {
        "id": _s(article.id),
        "source": _s(article.source),
        "langs": _strings(article.langs),
        "expected": _strings(article.expected),
        "paths": {_s(lang): _s(path) for lang, path in _items(article.paths)},
        "link_prefixes": _strings(article.link_prefixes),
        "unreadable": [
            {
                "lang": _s(fault.lang),
                "path": _s(fault.path),
                "reason": _s(fault.reason),
                "line": None if fault.line is None else _i(fault.line),
            }
            for fault in _tuple(article.unreadable)
        ],
        "sections": [
            {
                _s(lang): None
                if section is None
                else [
                    _i(section.level),
                    _s(section.title),
                    _i(section.line),
                    None if section.anchor is None else _s(section.anchor),
                    _i(section.blocks),
                ]
                for lang, section in _items(row.cells)
            }
            for row in article.sections
        ],
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "key": key,
        "article": outline,
        "findings": [_encode_finding(finding) for finding in findings],
    }


def _encode_finding(finding: Finding) -> dict:
    if type(finding) is not Finding:
        raise NotPlain("not a Finding")
    return {
        "rule": _s(finding.rule),
        "severity": _s(finding.severity),
        "article": _s(finding.article),
        "section": _s(finding.section),
        "langs": _strings(finding.langs),
        "reference_langs": _strings(finding.reference_langs),
        "locations": [_encode_location(loc) for loc in _tuple(finding.locations)],
        "message": _s(finding.message),
        "evidence": _plain(finding.evidence, top=True),
        "at": [_row(finding.section_row), _row(finding.block_row)],
        "fix": None if finding.fix is None else _encode_fix(finding.fix),
    }


def _encode_fix(fix: Any) -> list:
    if type(fix) is not Fix:
        raise NotPlain("not a Fix")
    return [
        _s(fix.applicability),
        _s(fix.message),
        [_encode_edit(edit) for edit in _tuple(fix.edits)],
    ]


def _encode_edit(edit: Any) -> list:
    if type(edit) is not Edit:
        raise NotPlain("not an Edit")
    copied = None if edit.copy is None else _encode_span(edit.copy)
    return [_s(edit.kind), *_encode_span(edit.at), _s(edit.old), _s(edit.new), copied]


def _encode_span(span: Any) -> list:
    if type(span) is not Span:
        raise NotPlain("not a Span")
    return [_s(span.path), _i(span.line), _i(span.end_line)]


def _row(index: Any) -> int | None:
    return None if index is None else _i(index)


def _encode_location(loc: Any) -> list:
    if type(loc) is not Location:
        raise NotPlain("not a Location")
    return [_s(loc.lang), _s(loc.path), _i(loc.line)]


def _exact(kind: type[_T], error: type[ValueError], what: str) -> Callable[[Any], _T]:
    """A check that gives back a value whose type is exactly ``kind`` (no subclass) and raises
    ``error`` (``what`` with the type found) for any other: :class:`NotPlain` when encoding,
    :class:`BadEntry` when decoding."""

    def check(value: Any) -> _T:
        if type(value) is not kind:
            raise error(what.format(type(value).__name__))
        return value

    return check


_s = _exact(str, NotPlain, "not a string: {}")
_i = _exact(int, NotPlain, "not an integer: {}")
_tuple = _exact(tuple, NotPlain, "not a tuple: {}")
_plain_dict = _exact(dict, NotPlain, "not a dict: {}")


def _strings(value: Any) -> list[str]:
    return [_s(item) for item in _tuple(value)]


def _items(value: Any) -> Any:
    return _plain_dict(value).items()


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any, top: bool = False) -> Any:
    """``value`` itself when JSON holds it exactly (exact types: no tuple, no subclass such as
    an enum member, string keys only); :class:`NotPlain` otherwise."""
    kind = type(value)
    if kind in _SCALARS and not top:
        return value
    if kind is list and not top:
        for item in value:
            _plain(item)
        return value
    if kind is dict:
        for name, item in value.items():
            _s(name)
            _plain(item)
        return value
    raise NotPlain(f"not plain JSON: {kind.__name__}")


def decode_result(key: str, entry: Any) -> tuple[Outline, list[Finding]]:
    """The outline and findings an entry holds, built field by field; :class:`BadEntry` for
    anything that is not exactly what :func:`encode_result` writes for ``key``."""
    from parallelcheck.model.aligned import UnreadableVersion
    from parallelcheck.model.outline import Outline, OutlineHeading, OutlineRow

    head = _dict(entry)
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise BadEntry("another format or version")
    if head.get("key") != key:
        raise BadEntry("the entry of another key")
    raw = _dict(head.get("article"))
    langs = _str_tuple(raw.get("langs"))
    paths = {_str(lang): _str(path) for lang, path in _dict(raw.get("paths")).items()}
    if not set(langs) <= set(paths):
        raise BadEntry("a version without a path")
    sections = []
    for row in _list(raw.get("sections")):
        cells = {}
        for lang, cell in _dict(row).items():
            if cell is None:
                cells[lang] = None
                continue
            # The checks inline, not a call per field: an entry holds thousands of cells.
            if type(cell) is not list or len(cell) != 5:
                raise BadEntry("a section is [level, title, line, anchor, blocks]")
            level, title, line, anchor, blocks = cell
            if not (
                type(level) is int
                and type(title) is str
                and type(line) is int
                and (anchor is None or type(anchor) is str)
                and type(blocks) is int
                and blocks >= 0
            ):
                raise BadEntry("a section's fields are int, str, int, str or null, int >= 0")
            cells[lang] = OutlineHeading(level, title, line, anchor, blocks)
        sections.append(OutlineRow(cells))
    unreadable = []
    for fault in _list(raw.get("unreadable")):
        fault = _dict(fault)
        line = fault.get("line")
        unreadable.append(
            UnreadableVersion(
                _str(fault.get("lang")),
                _str(fault.get("path")),
                _str(fault.get("reason")),
                None if line is None else _int(line),
            )
        )
    article = Outline(
        id=_str(raw.get("id")),
        source=_str(raw.get("source")),
        langs=langs,
        expected=_str_tuple(raw.get("expected")),
        paths=paths,
        sections=tuple(sections),
        link_prefixes=_str_tuple(raw.get("link_prefixes")),
        unreadable=tuple(unreadable),
    )
    return article, [_decode_finding(item) for item in _list(head.get("findings"))]


def _decode_finding(item: Any) -> Finding:
    item = _dict(item)
    locations = []
    for loc in _list(item.get("locations")):
        loc = _list(loc)
        if len(loc) != 3:
            raise BadEntry("a location is [lang, path, line]")
        locations.append(Location(_str(loc[0]), _str(loc[1]), _int(loc[2])))
    at = _list(item.get("at"))
    if len(at) != 2 or not all(index is None or type(index) is int for index in at):
        raise BadEntry("a finding's place is [section row, block row], each an integer or null")
    return Finding(
        rule=_str(item.get("rule")),
        article=_str(item.get("article")),
        section=_str(item.get("section")),
        langs=_str_tuple(item.get("langs")),
        reference_langs=_str_tuple(item.get("reference_langs")),
        locations=tuple(locations),
        message=_str(item.get("message")),
        evidence=_dict(item.get("evidence")),  # json.loads made it: plain JSON already
        severity=_str(item.get("severity")),
        section_row=at[0],
        block_row=at[1],
        fix=None if item.get("fix") is None else _decode_fix(item["fix"]),
    )


def _decode_fix(value: Any) -> Fix:
    fix = _list(value)
    if len(fix) != 3:
        raise BadEntry("a fix is [applicability, message, edits]")
    edits = []
    for edit in _list(fix[2]):
        edit = _list(edit)
        if len(edit) != 7:
            raise BadEntry("an edit is [kind, path, line, end_line, old, new, copied]")
        kind, path, line, end_line, old, new, copied = edit
        at = Span(_str(path), _int(line), _int(end_line))
        source = None if copied is None else _decode_span(copied)
        try:
            edits.append(Edit(at, _str(kind), _str(old), _str(new), source))
        except ValueError as error:
            raise BadEntry(str(error)) from None
    try:
        return Fix(_str(fix[0]), _str(fix[1]), tuple(edits))
    except ValueError as error:
        raise BadEntry(str(error)) from None


def _decode_span(value: Any) -> Span:
    span = _list(value)
    if len(span) != 3:
        raise BadEntry("copied lines are [path, line, end_line]")
    return Span(_str(span[0]), _int(span[1]), _int(span[2]))


_dict = _exact(dict, BadEntry, "expected an object, found {}")
_list = _exact(list, BadEntry, "expected an array, found {}")
_str = _exact(str, BadEntry, "expected a string, found {}")
_int = _exact(int, BadEntry, "expected an integer, found {}")


def _str_tuple(value: Any) -> tuple[str, ...]:
    return tuple(_str(item) for item in _list(value))


# ---------------------------------------------------------------------------
# The folder


def is_private(info: os.stat_result) -> bool:
    """Whether a file or folder is the user's own and no one else may write to it (POSIX
    owner and mode bits; elsewhere — Windows has neither — always true: the folder's access
    control list, which the user's profile folder sets, is what protects it there)."""
    if os.name != "posix":
        return True
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return info.st_uid == os.getuid()


class Cache:
    """Get and put results by key in one cache folder."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.base = Path(folder if folder is not None else default_dir())
        self.root = self.base / LAYOUT
        self._trusted: dict[Path, bool] = {}

    def path(self, key: str) -> Path:
        """Where the entry of ``key`` is (whether or not there is one)."""
        return self.root / key[:2] / f"{key}{_SUFFIX}"

    def get(self, key: str) -> tuple[Outline, list[Finding]] | None:
        """The outline and findings stored under ``key``, or ``None``: no entry, or one that
        is not to be trusted or not well formed (removed, then, when it is a damaged entry of
        the user's own)."""
        if not _KEY.fullmatch(key) or not self._folders_trusted(key):
            return None
        path = self.path(key)
        data = read_private(path)
        if data is None:
            return None
        try:
            value = decode_result(key, json.loads(data))
        except (ValueError, RecursionError):  # BadEntry, JSON or UTF-8 errors: a miss
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: `cache clear --older-than` keeps it
        return value

    def put(self, key: str, article: Outline, findings: Sequence[Finding]) -> bool:
        """Store the outline and findings under ``key``; whether it was stored (not when the
        result is not plain data, or the folder is not the user's own or cannot be
        written)."""
        if not _KEY.fullmatch(key):
            return False
        try:
            text = json.dumps(encode_result(key, article, findings), separators=(",", ":"))
        except (NotPlain, ValueError, RecursionError):
            return False
        target = self.path(key)
        if not self._make_folders(target.parent):
            return False
        return write_private(target.parent, target.name, text.encode("ascii"))

    def _folders_trusted(self, key: str) -> bool:
        return self._trusted_folder(self.root) and self._trusted_folder(self.root / key[:2])

    def _trusted_folder(self, folder: Path) -> bool:
        known = self._trusted.get(folder)
        if known is None:
            known = private_folder(folder)
            if known is None:
                return False  # not there (yet): nothing to read; not remembered
            self._trusted[folder] = known
        return known

    def _make_folders(self, shard: Path) -> bool:
        """Create the cache folder, the layout folder and ``shard`` as needed (mode 0700);
        whether the layout and shard folders are the user's own and private."""
        try:
            if not self.base.is_dir():
                make_private(self.base, parents=True)
            for folder in (self.root, shard):
                if folder not in self._trusted:
                    make_private(folder)
        except OSError:
            return False
        return self._trusted_folder(self.root) and self._trusted_folder(shard)

    def files(self) -> Iterator[os.DirEntry[str]]:
        """Every file in the cache folder: entries, temporary files of runs that were writing
        one (or were killed while writing), entries of earlier layouts, the language model
        kept decompressed, the regular expressions' compiled forms and the facts of language
        data (:data:`KEPT_FOLDERS`)."""
        for kept in KEPT_FOLDERS:
            with contextlib.suppress(FileNotFoundError), os.scandir(self.base / kept) as files:
                yield from (e for e in files if e.is_file(follow_symlinks=False))
        for layout in (LAYOUT, *OLD_LAYOUTS):
            try:
                with os.scandir(self.base / layout) as shards:
                    folders = sorted(
                        entry.path for entry in shards if entry.is_dir(follow_symlinks=False)
                    )
            except FileNotFoundError:
                continue
            for folder in folders:
                with contextlib.suppress(FileNotFoundError), os.scandir(folder) as entries:
                    yield from (e for e in entries if e.is_file(follow_symlinks=False))

    def usage(self) -> tuple[int, int]:
        """(number of files, bytes they hold)."""
        count = size = 0
        for entry in self.files():
            with contextlib.suppress(FileNotFoundError):
                size += entry.stat(follow_symlinks=False).st_size
                count += 1
        return count, size

    def clear(self, older_than_days: float | None = None) -> tuple[int, int]:
        """Remove entries (only those not used for *older_than_days* days, when given) and
        leftover temporary files; returns (files removed, bytes freed).  A run writing an
        entry meanwhile only loses that entry."""
        cutoff = None if older_than_days is None else time.time() - older_than_days * 86400
        removed = freed = 0
        for entry in self.files():
            try:
                info = entry.stat(follow_symlinks=False)
                if cutoff is not None and info.st_mtime >= cutoff:
                    continue
                os.unlink(entry.path)
            except FileNotFoundError:
                continue
            removed += 1
            freed += info.st_size
        if cutoff is None:
            for kept in KEPT_FOLDERS:
                with contextlib.suppress(OSError):
                    os.rmdir(self.base / kept)  # only an empty one goes
            for layout in (LAYOUT, *OLD_LAYOUTS):
                with contextlib.suppress(OSError), os.scandir(self.base / layout) as shards:
                    for folder in shards:
                        with contextlib.suppress(OSError):
                            os.rmdir(folder.path)  # only an empty one goes
        return removed, freed


def private_folder(folder: Path) -> bool | None:
    """Whether *folder* is a folder (not a link to one) of the user's own that no one else
    may write to (:func:`is_private`); ``None`` when there is nothing there."""
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    return stat.S_ISDIR(info.st_mode) and is_private(info)


def make_private(folder: Path, parents: bool = False) -> None:
    """Create ``folder`` with mode 0700 (whatever the umask) unless it exists."""
    try:
        folder.mkdir(mode=0o700, parents=parents)
    except FileExistsError:
        return
    os.chmod(folder, 0o700)


def ready_private_folder(folder: Path) -> bool:
    """Create *folder* and the cache folder it is in as needed (mode 0700); whether *folder*
    is then a private folder of the user's own (:func:`private_folder`)."""
    try:
        if not folder.parent.is_dir():
            make_private(folder.parent, parents=True)
        make_private(folder)
    except OSError:
        return False
    return bool(private_folder(folder))


def write_private(folder: Path, name: str, data: bytes) -> bool:
    """Write *data* as *folder*/*name* (mode 0600) through a temporary file renamed into
    place, so a reader never sees half of it; whether it was written (a read-only or full
    disk costs only the file)."""
    try:
        fd, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=Path(name).suffix, dir=folder)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, folder / name)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True


def open_private(path: Path) -> tuple[int, os.stat_result] | None:
    """A file opened for reading and its status, or ``None``: missing, a symbolic link or
    not a regular file, not the user's own or writable by others (checked on the open
    file).  Opened without following a link and without blocking (a FIFO put in its place
    is no hang); the caller closes the descriptor."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:  # missing, a symbolic link (ELOOP), not readable: a miss
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode) or not is_private(info):
        os.close(fd)
        return None
    return fd, info


def read_private(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """The bytes of an entry, or ``None``: not to be trusted (:func:`open_private`), or
    larger than *limit*."""
    opened = open_private(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_size > limit:
            return None
        parts, total = [], 0
        while total <= limit:
            chunk = os.read(fd, max(info.st_size + 1 - total, 1 << 20))
            if not chunk:
                break
            parts.append(chunk)
            total += len(chunk)
        return None if total > limit else b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_document(path: Path, limit: int, identity: Mapping[str, Any]) -> dict | None:
    """The JSON object kept as *path* whose fields named in *identity* have the values given
    there (its format, version …), or ``None``: not to be trusted (in a private folder, read
    by :func:`read_private` up to *limit* bytes), not JSON, or another document.  A document
    read is marked used now, so that ``cache clear --older-than`` keeps it."""
    data = read_private(path, limit) if private_folder(path.parent) else None
    if data is None:
        return None
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or not UTF-8
        return None
    if not isinstance(document, dict) or any(
        document.get(field) != value for field, value in identity.items()
    ):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)
    return document


def write_document(path: Path, document: Mapping[str, Any]) -> None:
    """Keep *document* (plain JSON data) as *path*, in a private folder made as needed;
    nothing when it is not plain data or the folder cannot be made private or written."""
    try:
        text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return
    if ready_private_folder(path.parent):
        write_private(path.parent, path.name, text.encode("ascii"))
