"""A check run from the command line's point of view: start early, then check.

The command line starts a :class:`Session` first thing (:meth:`Session.start`), before it
imports the rules or reads the configuration, and later asks it to check the article sets it
found (:meth:`Session.check`).  Everything about how the run goes is decided here and in
:mod:`parallelcheck.run.plan`, not by the command line:

* **The cache.**  Used unless ``--no-cache`` is given or the output format reads the whole
  aligned article of every article (the cache keeps outlines; see :func:`cache_mode`).
* **The language model** is not read here: the run starts reading it once it knows that an
  article it is to check needs it (:func:`~parallelcheck.run.pipeline.check_all`), so that
  a run without two Latin-script languages in an article does not decompress it for
  nothing (0.35 s of processor time; see :mod:`parallelcheck.text.langid`).
* **The regular expressions' compiled forms** an earlier run kept in the cache folder are
  loaded first (:mod:`parallelcheck.run.pattern_store`), so that the package's patterns,
  most of them compiled as their modules are imported, are built from them; when the run
  has checked its articles (:meth:`Session.finish`), the forms of the patterns it compiled
  afresh are stored.  A run stopped before it checks (bad input, a refused cache folder)
  stores nothing.
* **Facts of installed language data** (the CLDR data of each language, the Han
  characters OpenCC's conversions change) an earlier run kept are given to the run's
  tables (:mod:`parallelcheck.run.kept_store`), and stored again by :meth:`Session.finish`
  when the run worked out new ones.
* **The garbage collector.**  A check allocates millions of short-lived objects that
  reference counting frees; collecting less often (:data:`GC_THRESHOLDS`) saves about a tenth
  of the run, and the settings carry over to forked worker processes.  When the process ends,
  :func:`spare_final_collection` spares it the collector's last pass over everything the run
  holds.

This module imports nothing of the package at first (the process's last step imports it too):
the command line starts a session before the expensive imports.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parallelcheck.config import Config
    from parallelcheck.engine import ArticleResult, CheckOptions
    from parallelcheck.model.article import ArticleSet
    from parallelcheck.run.cache import Cache
    from parallelcheck.run.plan import RunPlan

#: Objects allocated between two collections of the youngest generation (CPython's default
#: is 700), and how many collections of one generation trigger the next.
GC_THRESHOLDS = (100_000, 50, 100)

#: What a format reads of each article: its outline (every format but html), the whole
#: aligned article, or the aligned article of each article with findings and the outline of
#: the others (html); the names :mod:`parallelcheck.report.base` declares formats with.
OUTLINE, ALIGNED, FLAGGED = "outline", "aligned", "flagged"
#: Cache modes: results are read from and written to the cache, or it is left alone.
CACHE_ON, CACHE_OFF = "on", "off"


def cache_mode(*, no_cache: bool, needs: str = OUTLINE) -> str:
    """Whether a run uses the result cache: not with ``--no-cache``, and not for a format
    that reads every aligned article (the cache keeps outlines, not the articles' text).  A
    format that reads the aligned articles with findings only uses it: an entry without
    findings answers, one with findings is checked again (see
    :meth:`~parallelcheck.run.plan.RunPlan.keeps_article`)."""
    return CACHE_OFF if no_cache or needs == ALIGNED else CACHE_ON


def tune_collector() -> None:
    """Collect garbage less often (see the module's docstring)."""
    gc.set_threshold(*GC_THRESHOLDS)


def spare_final_collection() -> None:
    """The process is done: nothing it holds needs collecting, so spare it the collector's
    last pass over all of it at exit (60-100 ms after a full check, 40-60 ms of a pre-commit
    hook's 0.35 s)."""
    gc.freeze()


@dataclass
class Session:
    """One check run: its cache (``None`` when off) and what its format reads."""

    cache: Cache | None
    needs: str = OUTLINE
    no_cache: bool = False

    @classmethod
    def start(cls, *, no_cache: bool = False, needs: str = OUTLINE) -> Session:
        """Start a run whose format *needs* ``"outline"`` or ``"aligned"`` articles (see the
        module's docstring): build the package's patterns from the forms kept in the cache
        folder, decide the cache and tune the garbage collector."""
        from parallelcheck.run.cache import Cache
        from parallelcheck.run.kept_store import KeptStore
        from parallelcheck.run.pattern_store import PatternStore
        from parallelcheck.text import regexes
        from parallelcheck.text.kept import TABLES

        regexes.use(PatternStore().load())  # before the modules that compile patterns
        TABLES.give(KeptStore().load())
        cache = Cache() if cache_mode(no_cache=no_cache, needs=needs) == CACHE_ON else None
        tune_collector()
        return cls(cache, needs, no_cache)

    @property
    def cache_folder(self) -> str | None:
        """The folder the cache writes to, when the run uses one."""
        return str(self.cache.root.parent) if self.cache is not None else None

    def plan(self, config: Config, options: CheckOptions) -> RunPlan:
        """The run's plan (:func:`~parallelcheck.run.plan.make_plan`); raises
        :class:`~parallelcheck.errors.InputError` for an unknown rule id."""
        from parallelcheck.run.plan import make_plan

        return make_plan(config, options, needs=self.needs, no_cache=self.no_cache)

    def finish(self) -> None:
        """The run has checked its articles: keep the compiled forms of the patterns it
        compiled afresh and the facts of language data it worked out for the next run
        (:func:`~parallelcheck.run.pattern_store.keep_new_forms`,
        :func:`~parallelcheck.run.kept_store.keep_new_facts`)."""
        from parallelcheck.run.kept_store import keep_new_facts
        from parallelcheck.run.pattern_store import keep_new_forms

        keep_new_forms()
        keep_new_facts()

    def check(
        self, article_sets: Sequence[ArticleSet], config: Config, options: CheckOptions
    ) -> Iterator[ArticleResult]:
        """Check *article_sets* (see :func:`~parallelcheck.run.pipeline.check_all`): each
        result's :attr:`~parallelcheck.engine.ArticleResult.shown` is what the format reads."""
        from parallelcheck.run.pipeline import check_all

        plan = self.plan(config, options)
        return check_all(article_sets, config, options, self.cache, plan=plan)
