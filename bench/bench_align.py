"""Benchmark: alignment alone (:func:`parallelcheck.align.progressive.align_article`).

Usage: python bench/bench_align.py [PATH] [--repeat N]

Reads every article set of a corpus (default: the FastAPI corpus) once, as a run does (see
``bench_values.py``), then times only aligning them all.  Prints the best processor seconds
of N rounds and a digest of the aligned rows (the same digest: the same alignment).

Run on demand; the test suite never times anything.
"""

from __future__ import annotations

import argparse
import hashlib

from bench_values import DEFAULT, align_all, best_of, read_corpus


def layout(articles) -> str:
    """Every aligned row, as the line of each version's block (and its split-off parts)."""
    rows = []
    for article in articles:
        for section in article.sections:
            rows.append({k: s and s.line for k, s in section.cells.items()})
            for row in section.rows:
                rows.append({k: b and b.line for k, b in row.cells.items()})
                rows.append({k: [b.line for b in v] for k, v in row.extra.items()})
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    corpus = read_corpus(args.path)
    seconds, articles = best_of(args.repeat, lambda: align_all(corpus))
    print(f"articles: {len(articles)}  digest: {layout(articles)}")
    print(f"best of {args.repeat}: {seconds:.3f} s")


if __name__ == "__main__":
    main()
