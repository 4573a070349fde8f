"""Bad input, through the real command line: what the user sees.

Every row is a test below, through the command line's real entry point: in this process
(``conftest.invoke``), or as ``python -m parallelcheck`` in a subprocess where the process is
part of what is tested (hash seeds, a run that could hang, a file size limit, arguments that
are not UTF-8); each with a timeout that guards against a hang, not a speed bound (those are
measured by ``bench/bench_time_bounds.py``).
"exit 2" always means one line on stderr, ``parallelcheck: error: FILE[:LINE]: …``, and never a
traceback.  A version file that cannot be read is an ``unreadable-version`` finding of its
article (exit 1; the other versions and articles are still checked; see tests/test_faults.py);
only when no version of any article can be read is it exit 2, with the same message.

======================================  ==========================================================
bad input                               what the user sees
======================================  ==========================================================
UTF-8 with a BOM; UTF-16 or UTF-32      read like UTF-8: the same findings, at the same lines
with or without a BOM
CRLF or lone-CR line endings (with or   the same findings and lines as LF
without a BOM)
bytes that are not UTF-8 (Latin-1,      an ``unreadable-version`` error at ``ja.md:7``: ``ja.md:7:
cp1252 …)                               cannot be decoded: byte 0xe9 is not valid UTF-8 (expected
                                        UTF-8 text; save the file as UTF-8); …`` — the line of the
                                        first bad byte; en is still checked (exit 1).  No readable
                                        version at all: exit 2 with that message
invalid UTF-16 after a UTF-16 BOM       the same finding ("not valid UTF-16 (little endian)") at
                                        its line
binary file (PNG bytes named            an ``unreadable-version`` error at ``ja.md:1``: ``ja.md:
``ja.md``), NUL bytes                   looks like a binary file, not text; …``
empty or blank version file             read as a version without content: each section is
                                        reported missing in it, at its line 1 (exit 1); all
                                        versions empty: exit 0
10,000-deep nesting (``>``, ``- - -``,  read in under a second; nesting deeper than 64 levels is
``> - > -``, ``1. 1.``, 10,000 nested   folded into the 64th, so the text is still compared (a
``<div>``)                              number changed at the bottom is reported at its line)
20,000-item list                        checked by every rule in about two seconds;
                                        ``list-shape`` names both counts
a 50 MB version file (the others of     completes: about 42 s and 680 MB peak memory on a 2-core
normal size)                            machine (the test runs with ``PARALLELCHECK_SLOW=1``). Two
                                        large versions that do not align section by section take
                                        time and memory quadratic in their section count (1 MB
                                        each: 25 s; 4 MB each: 7 min; 50 MB each: out of memory)
symbolic link as a version file or an   followed; shown under the link's name
article folder
symbolic-link loops of folders; a       each folder is read once, and named by its own path rather
folder reached both directly and        than the link's; no hang
through a link
broken symbolic link or FIFO inside an  passed over (a FIFO is never opened, so the run never
article folder                          blocks)
broken link, FIFO or device given as a  exit 2: ``PATH: not a regular file or directory (broken
PATH                                    link?)``
unreadable file or folder (mode 000)    an ``unreadable-version`` error: ``ja.md: cannot be read:
                                        permission denied`` / exit 2: ``DIR: cannot read
                                        directory: Permission denied`` (root reads them anyway)
``README.md``, ``notes.txt``,           ignored silently: not a language tag, not a document
``image.png``, ``.DS_Store``,           extension, or hidden
``index.md``, ``Thumbs.db``,
``ja.md~``, ``ja.md.bak``,
``.ja.md.swp`` in an article folder
two files for one language (``ja.md``   one is used (``.md`` > ``.markdown`` > ``.html`` >
and ``ja.txt``)                         ``.htm`` > ``.txt``); stderr: ``parallelcheck: note:
                                        art/ja.txt ignored: another file of article 'art' has the
                                        same language``
file or folder names that are not       checked; the names are written as their bytes, on stdout
UTF-8                                   and with ``--output``, whatever the locale
``parallelcheck.yaml`` with             exit 2: ``parallelcheck.yaml:1: invalid YAML: could not
``!!python/…`` or other tags            determine a constructor for the tag …``; nothing is
                                        constructed or run
YAML alias bomb ("billion laughs");     exit 2 at once: ``…:LINE: YAML document too large once its
recursive alias                         aliases are expanded (over 100,000 nodes); refusing to
                                        read it`` / ``YAML alias refers to a node that contains it
                                        (recursive alias)``
configuration file over 1 MB            exit 2: ``configuration file is too large (N bytes; at
                                        most 1,000,000 are read)``
unknown key, rule id or rule option;    exit 2: ``parallelcheck.yaml:3: unknown key 'languagse'
duplicate key                           (expected one of: …); did you mean 'languages'?`` / ``…:2:
                                        duplicate key 'root' (first given on line 1)``
a glossary (``glossary/*.yaml``,        the same refusals with ``FILE:LINE``, from ``check`` and
``--glossary``) with any of the above   ``glossary lint``; a tag: ``YAML tag '…' is not allowed
                                        (plain YAML only: nothing is constructed)``
``--output`` / ``baseline -o`` cannot   exit 2: ``PATH: cannot write: REASON``; an existing file
be written (read-only folder, no such   keeps its old content; no temporary file is left
folder, disk full)
``--output`` is a symbolic link, a      the link is followed (the file it points to is replaced,
FIFO or a device (``/dev/stdout``)      the link stays); a FIFO or device is written to
``--output`` replaces a file / creates  the file keeps its permissions / gets 0666 less the umask
one
the input files                         never modified: content, size, mode and mtime are the same
                                        after check, ``--output``, ``baseline -o``
======================================  ==========================================================
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import REPO, invoke, run_cli, write_article

SHIPPED = REPO / "articles" / "deepinfer-vs-lmdeploy"
ARTICLE = SHIPPED.name
#: How long a run may take before it counts as a hang (the real bounds are measured by
#: bench/bench_time_bounds.py).
TIMEOUT = 300
CACHE = ".parallelcheck_cache"

# A small article with two findings, one of them deep in the file: a changed number and a
# table that ja lacks.
EN = """\
# Serving compared

