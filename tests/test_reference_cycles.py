"""Checking an article leaves no reference cycle behind.

What a check makes for one article (its documents, alignment, facts, the rules' working
values) must be freed by reference counting as soon as the article is done.  One cycle among
them — a cached closure that leads back to the object caching it, two objects pointing at
each other — keeps everything reachable from it alive until the garbage collector finds it:
on the FastAPI corpus that was every article's data, and the collector's passes over it cost
more than a tenth of a check's processor time (see ``docs/performance.md``).

The test checks every rule case (``tests/cases``, every rule and what it needs: glossaries,
configurations, Chinese conversions) and the shipped article set as the run does, one article
set at a time, with the collector off, then asks the collector what it finds unreachable.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from pathlib import Path
from types import FunctionType

import pytest
import yaml

from parallelcheck.config import load_config
from parallelcheck.discover.sets import discover
from parallelcheck.engine import CheckOptions
from parallelcheck.rules import REGISTRY
from parallelcheck.run.pipeline import check_set
from parallelcheck.text import langid

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"


def _folders() -> list[Path]:
    """The rule cases that need no git history, and the shipped articles."""
    folders = [ROOT / "articles"]
    for expected in sorted(CASES.glob("*/*/expected.yaml")):
        if "setup" not in (yaml.safe_load(expected.read_text(encoding="utf-8")) or {}):
            folders.append(expected.parent)
    return folders


def _check_all(folders: list[Path]) -> int:
    """Check every article set of *folders* as ``check`` does; the number of sets."""
    checked = 0
    for folder in folders:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            config = load_config(None, cwd=str(folder), known_rules=REGISTRY, start=".")
            for article_set in discover(
                ["."],
                root=config.root,
                cwd=str(folder),
                project_root=config.project_root,
                languages=config.languages or (),
                source=config.source,
                layouts=config.layouts,
                exclude=config.exclude,
            ):
                result = check_set(article_set, config, CheckOptions())
                assert result.article is not None
                checked += 1
        finally:
            os.chdir(cwd)
    return checked


def _kind(found: object) -> str:
    """What an object is, for a reader: a function by its name (a nested function that calls
    itself is a cycle of the function and its closure), anything else by its type."""
    if isinstance(found, FunctionType):
        return f"function {found.__module__}.{found.__qualname__}"
    return type(found).__qualname__


def _cyclic_garbage() -> Counter[str]:
    """The kinds of object the collector finds only it can free, by count."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        return Counter(_kind(found) for found in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()  # what was kept for looking at is unreachable again: freed now


@pytest.fixture
def collector_off():
    """The collector off and nothing unreachable left from before; restored afterwards."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()


def test_checking_every_rule_case_leaves_nothing_for_the_garbage_collector(collector_off):
    folders = _folders()
    # What a run loads once on first use (patterns, tables, the language model) is not an
    # article's: loaded before, and what loading it left behind cleared.
    _check_all(folders[:1])
    langid.load()
    _cyclic_garbage()
    assert _check_all(folders) >= len(folders)  # every folder holds an article set
    assert _cyclic_garbage() == Counter()


def test_the_test_sees_a_cycle_a_check_leaves(collector_off, monkeypatch):
    """A rule whose working values point back at each other is caught."""
    from parallelcheck.facts import ArticleFacts

    made = ArticleFacts.__init__

    def with_a_cycle(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self._of_article["itself"] = self

    monkeypatch.setattr(ArticleFacts, "__init__", with_a_cycle)
    _check_all([ROOT / "articles"])
    assert _cyclic_garbage()["ArticleFacts"] >= 1
