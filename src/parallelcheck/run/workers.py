"""Worker processes: checking article sets side by side.

Article sets are independent, so they can be checked in several processes.  Three things
make that pay on a small machine:

* **Largest first.**  Workers take the largest article sets first (by the bytes of their
  files), so that no worker is left with a large one while the others are idle; results are
  handed back in the order given.
* **Forked workers.**  On Linux, workers are forked, whatever Python's default start
  method: they inherit what the main process holds — the language model
  (:mod:`parallelcheck.text.langid`), what the run prepared for them (number patterns, the
  rules' tables: :meth:`~parallelcheck.run.plan.RunPlan.prepare`) and the documents read
  ahead — instead of each building its own.  Elsewhere (Windows cannot fork; on macOS
  forking a process that has loaded system frameworks is unsafe) they start Python's
  default way and do it themselves.
* **Reading ahead.**  While the main process waits for something before forking (the
  language model), it reads documents (:func:`read_ahead`); they are part of what the
  workers share (:func:`complete_largest_first`'s ``shared``), and a worker takes a document read
  ahead instead of reading the file again.
* **Shared, not sent.**  What every item needs alike (the run's configuration, glossary,
  documents read ahead) is handed to the pool once, as ``shared``: forked workers inherit it
  with the rest of the main process's memory, other workers get one copy each when they
  start; only the items themselves travel with each task.
* **What a worker inherits is frozen.**  The garbage collector is told to leave alone every
  object that exists when the workers start (``gc.freeze``): otherwise each worker's first
  collection walks the main process's modules, model tables and documents read ahead — 50 ms
  a worker on the FastAPI corpus — and writes to every page that holds them, which then stops
  being shared.  The main process unfreezes them once the workers are done.
* **Workers die with the run.**  A worker must never outlive the process that started it: a
  main process killed (``SIGKILL``, the OOM killer) or stopped by a signal would otherwise
  leave its workers blocked for ever on a full pipe, with nobody to read it.  On Linux each
  worker asks the kernel to kill it when its parent dies (``prctl(PR_SET_PDEATHSIG,
  SIGKILL)``; the kernel ties this to the *thread* that forked, so the workers are forked
  from the main thread, and a pool started from another thread uses the fallback).
  Elsewhere, or when that call fails, a watchdog thread in the worker checks four times a
  second whether its parent is still there (its parent's pid, and
  :func:`multiprocessing.parent_process`'s sentinel) and ends the worker when it is not.
  Workers stay in the main process's process group, so a terminal's Ctrl-C reaches them too,
  but they ignore ``SIGINT`` and take ``SIGTERM``'s default action: the main process alone
  reports an interruption, and stops its workers itself (:func:`stop_workers`) — whenever
  the loop over the results ends early (an exception, an interruption, a consumer that stops
  iterating), the workers are killed at once instead of being left to finish their work.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from parallelcheck.errors import InputError
from parallelcheck.model.article import ArticleSet
from parallelcheck.model.document import Document
from parallelcheck.readers.content import read_version

R = TypeVar("R")

_FORK = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
#: Whether workers inherit what this process holds when they start.
INHERIT = _FORK is not None

#: Files larger than this are not read ahead (bytes; reading one takes about 30 ms).
READ_AHEAD_LIMIT = 256 * 1024

#: Documents read ahead, by (path, language): see :func:`read_ahead`.
ReadAhead = dict[tuple[str, str], Document]


def size(article_set: ArticleSet) -> int:
    """Bytes of an article set's files (0 for a file that cannot be read: reported later)."""
    total = 0
    for path in article_set.versions.values():
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total


class WorkerLost(RuntimeError):
    """A worker process ended without handing back the result it was working on (killed by
    a signal, the OOM killer, an ``os._exit``)."""


@dataclass
class _Worker:
    """A worker process and the main process's end of its own pipe."""

    process: BaseProcess
    connection: Connection
    item: int | None = None  # the index of the item it works on, if any


#: What the main process sends a worker that has nothing more to do (an item goes as
#: ``(item,)``).
_DONE = ()


