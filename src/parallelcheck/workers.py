"""Worker processes: checking article sets side by side.

Article sets are independent, so they can be checked in several processes.  Three things
make that pay on a small machine:

* **Largest first.**  Workers take the largest article sets first (by the bytes of their
  files), so that no worker is left with a large one while the others are idle; results are
  handed back in the order given.
* **Forked workers.**  On Linux, workers are forked, whatever Python's default start
  method: they inherit what the main process holds — the language model
  (:mod:`parallelcheck.identifier`), number patterns and the documents read ahead — instead
  of each building its own.  Elsewhere (Windows cannot fork; on macOS forking a process
  that has loaded system frameworks is unsafe) they start Python's default way and do it
  themselves.
* **Reading ahead.**  While the main process waits for something before forking (the
  language model), it reads documents (:func:`read_ahead`); a worker takes a document read
  ahead (:func:`read_before`) instead of reading the file again.
* **What a worker inherits is frozen.**  The garbage collector is told to leave alone every
  object that exists when the workers start (``gc.freeze``): otherwise each worker's first
  collection walks the main process's modules, model tables and documents read ahead — 50 ms
  a worker on the FastAPI corpus — and writes to every page that holds them, which then stops
  being shared.  The main process unfreezes them once the workers are done.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from parallelcheck import numbers
from parallelcheck.article import ArticleSet
from parallelcheck.document import Document
from parallelcheck.errors import InputError
from parallelcheck.readers import read_document

R = TypeVar("R")

_FORK = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
#: Whether workers inherit what this process holds when they start.
INHERIT = _FORK is not None

#: Files larger than this are not read ahead (bytes; reading one takes about 30 ms).
READ_AHEAD_LIMIT = 256 * 1024

_READ_AHEAD: dict[tuple[str, str], Document] = {}


def size(article_set: ArticleSet) -> int:
    """Bytes of an article set's files (0 for a file that cannot be read: reported later)."""
    total = 0
    for path in article_set.versions.values():
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total


def map_largest_first(
    function: Callable[[Any], R], items: Sequence[Any], sizes: Sequence[int], jobs: int
) -> Iterator[R]:
    """``function`` of every item in ``jobs`` worker processes, largest items first; the
    results come in the order of ``items``.  Documents read ahead are dropped at the end."""
    order = sorted(range(len(items)), key=lambda i: (-sizes[i], i))
    waiting: dict[int, R] = {}
    following = 0
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_FORK) as pool:
            results = pool.map(function, [items[i] for i in order])
            for index, result in zip(order, results, strict=True):
                waiting[index] = result
                while following in waiting:
                    yield waiting.pop(following)
                    following += 1
    finally:
        gc.unfreeze()
        _READ_AHEAD.clear()


def read_ahead(article_sets: Sequence[ArticleSet], waiting: Callable[[], bool]) -> None:
    """Read documents of the article sets for as long as ``waiting()`` holds, so that this
    process does not sit idle: each document read here is one a worker does not read.  A
    file that cannot be read is left to the worker, which reads it again and records the
    fault on its article (an ``unreadable-version`` finding) exactly as ``--jobs 1`` does,
    from the file as it is then, so the result never depends on what was read ahead.  Each
    language's number patterns are built first, for the same reason."""
    for lang in sorted({lang for article_set in article_sets for lang in article_set.versions}):
        numbers.prepare(lang)
    for article_set in article_sets:
        for lang, path in article_set.versions.items():
            if not waiting():
                return
            with contextlib.suppress(OSError):
                if os.path.getsize(path) > READ_AHEAD_LIMIT:
                    continue  # reading it could outlast the wait: a worker will
            try:
                _READ_AHEAD[(path, lang)] = read_document(path, lang)
            except InputError:
                continue


def read_before(path: str, lang: str) -> Document | None:
    """The document of ``path`` if it was read ahead (once: it is handed over)."""
    return _READ_AHEAD.pop((path, lang), None)