DeepInfer serves 131,072 tokens of context on 8 GPUs.

## Setup

Install the package and start the server.

| engine | GPUs |
|---|---|
| DeepInfer | 8 |
| LMDeploy | 4 |

## Results

Throughput rose by 75% over the baseline.
"""
JA = """\
# サービング比較

DeepInfer は 8 基の GPU で 131,072 トークンのコンテキストを扱います。

## セットアップ

パッケージをインストールしてサーバーを起動します。

## 結果

スループットはベースラインより 65% 向上しました。
"""


def run(*args, cwd: Path, env: dict | None = None, timeout: float = TIMEOUT):
    """``parallelcheck ARGS`` in ``cwd``, in this process; stdout/stderr as text (file names
    that are not UTF-8 survive as surrogate escapes)."""
    return invoke(*args, cwd=cwd, env=env, timeout=timeout, errors="surrogateescape")


def process(*args, cwd: Path, env: dict | None = None, timeout: float = TIMEOUT, **kwargs):
    """:func:`run` as a subprocess (``kwargs`` go to :func:`subprocess.run`)."""
    return run_cli(*args, cwd=cwd, env=env, timeout=timeout, errors="surrogateescape", **kwargs)


def assert_cannot_run(proc, *fragments: str) -> str:
    """Exit 2 with one ``parallelcheck: error:`` line naming every fragment, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    message = proc.stderr.strip()
    assert message.startswith("parallelcheck: error: "), message
    assert "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def findings(proc) -> list[dict]:
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr[-2000:])
    return json.loads(proc.stdout)["findings"]


def unreadable(proc, path: str, line: int, *fragments: str) -> dict:
    """Exit 1 and one ``unreadable-version`` error at ``path:line`` naming every fragment;
    the other version (en) was still checked (the number it states alone is no finding)."""
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert proc.stderr == ""
    document = json.loads(proc.stdout)
    (fault,) = document["findings"]
    assert fault["rule"] == "unreadable-version" and fault["severity"] == "error"
    assert fault["langs"] == ["ja"] and fault["reference_langs"] == ["en"]
    assert fault["locations"] == [{"lang": "ja", "path": path, "line": line}]
    for fragment in fragments:
        assert fragment in fault["message"], (fragment, fault["message"])
    assert document["articles"][0]["versions"] == {"en": path.replace("ja.md", "en.md")}
    return fault


def make_article(parent: Path, files: dict[str, str | bytes], name: str = "art") -> Path:
    return write_article(parent / name, files)


def listing(folder: Path) -> list[str]:
    """The names in ``folder``, without the result cache."""
    return sorted(name for name in os.listdir(folder) if name != CACHE)


def encode(text: str, variant: str) -> bytes:
    """``text`` (LF, UTF-8) stored as ``variant``: an encoding and/or line-ending style."""
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    if "cr-only" in variant:
        text = text.replace("\n", "\r")
    if variant.startswith("utf-8-sig"):
        return text.encode("utf-8-sig")
    if variant.startswith("utf-16-le-no-bom"):
        return text.encode("utf-16-le")
    if variant.startswith("utf-16-be"):
        return b"\xfe\xff" + text.encode("utf-16-be")
    if variant.startswith("utf-16"):
        return text.encode("utf-16")  # with its BOM
    if variant.startswith("utf-32"):
        return text.encode("utf-32")
    return text.encode("utf-8")


# ---------------------------------------------------------------------------
# Encodings and line endings


@pytest.fixture(scope="module")
def shipped_plain(tmp_path_factory) -> str:
    """The JSON report of a copy of the shipped article, as stored (UTF-8, LF)."""
    base = tmp_path_factory.mktemp("plain")
    shutil.copytree(SHIPPED, base / ARTICLE)
    proc = run("check", ARTICLE, "--format", "json", cwd=base)
    assert len(findings(proc)) > 3, "the shipped article has findings to compare"
    return proc.stdout


