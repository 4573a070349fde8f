"""The language model kept decompressed in the cache folder between runs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from parallelcheck.run.cache import Cache
from parallelcheck.run.model_store import ModelStore
from parallelcheck.text import langid as identifier

_TEXTS = ("Die Anfrage wird gelesen", "The request body is read", "Le corps de la requête")
_NAME = "py3langid-" + "0" * 32 + ".npz"
#: A paragraph a German version leaves in English, long enough to be put to py3langid.
_LEFT_IN_ENGLISH = "The request body is read by the server and then checked against the schema."


@pytest.fixture(scope="module")
def archive() -> tuple[str, bytes]:
    """The model's name in a store and its archive decompressed."""
    packed = identifier._packed()
    assert packed is not None
    raw = identifier._decompress(packed)
    assert raw is not None
    return identifier._stored_name(packed), raw


def _guesses(model) -> list[tuple[str, float]]:
    model.set_languages(["de", "en", "fr"])
    return [model.classify(text) for text in _TEXTS]


def _load_counting(store: ModelStore, monkeypatch) -> tuple[object, list[bytes]]:
    """The identifier :func:`identifier._load` gives with *store*, and the archives it
    decompressed meanwhile."""
    decompressed: list[bytes] = []
    real = identifier._decompress

    def counting(packed: bytes, stop=None):
        decompressed.append(packed)
        return real(packed, stop)

    monkeypatch.setattr(identifier, "_decompress", counting)
    return identifier._load(store), decompressed


def test_the_first_load_stores_the_model_and_the_next_maps_it(tmp_path, monkeypatch, archive):
    name, raw = archive
    store = ModelStore(tmp_path)
    first, decompressed = _load_counting(store, monkeypatch)
    assert len(decompressed) == 1
    stored = tmp_path / "models" / name
    assert stored.read_bytes() == raw
    assert stored.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "models").stat().st_mode & 0o777 == 0o700
    second, decompressed = _load_counting(store, monkeypatch)
    assert decompressed == []  # mapped, not decompressed again
    assert _guesses(second) == _guesses(first) == _guesses(identifier._own_loader())


