"""Benchmark: the ``untranslated`` and ``length-ratio`` rules alone, in one process.

Usage: python bench/bench_untranslated.py [PATH ...] [--rule ID ...] [--repeat N] [--dump FILE]

Reads and aligns every article set of the corpora given (default: the FastAPI corpus) once,
the way a run does (no glossary, no cache), loads the language model, and then times only
the rules (default: ``untranslated`` and ``length-ratio``), each over every article with a
fresh :class:`~parallelcheck.facts.ArticleFacts` per article and pass, as the first rule of a
check to ask for a fact would: best of N passes of processor time, so the figure does not
include reading or aligning, and swings of the shared machine show as a spread, not as a
change.  ``--dump FILE`` writes every finding (rule, message, evidence, locations) as one
line of text each, to compare two versions of the code on the very findings.

Run on demand; the test suite never times anything.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench_values import align_all, read_corpus  # the same reading, from the bench folder

from parallelcheck.facts import ArticleFacts
from parallelcheck.model.aligned import AlignedArticle
from parallelcheck.rules import REGISTRY
from parallelcheck.text import langid

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fastapi"
RULES = ("untranslated", "length-ratio")


def aligned_articles(paths: list[str]) -> list[tuple[AlignedArticle, dict]]:
    """Every article set of *paths*, read and aligned as the run does it (bench_values reads
    them), with its rules' options."""
    corpus = [(docs, context) for path in paths for docs, context in read_corpus(path) if docs]
    return list(zip(align_all(corpus), (context.options for _, context in corpus), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(DEFAULT)])
    parser.add_argument("--rule", action="append", help="rule to time (repeatable)")
    parser.add_argument("--repeat", type=int, default=5, help="passes; the best is shown")
    parser.add_argument("--dump", type=Path, help="write every finding to this file")
    args = parser.parse_args()
    rules = tuple(args.rule or RULES)

    start = time.process_time()
    articles = aligned_articles(args.paths)
    print(f"articles: {len(articles)}  read and aligned in {time.process_time() - start:.2f} s")
    start = time.process_time()
    langid.load()
    print(f"language model loaded in {time.process_time() - start:.2f} s")

    lines: list[str] = []
    for rule_id in rules:
        spec = REGISTRY[rule_id]
        passes = []
        for attempt in range(args.repeat):
            found = []
            start = time.process_time()
            for article, options in articles:
                found.extend(spec.run(article, facts=ArticleFacts(), options=options.get(rule_id)))
            passes.append(time.process_time() - start)
            if attempt == 0:
                lines.extend(repr(finding) for finding in found)
                count = len(found)
        spread = ", ".join(f"{p:.3f}" for p in sorted(passes))
        print(f"{rule_id}: {count} findings  best {min(passes):.3f} s  (passes: {spread})")
    if args.dump:
        args.dump.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