def complete_largest_first(
    function: Callable[..., R],
    items: Sequence[Any],
    sizes: Sequence[int],
    jobs: int,
    *,
    shared: Any = None,
) -> Iterator[tuple[int, R]]:
    """``function(item)`` — ``function(shared, item)`` when ``shared`` is given — of every
    item in ``jobs`` worker processes, largest items first; each result comes as soon as it
    arrives, with the index of its item.  ``shared`` reaches each worker once, when it starts
    (see the module's docstring), not with every item.

    Each worker has a pipe of its own, and the main process holds only its own end of it:
    a worker that dies, even halfway through sending a result, closes its end, and the main
    process reads the end of the pipe (:class:`WorkerLost`) instead of waiting for the rest of
    a message that will never come.  (A pool whose workers share one result pipe, as
    :class:`concurrent.futures.ProcessPoolExecutor`'s do, cannot tell: its reading thread
    blocks for ever on the half message, and the process with it when it exits.)  No thread
    runs beside the main one, so nothing is left to wait for when the loop ends early.

    When the loop ends early — an exception here or in a worker, an interruption, the
    generator closed before its end — the workers are killed at once (:func:`stop_workers`)
    rather than left to finish every item."""
    order = deque(sorted(range(len(items)), key=lambda i: (-sizes[i], i)))
    pool: list[_Worker] = []
    gc.freeze()
    try:
        with _signals_held():
            # Forked here, in this thread (the death signal belongs to it), while SIGINT and
            # SIGTERM are held: a worker sets its own handlers before it takes one.
            pool = _start_workers(min(jobs, len(items)), function, shared)
            _LIVE[:] = [worker.process for worker in pool]
        for worker in pool:
            _hand_next(worker, order, items)
        remaining = len(items)
        while remaining:
            for worker in _ready(pool):
                index, result = _receive(worker)
                _hand_next(worker, order, items)  # busy again before the result is used
                remaining -= 1
                yield index, result
        for worker in pool:
            worker.process.join()
    except BaseException:
        stop_workers()
        raise
    finally:
        for worker in pool:
            worker.connection.close()
        _LIVE.clear()
        gc.unfreeze()


def _start_workers(count: int, function: Callable[..., Any], shared: Any) -> list[_Worker]:
    """Start *count* workers, each with a pipe of its own.  The main process closes the
    worker's end as soon as the worker has it, so that the worker's death closes the pipe;
    a worker forked later inherits only the main process's ends of earlier pipes."""
    context = _FORK or multiprocessing.get_context()
    death_signal = _death_signal_usable()
    pool = []
    for _ in range(count):
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=_serve,
            args=(theirs, os.getpid(), death_signal, function, shared),
            name="parallelcheck-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        pool.append(_Worker(process, ours))
    return pool


def _hand_next(worker: _Worker, order: deque[int], items: Sequence[Any]) -> None:
    """Give *worker* the next item, largest first, or tell it to end when none is left."""
    worker.item = order.popleft() if order else None
    try:
        worker.connection.send(_DONE if worker.item is None else (items[worker.item],))
    except OSError:
        if worker.item is not None:  # a worker gone after its last result loses nothing
            raise _lost(worker, worker.item) from None


def _ready(pool: list[_Worker]) -> list[_Worker]:
    """The busy workers that have something to say (a result, an error, or their end)."""
    busy = {worker.connection: worker for worker in pool if worker.item is not None}
    return [busy[connection] for connection in multiprocessing.connection.wait(list(busy))]


def _receive(worker: _Worker) -> tuple[int, Any]:
    """The index and result of the item *worker* finished; its exception, raised here with
    the worker's traceback as its cause; :class:`WorkerLost` if it died instead."""
    index = worker.item
    try:
        ok, payload, trace = worker.connection.recv()
    except (EOFError, OSError):
        raise _lost(worker, index) from None
    if not ok:
        payload.__cause__ = _RemoteTraceback(trace)
        raise payload
    return index, payload


