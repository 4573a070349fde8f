"""Worker processes: largest first, each result as it comes, documents read ahead."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from parallelcheck.model.article import ArticleSet
from parallelcheck.run import workers


def _ordered(results) -> list:
    """The results of :func:`workers.complete_largest_first`, in the order of their items."""
    return [result for _, result in sorted(results)]


def test_every_item_comes_once_with_its_index_whatever_the_sizes():
    items = list(range(-20, 20))
    sizes = [abs(item) * 7 % 13 for item in items]
    done = list(workers.complete_largest_first(abs, items, sizes, jobs=2))
    assert sorted(index for index, _ in done) == list(range(len(items)))
    assert _ordered(done) == [abs(i) for i in items]


def _last_or_first(item: tuple[int, str]) -> int:
    """Item 0 finishes only once the other three have started (each drops a file when it
    starts); they finish at once.  A worker is handed its next item only after the main
    process received its last result, so items 1 and 2 have reached the main process before
    item 0 finishes."""
    index, folder = item
    if index == 0:
        deadline = time.monotonic() + 60
        while len(os.listdir(folder)) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        open(os.path.join(folder, str(index)), "w").close()
    return index


def test_a_result_comes_as_soon_as_it_is_done_not_after_the_items_before_it(tmp_path):
    """Item 0 is slow: the others' results do not wait for it (a run stores each in the
    cache as it comes, so a run stopped halfway keeps what it finished)."""
    items = [(index, str(tmp_path)) for index in range(4)]
    done = list(workers.complete_largest_first(_last_or_first, items, [1, 1, 1, 1], jobs=2))
    order = [index for index, _ in done]
    assert order.index(1) < order.index(0) and order.index(2) < order.index(0), order
    assert _ordered(done) == [0, 1, 2, 3]


def _article(folder, name: str, texts: dict[str, str]) -> ArticleSet:
    versions = {}
    for lang, text in texts.items():
        path = folder / f"{name}-{lang}.md"
        path.write_text(text, encoding="utf-8")
        versions[lang] = str(path)
    return ArticleSet(id=name, versions=versions)


def test_documents_read_ahead_are_handed_over_once_and_only_while_waiting(tmp_path):
    first = _article(tmp_path, "a", {"en": "# A\n\nOne.\n", "ja": "# A\n\n一つ。\n"})
    second = _article(tmp_path, "b", {"en": "# B\n\nTwo.\n"})
    answers = iter([True, True, False])
    ahead = workers.read_ahead([first, second], lambda: next(answers))
    english = ahead.pop((first.versions["en"], "en"), None)
    assert english is not None and english.sections[1].title == "A"
    assert ahead.pop((first.versions["en"], "en"), None) is None  # handed over once
    assert ahead.pop((first.versions["ja"], "ja"), None) is not None
    assert ahead.pop((second.versions["en"], "en"), None) is None  # the wait was over


def test_the_largest_article_set_counts_every_file(tmp_path):
    article = _article(tmp_path, "a", {"en": "x" * 10, "ja": "y" * 5})
    assert workers.size(article) == 15
    missing = ArticleSet(id="m", versions={"en": str(tmp_path / "gone.md")})
    assert workers.size(missing) == 0


def _frozen_objects(_item: object) -> int:
    return gc.get_freeze_count()


def test_workers_inherit_frozen_objects_and_the_main_process_unfreezes_them():
    assert gc.get_freeze_count() == 0
    found = _ordered(
        workers.complete_largest_first(_frozen_objects, [1, 2, 3, 4], [1, 1, 1, 1], jobs=2)
    )
    if workers.INHERIT:  # forked: what existed before the pool is frozen in every worker
        assert all(count > 0 for count in found)
    assert gc.get_freeze_count() == 0  # and in this process again as it was


def _signal_setup(_item: object) -> tuple[object, object, int | None]:
    """In a worker: how it takes SIGINT and SIGTERM, and its death signal (Linux)."""
    death = None
    if sys.platform.startswith("linux"):
        import ctypes

        found = ctypes.c_int(-1)
        ctypes.CDLL(None).prctl(2, ctypes.byref(found), 0, 0, 0)  # PR_GET_PDEATHSIG
        death = found.value
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), death


def test_workers_leave_sigint_to_the_main_process_and_die_with_it():
    found = _ordered(
        workers.complete_largest_first(_signal_setup, [1, 2, 3, 4], [1, 1, 1, 1], jobs=2)
    )
    for sigint, sigterm, death in found:
        assert sigint == signal.SIG_IGN  # Ctrl-C reaches the whole group: only the parent reports
        assert sigterm == signal.SIG_DFL
        if workers.INHERIT:
            assert death == signal.SIGKILL


def test_the_death_signal_is_asked_only_by_the_main_thread():
    """The kernel sends it when the forking *thread* ends: a pool started from another
    thread relies on the watchdog instead."""
    answers = []
    thread = threading.Thread(target=lambda: answers.append(workers._death_signal_usable()))
    thread.start()
    thread.join()
    assert answers == [False]
    assert workers._death_signal_usable() == workers.INHERIT


def _slowly(item: int) -> int:
    time.sleep(0.05 if item == 0 else 30)
    return item


def test_a_generator_closed_early_kills_its_workers_at_once():
    results = workers.complete_largest_first(_slowly, [0, 1, 2, 3], [9, 1, 1, 1], jobs=2)
    assert next(results) == (0, 0)
    children = multiprocessing.active_children()
    assert children
    # at once, not after the 30 s the other items would take: the workers are dead when close()
    # returns (its time: bench/bench_time_bounds.py --only generator-close-kills-workers)
    results.close()
    assert not any(child.is_alive() for child in children)
    assert gc.get_freeze_count() == 0


_ORPHANED = r"""
import os, sys, time
from parallelcheck.run import workers
if sys.argv[1] == "watchdog":
    workers._death_signal_usable = lambda: False