@pytest.mark.parametrize(
    "variant",
    [
        "utf-8-sig",
        "utf-16",
        "utf-16-be",
        "utf-32",
        "crlf",
        "cr-only",
        "utf-8-sig-crlf",
        "utf-16-crlf",
        "utf-16-le-no-bom",
    ],
)
def test_bom_utf16_and_line_endings_give_the_same_report(tmp_path, shipped_plain, variant):
    folder = tmp_path / ARTICLE
    folder.mkdir()
    for source in SHIPPED.iterdir():
        (folder / source.name).write_bytes(encode(source.read_text(encoding="utf-8"), variant))
    proc = run("check", ARTICLE, "--format", "json", cwd=tmp_path)
    assert proc.stdout == shipped_plain  # every finding, message and line the same


def test_same_input_gives_byte_identical_json(tmp_path):
    """Whatever the hash seed (set and dict order), with or without the cache, jobs or not."""
    shutil.copytree(SHIPPED, tmp_path / ARTICLE)
    make_article(tmp_path, {"en.md": EN, "ja.md": JA, "ko.md": JA.replace("65%", "70%")})
    outputs = set()
    for seed, extra in (("1", ["--no-cache"]), ("2", []), ("3", []), ("4", ["--jobs", "2"])):
        proc = process(
            "check", ARTICLE, "art", "--format", "json", *extra, cwd=tmp_path,
            env={"PYTHONHASHSEED": seed},
        )  # fmt: skip
        assert proc.returncode == 1, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    document = json.loads(outputs.pop())
    assert len(document["articles"]) == 2 and document["findings"]


def _latin1(crlf: bool) -> bytes:
    text = JA.replace("パッケージ", "caf\u00e9 パッケージ")  # line 7
    data = text.replace("\n", "\r\n") if crlf else text
    return data.encode("utf-8").replace("é".encode(), b"\xe9")


@pytest.mark.parametrize("crlf", [False, True])
def test_latin1_bytes_are_a_finding_naming_file_and_line(tmp_path, crlf):
    make_article(tmp_path, {"en.md": EN, "ja.md": _latin1(crlf)})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    fault = unreadable(proc, "art/ja.md", 7, "art/ja.md:7:", "byte 0xe9 is not valid UTF-8")
    assert "save the file as UTF-8" in fault["message"]


def test_latin1_bytes_in_every_version_stop_the_run_naming_file_and_line(tmp_path):
    make_article(tmp_path, {"en.md": _latin1(False), "ja.md": _latin1(False)})
    proc = run("check", "art", cwd=tmp_path)
    message = assert_cannot_run(proc, "art/en.md:7:", "byte 0xe9 is not valid UTF-8", "art/ja.md")
    assert "save the file as UTF-8" in message


def test_invalid_utf16_after_bom_names_the_line(tmp_path):
    data = "\ufeff# T\n\nline two\n".encode("utf-16-le") + b"\x00\xd8" + "x\n".encode("utf-16-le")
    make_article(tmp_path, {"en.md": "# T\n\nline two\n", "ja.md": data})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    unreadable(proc, "art/ja.md", 4, "art/ja.md:4:", "not valid UTF-16 (little endian)")


PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00"
    b"\x00\x00IEND\xaeB`\x82"
)


@pytest.mark.parametrize(
    "data",
    [PNG, b"# T\n\x00\x00\x00 binary"],
    ids=["png", "nul-bytes"],
)
def test_binary_version_is_a_finding(tmp_path, data):
    make_article(tmp_path, {"en.md": EN, "ja.md": data})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    unreadable(proc, "art/ja.md", 1, "art/ja.md: looks like a binary file, not text")
    make_article(tmp_path, {"en.md": data})  # now no version can be read
    proc = run("check", "art", cwd=tmp_path)
    assert_cannot_run(proc, "art/en.md: looks like a binary file, not text", "art/ja.md")


@pytest.mark.parametrize("empty", ["", "\n\n  \n", "\ufeff"], ids=["empty", "blank", "bom"])
def test_empty_version_is_read_as_empty(tmp_path, empty):
    make_article(tmp_path, {"en.md": EN, "ja.md": empty})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1
    found = findings(proc)
    missing = [f for f in found if f["rule"] == "missing-section"]
    assert missing and all(f["langs"] == ["ja"] for f in missing)
    for finding in found:
        for location in finding["locations"]:
            if location["lang"] == "ja":
                assert location["line"] == 1


def test_all_versions_empty_is_clean(tmp_path):
    make_article(tmp_path, {"en.md": "", "ja.md": b""})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0 and findings(proc) == []


# ---------------------------------------------------------------------------
# Pathological structure


