"""Benchmark: where a check's processor time goes, stage by stage, in one process.

Usage: python bench/bench_stages.py [PATH] [--every N] [--glossary PATH]

Checks every N-th article set of a corpus (default: all of the FastAPI corpus) the way the
run does (:func:`parallelcheck.run.pipeline.check_set`, all rules, no cache, one process,
the garbage collector tuned as a run tunes it;
no glossary unless one is given — a glossary the current folder's configuration names is
left out, so the figures do not depend on where the bench is started) and prints the
processor seconds spent reading documents, aligning them, and in each rule, largest first,
with loading the language model apart.  The run's and the engine's own
functions are wrapped with timers, so what is timed is exactly what a run executes.

Run on demand; the test suite never times anything.  Processor time still follows the
machine's spells (see ``bench_speed.py``): compare shares within one run, or runs taken in
alternation.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from parallelcheck import engine
from parallelcheck.config import load_config
from parallelcheck.discover.sets import discover
from parallelcheck.glossary.match import GlossaryMatcher
from parallelcheck.rules import REGISTRY
from parallelcheck.run import pipeline
from parallelcheck.run.session import tune_collector
from parallelcheck.text import langid as identifier

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"


def timed(name: str, function: Callable[..., Any], spent: Counter[str]) -> Callable[..., Any]:
    """``function``, adding its processor seconds to ``spent[name]`` (results made whole, so
    a rule's lazily produced findings are timed too)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        result = function(*args, **kwargs)
        if not isinstance(result, dict) and hasattr(result, "__next__"):
            result = list(result)
        spent[name] += time.process_time() - start
        return result

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--every", type=int, default=1, help="check every N-th article set")
    parser.add_argument("--glossary", action="append", default=[], help="a glossary to use")
    args = parser.parse_args()
    cwd = str(Path.cwd())
    config = replace(load_config(None, cwd=cwd, known_rules=REGISTRY), glossary=())
    article_sets = discover([args.path], cwd=cwd)[:: args.every]
    options = engine.CheckOptions(glossaries=tuple(args.glossary))
    glossary = pipeline.load_run_glossary(config, options)  # once per run, as a run does
    # ... and compiled once, likewise (passed only with a glossary, as older runs took none)
    matcher = {"terms": GlossaryMatcher(glossary)} if args.glossary else {}

    tune_collector()  # as a run does: the collector's passes are part of every stage
    spent: Counter[str] = Counter()
    start = time.process_time()
    identifier.load()
    model = time.process_time() - start
    pipeline.read_version = timed("read", pipeline.read_version, spent)
    engine.align_article = timed("align", engine.align_article, spent)
    for rule_id, rule in list(REGISTRY.items()):
        REGISTRY[rule_id] = replace(rule, check=timed(rule_id, rule.check, spent))

    start = time.process_time()
    findings = sum(
        len(pipeline.check_set(article, config, options, glossary, **matcher).findings)
        for article in article_sets
    )
    total = time.process_time() - start
    versions = sum(len(article.versions) for article in article_sets)
    print(f"path: {args.path}  articles: {len(article_sets)}  versions: {versions}")
    print(f"findings: {findings}  processor seconds checking: {total:.2f}")
    print(f"  {model:6.2f} s  (loading the language model, before checking)")
    for name, seconds in spent.most_common():
        if seconds >= 0.005:
            print(f"  {seconds:6.2f} s  {100 * seconds / total:5.1f} %  {name}")
    rest = total - sum(spent.values())
    print(f"  {rest:6.2f} s  {100 * rest / total:5.1f} %  the engine between stages")


if __name__ == "__main__":
    main()