def report_and_wait(item):
    os.write(1, f"{os.getpid()}\n".encode())
    time.sleep(60)

list(workers.complete_largest_first(report_and_wait, [1, 2, 3, 4], [1, 1, 1, 1], jobs=2))
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not workers.INHERIT, reason="forked workers, found in /proc (Linux)")
@pytest.mark.parametrize("guard", ["death-signal", "watchdog"])
def test_workers_end_when_their_parent_is_killed(guard):
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHANED, guard], stdout=subprocess.PIPE, text=True
    )
    pids = []
    try:
        pids = [int(parent.stdout.readline()) for _ in range(2)]
        parent.kill()
        parent.wait(timeout=30)
        deadline = time.monotonic() + 3
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in pids), f"workers outlived their parent ({guard})"
    finally:
        parent.kill()
        parent.stdout.close()
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _with(shared: dict, item: int) -> tuple[int, int]:
    return shared["base"] + item, len(shared["documents"])


def test_what_the_pool_shares_reaches_every_worker_once_not_with_each_item():
    shared = {"base": 100, "documents": list(range(1000))}
    found = _ordered(
        workers.complete_largest_first(_with, [1, 2, 3, 4], [4, 3, 2, 1], 2, shared=shared)
    )
    assert found == [(101, 1000), (102, 1000), (103, 1000), (104, 1000)]


def _big_result(item: tuple[int, str]) -> bytes:
    """Item 0: small and at once; item 1: a result far larger than a pipe holds, sent only
    once the test says so (a file ``<announce>.go``), after the worker's pid is written to
    the file *announce*."""
    index, announce = item
    if index == 0:
        return b"small"
    with open(announce, "w") as file:
        file.write(str(os.getpid()))
    deadline = time.monotonic() + 30
    while not os.path.exists(announce + ".go") and time.monotonic() < deadline:
        time.sleep(0.01)
    return b"x" * (64 * 1024 * 1024)


def _worker_killed_while_sending(tmp_path, close: bool) -> None:
    announce = tmp_path / "sending"
    results = workers.complete_largest_first(
        _big_result, [(0, str(announce)), (1, str(announce))], [2, 1], jobs=2
    )
    # the second worker holds its result back until the main process has handed over the
    # first one: on a busy machine it could otherwise send all of it while the main process
    # is still reading, and nothing would be left half-sent
    assert next(results) == (0, b"small")
    deadline = time.monotonic() + 30
    while not announce.exists() or not announce.read_text():
        assert time.monotonic() < deadline, "the second worker never started"
        time.sleep(0.02)
    (tmp_path / "sending.go").touch()
    # the main process reads nothing while its consumer holds a result: the other worker
    # fills the pipe and waits in the middle of its message; it is killed there (or, on a
    # slow machine, just before it starts sending: lost all the same)
    time.sleep(0.3)
    os.kill(int(announce.read_text()), signal.SIGKILL)
    if close:
        results.close()
        return
    with pytest.raises(workers.WorkerLost, match="killed by signal 9"):
        next(results)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kills a worker")
@pytest.mark.parametrize("close", [False, True], ids=["read-on", "closed"])
def test_a_worker_killed_halfway_through_a_result_is_reported_not_waited_for(tmp_path, close):
    # a pool whose workers share one result pipe waits for ever here, and so does the
    # process when it exits: its reading thread is stuck on the half message
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            _worker_killed_while_sending(tmp_path, close)
            outcome.append(None)
        except BaseException as error:  # reported below, in the test's thread
            outcome.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the pool waited for a dead worker's half-sent result"
    if outcome[0] is not None:
        raise outcome[0]
    assert not multiprocessing.active_children()
    assert gc.get_freeze_count() == 0


def _fails(item: int) -> int:
    if item == 2:
        raise ValueError(f"item {item} is bad")
    return item


def test_an_exception_in_a_worker_reaches_the_caller_with_the_worker_traceback():
    with pytest.raises(ValueError, match="item 2 is bad") as raised:
        list(workers.complete_largest_first(_fails, [1, 2, 3, 4], [1, 1, 1, 1], jobs=2))
    assert "in _fails" in str(raised.value.__cause__)
    assert not multiprocessing.active_children()