def test_a_damaged_stored_model_is_decompressed_again_and_replaced(tmp_path, monkeypatch, archive):
    name, raw = archive
    folder = tmp_path / "models"
    folder.mkdir(mode=0o700)
    damaged_files = [raw[: len(raw) // 2], b"", b"PK\x03\x04" + b"\x00" * 100, raw[::-1]]
    # the archive whole, an array's header not: no key, no type, no header at all
    for header, broken in (
        (b"{'descr'", b"{'dtype'"),
        (b"'descr': '<f2'", b"'descr': 'zz'"),
        (b"{'descr': '<f2', 'fortran_order'", b"{'descr': '<f2'; 'fortran_order'"),
    ):
        assert header in raw
        damaged_files.append(raw.replace(header, broken, 1))
    for damaged in damaged_files:
        (folder / name).write_bytes(damaged)
        os.chmod(folder / name, 0o600)
        model, decompressed = _load_counting(ModelStore(tmp_path), monkeypatch)
        assert len(decompressed) == 1
        assert (folder / name).read_bytes() == raw
        assert _guesses(model) == _guesses(identifier._own_loader())


@pytest.mark.skipif(os.name != "posix", reason="owner and mode bits are POSIX")
def test_a_stored_model_others_may_write_or_a_link_is_not_read(tmp_path, archive):
    name, raw = archive
    folder = tmp_path / "models"
    folder.mkdir(mode=0o700)
    (folder / name).write_bytes(raw)
    os.chmod(folder / name, 0o620)  # writable by the group
    assert ModelStore(tmp_path).get(name) is None
    os.chmod(folder / name, 0o600)
    assert ModelStore(tmp_path).get(name) is not None
    elsewhere = tmp_path / "elsewhere.npz"
    (folder / name).rename(elsewhere)
    (folder / name).symlink_to(elsewhere)
    assert ModelStore(tmp_path).get(name) is None
    (folder / name).unlink()
    (folder / name).write_bytes(raw)
    os.chmod(folder / name, 0o600)
    os.chmod(folder, 0o770)  # a folder the group may write to
    assert ModelStore(tmp_path).get(name) is None
    # nothing is written into it either
    ModelStore(tmp_path).put(_NAME, b"archive")
    assert not (folder / _NAME).exists()


def test_a_name_that_is_not_a_model_s_is_neither_read_nor_written(tmp_path):
    store = ModelStore(tmp_path)
    for name in ("../escape.npz", "py3langid-abc.npz", "model.npz", ".tmp-1.npz"):
        store.put(name, b"archive")
        assert store.get(name) is None
    assert not (tmp_path / "escape.npz").exists()
    assert not (tmp_path / "models").exists()  # nothing written: not even the folder


def test_storing_a_model_removes_the_other_models_only(tmp_path):
    store = ModelStore(tmp_path)
    older = "py3langid-" + "1" * 32 + ".npz"
    store.put(older, b"an earlier model")
    (tmp_path / "models" / "notes.txt").write_text("kept")
    store.put(_NAME, b"this model")
    assert sorted(path.name for path in (tmp_path / "models").iterdir()) == ["notes.txt", _NAME]


@pytest.mark.skipif(os.name != "posix", reason="a read-only folder is a POSIX mode here")
def test_a_folder_that_cannot_be_written_only_costs_the_saving(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        (tmp_path / "models").write_text("a file where the folder would be")
    else:
        os.chmod(tmp_path, 0o500)
    store = ModelStore(tmp_path)
    model, decompressed = _load_counting(store, monkeypatch)
    assert len(decompressed) == 1
    assert _guesses(model) == _guesses(identifier._own_loader())
    assert store.get(identifier._stored_name(identifier._packed() or b"")) is None


def test_cache_info_counts_the_stored_model_and_cache_clear_removes_it(tmp_path):
    store = ModelStore(tmp_path)
    store.put(_NAME, b"x" * 1000)
    cache = Cache(tmp_path)
    assert cache.usage() == (1, 1000)
    assert cache.clear(older_than_days=1) == (0, 0)  # used just now: kept
    assert cache.clear() == (1, 1000)
    assert not (tmp_path / "models").exists()


def test_a_check_stores_the_model_and_the_next_check_reads_no_archive(tmp_path):
    """Two runs of the command in new processes with one cache folder, ``--no-cache`` (the
    stored model is no result): the first decompresses the shipped archive, the second maps
    what the first stored, and both report the same."""
    for index in range(3):
        folder = tmp_path / "articles" / f"a{index}"
        folder.mkdir(parents=True)
        (folder / "en.md").write_text("# Title\n\nThe request body is read by the server.\n")
        (folder / "de.md").write_text("# Titel\n\nThe request body is read by the server.\n")
    code = f"""
        import contextlib, io
        from parallelcheck.text import langid as identifier
        from parallelcheck.cli import cli
        reads = []
        real = identifier._decompress
        identifier._decompress = lambda packed, stop=None: reads.append(1) or real(packed, stop)
        out = io.StringIO()
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(out):
            cli.main(["check", {str(tmp_path / "articles")!r}, "--no-cache", "--format", "json"])
        print(len(reads), identifier.is_loaded(), '"untranslated"' in out.getvalue())
        print(out.getvalue())
        """
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n", 1)
        for _ in range(2)
    ]
    assert [summary for summary, _ in runs] == ["1 True True", "0 True True"]
    assert runs[0][1] == runs[1][1]
    assert [path.name for path in (tmp_path / "cache" / "models").iterdir()] == [
        identifier._stored_name(identifier._packed() or b"")
    ]
    assert not (tmp_path / "cache" / "v2").exists()  # --no-cache: no result stored


def test_the_stored_model_s_name_follows_the_shipped_archive():
    assert identifier._stored_name(b"one") != identifier._stored_name(b"two")
    assert Path(identifier._stored_name(b"one")).suffix == ".npz"


def test_workers_that_cannot_inherit_the_model_store_it_and_map_it_next_time(tmp_path):
    """Where workers start without the main process's model (Windows, macOS), each reads
    its own: from the cache folder once a run stored it there."""
    for index in range(4):
        folder = tmp_path / "articles" / f"a{index}"
        folder.mkdir(parents=True)
        (folder / "en.md").write_text(f"# Title\n\n{_LEFT_IN_ENGLISH}\n")
        (folder / "de.md").write_text(f"# Titel\n\n{_LEFT_IN_ENGLISH}\n")
    marks = tmp_path / "decompressed"
    code = f"""
        import contextlib, io, os
        from parallelcheck.run import workers
        from parallelcheck.text import langid as identifier
        from parallelcheck.cli import cli
        real = identifier._decompress

        def marked(packed, stop=None):
            with open({str(marks)!r}, "a") as out:
                out.write(f"{{os.getpid()}}\\n")
            return real(packed, stop)

        identifier._decompress = marked  # the workers fork from this process
        workers.INHERIT = False  # as where workers start afresh
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
            cli.main(["check", {str(tmp_path / "articles")!r}, "--no-cache", "--jobs", "2"])
        print(identifier.is_loaded())
        """
    env = {**os.environ, "PARALLELCHECK_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> list[str]:
        before = marks.read_text().split() if marks.exists() else []
        output = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert output.split() == ["False"]  # the main process reads none
        after = marks.read_text().split() if marks.exists() else []
        return after[len(before) :]

    first = run()
    assert first and str(os.getpid()) not in first  # decompressed in the workers only
    assert [path.name for path in (tmp_path / "cache" / "models").iterdir()] == [
        identifier._stored_name(identifier._packed() or b"")
    ]
    assert run() == []  # mapped from the cache folder