@pytest.mark.parametrize(
    "prefix",
    [">" * 10_000 + " ", "- " * 10_000, "> - " * 5_000, "1. " * 10_000],
    ids=["quotes", "lists", "quotes-and-lists", "ordered-lists"],
)
def test_10000_deep_nesting(tmp_path, prefix):
    head = "# Title\n\nIntro.\n\n"
    make_article(
        tmp_path,
        {
            "en.md": head + prefix + "deep 1234 units\n",
            "ja.md": head + prefix + "深さ 1235 units\n",
        },
    )
    # its speed: bench/bench_time_bounds.py --only deep-nesting
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    (found,) = findings(proc)
    assert found["rule"] == "number-mismatch"
    assert [loc["line"] for loc in found["locations"]] == [5, 5]


def test_10000_nested_html_elements(tmp_path):
    def page(number):
        nested = "<div>" * 10_000 + f"deep {number}" + "</div>" * 10_000
        return "<h1>Title</h1>\n<p>Intro.</p>\n" + nested

    make_article(tmp_path, {"en.html": page(1234), "ja.html": page(1235)})
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    (found,) = findings(proc)
    assert found["rule"] == "number-mismatch"


def _long_list(count: int) -> str:
    return "".join(f"- entry {'x' * (i % 7)}\n" for i in range(count))


def _list_article(parent: Path, count: int) -> Path:
    items = _long_list(count)
    return make_article(
        parent,
        {"en.md": "# List\n\n" + items, "ja.md": "# リスト\n\n" + items[: items.rindex("- entry")]},
    )


def test_20000_item_list(tmp_path):
    """Every rule, the untranslated rule included (it stays linear in list items)."""
    _list_article(tmp_path, 20_000)
    # its speed: bench/bench_time_bounds.py --only long-list
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    shape = [f for f in findings(proc) if f["rule"] == "list-shape"]
    assert len(shape) == 1
    assert "20000" in shape[0]["message"].replace(",", "")
    assert "19999" in shape[0]["message"].replace(",", "")


def test_untranslated_rule_on_a_long_list(tmp_path):
    from parallelcheck.config import Config
    from parallelcheck.discover.sets import discover
    from parallelcheck.engine import CheckOptions
    from parallelcheck.run.pipeline import check_all

    folder = _list_article(tmp_path, 2_500)
    sets = discover([str(folder)], root=str(folder), cwd=os.getcwd())
    # its speed (under 2 s; every other rule together takes ~0.3 s here):
    # bench/bench_time_bounds.py --only untranslated-long-list
    (result,) = check_all(sets, Config(), CheckOptions(jobs=1, select=("untranslated",)))
    # ja keeps en's entries: each with two words (``entry xx``) is a short unit left in
    # English, a warning; none is too short to matter as a copy of en's.  They are most of
    # the list: one finding for them, every item's line in its evidence
    (finding,) = result.findings
    assert (finding.severity, finding.langs) == ("warning", ("ja",))
    assert finding.message.endswith(
        "items of a list in ja, from “entry xx” to “entry xxxxxx”, are in English"
    )
    assert len(finding.evidence["items"]) > 2_499 // 2


@pytest.mark.skipif(
    os.environ.get("PARALLELCHECK_SLOW") != "1", reason="slow (about 45 s): PARALLELCHECK_SLOW=1"
)
def test_50_mb_version_completes(tmp_path):
    source = (SHIPPED / "ja.md").read_bytes()
    repeats = 50 * 1024 * 1024 // len(source) + 1
    folder = make_article(tmp_path, {"en.md": (SHIPPED / "en.md").read_bytes()})
    with open(folder / "ja.md", "wb") as handle:
        for _ in range(repeats):
            handle.write(source)
    # a subprocess, stopped if it hangs (its time and memory: bench/bench_time_bounds.py
    # --only version-50mb)
    proc = process("check", "art", "--format", "json", "--quiet", cwd=tmp_path, timeout=600)
    assert findings(proc)


# ---------------------------------------------------------------------------
# The file system: links, loops, FIFOs, permissions, stray files, duplicates


def test_symlinked_version_file_is_read(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "ja-real.md").write_text(JA, encoding="utf-8")
    folder = make_article(tmp_path, {"en.md": EN})
    (folder / "ja.md").symlink_to(store / "ja-real.md")
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    document = json.loads(proc.stdout)
    assert document["articles"][0]["versions"] == {"en": "art/en.md", "ja": "art/ja.md"}
    rules = sorted(f["rule"] for f in findings(proc))
    assert "missing-table" in rules and "number-mismatch" in rules


def test_symlinked_article_folder_is_read(tmp_path):
    make_article(tmp_path / "elsewhere", {"en.md": EN, "ja.md": JA})
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "linked").symlink_to(tmp_path / "elsewhere" / "art")
    proc = run("check", "articles", "--format", "json", cwd=tmp_path)
    assert [a["id"] for a in json.loads(proc.stdout)["articles"]] == ["linked"]
    assert findings(proc)


