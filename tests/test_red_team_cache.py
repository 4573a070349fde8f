"""Red team: a result cache that cannot lie or be planted (issue 17, case 10).

* A planted pickle where a real article's entry would be is never loaded: entries are plain
  JSON, read field by field, so no code runs and the article is checked afresh.
* An entry of valid JSON but the wrong shape (or another key, format or version) is a miss,
  with the same findings as without the cache.
* A version edited between the key's read and the check's read never leaves a stale entry:
  a result is stored under the key of the bytes it was checked from.
* The cache folders are created 0700, entries 0600; an entry writable by others, owned by
  another user, or a symbolic link, and any entry in a folder writable by others, is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, invoke

from parallelcheck.config import Config
from parallelcheck.engine import CheckOptions
from parallelcheck.errors import InputError
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.finding import Finding
from parallelcheck.readers import content, read_document
from parallelcheck.run import cache as cache_module
from parallelcheck.run import workers
from parallelcheck.run.cache import LAYOUT, Cache, decode_result
from parallelcheck.run.pipeline import check_all, check_set

EN = (
    "# Serving\n\nDeepInfer serves 131,072 tokens on 8 GPUs.\n\n"
    "## Setup\n\nInstall it with 2 commands.\n\n## Limits\n\nAt most 16 requests.\n"
)
JA = (
    "# サービング\n\nDeepInfer は 8 基の GPU で 131,072 トークンを扱います。\n\n"
    "## 設定\n\n2 つのコマンドで入れます。\n\n## 制限\n\n最大 16 件の要求。\n"
)
JA_WITHOUT_SETUP = JA.replace("## 設定\n\n2 つのコマンドで入れます。\n\n", "")
JA_CHANGED = JA.replace("131,072", "65,536")


class _Planted:
    """Unpickling this runs ``open(path, "w")``: the proof that a cache entry ran code."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _sets(root: Path, count: int = 1) -> list[ArticleSet]:
    """``count`` articles (``art0`` …) with en and ja versions; the first ja has a number
    change, so that there are findings to get wrong."""
    sets = []
    for index in range(count):
        folder = root / f"art{index}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "en.md").write_text(EN, encoding="utf-8")
        (folder / "ja.md").write_text(JA_CHANGED if index == 0 else JA, encoding="utf-8")
        versions = {"en": str(folder / "en.md"), "ja": str(folder / "ja.md")}
        sets.append(ArticleSet(f"art{index}", versions))
    return sets


def _check(sets: list[ArticleSet], cache: Cache | None, jobs: int = 1) -> list[tuple]:
    """(outline, findings) of every article, as the command line gets them."""
    results = check_all(sets, Config(), CheckOptions(jobs=jobs), cache, outlines=True)
    return [(result.outline, result.findings) for result in results]


def _fresh(sets: list[ArticleSet]) -> list[tuple]:
    return _check(sets, None)


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / LAYOUT).rglob("*.json"))


def _reads(monkeypatch) -> list[str]:
    """Record every read the check makes of a version (the key's read is not one of them)."""
    seen: list[str] = []
    real = content.read_bytes

    def counting(path, within=None):
        seen.append(path)
        return real(path, within)

    monkeypatch.setattr(content, "read_bytes", counting)
    return seen


# ---------------------------------------------------------------------------
# (a) a planted pickle is never loaded


def test_a_planted_pickle_entry_is_never_loaded_and_the_article_is_checked_afresh(
    tmp_path, monkeypatch
):
    sets = _sets(tmp_path / "articles")
    folder = tmp_path / "cache"
    expected = _fresh(sets)
    assert _check(sets, Cache(folder)) == expected
    (entry,) = _entries(folder)
    marker = tmp_path / "MARKER"
    planted = pickle.dumps(_Planted(str(marker)))
    entry.write_bytes(planted)  # the user's own file, 0600: only its format protects
    old = folder / "v1" / entry.parent.name / f"{entry.stem}.pickle"  # the earlier layout
    old.parent.mkdir(parents=True)
    old.write_bytes(planted)
    reads = _reads(monkeypatch)
    assert _check(sets, Cache(folder)) == expected
    assert not marker.exists()
    assert reads, "the article was not checked afresh"
    assert decode_result(entry.stem, json.loads(entry.read_bytes()))[1] == expected[0][1]
    assert Cache(folder).get(entry.stem) is not None  # replaced by a good entry
    assert Cache(folder).usage()[0] == 2  # cache info counts the old pickle …
    assert Cache(folder).clear()[0] == 2  # … and cache clear removes it, unread
    assert not old.exists() and not marker.exists()


def test_the_cache_module_cannot_unpickle():
    assert not hasattr(cache_module, "pickle")
    source = Path(cache_module.__file__).read_text(encoding="utf-8")
    assert "import pickle" not in source and "marshal" not in source


