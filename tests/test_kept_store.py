"""Facts of installed language data kept between runs: the tables
(:mod:`parallelcheck.text.kept`), the CLDR data (:mod:`parallelcheck.text.cldr`) and the
store in the cache folder (:mod:`parallelcheck.run.kept_store`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from parallelcheck.run.cache import KEPT
from parallelcheck.run.kept_store import MAX_BYTES, NAME, KeptStore
from parallelcheck.text import cldr
from parallelcheck.text.dates import date_profile
from parallelcheck.text.kept import KeptTable, KeptTables
from parallelcheck.text.numerals import grouping_of

LANGS = ["en", "de", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh_Hant", "fa", "hi"]


@pytest.fixture
def fresh_tables(monkeypatch) -> KeptTables:
    """The CLDR module with tables of its own and nothing cached."""
    tables = KeptTables()
    monkeypatch.setattr(cldr, "TABLES", tables)
    cldr.locale_data.cache_clear()
    yield tables
    cldr.locale_data.cache_clear()


@pytest.mark.parametrize("lang", LANGS)
def test_kept_cldr_data_reads_back_as_babel_gives_it(lang, fresh_tables):
    made = cldr.locale_data(lang)
    table = fresh_tables.table(cldr.TABLE, cldr.tag())
    assert table.added and made is not None
    entry = json.loads(json.dumps(table.get(lang)))  # as a store writes and reads it
    again = KeptTables()
    again.give({cldr.TABLE: (cldr.tag(), {lang: entry})})
    cldr.TABLES = again  # the fixture restores the module's tables
    cldr.locale_data.cache_clear()
    assert cldr.locale_data(lang) == made
    assert not again.table(cldr.TABLE, cldr.tag()).added  # nothing made afresh


def test_the_data_is_babels(fresh_tables):
    from babel import Locale

    data = cldr.locale_data("ru")
    locale = Locale.parse("ru")
    assert data.months["format"]["wide"][8] == locale.months["format"]["wide"][8] == "августа"
    assert data.skeletons["yMMMMd"] == locale.datetime_skeletons["yMMMMd"].pattern
    assert grouping_of("hi") == (3, 2) and grouping_of("en") == (3, 3)
    assert cldr.locale_data("qqq") is None  # no locale: kept as such
    assert fresh_tables.table(cldr.TABLE, cldr.tag()).get("qqq", "missing") is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: {**entry, "hour_periods": entry["hour_periods"][:3]},
        lambda entry: {**entry, "grouping": ["3", 3]},
        lambda entry: {**entry, "months": {"format": {"wide": {"one": "January"}}}},
        lambda entry: {**entry, "skeletons": {"yMMMMd": 7}},
        lambda entry: {k: v for k, v in entry.items() if k != "days"},
        lambda entry: "not an entry",
    ],
)
def test_a_damaged_cldr_entry_is_made_afresh_and_replaced(damage, fresh_tables):
    good_entry = KeptTables()
    cldr.TABLES = good_entry
    good = cldr.locale_data("de")
    entry = good_entry.table(cldr.TABLE, cldr.tag()).get("de")
    damaged = KeptTables()
    damaged.give({cldr.TABLE: (cldr.tag(), {"de": damage(entry)})})
    cldr.TABLES = damaged
    cldr.locale_data.cache_clear()
    assert cldr.locale_data("de") == good
    table = damaged.table(cldr.TABLE, cldr.tag())
    assert table.added and table.get("de") == entry


def test_a_kept_no_locale_is_believed_only_where_babel_ships_none(fresh_tables):
    fresh_tables.give({cldr.TABLE: (cldr.tag(), {"de": None, "qqq": None})})
    assert cldr.locale_data("qqq") is None
    data = cldr.locale_data("de")  # babel has German: read, and the entry replaced
    assert data is not None and data.months["format"]["wide"][3] == "März"
    assert fresh_tables.table(cldr.TABLE, cldr.tag()).get("de") is not None


def test_a_table_kept_under_another_tag_is_not_used():
    tables = KeptTables()
    tables.give({"t": ("babel 0.1", {"x": 1}), "u": ("v", {"y": 2})})
    assert tables.table("t", "babel 9.9").entries == {}  # made from other data
    assert tables.table("u", "v").get("y") == 2
    # a table never asked for is written again as given; one asked for as it is now
    kept = tables.to_keep()
    assert {name: (table.tag, table.entries) for name, table in kept.items()} == {
        "t": ("babel 9.9", {}),
        "u": ("v", {"y": 2}),
    }
    assert tables.added() == {}
    tables.table("t", "babel 9.9").put("x", 2)
    assert list(tables.added()) == ["t"]


def test_date_profiles_made_from_kept_data_are_the_same(fresh_tables):
    langs = ["en", "de", "ja", "ru", "zh", "ko", "tr"]
    made = {lang: date_profile.__wrapped__(lang) for lang in langs}
    kept = {
        name: (table.tag, json.loads(json.dumps(table.entries)))
        for name, table in fresh_tables.added().items()
    }
    again = KeptTables()
    again.give(kept)
    cldr.TABLES = again
    cldr.locale_data.cache_clear()
    assert {lang: date_profile.__wrapped__(lang) for lang in langs} == made
    assert again.added() == {}


def _store(tmp_path: Path, document: object) -> KeptStore:
    store = KeptStore(tmp_path)
    store.path.parent.mkdir(mode=0o700, parents=True)
    store.path.write_text(json.dumps(document), encoding="ascii")
    store.path.chmod(0o600)
    return store


def test_the_store_gives_back_what_it_kept(tmp_path):
    table = KeptTable("babel 2", {"b": [1, "x"], "a": None})
    store = KeptStore(tmp_path)
    store.save({"t": table})
    assert store.path == tmp_path / KEPT / NAME
    assert store.path.stat().st_mode & 0o077 == 0
    assert store.load() == {"t": ("babel 2", {"a": None, "b": [1, "x"]})}


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(version=99),
        lambda d: d.update(format="something else"),
        lambda d: d.update(tables=[1]),
        lambda d: d["tables"].update(t={"tag": 3, "entries": {}}),
        lambda d: d["tables"].update(t={"tag": "x", "entries": []}),
    ],
)
def test_a_store_not_well_formed_is_ignored(tmp_path, change):
    store = KeptStore(tmp_path / "a")
    store.save({"t": KeptTable("babel 2", {"a": 1})})
    document = json.loads(store.path.read_text(encoding="ascii"))
    change(document)
    assert _store(tmp_path / "b", document).load() == {}


def test_a_store_file_not_to_be_trusted_is_not_read(tmp_path):
    document = {"format": "parallelcheck-language-data", "version": 1, "tables": {}}
    document["tables"]["t"] = {"tag": "x", "entries": {"a": 1}}
    writable = _store(tmp_path / "writable", document)
    assert writable.load() == {"t": ("x", {"a": 1})}
    writable.path.chmod(0o666)
    assert writable.load() == {}
    writable.path.chmod(0o600)
    linked = _store(tmp_path / "linked", {})
    linked.path.unlink()
    linked.path.symlink_to(writable.path)
    assert linked.load() == {}
    big = _store(tmp_path / "big", document)
    with big.path.open("ab") as handle:
        handle.truncate(MAX_BYTES + 1)
    assert big.load() == {}


_NOTHING_LOADED = """
import sys
from parallelcheck.cli import main
try:
    sys.argv = ["parallelcheck", "check", sys.argv[1], "--format", "json", "--no-cache"]
    main()
except SystemExit:
    pass
from babel import localedata
print(sorted(localedata._cache), "opencc" in sys.modules, file=sys.stderr)
"""


def _check(cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-c", _NOTHING_LOADED, str(REPO / "articles")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_second_run_loads_no_cldr_locale_and_no_conversion_with_the_same_output(tmp_path):
    cache = tmp_path / "cache"
    first = _check(cache)
    stored = cache / KEPT / NAME
    kept = stored.read_bytes()
    assert first.stderr.strip().endswith("True")  # the first run loaded locales and OpenCC
    second = _check(cache)
    assert second.stdout == first.stdout and '"findings"' in second.stdout
    # babel's language tag list is all the second run reads of it (the root locale)
    assert second.stderr.strip().splitlines()[-1] == "[] False"
    assert stored.read_bytes() == kept  # nothing new worked out: the file is not written
    tables = KeptStore(cache).load()
    assert set(tables) == {"cldr", "opencc-other-script"}
    assert set(tables["cldr"][1]) == {"en", "ja", "ko", "zh"}
