"""Benchmark: the rules of a check, each timed, after reading and aligning, in one process.

Usage: python bench/bench_rules.py [PATH] [--repeat N] [--rule RULE ...] [--profile FILE]

Reads and aligns every article set of a corpus (default: the FastAPI corpus) once, the way a
run does (see ``bench_values.py``), then runs the rules in the engine's order over every
article, a fresh :class:`~parallelcheck.facts.ArticleFacts` per article shared by the rules
as the engine shares one (the collector tuned as a run tunes it), and prints each rule's
best processor seconds over N rounds and a digest of the findings (the same digest before
and after a change: the same findings).
With ``--rule`` only those rules run (a rule then pays for the facts it asks for first);
with ``--profile`` one more round runs under cProfile and its statistics are written there.
Run on demand; the test suite never times anything.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import time
from collections import Counter

from bench_values import DEFAULT, align_all, read_corpus

from parallelcheck.facts import ArticleFacts
from parallelcheck.rules import REGISTRY
from parallelcheck.run.session import tune_collector


def run_round(articles: list, rules: tuple[str, ...]) -> tuple[Counter[str], list]:
    """Each rule's processor seconds over every article, and the findings."""
    spent: Counter[str] = Counter()
    found: list = []
    for article in articles:
        facts = ArticleFacts()
        for rule_id in rules:
            start = time.process_time()
            found.extend(REGISTRY[rule_id].run(article, facts=facts))
            spent[rule_id] += time.process_time() - start
    return spent, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rule", action="append", choices=sorted(REGISTRY))
    parser.add_argument("--profile", help="write cProfile statistics of one more round here")
    args = parser.parse_args()
    rules = tuple(args.rule or REGISTRY)
    articles = align_all(read_corpus(args.path))
    tune_collector()  # as a run does: the collector's passes are part of every rule
    best: dict[str, float] = {}
    findings: list = []
    for _ in range(args.repeat):
        spent, findings = run_round(articles, rules)
        for rule_id, seconds in spent.items():
            best[rule_id] = min(best.get(rule_id, seconds), seconds)
    digest = hashlib.sha256(repr(findings).encode()).hexdigest()[:16]
    print(f"articles: {len(articles)}  rules: {len(rules)}")
    print(f"findings: {len(findings)}  digest: {digest}")
    for rule_id, seconds in sorted(best.items(), key=lambda item: -item[1]):
        if seconds >= 0.0005:
            print(f"  {seconds:7.3f} s  {rule_id}")
    print(f"  {sum(best.values()):7.3f} s  all (sum of bests)")
    if args.profile:
        cProfile.runctx("run_round(articles, rules)", globals(), locals(), args.profile)


if __name__ == "__main__":
    main()