def test_symlink_loops_do_not_hang(tmp_path):
    root = tmp_path / "articles"
    make_article(root, {"en.md": EN, "ja.md": JA}, name="a")
    make_article(root, {"en.md": EN, "ja.md": EN}, name="b")
    (root / "a" / "up").symlink_to("..")  # a loop through the root
    (root / "b" / "self").symlink_to(".")  # a folder containing itself
    (root / "a" / "to-b").symlink_to("../b")  # b reached twice: still called b
    (root / "x").symlink_to("y")  # links pointing at each other (ELOOP)
    (root / "y").symlink_to("x")
    (root / "b" / "dangling").symlink_to("nowhere")
    # a subprocess, stopped if it hangs; its speed: bench/bench_time_bounds.py --only symlink-loops
    proc = process("check", "articles", "--format", "json", cwd=tmp_path)
    assert [a["id"] for a in json.loads(proc.stdout)["articles"]] == ["a", "b"]


def test_broken_link_or_fifo_in_a_folder_is_passed_over(tmp_path):
    folder = make_article(tmp_path, {"en.md": EN, "ja.md": EN})
    (folder / "ko.md").symlink_to("missing.md")
    os.mkfifo(folder / "de.md")  # opening it would block for ever
    proc = process("check", "art", "--format", "json", cwd=tmp_path)  # stopped if it blocks
    versions = json.loads(proc.stdout)["articles"][0]["versions"]
    assert versions == {"en": "art/en.md", "ja": "art/ja.md"}


@pytest.mark.parametrize("kind", ["broken-link", "fifo"])
def test_broken_link_or_fifo_given_as_path_stops_the_run(tmp_path, kind):
    folder = make_article(tmp_path, {"en.md": EN})
    if kind == "fifo":
        os.mkfifo(folder / "ja.md")
    else:
        (folder / "ja.md").symlink_to("missing.md")
    proc = process("check", "art/ja.md", cwd=tmp_path)  # stopped if it blocks
    assert_cannot_run(proc, "art/ja.md: not a regular file or directory")


def _permission_bits_stop_reads(path: Path) -> bool:
    try:
        with open(path, "rb"):
            return False
    except PermissionError:
        return True


def test_unreadable_version_is_a_finding(tmp_path):
    folder = make_article(tmp_path, {"en.md": EN, "ja.md": JA})
    (folder / "ja.md").chmod(0)
    try:
        if not _permission_bits_stop_reads(folder / "ja.md"):
            pytest.skip("running as root: permission bits do not stop reads")
        proc = run("check", "art", "--format", "json", cwd=tmp_path)
        unreadable(proc, "art/ja.md", 1, "art/ja.md: cannot be read: permission denied")
    finally:
        (folder / "ja.md").chmod(0o644)


def test_unreadable_folder_stops_the_run(tmp_path):
    root = tmp_path / "articles"
    make_article(root, {"en.md": EN, "ja.md": JA}, name="a")
    locked = make_article(root, {"en.md": EN, "ja.md": JA}, name="b")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: permission bits do not stop reads")
        proc = run("check", "articles", cwd=tmp_path)
        assert_cannot_run(proc, "articles/b", "cannot read directory")
    finally:
        locked.chmod(0o755)


STRAY = {
    "README.md": "# About this folder\n\nNotes for editors, 99 of them.\n",
    "notes.txt": "remember 12 things\n",
    "image.png": PNG,
    ".DS_Store": b"\x00\x00\x00\x01Bud1\x00\x00\x10\x00",
    "index.md": "# Index\n",
    "ja.md~": "# backup 7\n",
    "ja.md.bak": b"\xff\xfe binary-ish backup",
    "Thumbs.db": b"\xd0\xcf\x11\xe0",
    ".ja.md.swp": b"b0VIM 8.2\x00\x00",
}


def test_stray_files_in_an_article_folder_are_ignored(tmp_path):
    clean_folder = make_article(tmp_path / "clean", {"en.md": EN, "ja.md": JA})
    clean = run("check", "art", "--format", "json", cwd=clean_folder.parent)
    messy_folder = make_article(tmp_path / "messy", {"en.md": EN, "ja.md": JA, **STRAY})
    messy = run("check", "art", "--format", "json", cwd=messy_folder.parent)
    assert messy.returncode == clean.returncode == 1
    assert messy.stdout == clean.stdout
    assert messy.stderr == clean.stderr == ""


def test_duplicate_language_versions_use_one_and_name_the_other(tmp_path):
    make_article(
        tmp_path, {"en.md": EN, "ja.md": JA, "ja.txt": "whatever\n", "ja.html": "<p>x</p>"}
    )
    proc = run("check", "art", "--format", "json", cwd=tmp_path)
    assert json.loads(proc.stdout)["articles"][0]["versions"]["ja"] == "art/ja.md"
    same = "another file of article 'art' has the same language"
    assert proc.stderr.strip().splitlines() == [
        f"parallelcheck: note: art/ja.html ignored: {same}",
        f"parallelcheck: note: art/ja.txt ignored: {same}",
    ]