def _lost(worker: _Worker, index: int | None) -> WorkerLost:
    """The error saying that *worker* died, and how, while it had item *index*."""
    worker.process.join(timeout=1.0)
    code = worker.process.exitcode
    how = f"killed by signal {-code}" if code and code < 0 else f"exit status {code}"
    return WorkerLost(f"a worker process ended ({how}) while it had item {index}")


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, kept as its cause."""

    def __str__(self) -> str:
        return f"\n\n(in the worker process)\n{self.args[0]}"


def _serve(
    connection: Connection, parent: int, death_signal: bool, function: Callable, shared: Any
) -> None:
    """A worker's life: set itself up (:func:`_start_worker`), then compute the items the
    main process hands it, one at a time, until it is told it is done."""
    _start_worker(parent, death_signal)
    call = function if shared is None else functools.partial(function, shared)
    while (task := connection.recv()) != _DONE:
        (item,) = task
        try:
            answer = (True, call(item), "")
        except Exception as error:
            answer = (False, _sendable(error), traceback.format_exc())
        connection.send(answer)
    connection.close()


def _sendable(error: Exception) -> Exception:
    """*error* itself if it can be sent to the main process, else a plain description."""
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


#: The worker processes of the pool running now (none between runs).
_LIVE: list[BaseProcess] = []

#: Signals that stop a run: the main process reports them, workers leave them to it.
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}

#: Seconds between two checks of a worker's watchdog that its parent is alive.
WATCH_INTERVAL = 0.25

#: ``prctl`` option: the signal a process gets when its parent (thread) dies.
_PR_SET_PDEATHSIG = 1

_PRCTL: Any = None  # libc's prctl, looked up once in the main process (workers inherit it)


def stop_workers() -> None:
    """Kill the worker processes of the running pool now (``SIGKILL``: a worker holds nothing
    that needs saving; the main process writes every file) and reap them.  For a run that is
    being abandoned; harmless when none is running, or when they are gone already."""
    live = list(_LIVE)
    for process in live:
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    for process in live:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(timeout=1.0)


def kill_workers_now() -> None:
    """Send ``SIGKILL`` to the running pool's workers without waiting for them: what a
    signal handler may do when the process is about to end at once."""
    for process in list(_LIVE):
        with contextlib.suppress(OSError, TypeError):
            os.kill(process.pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM in this thread for the duration (POSIX only); a signal that
    arrives meanwhile is taken when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _death_signal_usable() -> bool:
    """Whether workers forked now by this thread can ask for ``SIGKILL`` when it dies: Linux,
    forked workers, the main thread (the signal comes when the forking *thread* ends), and a
    libc with ``prctl``."""
    global _PRCTL
    if _FORK is None or threading.current_thread() is not threading.main_thread():
        return False
    if _PRCTL is None:
        try:
            import ctypes

            _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
        except (ImportError, OSError, AttributeError):
            _PRCTL = False
    return _PRCTL is not False


def _start_worker(parent: int, death_signal: bool) -> None:
    """A worker's first step: leave SIGINT and SIGTERM to the main process, then make sure
    the worker ends when its parent does (the death signal, else a watchdog thread)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    if not (death_signal and _ask_death_signal()):
        threading.Thread(
            target=_watch_parent, args=(parent,), name="parent-watch", daemon=True
        ).start()
    if os.getppid() != parent:  # the parent died before the worker began to watch it
        os._exit(1)


def _ask_death_signal() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)``: whether the kernel agreed."""
    try:
        return _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, TypeError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """The watchdog of a worker without a death signal: end the worker once its parent is
    gone — its parent's pid is no longer this process's parent (POSIX re-parents an orphan),
    or the parent's sentinel is ready (the parent's process handle on Windows; on POSIX the
    end of a pipe that only closes once the parent, and every worker it forked later, is
    gone)."""
    process = multiprocessing.parent_process()
    sentinel = getattr(process, "sentinel", None)
    while True:
        if os.getppid() != parent:
            os._exit(1)
        if sentinel is None:
            time.sleep(WATCH_INTERVAL)
            continue
        try:
            if multiprocessing.connection.wait([sentinel], timeout=WATCH_INTERVAL):
                os._exit(1)
        except (OSError, ValueError):
            sentinel = None


def read_ahead(article_sets: Sequence[ArticleSet], waiting: Callable[[], bool]) -> ReadAhead:
    """Documents of the article sets, read for as long as ``waiting()`` holds, so that this
    process does not sit idle: each document read here is one a worker does not read (the
    run hands them to the workers, and a worker takes each one once).  A
    file that cannot be read is left to the worker, which reads it again and records the
    fault on its article (an ``unreadable-version`` finding) exactly as ``--jobs 1`` does,
    from the file as it is then, so the result never depends on what was read ahead."""
    ahead: ReadAhead = {}
    for article_set in article_sets:
        for lang, path in article_set.versions.items():
            if not waiting():
                return ahead
            with contextlib.suppress(OSError):
                if os.path.getsize(path) > READ_AHEAD_LIMIT:
                    continue  # reading it could outlast the wait: a worker will
            try:
                ahead[(path, lang)] = read_version(path, lang, article_set.boundary)
            except InputError:
                continue
    return ahead
