"""Benchmark: glossary loading, the Japanese pipeline and term matching over an article.

Usage: python bench/bench_terms.py [ARTICLE_FOLDER] [--glossary PATH] [--repeat K]

Prints the time to read the glossary, to load spaCy's Japanese pipeline (SudachiPy and its
dictionary), and, per language version, to find terms and near misses in the whole file:
once with the matchers being compiled (cold), then the median of K runs on fresh text (warm).
Run on demand; the test suite never times anything this way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("article", nargs="?", default=str(ROOT / "articles/deepinfer-vs-lmdeploy"))
    parser.add_argument("--glossary", default=str(ROOT / "glossary"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    from parallelcheck.glossary import load_glossaries
    from parallelcheck.glossary.match import GlossaryMatcher, ja_pipeline

    glossary = load_glossaries([args.glossary])
    print(f"glossary: {len(glossary)} terms read in {time.perf_counter() - start:.3f} s")

    start = time.perf_counter()
    ja_pipeline()
    print(f"ja pipeline (spacy.blank('ja') + Sudachi): {time.perf_counter() - start:.3f} s")

    for path in sorted(Path(args.article).glob("*.md")):
        lang = path.stem
        text = path.read_text(encoding="utf-8")
        start = time.perf_counter()
        matcher = GlossaryMatcher(glossary)  # what a run makes once
        hits = matcher.find_terms(text, lang)
        matcher.find_altered(text, lang)
        cold = time.perf_counter() - start
        warm = []
        for number in range(args.repeat):
            fresh = text + " " * (number + 1)  # a new text: no cached result
            start = time.perf_counter()
            matcher.find_terms(fresh, lang)
            matcher.find_altered(fresh, lang)
            warm.append(time.perf_counter() - start)
        print(
            f"{lang:8} {len(text):6} chars {len(hits):4} hits  cold {cold * 1000:6.1f} ms  "
            f"warm {statistics.median(warm) * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