def test_names_that_are_not_utf8_are_written_as_bytes(tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    for name, text in ((b"en.md", EN), (b"ja.md", JA)):
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(text.encode("utf-8"))
    # A strict UTF-8 standard output (as under LANG=en_US.UTF-8) must not fail either.
    strict = {**os.environ, "PYTHONIOENCODING": "utf-8"}

    def check(*args, env=strict):
        command = [sys.executable, "-m", "parallelcheck", "check", b"caf\xe9", *args]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, timeout=TIMEOUT)

    for output_format in ("text", "json"):
        proc = check("--format", output_format)
        assert proc.returncode == 1, proc.stderr
        assert b"caf\xe9/ja.md" in proc.stdout
    written = check("--format", "json", "--output", "report.json")
    assert written.returncode == 1, written.stderr
    assert (tmp_path / "report.json").read_bytes() == proc.stdout


# ---------------------------------------------------------------------------
# Hostile YAML: configuration


def _alias_bomb(last_key: str) -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    previous = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
        previous = name
    lines.append(f"{last_key}: *i")
    return "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path) -> Path:
    """A working directory with articles/ holding one clean article."""
    make_article(tmp_path / "articles", {"en.md": EN, "ja.md": EN})
    return tmp_path


@pytest.mark.parametrize(
    "yaml_text",
    [
        'root: !!python/object/apply:os.system ["touch SENTINEL"]\n',
        "root: !!python/object/new:pathlib.Path [SENTINEL]\n",
        "rules: !!python/name:os.system\n",
        "root: !custom articles\n",
    ],
    ids=["object-apply", "object-new", "name", "local-tag"],
)
def test_config_tags_are_refused(project, yaml_text):
    sentinel = project / "SENTINEL"
    (project / "parallelcheck.yaml").write_text(yaml_text.replace("SENTINEL", str(sentinel)))
    proc = run("check", cwd=project)
    assert_cannot_run(proc, "parallelcheck.yaml:1:", "constructor for the tag")
    assert not sentinel.exists()


@pytest.mark.parametrize("how", ["found", "--config"])
def test_config_alias_bomb_is_refused_fast(project, how):
    (project / "bomb.yaml").write_text(_alias_bomb("languages"))
    if how == "found":
        (project / "bomb.yaml").rename(project / "parallelcheck.yaml")
    # its speed (under 3 s with Python's start-up):
    # bench/bench_time_bounds.py --only config-alias-bomb
    proc = run("check", *(["--config", "bomb.yaml"] if how == "--config" else []), cwd=project)
    assert_cannot_run(proc, ":6: YAML document too large once its aliases are expanded")


def test_config_recursive_alias_is_refused(project):
    (project / "parallelcheck.yaml").write_text("root: articles\nrules: &r {x: *r}\n")
    proc = run("check", cwd=project)
    assert_cannot_run(proc, "parallelcheck.yaml:2:", "recursive alias")


def test_oversized_config_is_refused(project):
    (project / "parallelcheck.yaml").write_text("root: articles\n" + "# padding\n" * 200_000)
    proc = run("check", cwd=project)
    assert_cannot_run(proc, "parallelcheck.yaml: configuration file is too large")


@pytest.mark.parametrize(
    "yaml_text, where, what",
    [
        ("root: articles\nsource: en\nlanguagse: [en, ja]\n", ":3:", "unknown key 'languagse'"),
        ("root: articles\nrules:\n  list-shap: error\n", ":3:", "unknown rule id 'list-shap'"),
        ("rules:\n  list-shape:\n    severty: error\n", ":3:", "unknown option 'severty'"),
        ("links:\n  localised_prefixes: ['/{lang}/']\n", ":2:", "unknown key 'localised_prefixes'"),
        ("root: articles\nroot: docs\n", ":2:", "duplicate key 'root'"),
    ],
    ids=["top-level", "rule-id", "rule-option", "links", "duplicate"],
)
def test_config_unknown_keys_are_rejected_with_line(project, yaml_text, where, what):
    (project / "parallelcheck.yaml").write_text(yaml_text)
    proc = run("check", cwd=project)
    assert_cannot_run(proc, f"parallelcheck.yaml{where}", what)


# ---------------------------------------------------------------------------
# Hostile YAML: glossaries


HOSTILE_GLOSSARIES = {
    "python-tag": (
        "terms:\n  - id: x\n    en: !!python/object/apply:os.system ['touch SENTINEL']\n",
        ":3:",
        "YAML tag",
    ),
    "alias-bomb": (_alias_bomb("terms"), ":6:", "aliases are expanded"),
    "recursive-alias": ("terms: &t [*t]\n", ":1:", "recursive alias"),
    # Glossaries are bounded by term count (200,000) and read up to 64 MB (issue 17, case 9).
    "oversized": ("terms:\n# " + "x" * 64_000_000 + "\n", "", "too large"),
    "unknown-key": ("terms: []\nextra: 1\n", ":2:", "unknown key 'extra'"),
    "unknown-term-key": (
        "terms:\n  - id: x\n    en: {term: a, bogus: b}\n    ja: {term: b}\n",
        ":3:",
        "unknown key 'bogus'",
    ),
}