def run(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    """The command line in ``cwd``, through its entry point in this process, caching into
    ``cache``."""
    return invoke(*args, cwd=cwd, env={"PARALLELCHECK_CACHE_DIR": str(cache)})


def test_planted_pickles_through_the_command_line_give_byte_identical_output(tmp_path):
    project = tmp_path / "project"
    _sets(project / "articles", count=3)  # small: twelve runs follow; art0 has a finding
    folder = tmp_path / "cache"
    cold = run("check", "--format", "json", cwd=project, cache=folder)
    entries = _entries(folder)
    assert entries and cold.returncode == 1
    marker = tmp_path / "MARKER"
    for entry in entries:
        entry.write_bytes(pickle.dumps(_Planted(str(marker))))
    for output_format in ("json", "text", "sarif", "github", "markdown"):
        warm = run("check", "--format", output_format, cwd=project, cache=folder)
        bypass = run("check", "--format", output_format, "--no-cache", cwd=project, cache=folder)
        assert warm.stdout == bypass.stdout and warm.returncode == bypass.returncode == 1
    assert not marker.exists()
    assert run("check", "--format", "json", cwd=project, cache=folder).stdout == cold.stdout


# ---------------------------------------------------------------------------
# (b) valid JSON of the wrong shape is a miss


def _good_entry(tmp_path: Path) -> tuple[list[ArticleSet], Path, Path, dict]:
    sets = _sets(tmp_path / "articles")
    folder = tmp_path / "cache"
    _check(sets, Cache(folder))
    (entry,) = _entries(folder)
    return sets, folder, entry, json.loads(entry.read_bytes())


def _first_finding(entry: dict) -> dict:
    return entry["findings"][0]


def _first_cell(entry: dict) -> list:
    return next(c for c in entry["article"]["sections"][0].values() if c is not None)


def _replaced(value: object):
    return lambda entry: value


def _edited(edit):
    def change(entry: dict) -> dict:
        edit(entry)
        return entry

    return change


#: Name → how a good entry (a dict, changed in place) becomes valid JSON of the wrong shape.
WRONG_SHAPES = {
    "a list": _replaced([]),
    "null": _replaced(None),
    "a string": _replaced("parallelcheck-cache"),
    "an empty object": _replaced({}),
    "version 1": _edited(lambda e: e.update(version=1)),
    "another format": _edited(lambda e: e.update(format="pickle")),
    "another key": _edited(lambda e: e.update(key="0" * 64)),
    "an id that is a number": _edited(lambda e: e["article"].update(id=5)),
    "langs as a string": _edited(lambda e: e["article"].update(langs="en")),
    "a version without a path": _edited(lambda e: e["article"].update(paths={})),
    "no findings": _edited(lambda e: e.pop("findings")),
    "a finding that is a list": _edited(lambda e: e["findings"].append([])),
    "a line that is a string": _edited(
        lambda e: _first_finding(e)["locations"][0].__setitem__(2, "7")
    ),
    "a line that is true": _edited(
        lambda e: _first_finding(e)["locations"][0].__setitem__(2, True)
    ),
    "a short location": _edited(lambda e: _first_finding(e)["locations"][0].pop()),
    "evidence that is a list": _edited(lambda e: _first_finding(e).update(evidence=[])),
    "a severity that is null": _edited(lambda e: _first_finding(e).update(severity=None)),
    "a negative block count": _edited(lambda e: _first_cell(e).__setitem__(4, -1)),
    "a level that is a float": _edited(lambda e: _first_cell(e).__setitem__(0, 1.0)),
    "a section as an object": _edited(
        lambda e: e["article"]["sections"][0].update(en={"level": 0, "title": ""})
    ),
    "a long section": _edited(lambda e: _first_cell(e).append(0)),
    "a fault without a reason": _edited(
        lambda e: e["article"]["unreadable"].append({"lang": "ja", "path": "x", "line": 1})
    ),
}


@pytest.mark.parametrize("shape", list(WRONG_SHAPES))
def test_an_entry_of_the_wrong_shape_is_a_miss_with_the_same_findings(tmp_path, shape):
    sets, folder, entry, good = _good_entry(tmp_path)
    assert good["findings"], "the article has findings to get wrong"
    wrong = WRONG_SHAPES[shape](json.loads(json.dumps(good)))
    entry.write_text(json.dumps(wrong), encoding="ascii")
    assert _check(sets, Cache(folder)) == _fresh(sets)
    assert json.loads(entry.read_bytes()) == good  # the bad entry was replaced


def test_damaged_bytes_and_deep_nesting_are_misses(tmp_path):
    sets, folder, entry, good = _good_entry(tmp_path)
    for damaged in (b"", b"\xff\xfe\x00", b"{" * 100_000, entry.read_bytes()[:-1]):
        entry.write_bytes(damaged)
        assert _check(sets, Cache(folder)) == _fresh(sets)
        assert json.loads(entry.read_bytes()) == good


def test_a_result_plain_json_cannot_hold_exactly_is_not_stored(tmp_path):
    cache = Cache(tmp_path)
    (article, findings), = _fresh(_sets(tmp_path / "articles"))  # fmt: skip
    odd = Finding("x", "art0", "", ("ja",), ("en",), (), "m", {"pair": (1, 2)})
    assert not cache.put("ab" * 32, article, [*findings, odd])
    assert not cache.put("ab" * 32, article, [Finding("x", "a", "", ["ja"], (), (), "m")])
    assert not list(tmp_path.rglob("*.json")) and cache.get("ab" * 32) is None
    assert cache.put("ab" * 32, article, findings)
    assert cache.get("ab" * 32) == (article, findings)
    assert cache.get("../" + "ab" * 31) is None  # not a key: never a path


def test_an_outline_read_back_equals_the_fresh_one_for_every_article_of_the_repository():
    from parallelcheck.config import load_config
    from parallelcheck.discover.sets import discover
    from parallelcheck.rules import REGISTRY

    config = load_config(None, cwd=str(REPO), known_rules=REGISTRY)
    sets = discover([str(REPO / "articles"), str(REPO / "tests" / "cases")], cwd=str(REPO))
    options = CheckOptions(glossaries=(str(REPO / "glossary"),))
    for result in check_all(sets, config, options):
        outline = result.outline_only()
        entry = cache_module.encode_result("ab" * 32, outline.outline, outline.findings)
        again = decode_result("ab" * 32, json.loads(json.dumps(entry)))
        assert again == (outline.outline, outline.findings), result.article.id
        places = [(f.section_row, f.block_row) for f in outline.findings]
        assert [(f.section_row, f.block_row) for f in again[1]] == places  # not compared


# ---------------------------------------------------------------------------
# (c) a version edited during the run leaves no stale entry


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_edited_between_the_key_and_the_read_leaves_no_stale_entry(
    tmp_path, monkeypatch, jobs
):
    sets = _sets(tmp_path / "articles", count=4)  # four: two jobs start workers
    target = Path(sets[1].versions["ja"])
    edited = tmp_path / "edited"  # a file, so that forked workers see it too
    real = content.read_bytes

    def editing(path, within=None):
        if path == str(target) and not edited.exists():
            edited.touch()
            target.write_text(JA_WITHOUT_SETUP, encoding="utf-8")  # after the key was taken
        return real(path, within)

    monkeypatch.setattr(content, "read_bytes", editing)
    folder = tmp_path / "cache"
    during = _check(sets, Cache(folder), jobs)
    assert edited.exists()
    monkeypatch.undo()
    removed = _fresh(sets)  # the section is gone from ja now
    assert during == removed  # what was read is what was reported
    assert any(f.rule == "missing-section" for f in removed[1][1])

    reads = _reads(monkeypatch)
    assert _check(sets, Cache(folder), jobs) == removed
    assert reads == [], "the entry stored during the run is that of the file as it was read"

    target.write_text(JA, encoding="utf-8")  # the bytes the first run's key was taken from
    restored = _fresh(sets)
    assert not any(f.rule == "missing-section" for f in restored[1][1])
    reads.clear()
    assert _check(sets, Cache(folder), jobs) == restored  # no entry claimed these bytes
    assert sorted(reads) == sorted([str(target), sets[1].versions["en"]])  # art1 alone
    # Four entries for the articles as they are now, and one for art1 as the first run read it.
    assert len(_entries(folder)) == 5


def test_a_file_gone_when_it_is_checked_leaves_no_entry(tmp_path, monkeypatch):
    sets = _sets(tmp_path / "articles")
    target = Path(sets[0].versions["ja"])
    real = content.read_bytes

    def vanishing(path, within=None):
        if path == str(target):
            target.unlink()
        return real(path, within)

    monkeypatch.setattr(content, "read_bytes", vanishing)
    folder = tmp_path / "cache"
    ((_, findings),) = _check(sets, Cache(folder))
    assert [f.rule for f in findings] == ["unreadable-version"]
    monkeypatch.undo()
    assert _entries(folder) == []
    target.write_text(JA_CHANGED, encoding="utf-8")
    assert _check(sets, Cache(folder)) == _fresh(sets)


def test_a_document_read_ahead_carries_the_digest_of_the_bytes_it_was_read_from(tmp_path):
    (article,) = _sets(tmp_path / "articles")
    ahead = workers.read_ahead([article], lambda: True)  # as the main process does
    ja = Path(article.versions["ja"])
    ja.write_text(JA, encoding="utf-8")  # edited after it was read ahead
    result = check_set(article, Config(), CheckOptions(), ahead=ahead)
    assert any(f.rule == "number-mismatch" for f in result.findings)  # the bytes read ahead …
    assert result.digests == {  # … are those the result says it was checked from
        "en": hashlib.sha256(EN.encode("utf-8")).digest(),
        "ja": hashlib.sha256(JA_CHANGED.encode("utf-8")).digest(),
    }


def test_a_version_is_parsed_from_the_bytes_it_is_hashed_from(tmp_path):
    samples = {
        "plain.md": EN.encode("utf-8"),
        "crlf.md": EN.replace("\n", "\r\n").encode("utf-8"),
        "bom.md": b"\xef\xbb\xbf" + EN.encode("utf-8"),
        "two-boms.md": b"\xef\xbb\xbf" + "\ufeff".encode() + EN.encode("utf-8"),
        "utf16.md": EN.encode("utf-16"),
        "page.html": b"<h1>Serving</h1><p>8 GPUs</p><h2>Setup</h2><p>Install.</p>",
        "notes.txt": b"Serving\n=======\n\n8 GPUs.\n",
        "bad.md": b"# T\n\n\xff\xfe bad\n",
        "binary.md": b"\x00\x01\x02PNG",
        "odd.rst": b"Title\n",
    }
    for name, data in samples.items():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            expected = read_document(str(path), "en")
        except InputError as error:
            with pytest.raises(InputError) as raised:
                content.read_version(str(path), "en")
            assert (raised.value.message, raised.value.line) == (error.message, error.line)
        else:
            assert content.read_version(str(path), "en") == expected, name
        digest = content.take_digests({"en": str(path)})["en"]
        if name == "odd.rst":
            assert digest is None  # refused before it is read
        else:
            assert digest == cache_module.file_digest(str(path)), name
    assert content.take_digests({"en": str(tmp_path / "gone.md")}) == {"en": None}


# ---------------------------------------------------------------------------
# (d) private folders; entries of others, or writable by others, are ignored


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _plant_message(entry: Path) -> None:
    """Rewrite the entry's first finding's message, as someone who can write it could."""
    data = json.loads(entry.read_bytes())
    data["findings"][0]["message"] = "PLANTED"
    entry.write_text(json.dumps(data), encoding="ascii")


def _reported(sets: list[ArticleSet], folder: Path) -> list[str]:
    return [f.message for _, findings in _check(sets, Cache(folder)) for f in findings]


def test_the_cache_folder_is_created_private_and_entries_0600(tmp_path):
    sets = _sets(tmp_path / "articles")
    folder = tmp_path / "deep" / "cache"
    _check(sets, Cache(folder))
    (entry,) = _entries(folder)
    assert _mode(folder) == _mode(folder / LAYOUT) == _mode(entry.parent) == 0o700
    assert _mode(entry) == 0o600
    assert not list(folder.rglob(".tmp-*"))


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_an_entry_writable_by_others_is_ignored(tmp_path, mode):
    sets, folder, entry, _ = _good_entry(tmp_path)
    _plant_message(entry)
    assert "PLANTED" in _reported(sets, folder)  # a private entry of one's own is trusted …
    _plant_message(entry)
    entry.chmod(mode)
    assert _check(sets, Cache(folder)) == _fresh(sets)  # … one others may write is not
    assert "PLANTED" not in entry.read_text(encoding="ascii") and _mode(entry) == 0o600


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_an_entry_owned_by_another_user_is_ignored(tmp_path):
    sets, folder, entry, _ = _good_entry(tmp_path)
    _plant_message(entry)
    os.chown(entry, 54321, 54321)
    assert _check(sets, Cache(folder)) == _fresh(sets)
    assert os.lstat(entry).st_uid == os.getuid()  # replaced by the user's own
    shard = entry.parent
    _plant_message(entry)
    os.chown(shard, 54321, 54321)  # a shard folder of another user: nothing in it is read
    assert _check(sets, Cache(folder)) == _fresh(sets)
    assert "PLANTED" in entry.read_text(encoding="ascii")  # nor written


def test_entries_in_a_folder_writable_by_others_are_ignored_and_none_is_written(tmp_path):
    sets, folder, entry, _ = _good_entry(tmp_path)
    _plant_message(entry)
    entry.parent.chmod(0o777)
    assert _check(sets, Cache(folder)) == _fresh(sets)
    assert "PLANTED" in entry.read_text(encoding="ascii")  # left alone: not read, not written
    entry.parent.chmod(0o700)
    (folder / LAYOUT).chmod(0o757)
    assert _check(sets, Cache(folder)) == _fresh(sets)


def test_a_symbolic_link_as_an_entry_is_ignored(tmp_path):
    sets, folder, entry, _ = _good_entry(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    _plant_message(entry)
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert _check(sets, Cache(folder)) == _fresh(sets)
    assert not entry.is_symlink() and "PLANTED" not in entry.read_text(encoding="ascii")
