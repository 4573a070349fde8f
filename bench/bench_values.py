"""Benchmark: the value rules (number-mismatch, token-mismatch) alone, in one process.

Usage: python bench/bench_values.py [PATH] [--repeat N] [--rule RULE]

Reads and aligns every article set of a corpus (default: the FastAPI corpus) once, the way a
run does (:func:`parallelcheck.run.pipeline.check_set` up to the engine), then times only the
rules: for each article a fresh :class:`~parallelcheck.facts.ArticleFacts` shared by the rules
timed, as the engine shares one.  Prints the best processor seconds of N rounds and a digest
of the findings (the same digest before and after a change: the same findings).

Run on demand; the test suite never times anything.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from parallelcheck import engine
from parallelcheck.align.progressive import align_article
from parallelcheck.config import load_config
from parallelcheck.discover.sets import discover
from parallelcheck.facts import ArticleFacts
from parallelcheck.rules import REGISTRY
from parallelcheck.run import pipeline

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"
RULES = ("number-mismatch", "token-mismatch")


def read_corpus(path: str) -> list[tuple[dict, engine.ArticleContext]]:
    """Each article set's documents and context, as the run hands them to the engine."""
    cwd = str(Path.cwd())
    config = replace(load_config(None, cwd=cwd, known_rules=REGISTRY), glossary=())
    options = engine.CheckOptions()
    found = []

    def keep(documents, unreadable, context):
        found.append((dict(documents), context))
        return SimpleNamespace()

    original = pipeline.check_article
    pipeline.check_article = keep
    try:
        for article_set in discover([path], cwd=cwd):
            pipeline.check_set(article_set, config, options)
    finally:
        pipeline.check_article = original
    return found


def align_all(corpus) -> list:
    return [
        align_article(
            context.id,
            documents,
            context.source,
            expected=context.expected,
            link_prefixes=context.link_prefixes,
        )
        for documents, context in corpus
    ]


def best_of(repeat: int, work) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = work()
        best = min(best, time.process_time() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rule", action="append", choices=RULES)
    args = parser.parse_args()
    rules = tuple(args.rule or RULES)
    articles = align_all(read_corpus(args.path))

    def check():
        found = []
        for article in articles:
            facts = ArticleFacts()
            for rule_id in rules:
                found.extend(REGISTRY[rule_id].run(article, facts=facts))
        return found

    seconds, findings = best_of(args.repeat, check)
    digest = hashlib.sha256(repr(findings).encode()).hexdigest()[:16]
    print(f"articles: {len(articles)}  rules: {', '.join(rules)}")
    print(f"findings: {len(findings)}  digest: {digest}")
    print(f"best of {args.repeat}: {seconds:.3f} s")


if __name__ == "__main__":
    main()