@pytest.fixture(scope="module")
def glossary_commands(tmp_path_factory) -> list[list[str]]:
    """The commands of this build of the CLI that read ``glossary/terms.yaml`` (skip when there
    is none): those that refuse a glossary that is not even YAML, naming it.  ``check`` alone
    reads the ``glossary/`` folder beside the configuration."""
    project = tmp_path_factory.mktemp("glossary-probe")
    make_article(project / "articles", {"en.md": EN, "ja.md": EN})
    (project / "glossary").mkdir()
    (project / "glossary" / "terms.yaml").write_text("terms: [\n")
    found = []
    for command in (
        ["glossary", "lint", "glossary/terms.yaml"],
        ["check", "--glossary", "glossary/terms.yaml"],
        ["check"],
    ):
        proc = run(*command, cwd=project)
        if proc.returncode == 2 and "glossary/terms.yaml" in proc.stderr + proc.stdout:
            found.append(command)
    if not found:
        pytest.skip("this build of the CLI reads no glossary (glossary loading not wired yet)")
    return found


@pytest.mark.parametrize("case", sorted(HOSTILE_GLOSSARIES))
def test_hostile_glossary_is_refused(project, glossary_commands, case):
    text, where, what = HOSTILE_GLOSSARIES[case]
    sentinel = project / "SENTINEL"
    (project / "glossary").mkdir()
    (project / "glossary" / "terms.yaml").write_text(text.replace("SENTINEL", str(sentinel)))
    for command in glossary_commands:
        # its speed (under 3 s a command): bench/bench_time_bounds.py --only hostile-glossary-cli
        proc = run(*command, cwd=project)
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        said = proc.stdout + proc.stderr
        assert "Traceback" not in said and "internal error" not in said
        assert f"glossary/terms.yaml{where}" in said and what in said, (command, said)
    assert not sentinel.exists()


def test_glossary_entry_points_found(glossary_commands):
    """Which commands read a glossary in this build (printed; skipped when none does)."""
    print("glossary read by:", [" ".join(c) for c in glossary_commands])
    assert glossary_commands


def test_hostile_glossary_loader_in_process(tmp_path):
    """The loader itself, whatever the CLI wires up: every hostile file is an InputError naming
    the file and line, raised fast, and nothing is constructed."""
    glossary = pytest.importorskip("parallelcheck.glossary")
    if not hasattr(glossary, "load_glossaries"):
        pytest.skip("no glossary loader in this build")
    from parallelcheck.errors import InputError

    sentinel = tmp_path / "SENTINEL"
    for case, (text, where, what) in HOSTILE_GLOSSARIES.items():
        path = tmp_path / f"{case}.yaml"
        path.write_text(text.replace("SENTINEL", str(sentinel)))
        # its speed (under 2 s a file): bench/bench_time_bounds.py --only hostile-glossary-loader
        with pytest.raises(InputError) as caught:
            glossary.load_glossaries([str(path)])
        assert caught.value.path == str(path), case
        if where:
            assert caught.value.line == int(where.strip(":")), (case, caught.value.describe())
        assert what in caught.value.message, (case, caught.value.describe())
    assert not sentinel.exists()


# ---------------------------------------------------------------------------
# Writes: atomic, clean failures, inputs untouched


def _snapshot(folder: Path) -> dict[str, tuple]:
    """Content hash, mtime, size and mode of every entry below ``folder`` (but the cache)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if name.startswith(CACHE):
            continue
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        found[name] = (digest, info.st_mtime_ns, info.st_size, info.st_mode)
    return found


def test_inputs_are_never_touched(tmp_path):
    inputs = tmp_path / "inputs"
    shutil.copytree(SHIPPED, inputs / "articles" / ARTICLE)
    make_article(inputs / "articles", {"en.md": EN, "ja.md": JA, "ja.txt": "x\n", "README.md": "x"})
    (inputs / "parallelcheck.yaml").write_text("root: articles\nrules:\n  list-shape: error\n")
    past = time.time() - 3600  # an mtime a rewrite could not reproduce by chance
    for path in inputs.rglob("*"):
        os.utime(path, (past, past))
    before = _snapshot(inputs)
    out = tmp_path / "out"
    out.mkdir()
    baseline = out / "baseline.json"
    runs = [
        ["check"],
        ["check"],  # from the cache, if the build keeps one
        ["check", "--format", "json", "--output", str(out / "r.json")],
        ["check", "--format", "html", "--output", str(out / "r.html")],
        ["check", "--format", "sarif", "--output", str(out / "r.sarif")],
        ["baseline", "-o", str(baseline)],
        ["check", "--baseline", str(baseline), "--jobs", "2", "--no-cache"],
        ["check", "articles/art/ja.md", "--format", "markdown"],
    ]
    for args in runs:
        proc = run(*args, cwd=inputs)
        assert proc.returncode in (0, 1), (args, proc.stderr)
    assert _snapshot(inputs) == before


class _Planted:
    """Unpickling this runs ``open(path, "w")``: the proof that a cache entry ran code."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_cache_entry_planted_in_the_repository_is_never_loaded(tmp_path):
    import pickle

    shutil.copytree(SHIPPED, tmp_path / ARTICLE)
    sentinel = tmp_path / "SENTINEL"
    planted = tmp_path / CACHE / "v1" / "00"
    planted.mkdir(parents=True)
    (planted / ("00" * 32 + ".pickle")).write_bytes(pickle.dumps(_Planted(str(sentinel))))
    run("check", ARTICLE, "--format", "json", cwd=tmp_path)
    run("check", ARTICLE, "--format", "json", cwd=tmp_path)
    assert not sentinel.exists()


@pytest.fixture
def shipped_copy(tmp_path) -> Path:
    shutil.copytree(SHIPPED, tmp_path / ARTICLE)
    return tmp_path


def _make_immutable(folder: Path) -> bool:
    """``chattr +i`` (stops even root from adding files); False when not possible here."""
    if shutil.which("chattr") is None:
        return False
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, timeout=10)
    return done.returncode == 0


@pytest.mark.parametrize("command", ["check", "baseline"])
def test_write_into_read_only_folder_fails_cleanly(shipped_copy, command):
    folder = shipped_copy / "readonly"
    folder.mkdir()
    target = folder / "report.json"
    target.write_text("OLD\n")
    folder.chmod(0o555)
    immutable = False
    try:
        if os.access(folder, os.W_OK):  # root: permission bits do not stop writes
            immutable = _make_immutable(folder)
            if not immutable:
                pytest.skip("running as root and chattr +i is not available: no read-only folder")
        option = ["--format", "json", "--output"] if command == "check" else ["-o"]
        proc = run(command, ARTICLE, *option, "readonly/report.json", cwd=shipped_copy)
        assert_cannot_run(proc, "readonly/report.json: cannot write:")
        assert target.read_text() == "OLD\n"
        assert os.listdir(folder) == ["report.json"]
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True, timeout=10)
        folder.chmod(0o755)


def _disk_full_after(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("command", ["check", "baseline"])
def test_write_failing_midway_keeps_the_old_file(shipped_copy, command):
    """The disk fills up while the report is written (RLIMIT_FSIZE: works as root too)."""
    target = shipped_copy / "report.json"
    target.write_text("OLD\n")
    option = ["--format", "json", "--output"] if command == "check" else ["-o"]
    proc = process(
        command, ARTICLE, *option, "report.json", cwd=shipped_copy, preexec_fn=_disk_full_after(512)
    )
    assert_cannot_run(proc, "report.json: cannot write: File too large")
    assert target.read_text() == "OLD\n"
    assert listing(shipped_copy) == [ARTICLE, "report.json"]
    assert not [p for p in shipped_copy.rglob("*.tmp")], "no temporary file is left"


def test_write_into_missing_folder_fails_cleanly(shipped_copy):
    proc = run("check", ARTICLE, "--output", "no/such/folder/r.txt", cwd=shipped_copy)
    assert_cannot_run(proc, "no/such/folder/r.txt: cannot write: No such file or directory")
    proc = run("baseline", ARTICLE, "-o", f"{ARTICLE}/en.md/b.json", cwd=shipped_copy)
    assert_cannot_run(proc, "en.md/b.json: cannot write: Not a directory")


def test_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    """In process: Ctrl-C between writing the temporary file and renaming it."""
    from parallelcheck import cli

    target = tmp_path / "report.json"
    target.write_text("OLD\n")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cli.write_atomically(str(target), "NEW\n" * 10_000)
    assert target.read_text() == "OLD\n"
    assert os.listdir(tmp_path) == ["report.json"]


def test_output_keeps_permissions_follows_links_and_feeds_fifos(shipped_copy):
    umask = os.umask(0o022)
    os.umask(umask)
    # a new file: 0666 less the umask, like any other tool's output
    proc = run("check", ARTICLE, "--output", "new.txt", cwd=shipped_copy)
    assert proc.returncode == 1, proc.stderr
    assert stat.S_IMODE((shipped_copy / "new.txt").stat().st_mode) == 0o666 & ~umask
    # a replaced file keeps its mode
    kept = shipped_copy / "kept.txt"
    kept.write_text("OLD\n")
    kept.chmod(0o640)
    run("check", ARTICLE, "--output", "kept.txt", cwd=shipped_copy)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    assert kept.read_text() != "OLD\n"
    # a symbolic link is followed: the file it points to gets the report, the link stays
    real = shipped_copy / "real.json"
    real.write_text("OLD\n")
    (shipped_copy / "link.json").symlink_to("real.json")
    run("check", ARTICLE, "--format", "json", "--output", "link.json", cwd=shipped_copy)
    assert (shipped_copy / "link.json").is_symlink()
    assert json.loads(real.read_text())["schema"] == "parallelcheck/findings/v1"
    # a FIFO (as /dev/stdout may be) is written to, not replaced
    fifo = shipped_copy / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = run("check", ARTICLE, "--format", "json", "--output", "pipe", cwd=shipped_copy)
    reader.join(timeout=TIMEOUT)
    assert proc.returncode == 1, proc.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(received[0])["findings"]
